// ZFH_BENCHMARK_RESULT lines (react-native-file-hash example app) anywhere in
// a log. Each line is one run: labels platform, engine, algorithm, size and
// run (1, 2, ... per repeated (platform, engine, algorithm, size)); samples
// samplesMs (ms). Results with an "error" are reported in the warnings. Sets
// of the example app's engines and platforms carry their display names as set
// metadata "labelNames" ({"engine": "Zig", ...}), which the matrix preset shows.
#include <fmt/format.h>
#include <map>

#include "benchreport/core/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

constexpr std::string_view kMarker = "ZFH_BENCHMARK_RESULT";

// Display names of the example app's label values (react-native-file-hash).
constexpr std::pair<std::string_view, std::string_view> kEngineNames[] = {
    {"native", "Native"},
    {"zig", "Zig"},
    {"zig-raw", "Zig raw (no fallback)"},
    {"zig-sha2", "Zig (-Dcpu=baseline+sha2)"},
};
constexpr std::pair<std::string_view, std::string_view> kPlatformNames[] = {{"android", "Android"}, {"ios", "iOS"}};

template <std::size_t N>
std::string_view known_name(const std::pair<std::string_view, std::string_view> (&names)[N], std::string_view value) {
  for (const auto& [key, name] : names) {
    if (key == value) return name;
  }
  return {};
}

// {"platform": "Android", "engine": "Zig"} for the labels with a known display name ("" when none).
std::string label_names(const Labels& labels) {
  Metadata names;
  for (const auto& [column, value] : labels) {
    const std::string_view name = column == "engine"     ? known_name(kEngineNames, value)
                                  : column == "platform" ? known_name(kPlatformNames, value)
                                                         : std::string_view();
    if (!name.empty()) names.emplace_back(column, json_string(name));
  }
  return names.empty() ? std::string() : json_object(names);
}

struct Result {
  std::string algorithm, error;
  std::vector<double> samples;
  Metadata metadata;
};

class ZfhLine {
 public:
  ZfhLine(const Source& line_source) : json_(line_source) {}

  // Parses the line's JSON; the line-level fields go to `line_metadata`.
  std::vector<Result> read(Labels& labels, Metadata& line_metadata) {
    const JsonPath top;
    std::vector<Result> results;
    std::string size_mib, size_bytes;
    json_.fields(json_.root_object(), top, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "platform" || key == "engine") {
        labels.emplace_back(std::string(key), std::string(json_.string(v, p)));
      } else if (key == "results") {
        json_.elements(json_.array(v, p), p,
                       [&](std::size_t, od::value r, const JsonPath& rp) { results.push_back(read_result(r, rp)); });
        return;
      } else {
        if (key == "sizeMiB") size_mib = json_number(json_.number(v, p));
        if (key == "sizeBytes") size_bytes = json_number(json_.number(v, p));
        if (key != "sizeMiB" && key != "sizeBytes") {
          line_metadata.emplace_back(std::string(key), json_.raw(v, p));
          return;
        }
        line_metadata.emplace_back(std::string(key), key == "sizeMiB" ? size_mib : size_bytes);
      }
    });
    json_.finish();
    for (const char* required : {"platform", "engine"}) {
      bool found = false;
      for (const auto& [k, v] : labels) found |= k == required;
      if (!found) json_.fail(top, fmt::format("missing \"{}\"", required));
    }
    if (size_mib.empty() && size_bytes.empty()) json_.fail(top, "missing \"sizeMiB\" or \"sizeBytes\"");
    labels.emplace_back("size", !size_mib.empty() ? size_mib + " MiB" : size_bytes + " B");
    return results;
  }

  [[noreturn]] void fail(const JsonPath& path, std::string_view what) { json_.fail(path, what); }

 private:
  Result read_result(od::value value, const JsonPath& path) {
    Result r;
    bool has_samples = false;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "algorithm") {
        r.algorithm = json_.string(v, p);
      } else if (key == "samplesMs") {
        json_.numbers(v, p, r.samples);
        has_samples = true;
      } else if (key == "error") {
        r.error = json_.is_null(v) ? std::string() : json_.raw(v, p);
      } else {
        r.metadata.emplace_back(std::string(key), json_.raw(v, p));
      }
    });
    if (r.algorithm.empty()) json_.fail(path, "missing \"algorithm\"");
    if (r.error.empty() && !has_samples) json_.fail(path, "missing \"samplesMs\" (and no \"error\")");
    if (r.error.empty() && r.samples.empty()) json_.fail(path.field("samplesMs"), "empty sample list");
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
      if (!(r.samples[i] >= 0))
        json_.fail(path.field("samplesMs").at(i), fmt::format("{} (expected milliseconds >= 0)", r.samples[i]));
    }
    return r;
  }

  JsonInput json_;
};

}  // namespace

Dataset read_zfh(const Source& source) {
  if (source.bytes.size() > source.options.max_file_size) {
    throw InputError(
        fmt::format("{}: {} bytes exceeds the input size limit of {} bytes (raise ReadOptions::max_file_size)",
                    source.name, source.bytes.size(), source.options.max_file_size));
  }
  Dataset dataset;
  std::map<Labels, std::size_t> repeats;  // (platform, engine, algorithm, size) → runs seen
  std::vector<std::string> errors;
  std::size_t pos = 0, line_no = 0, lines = 0;
  const std::string_view text = source.bytes;
  while (pos < text.size()) {
    const auto end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    ++line_no;
    pos = end + 1;
    const auto marker = line.find(kMarker);
    if (marker == std::string_view::npos) continue;
    ++lines;
    std::string_view payload = line.substr(marker + kMarker.size());
    const std::string line_name = fmt::format("{}:{}", source.name, line_no);
    const Source line_source{line_name, payload, source.options, {}, false, {}};
    ZfhLine parser(line_source);
    Labels labels;
    Metadata line_metadata;
    const auto results = parser.read(labels, line_metadata);
    dataset.add_run(line_name, json_object(line_metadata));
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Result& r = results[i];
      Labels set_labels = labels;
      set_labels.insert(set_labels.begin() + 2, {"algorithm", r.algorithm});
      if (!r.error.empty()) {
        errors.push_back(fmt::format("{} {}: {}", line_name, format_labels(set_labels), r.error));
        if (r.samples.empty()) continue;
      }
      const std::size_t run = ++repeats[set_labels];
      set_labels.emplace_back("run", std::to_string(run));
      SetOptions options;
      options.run = line_name;
      options.metadata = r.metadata;
      if (!r.error.empty()) options.metadata.emplace_back("error", r.error);
      if (std::string names = label_names(labels); !names.empty())
        options.metadata.emplace_back("labelNames", std::move(names));
      try {
        dataset.add_set(set_labels, r.samples, parse_unit("ms"), options);
      } catch (const InputError& e) {
        parser.fail(JsonPath{}.field("results").at(i), e.what());
      }
    }
  }
  if (lines == 0) throw InputError(fmt::format("{}: no {} lines", source.name, kMarker));
  if (!errors.empty()) {
    dataset.warn(
        fmt::format("{}: {} results reported an error: {}", source.name, errors.size(), fmt::join(errors, "; ")));
  }
  return dataset;
}

}  // namespace benchreport::io

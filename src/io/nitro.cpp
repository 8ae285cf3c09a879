// Nitro raw result JSON, schema v2: one file per measured app process.
// Labels: platform, revision (base/head), process and pair (N), order (AB/BA),
// benchmark (metric id), implementation, family, operation. Samples:
// samplesNsPerOp (ns). suite.json ({baseSuiteHash, headSuiteHash}) becomes a
// run with no sets. Everything else of the file is the run's metadata.
#include <fmt/format.h>
#include <cctype>
#include <regex>
#include <set>

#include "benchreport/core/error.hpp"
#include "benchreport/io/nitro.hpp"
#include "benchreport/data/label_roles.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

struct ProcessId {
  std::string revision;
  std::string process;
};

// "android-base-1" → (base, 1); failing that the file name "head-3.json" or
// a case folder "head-3-cases/case-7.json".
std::optional<ProcessId> parse_process(std::string_view text) {
  static const std::regex pattern(R"((?:^|[-/\\])(base|head)-(\d+)(?:-cases)?(?:$|[-/\\.]))");
  std::cmatch m;
  if (!std::regex_search(text.data(), text.data() + text.size(), m, pattern)) return std::nullopt;
  return ProcessId{m[1].str(), m[2].str()};
}

// Interleaving of the original tool: pairs 1..4 run AB, BA, BA, AB.
std::string order_for(std::string_view process, std::optional<bool> reverse) {
  if (reverse) return *reverse ? "BA" : "AB";
  static constexpr const char* kPattern[] = {"AB", "BA", "BA", "AB"};
  const auto n = std::stoul(std::string(process));
  return kPattern[(n + 3) % 4];
}

struct Metric {
  std::string id, family, implementation;
  std::vector<double> samples;
  Metadata metadata;
};

class NitroReader {
 public:
  explicit NitroReader(const Source& source) : json_(source) {}

  Dataset read() {
    const JsonPath top;
    Metadata file;
    std::vector<Metric> metrics;
    std::optional<std::int64_t> schema;
    bool suite_file = false;
    json_.fields(json_.root_object(), top, [&](std::string_view key, od::value value, const JsonPath& path) {
      if (key == "schemaVersion") {
        schema = json_.integer(value, path);
        file.emplace_back(std::string(key), std::to_string(*schema));
      } else if (key == "metrics") {
        json_.elements(json_.array(value, path), path,
                       [&](std::size_t, od::value m, const JsonPath& p) { metrics.push_back(read_metric(m, p)); });
      } else if (key == "runner") {
        file.emplace_back(std::string(key), read_runner(value, path));
      } else if (key == "configuration") {
        file.emplace_back(std::string(key), read_configuration(value, path));
      } else {
        suite_file |= key == "baseSuiteHash" || key == "headSuiteHash";
        file.emplace_back(std::string(key), json_.raw(value, path));
      }
    });
    json_.finish();
    Dataset dataset;
    dataset.add_run(json_.name(), json_object(file));
    if (suite_file && !schema) return dataset;
    if (schema != 2)
      json_.fail(top.field("schemaVersion"),
                 schema ? fmt::format("{} is not supported (expected 2)", *schema) : "missing (expected 2)");
    if (platform_.empty())
      json_.fail(top.field("configuration").field("platform"), "missing (expected \"android\" or \"ios\")");
    const auto process = process_id();
    std::set<std::string> ids;
    const JsonPath metrics_path = top.field("metrics");
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      Metric& m = metrics[i];
      const JsonPath path = metrics_path.at(i);
      if (!ids.insert(m.id).second) json_.fail(path.field("id"), fmt::format("duplicate metric id \"{}\"", m.id));
      if (sample_count_ && m.samples.size() != static_cast<std::size_t>(*sample_count_)) {
        json_.fail(path.field("samplesNsPerOp"),
                   fmt::format("{} samples (expected runner.sampleCount = {})", m.samples.size(), *sample_count_));
      }
      add_metric(dataset, m, process, path);
    }
    if (metrics.empty()) dataset.warn(fmt::format("{}: no metrics in this process file", json_.name()));
    return dataset;
  }

 private:
  ProcessId process_id() {
    if (auto from_run = parse_process(run_id_)) return *from_run;
    if (auto from_name = parse_process(json_.name())) return *from_name;
    json_.fail(JsonPath{}.field("configuration").field("runId"),
               fmt::format("cannot tell base/head and the process number from runId \"{}\" or the file name "
                           "(expected e.g. \"android-base-1\" or base-1.json)",
                           run_id_));
  }

  std::string read_runner(od::value value, const JsonPath& path) {
    Metadata members;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "sampleCount") {
        sample_count_ = json_.integer(v, p);
        members.emplace_back(std::string(key), std::to_string(*sample_count_));
      } else {
        members.emplace_back(std::string(key), json_.raw(v, p));
      }
    });
    return json_object(members);
  }

  std::string read_configuration(od::value value, const JsonPath& path) {
    Metadata members;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "platform") {
        platform_ = json_.string(v, p);
        members.emplace_back(std::string(key), json_string(platform_));
      } else if (key == "runId") {
        run_id_ = json_.string(v, p);
        members.emplace_back(std::string(key), json_string(run_id_));
      } else if (key == "reverse") {
        reverse_ = json_.boolean(v, p);
        members.emplace_back(std::string(key), *reverse_ ? "true" : "false");
      } else {
        members.emplace_back(std::string(key), json_.raw(v, p));
      }
    });
    return json_object(members);
  }

  Metric read_metric(od::value value, const JsonPath& path) {
    Metric m;
    bool has_samples = false;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "id") {
        m.id = json_.string(v, p);
      } else if (key == "family") {
        m.family = json_.string(v, p);
      } else if (key == "implementation") {
        m.implementation = json_.string(v, p);
      } else if (key == "samplesNsPerOp") {
        json_.numbers(v, p, m.samples);
        has_samples = true;
        for (std::size_t i = 0; i < m.samples.size(); ++i) {
          if (!(m.samples[i] > 0 && m.samples[i] <= 1e12)) {
            json_.fail(p.at(i), fmt::format("{} is out of range (expected ns per op in (0, 1e12])", m.samples[i]));
          }
        }
      } else {
        m.metadata.emplace_back(std::string(key), json_.raw(v, p));  // iterations, chunkIterations, version, checksum
      }
    });
    if (m.id.empty()) json_.fail(path, "missing \"id\"");
    if (!has_samples) json_.fail(path, "missing \"samplesNsPerOp\"");
    if (m.samples.empty()) json_.fail(path.field("samplesNsPerOp"), "empty sample list");
    return m;
  }

  void add_metric(Dataset& dataset, const Metric& m, const ProcessId& process, const JsonPath& path) {
    // id = implementation/family/operation
    const auto first = m.id.find('/');
    const auto last = m.id.rfind('/');
    const std::string operation = last == std::string::npos ? m.id : m.id.substr(last + 1);
    const std::string implementation = !m.implementation.empty() ? m.implementation : m.id.substr(0, first);
    const std::string family = !m.family.empty() || first == last ? m.family : m.id.substr(first + 1, last - first - 1);
    const Labels labels{{"platform", platform_},
                        {std::string(kSideLabel), process.revision},
                        {std::string(kProcessLabel), process.process},
                        {std::string(kPairLabel), process.process},
                        {std::string(kOrderLabel), order_for(process.process, reverse_)},
                        {"benchmark", m.id},
                        {"implementation", implementation},
                        {"family", family},
                        {"operation", operation}};
    SetOptions options;
    options.run = json_.name();
    options.metadata = m.metadata;
    try {
      dataset.add_set(labels, m.samples, parse_unit("ns"), options);
    } catch (const InputError& e) {
      json_.fail(path, e.what());
    }
  }

  JsonInput json_;
  std::string platform_, run_id_;
  std::optional<bool> reverse_;
  std::optional<std::int64_t> sample_count_;
};

}  // namespace

Dataset read_nitro(const Source& source) { return NitroReader(source).read(); }

}  // namespace benchreport::io

namespace benchreport {
namespace {

std::string camel_call(std::string_view slug) {
  std::string out;
  bool upper = false;
  for (const char c : slug) {
    if (c == '-' || c == '_') {
      upper = !out.empty();
      continue;
    }
    out.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    upper = false;
  }
  return out + "()";
}

// The language of a Nitro implementation id; "" for anything else.
std::string implementation_name(std::string_view impl, std::string_view platform) {
  if (impl == "javascript") return "JavaScript";
  if (impl == "turbo-module") return "TurboModule";
  if (impl == "nitro-cpp") return "C++";
  if (impl == "nitro-platform") {
    if (platform == "ios") return "Swift";
    if (platform == "android") return "Kotlin";
    return "Platform";
  }
  return {};
}

}  // namespace

Comparability nitro_comparability() {
  return {{"suiteHash", "device", "osVersion", "architecture", "toolchain", "warmupCount", "sampleCount"},
          {"chunkIterations"},
          {nitro_suite_declaration()},
          {"commitSha"}};
}

std::vector<std::string> nitro_section_order() { return {"ios", "android"}; }

std::map<std::string, std::string> nitro_section_titles() { return {{"ios", "iOS"}, {"android", "Android"}}; }

std::string nitro_case_name(std::string_view id, std::string_view platform, std::string_view display_name) {
  const auto first = id.find('/');
  const auto last = id.rfind('/');
  // Only Nitro ids (implementation/group/name with a known implementation) are reworded:
  // "BM_Sort/1024/8" from Google Benchmark stays as it is.
  const std::string language =
      first == std::string_view::npos ? std::string() : implementation_name(id.substr(0, first), platform);
  if (first == last || language.empty()) return std::string(display_name.empty() ? id : display_name);
  const std::string call = display_name.empty() ? camel_call(id.substr(last + 1)) : std::string(display_name);
  return fmt::format("{} {}", language, call);
}

}  // namespace benchreport

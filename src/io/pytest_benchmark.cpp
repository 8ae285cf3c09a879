// pytest-benchmark JSON (--benchmark-json): one set per benchmark; samples are
// the raw per-round times in stats.data (seconds), written only with
// --benchmark-save-data. Labels: benchmark (name), group, one per param.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "benchreport/core/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

class PytestBenchmarkReader {
 public:
  explicit PytestBenchmarkReader(const Source& source) : json_(source) {}

  Dataset read() {
    const JsonPath top;
    bool found = false;
    Metadata file_metadata;
    dataset_.add_run(json_.name(), "{}");
    json_.fields(json_.root_object(), top, [&](std::string_view key, od::value value, const JsonPath& path) {
      if (key == "benchmarks") {
        found = true;
        json_.elements(json_.array(value, path), path,
                       [&](std::size_t, od::value b, const JsonPath& p) { read_benchmark(b, p); });
      } else {
        file_metadata.emplace_back(std::string(key), json_.raw(value, path));  // machine_info, commit_info, ...
      }
    });
    json_.finish();
    if (!found) json_.fail(top, "missing \"benchmarks\" (expected pytest-benchmark JSON)");
    dataset_.set_run_metadata(json_.name(), json_object(file_metadata));
    return std::move(dataset_);
  }

 private:
  void read_params(od::value value, const JsonPath& path, Labels& labels) {
    if (json_.is_null(value)) return;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      std::string name(key);
      if (name == "benchmark" || name == "group") name = "param." + name;
      od::json_type type = od::json_type::null;
      json_.check(v.type().get(type), p, "a value");
      labels.emplace_back(std::move(name),
                          type == od::json_type::string ? std::string(json_.string(v, p)) : json_.raw(v, p));
    });
  }

  void read_stats(od::value value, const JsonPath& path, Metadata& metadata, bool& has_data) {
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "data") {
        json_.numbers(v, p, values_);
        has_data = true;
      } else {
        metadata.emplace_back("stats." + std::string(key), json_.raw(v, p));
      }
    });
  }

  void read_benchmark(od::value value, const JsonPath& path) {
    std::string name, group;
    Labels params;
    Metadata metadata;
    bool has_data = false;
    values_.clear();
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "name")
        name = json_.string(v, p);
      else if (key == "group")
        group = json_.is_null(v) ? std::string() : std::string(json_.string(v, p));
      else if (key == "params")
        read_params(v, p, params);
      else if (key == "stats")
        read_stats(v, p, metadata, has_data);
      else
        metadata.emplace_back(std::string(key), json_.raw(v, p));
    });
    if (name.empty()) json_.fail(path, "missing \"name\"");
    if (!has_data) {
      json_.fail(path, fmt::format("benchmark \"{}\" has no raw samples (stats.data); rerun pytest with "
                                   "--benchmark-save-data (or --benchmark-json with --benchmark-save-data)",
                                   name));
    }
    if (values_.empty()) json_.fail(path.field("stats").field("data"), "empty sample list");
    // A member literally named "stats.q1" would collide with the flattened stats.q1
    // (sorted keys: linear-logarithmic for hostile files with many members).
    std::vector<std::string_view> keys;
    keys.reserve(metadata.size());
    for (const auto& entry : metadata) keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end());
    if (const auto twice = std::adjacent_find(keys.begin(), keys.end()); twice != keys.end()) {
      json_.fail(path, fmt::format("member \"{}\" collides with the member of \"stats\" of that name", *twice));
    }
    Labels labels{{"benchmark", name}};
    if (!group.empty()) labels.emplace_back("group", group);
    labels.insert(labels.end(), params.begin(), params.end());
    SetOptions options;
    options.run = json_.name();
    options.metadata = std::move(metadata);
    try {
      dataset_.add_set(labels, values_, parse_unit("s"), options);
    } catch (const InputError& e) {
      json_.fail(path, e.what());
    }
  }

  JsonInput json_;
  Dataset dataset_;
  std::vector<double> values_;
};

}  // namespace

Dataset read_pytest_benchmark(const Source& source) { return PytestBenchmarkReader(source).read(); }

}  // namespace benchreport::io

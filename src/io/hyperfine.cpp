// hyperfine JSON (--export-json): one set per result; samples = "times"
// (seconds, one per run); labels benchmark = command plus one label per
// scanned parameter; summary numbers, exit codes and memory go to metadata.
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

class HyperfineReader {
 public:
  explicit HyperfineReader(const Source& source) : json_(source) {}

  Dataset read() {
    const JsonPath top;
    bool has_results = false;
    Metadata extra;
    dataset_.add_run(json_.name(), "{}");
    json_.fields(json_.root_object(), top, [&](std::string_view key, od::value value, const JsonPath& path) {
      if (key == "results") {
        has_results = true;
        json_.elements(json_.array(value, path), path,
                       [&](std::size_t, od::value r, const JsonPath& p) { read_result(r, p); });
      } else {
        extra.emplace_back(std::string(key), json_.raw(value, path));
      }
    });
    json_.finish();
    if (!has_results) json_.fail(top, "missing \"results\" (expected hyperfine --export-json output)");
    if (!extra.empty()) dataset_.set_run_metadata(json_.name(), json_object(extra));
    return std::move(dataset_);
  }

 private:
  void read_result(od::value value, const JsonPath& path) {
    std::string command;
    bool has_command = false, has_times = false;
    Labels parameters;
    Metadata metadata;
    times_.clear();
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "command") {
        command = json_.string(v, p);
        has_command = true;
      } else if (key == "times") {
        json_.numbers(v, p, times_);
        has_times = true;
      } else if (key == "parameters") {
        if (json_.is_null(v)) return;
        json_.fields(json_.object(v, p), p, [&](std::string_view name, od::value pv, const JsonPath& pp) {
          std::string label(name);
          if (label == "benchmark" || label == "metric") label = "param." + label;
          parameters.emplace_back(std::move(label), std::string(json_.string(pv, pp)));
        });
      } else {
        metadata.emplace_back(std::string(key), json_.raw(v, p));
      }
    });
    if (!has_command) json_.fail(path, "missing \"command\"");
    if (!has_times) json_.fail(path, "missing \"times\" (per-run times; hyperfine writes them with --export-json)");
    if (times_.empty()) json_.fail(path.field("times"), "empty sample list (expected at least one run)");
    for (std::size_t i = 0; i < times_.size(); ++i) {
      if (times_[i] < 0)
        json_.fail(path.field("times").at(i),
                   fmt::format("{} is negative (expected a time in seconds >= 0)", times_[i]));
    }
    Labels labels{{"benchmark", command}, {"metric", "time"}};
    labels.insert(labels.end(), parameters.begin(), parameters.end());
    SetOptions options;
    options.run = json_.name();
    options.metadata = std::move(metadata);
    try {
      dataset_.add_set(labels, times_, parse_unit("s"), options);
    } catch (const InputError& e) {
      json_.fail(path, e.what());
    }
  }

  JsonInput json_;
  Dataset dataset_;
  std::vector<double> times_;
};

}  // namespace

Dataset read_hyperfine(const Source& source) { return HyperfineReader(source).read(); }

}  // namespace benchreport::io

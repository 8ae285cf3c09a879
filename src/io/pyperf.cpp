// pyperf JSON ("version": "1.0"): one set per (benchmark, worker process);
// warmups are excluded from the samples (kept in metadata), calibration runs
// (warmups only) are counted in the warnings. The unit comes from metadata.
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

Unit pyperf_unit(std::string_view unit) {
  if (unit == "second") return parse_unit("s");
  if (unit == "byte") return parse_unit("B");
  if (unit == "integer") return parse_unit("count");
  return parse_unit(unit);  // anything else must be a unit benchreport knows
}

// Value of a string member in a metadata list, or "".
std::string find_string(const Metadata& metadata, std::string_view key) {
  for (const auto& [k, v] : metadata) {
    if (k == key && v.size() >= 2 && v.front() == '"') return v.substr(1, v.size() - 2);
  }
  return {};
}

class PyperfReader {
 public:
  explicit PyperfReader(const Source& source) : json_(source) {}

  Dataset read() {
    const JsonPath top;
    Metadata file_metadata;
    bool found = false;
    dataset_.add_run(json_.name(), "{}");
    json_.fields(json_.root_object(), top, [&](std::string_view key, od::value value, const JsonPath& path) {
      if (key == "metadata") {
        read_metadata(value, path, common_);
      } else if (key == "benchmarks") {
        found = true;
        json_.elements(json_.array(value, path), path, [&](std::size_t, od::value b, const JsonPath& p) { read_benchmark(b, p); });
      } else if (key == "runs") {  // a single benchmark at top level
        found = true;
        read_runs(value, path, common_);
      } else {
        file_metadata.emplace_back(std::string(key), json_.raw(value, path));
      }
    });
    json_.finish();
    if (!found) json_.fail(top, "missing \"benchmarks\" (expected pyperf JSON)");
    file_metadata.emplace_back("metadata", json_object(common_));
    dataset_.set_run_metadata(json_.name(), json_object(file_metadata));
    for (auto& pending : pending_) add(pending);
    if (calibration_runs_ > 0) {
      dataset_.warn(fmt::format("{}: {} calibration runs (warmups only, no values) are not samples", json_.name(), calibration_runs_));
    }
    return std::move(dataset_);
  }

 private:
  void read_metadata(od::value value, const JsonPath& path, Metadata& out) {
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      out.emplace_back(std::string(key), json_.raw(v, p));
    });
  }

  void read_benchmark(od::value value, const JsonPath& path) {
    Metadata metadata = common_;
    bool has_runs = false;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "metadata") {
        read_metadata(v, p, metadata);
      } else if (key == "runs") {
        has_runs = true;
        read_runs(v, p, metadata);
      } else {
        json_.fail(p, "unknown member (expected metadata, runs)");
      }
    });
    if (!has_runs) json_.fail(path, "missing \"runs\"");
  }

  // A run's samples wait here until the file's common metadata (which may
  // come after "benchmarks") tells the unit.
  struct PendingSet {
    std::string name, unit, path;
    std::size_t process;
    std::vector<double> values;
    Metadata metadata;
  };

  void read_runs(od::value value, const JsonPath& path, const Metadata& metadata) {
    const std::string name = find_string(metadata, "name");
    if (name.empty()) json_.fail(path, "no benchmark \"name\" in the metadata before \"runs\"");
    const std::string unit = find_string(metadata, "unit");
    std::size_t process = 0;
    json_.elements(json_.array(value, path), path, [&](std::size_t, od::value run, const JsonPath& p) {
      if (read_run(run, p, name, unit, process + 1)) ++process;
    });
  }

  bool read_run(od::value value, const JsonPath& path, const std::string& name, const std::string& unit, std::size_t process) {
    PendingSet pending{name, unit, path.str(), process, {}, {}};
    bool has_values = false;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "values") {
        json_.numbers(v, p, pending.values);
        has_values = true;
      } else {
        pending.metadata.emplace_back(std::string(key), json_.raw(v, p));  // metadata, warmups
      }
    });
    if (!has_values || pending.values.empty()) {
      ++calibration_runs_;
      return false;
    }
    pending_.push_back(std::move(pending));
    return true;
  }

  void add(PendingSet& pending) {
    const std::string common_unit = find_string(common_, "unit");
    const std::string unit_name = !pending.unit.empty() ? pending.unit : !common_unit.empty() ? common_unit : "second";
    SetOptions options;
    options.run = json_.name();
    options.metadata = std::move(pending.metadata);
    try {
      dataset_.add_set({{"benchmark", pending.name}, {"process", std::to_string(pending.process)}}, pending.values,
                       pyperf_unit(unit_name), options);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}: {}", json_.name(), pending.path, e.what()));
    }
  }

  JsonInput json_;
  Dataset dataset_;
  Metadata common_;
  std::vector<PendingSet> pending_;
  std::size_t calibration_runs_ = 0;
};

}  // namespace

Dataset read_pyperf(const Source& source) { return PyperfReader(source).read(); }

}  // namespace benchreport::io

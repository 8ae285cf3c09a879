// pyperf JSON ("version": "1.0"): one set per (benchmark, worker process);
// warmups are excluded from the samples (kept in metadata), calibration runs
// (warmups only) are counted in the warnings. The name and unit come from the
// benchmark's metadata, else the file's (`pyperf timeit -o` keeps the name
// there), whatever the order of the members.
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/data/label_roles.hpp"
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

  // Members may come in any order (pyperf writes them sorted, so a
  // `timeit -o` file's benchmark name, in the file-level "metadata", comes
  // after "benchmarks"): the runs wait until the whole file is read.
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
        json_.elements(json_.array(value, path), path,
                       [&](std::size_t, od::value b, const JsonPath& p) { read_benchmark(b, p); });
      } else if (key == "runs") {  // a single benchmark at top level
        found = true;
        read_runs(value, path, benchmarks_.emplace_back(PendingBenchmark{path.str(), {}, {}}));
      } else {
        file_metadata.emplace_back(std::string(key), json_.raw(value, path));
      }
    });
    json_.finish();
    if (!found) json_.fail(top, "missing \"benchmarks\" (expected pyperf JSON)");
    file_metadata.emplace_back("metadata", json_object(common_));
    dataset_.set_run_metadata(json_.name(), json_object(file_metadata));
    for (auto& benchmark : benchmarks_) add(benchmark);
    if (calibration_runs_ > 0) {
      dataset_.note(fmt::format("{}: {} calibration runs (warmups only, no values) are not samples", json_.name(),
                                calibration_runs_));
    }
    return std::move(dataset_);
  }

 private:
  // One worker process's values (a run with values).
  struct PendingRun {
    std::string path;
    std::vector<double> values;
    Metadata metadata;
  };
  struct PendingBenchmark {
    std::string path;
    Metadata metadata;  // the benchmark's own; the file's common metadata fills in the rest
    std::vector<PendingRun> runs;
  };

  void read_metadata(od::value value, const JsonPath& path, Metadata& out) {
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      out.emplace_back(std::string(key), json_.raw(v, p));
    });
  }

  void read_benchmark(od::value value, const JsonPath& path) {
    PendingBenchmark& benchmark = benchmarks_.emplace_back(PendingBenchmark{path.str(), {}, {}});
    bool has_runs = false;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "metadata") {
        read_metadata(v, p, benchmark.metadata);
      } else if (key == "runs") {
        has_runs = true;
        read_runs(v, p, benchmark);
      } else {
        json_.fail(p, "unknown member (expected metadata, runs)");
      }
    });
    if (!has_runs) json_.fail(path, "missing \"runs\"");
  }

  void read_runs(od::value value, const JsonPath& path, PendingBenchmark& benchmark) {
    json_.elements(json_.array(value, path), path,
                   [&](std::size_t, od::value run, const JsonPath& p) { read_run(run, p, benchmark); });
  }

  void read_run(od::value value, const JsonPath& path, PendingBenchmark& benchmark) {
    PendingRun run{path.str(), {}, {}};
    bool has_values = false;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "values") {
        json_.numbers(v, p, run.values);
        has_values = true;
      } else {
        run.metadata.emplace_back(std::string(key), json_.raw(v, p));  // metadata, warmups
      }
    });
    if (!has_values || run.values.empty()) {
      ++calibration_runs_;
      return;
    }
    benchmark.runs.push_back(std::move(run));
  }

  // A metadata string of the benchmark, else of the file, else "".
  std::string lookup(const PendingBenchmark& benchmark, std::string_view key) const {
    std::string value = find_string(benchmark.metadata, key);
    return value.empty() ? find_string(common_, key) : value;
  }

  void add(PendingBenchmark& benchmark) {
    const std::string name = lookup(benchmark, "name");
    if (name.empty()) {
      throw InputError(fmt::format("{}: {}: no benchmark \"name\" in the benchmark's metadata or the file's",
                                   json_.name(), benchmark.path));
    }
    const std::string unit = lookup(benchmark, "unit");
    const Unit parsed_unit = read_unit(benchmark, unit.empty() ? "second" : unit);
    std::size_t process = 0;
    for (auto& run : benchmark.runs) {
      SetOptions options;
      options.run = json_.name();
      options.metadata = std::move(run.metadata);
      try {
        dataset_.add_set({{"benchmark", name}, {std::string(kProcessLabel), std::to_string(++process)}}, run.values,
                         parsed_unit, options);
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}: {}", json_.name(), run.path, e.what()));
      }
    }
  }

  Unit read_unit(const PendingBenchmark& benchmark, const std::string& unit) const {
    try {
      return pyperf_unit(unit);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}: metadata \"unit\": {}", json_.name(), benchmark.path, e.what()));
    }
  }

  JsonInput json_;
  Dataset dataset_;
  Metadata common_;
  std::vector<PendingBenchmark> benchmarks_;
  std::size_t calibration_runs_ = 0;
};

}  // namespace

Dataset read_pyperf(const Source& source) { return PyperfReader(source).read(); }

}  // namespace benchreport::io

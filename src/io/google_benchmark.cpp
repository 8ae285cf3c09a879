// Google Benchmark JSON (--benchmark_out_format=json).
// One set per (run_name, metric): real_time, cpu_time and every counter;
// samples are the iteration rows in document (repetition) order. Aggregate
// rows (mean, median, stddev, cv, BigO, RMS) never become samples: they are
// kept in the set metadata under "aggregates" and counted in the warnings.
#include <cmath>
#include <fmt/format.h>
#include <unordered_map>

#include "benchreport/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

// Fields with a fixed meaning; every other number is a counter.
bool is_structural(std::string_view key) {
  static constexpr std::string_view kKeys[] = {
      "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions", "repetition_index",
      "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name", "aggregate_unit",
      "error_occurred", "error_message", "label", "big_o", "real_coefficient", "cpu_coefficient", "rms"};
  for (auto k : kKeys) {
    if (k == key) return true;
  }
  return false;
}

std::string_view counter_unit(std::string_view counter) {
  if (counter == "bytes_per_second") return "B/s";
  if (counter == "items_per_second") return "items/s";
  return "1";
}

// One element of "benchmarks", parsed whatever its member order.
struct Entry {
  // Views into the document (valid while it is parsed): no copy per row.
  std::string_view name, run_name, run_type = "iteration", time_unit = "ns", aggregate_name, error_message;
  bool error = false;
  std::string_view iterations = "null";
  double real_time = NAN, cpu_time = NAN;
  std::vector<std::pair<std::string_view, double>> counters;
  // Everything else, verbatim: views into the document, copied only for the
  // row whose values a series keeps (its first).
  std::vector<std::pair<std::string_view, std::string_view>> other;
};

// Samples of one run_name, accumulated across its repetition rows.
struct Series {
  std::string run_name, time_unit;
  std::vector<double> real_time, cpu_time;
  std::vector<std::pair<std::string, std::vector<double>>> counters;
  std::vector<std::string> iterations;
  std::vector<std::pair<std::string, Metadata>> aggregates;  // metric → (aggregate → value)
  Metadata other;
};

class GoogleBenchmarkReader {
 public:
  explicit GoogleBenchmarkReader(const Source& source) : json_(source) {}

  Dataset read() {
    const JsonPath top;
    bool has_benchmarks = false;
    std::string context = "{}";
    Metadata extra;
    json_.fields(json_.root_object(), top, [&](std::string_view key, od::value& value, const JsonPath& path) {
      if (key == "context") {
        context = json_.raw_object(value, path);
      } else if (key == "benchmarks") {
        has_benchmarks = true;
        json_.elements(json_.array(value, path), path, [&](std::size_t, od::value entry, const JsonPath& p) {
          parse_entry(entry, p, entry_);
          add(entry_, p);
        });
      } else {
        extra.emplace_back(std::string(key), json_.raw(value, path));
      }
    });
    json_.finish();
    if (!has_benchmarks) json_.fail(top, "missing \"benchmarks\" (expected Google Benchmark JSON output)");
    Dataset dataset;
    extra.insert(extra.begin(), {"context", context});
    dataset.add_run(json_.name(), json_object(extra));
    for (const auto& series : series_) emit(series, dataset);
    report(dataset);
    return dataset;
  }

 private:
  // Fills `e` (one Entry reused for every row, so its vectors keep their capacity).
  void parse_entry(od::value value, const JsonPath& path, Entry& e) {
    e.name = e.run_name = e.aggregate_name = e.error_message = {};
    e.run_type = "iteration";
    e.time_unit = "ns";
    e.error = false;
    e.iterations = "null";
    e.real_time = e.cpu_time = NAN;
    e.counters.clear();
    e.other.clear();
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value& v, const JsonPath& p) {
      if (key == "name") e.name = json_.string(v, p);
      else if (key == "run_name") e.run_name = json_.string(v, p);
      else if (key == "run_type") e.run_type = json_.string(v, p);
      else if (key == "time_unit") e.time_unit = json_.string(v, p);
      else if (key == "aggregate_name") e.aggregate_name = json_.string(v, p);
      else if (key == "error_occurred") e.error = json_.boolean(v, p);
      else if (key == "error_message") e.error_message = json_.string(v, p);
      else if (key == "iterations") e.iterations = json_.raw_view(v, p);
      else if (key == "real_time") e.real_time = json_.number(v, p);
      else if (key == "cpu_time") e.cpu_time = json_.number(v, p);
      else if (is_structural(key)) e.other.emplace_back(key, json_.raw_view(v, p));
      else {
        od::json_type type = od::json_type::null;
        json_.check(v.type().get(type), p, "a value");
        if (type == od::json_type::number) e.counters.emplace_back(key, json_.number(v, p));
        else e.other.emplace_back(key, json_.raw_view(v, p));
      }
    });
    if (e.name.empty()) json_.fail(path, "missing \"name\"");
    if (e.run_name.empty()) e.run_name = e.name;  // files written before run_name existed
  }

  Series& series_for(std::string_view run_name) {
    // Repetition rows of one benchmark usually follow each other: try the last series first.
    if (last_series_ < series_.size() && series_[last_series_].run_name == run_name) return series_[last_series_];
    auto [it, inserted] = series_index_.try_emplace(std::string(run_name), series_.size());
    if (inserted) series_.push_back(Series{std::string(run_name), {}, {}, {}, {}, {}, {}, {}});
    last_series_ = it->second;
    return series_[it->second];
  }

  double checked_time(double value, const JsonPath& path, std::string_view field) {
    if (std::isnan(value)) json_.fail(path, fmt::format("missing \"{}\"", field));
    if (!std::isfinite(value) || value < 0) json_.fail(path.field(field), fmt::format("{} is not a valid time (expected a finite number >= 0)", value));
    return value;
  }

  void add(const Entry& e, const JsonPath& path) {
    if (e.error) {
      errors_.push_back(fmt::format("{} ({})", e.name, e.error_message));
      return;
    }
    Series& s = series_for(e.run_name);
    if (e.run_type == "aggregate") {
      ++aggregate_rows_;
      add_aggregate(s, e);
      return;
    }
    if (e.run_type != "iteration") json_.fail(path.field("run_type"), fmt::format("\"{}\" (expected iteration or aggregate)", e.run_type));
    if (s.time_unit.empty()) {  // later rows must repeat it, so it is checked once per series
      bool known_unit = false;
      parse_unit_or_custom(e.time_unit, &known_unit);
      if (!known_unit) json_.fail(path.field("time_unit"), fmt::format("unknown time unit \"{}\" (expected ns, us, ms or s)", e.time_unit));
      s.time_unit = e.time_unit;
    }
    if (s.time_unit != e.time_unit) {
      json_.fail(path.field("time_unit"), fmt::format("\"{}\" differs from \"{}\" in earlier rows of {}", e.time_unit, s.time_unit, e.run_name));
    }
    s.real_time.push_back(checked_time(e.real_time, path, "real_time"));
    s.cpu_time.push_back(checked_time(e.cpu_time, path, "cpu_time"));
    s.iterations.push_back(compact_json(e.iterations));
    for (auto& [name, value] : e.counters) counter_samples(s, name).push_back(value);
    if (s.other.empty()) {
      for (const auto& [key, text] : e.other) s.other.emplace_back(std::string(key), compact_json(text));
    }
    json_.count_samples(2 + e.counters.size(), path);
  }

  static std::vector<double>& counter_samples(Series& s, std::string_view name) {
    for (auto& [counter, values] : s.counters) {
      if (counter == name) return values;
    }
    s.counters.emplace_back(std::string(name), std::vector<double>{});
    return s.counters.back().second;
  }

  static Metadata& aggregates_of(Series& s, const std::string& metric) {
    for (auto& [m, values] : s.aggregates) {
      if (m == metric) return values;
    }
    s.aggregates.emplace_back(metric, Metadata{});
    return s.aggregates.back().second;
  }

  static void add_aggregate(Series& s, const Entry& e) {
    const std::string name(e.aggregate_name.empty() ? e.name : e.aggregate_name);
    if (!std::isnan(e.real_time)) aggregates_of(s, "real_time").emplace_back(name, json_number(e.real_time));
    if (!std::isnan(e.cpu_time)) aggregates_of(s, "cpu_time").emplace_back(name, json_number(e.cpu_time));
    for (const auto& [counter, value] : e.counters) aggregates_of(s, std::string(counter)).emplace_back(name, json_number(value));
  }

  void emit_metric(const Series& s, Dataset& dataset, const std::string& metric, const std::vector<double>& samples,
                   std::string_view unit_symbol) {
    if (samples.empty()) return;
    Metadata metadata = s.other;
    metadata.emplace_back("iterations", fmt::format("[{}]", fmt::join(s.iterations, ",")));
    for (const auto& [m, values] : s.aggregates) {
      if (m == metric) metadata.emplace_back("aggregates", json_object(values));
    }
    SetOptions options;
    options.run = json_.name();
    options.metadata = std::move(metadata);
    const Labels labels{{"benchmark", s.run_name}, {"metric", metric}};
    dataset.add_set(labels, samples, parse_unit(unit_symbol), options);
  }

  void emit(const Series& s, Dataset& dataset) {
    if (s.real_time.empty()) {
      orphan_aggregates_ += s.aggregates.empty() ? 0 : 1;
      return;
    }
    emit_metric(s, dataset, "real_time", s.real_time, s.time_unit);
    emit_metric(s, dataset, "cpu_time", s.cpu_time, s.time_unit);
    for (const auto& [counter, values] : s.counters) {
      if (values.size() != s.real_time.size()) {
        dataset.warn(fmt::format("{}: counter {} of {} appears in {} of {} repetitions", json_.name(), counter, s.run_name,
                                 values.size(), s.real_time.size()));
      }
      emit_metric(s, dataset, counter, values, counter_unit(counter));
    }
  }

  void report(Dataset& dataset) {
    if (aggregate_rows_ > 0) {
      dataset.warn(fmt::format("{}: kept {} aggregate rows apart from the samples (set metadata \"aggregates\")",
                               json_.name(), aggregate_rows_));
    }
    if (orphan_aggregates_ > 0) {
      dataset.warn(fmt::format("{}: {} benchmarks have aggregate rows but no iteration rows (run with "
                               "--benchmark_report_aggregates_only=false to get samples); their aggregates are not read",
                               json_.name(), orphan_aggregates_));
    }
    if (!errors_.empty()) {
      dataset.warn(fmt::format("{}: {} benchmarks reported an error and have no samples: {}", json_.name(), errors_.size(),
                               fmt::join(errors_, "; ")));
    }
  }

  JsonInput json_;
  std::vector<Series> series_;
  std::unordered_map<std::string, std::size_t> series_index_;
  std::size_t last_series_ = static_cast<std::size_t>(-1);
  Entry entry_;
  std::size_t aggregate_rows_ = 0, orphan_aggregates_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace

Dataset read_google_benchmark(const Source& source) { return GoogleBenchmarkReader(source).read(); }

}  // namespace benchreport::io

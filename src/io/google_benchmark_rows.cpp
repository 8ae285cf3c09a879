// Google Benchmark rows → series: see google_benchmark_rows.hpp.
#include "google_benchmark_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "benchreport/core/error.hpp"

namespace benchreport::io {
namespace {

// The members of a row: those read into an Entry, the other fixed ones
// (kept verbatim), and anything else (a number is a counter).
enum class Member {
  name,
  run_name,
  run_type,
  time_unit,
  aggregate_name,
  error_occurred,
  error_message,
  iterations,
  real_time,
  cpu_time,
  fixed_number,
  fixed_string,
  unknown
};

// By length first: a row has a dozen members, and this runs for each.
Member member_of(std::string_view key) {
  const auto either = [&](std::string_view a, Member ma, std::string_view b = {}, Member mb = Member::unknown) {
    return key == a ? ma : key == b ? mb : Member::unknown;
  };
  switch (key.size()) {
    case 3: return either("rms", Member::fixed_number);
    case 4: return either("name", Member::name);
    case 5: return either("label", Member::fixed_string, "big_o", Member::fixed_string);
    case 7: return either("threads", Member::fixed_number);
    case 8:
      return key == "cpu_time" ? Member::cpu_time : either("run_name", Member::run_name, "run_type", Member::run_type);
    case 9: return either("real_time", Member::real_time, "time_unit", Member::time_unit);
    case 10: return either("iterations", Member::iterations);
    case 11: return either("repetitions", Member::fixed_number);
    case 12: return either("family_index", Member::fixed_number);
    case 13: return either("error_message", Member::error_message);
    case 14:
      return key == "aggregate_unit"
                 ? Member::fixed_string
                 : either("aggregate_name", Member::aggregate_name, "error_occurred", Member::error_occurred);
    case 15: return either("cpu_coefficient", Member::fixed_number);
    case 16: return either("repetition_index", Member::fixed_number, "real_coefficient", Member::fixed_number);
    case 25: return either("per_family_instance_index", Member::fixed_number);
    default: return Member::unknown;
  }
}

// The value's type, which must be `want` (the fields Google Benchmark writes with a fixed type).
void expect_type(JsonInput& json, od::value& v, const JsonPath& p, od::json_type want) {
  od::json_type type = od::json_type::null;
  json.check(v.type().get(type), p, "a value");
  if (type != want) json.fail(p, fmt::format("{} (expected {})", type_name(type), type_name(want)));
}

std::string_view counter_unit(std::string_view counter) {
  if (counter == "bytes_per_second") return "B/s";
  if (counter == "items_per_second") return "items/s";
  return "1";
}

}  // namespace

void GoogleBenchmarkRows::add_rows(JsonInput& json, od::value& rows, const JsonPath& path) {
  json.elements(json.array(rows, path), path, [&](std::size_t, od::value& row, const JsonPath& p) {
    parse_entry(json, row, p, entry_);
    add(json, entry_, p);
  });
}

bool GoogleBenchmarkRows::append(GoogleBenchmarkRows&& later) {
  for (auto& s : later.series_) {
    auto [it, inserted] = series_index_.try_emplace(s.run_name, series_.size());
    if (inserted) {
      series_.push_back(std::move(s));
    } else if (!merge_series(series_[it->second], std::move(s))) {
      return false;
    }
  }
  aggregate_rows_ += later.aggregate_rows_;
  samples_ += later.samples_;
  errors_.insert(errors_.end(), std::make_move_iterator(later.errors_.begin()),
                 std::make_move_iterator(later.errors_.end()));
  return true;
}

void GoogleBenchmarkRows::emit(Dataset& dataset, const std::string& name) const {
  std::vector<std::string> aggregates_only;
  for (const auto& s : series_) {
    // A family's BigO/RMS series has no iteration rows by nature: not an orphan.
    if (!s.real_time.empty())
      emit_series(s, dataset, name, family_complexity(s));
    else if (!s.aggregates.empty())
      aggregates_only.push_back(s.run_name);
  }
  report(dataset, name, aggregates_only);
}

void GoogleBenchmarkRows::parse_entry(JsonInput& json, od::value& value, const JsonPath& path, Entry& e) {
  e.name = e.run_name = e.aggregate_name = e.error_message = {};
  e.run_type = "iteration";
  e.time_unit = "ns";
  e.error = false;
  e.iterations = "null";
  e.real_time = e.cpu_time = NAN;
  e.counters.clear();
  e.other.clear();
  json.fields(json.object(value, path), path, [&](std::string_view key, od::value& v, const JsonPath& p) {
    switch (member_of(key)) {
      case Member::name: e.name = json.string(v, p); break;
      case Member::run_name: e.run_name = json.string(v, p); break;
      case Member::run_type: e.run_type = json.string(v, p); break;
      case Member::time_unit: e.time_unit = json.string(v, p); break;
      case Member::aggregate_name: e.aggregate_name = json.string(v, p); break;
      case Member::error_occurred: e.error = json.boolean(v, p); break;
      case Member::error_message: e.error_message = json.string(v, p); break;
      case Member::iterations:
        expect_type(json, v, p, od::json_type::number);
        e.iterations = json.raw_view(v, p);
        break;
      case Member::real_time: e.real_time = json.number(v, p); break;
      case Member::cpu_time: e.cpu_time = json.number(v, p); break;
      case Member::fixed_number:
        expect_type(json, v, p, od::json_type::number);
        e.other.emplace_back(key, json.raw_view(v, p));
        break;
      case Member::fixed_string:
        expect_type(json, v, p, od::json_type::string);
        e.other.emplace_back(key, json.raw_view(v, p));
        break;
      case Member::unknown: {
        od::json_type type = od::json_type::null;
        json.check(v.type().get(type), p, "a value");
        if (type == od::json_type::number)
          e.counters.emplace_back(key, json.number(v, p));
        else
          e.other.emplace_back(key, json.raw_view(v, p));
      }
    }
  });
  if (e.name.empty()) json.fail(path, "missing \"name\"");
  if (e.run_name.empty()) e.run_name = e.name;  // files written before run_name existed
}

GoogleBenchmarkRows::Series& GoogleBenchmarkRows::series_for(std::string_view run_name) {
  // Repetition rows of one benchmark usually follow each other: try the last series first.
  if (last_series_ < series_.size() && series_[last_series_].run_name == run_name) return series_[last_series_];
  auto [it, inserted] = series_index_.try_emplace(std::string(run_name), series_.size());
  if (inserted) series_.push_back(Series{std::string(run_name), {}, {}, {}, {}, {}, {}, {}, {}});
  last_series_ = it->second;
  return series_[it->second];
}

double GoogleBenchmarkRows::checked_time(JsonInput& json, double value, const JsonPath& path, std::string_view field) {
  if (std::isnan(value)) json.fail(path, fmt::format("missing \"{}\"", field));
  if (!std::isfinite(value) || value < 0)
    json.fail(path.field(field), fmt::format("{} is not a valid time (expected a finite number >= 0)", value));
  return value;
}

void GoogleBenchmarkRows::add(JsonInput& json, const Entry& e, const JsonPath& path) {
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
  if (e.run_type != "iteration")
    json.fail(path.field("run_type"), fmt::format("\"{}\" (expected iteration or aggregate)", e.run_type));
  if (s.time_unit.empty()) {  // later rows must repeat it, so it is checked once per series
    bool known_unit = false;
    parse_unit_or_custom(e.time_unit, &known_unit);
    if (!known_unit)
      json.fail(path.field("time_unit"),
                fmt::format("unknown time unit \"{}\" (expected ns, us, ms or s)", e.time_unit));
    s.time_unit = e.time_unit;
  }
  if (s.time_unit != e.time_unit) {
    json.fail(path.field("time_unit"),
              fmt::format("\"{}\" differs from \"{}\" in earlier rows of {}", e.time_unit, s.time_unit, e.run_name));
  }
  s.real_time.push_back(checked_time(json, e.real_time, path, "real_time"));
  s.cpu_time.push_back(checked_time(json, e.cpu_time, path, "cpu_time"));
  if (!s.iterations.empty()) s.iterations += ',';
  s.iterations += compact_json(e.iterations);  // a count: short enough to stay in the small-string buffer
  for (auto& [name, value] : e.counters) s.counters[name].push_back(value);
  if (s.other.empty()) {
    for (const auto& [key, text] : e.other) s.other.emplace_back(std::string(key), compact_json(text));
  }
  samples_ += 2 + e.counters.size();
  json.count_samples(2 + e.counters.size(), path);
}

void GoogleBenchmarkRows::add_aggregate(Series& s, const Entry& e) {
  const std::string name(e.aggregate_name.empty() ? e.name : e.aggregate_name);
  if (name == "BigO" || name == "RMS") {  // a fit over the family's sizes, not a statistic of one series
    for (const auto& [key, text] : e.other) {
      if (key != "aggregate_unit") s.complexity.emplace_back(std::string(key), compact_json(text));
    }
    return;
  }
  if (!std::isnan(e.real_time)) s.aggregates["real_time"].emplace_back(name, json_number(e.real_time));
  if (!std::isnan(e.cpu_time)) s.aggregates["cpu_time"].emplace_back(name, json_number(e.cpu_time));
  for (const auto& [counter, value] : e.counters) s.aggregates[counter].emplace_back(name, json_number(value));
}

bool GoogleBenchmarkRows::merge_series(Series& s, Series&& later) {
  if (s.time_unit.empty()) s.time_unit = later.time_unit;
  if (!later.time_unit.empty() && later.time_unit != s.time_unit) return false;
  s.real_time.insert(s.real_time.end(), later.real_time.begin(), later.real_time.end());
  s.cpu_time.insert(s.cpu_time.end(), later.cpu_time.begin(), later.cpu_time.end());
  if (!s.iterations.empty() && !later.iterations.empty()) s.iterations += ',';
  s.iterations += later.iterations;
  for (auto& [name, values] : later.counters) {
    auto& mine = s.counters[name];
    mine.insert(mine.end(), values.begin(), values.end());
  }
  for (auto& [metric, values] : later.aggregates) {
    auto& mine = s.aggregates[metric];
    mine.insert(mine.end(), std::make_move_iterator(values.begin()), std::make_move_iterator(values.end()));
  }
  if (s.other.empty()) s.other = std::move(later.other);
  s.complexity.insert(s.complexity.end(), later.complexity.begin(), later.complexity.end());
  return true;
}

const Metadata* GoogleBenchmarkRows::family_complexity(const Series& s) const {
  const std::size_t slash = s.run_name.find('/');
  if (slash == std::string::npos) return nullptr;
  const auto it = series_index_.find(s.run_name.substr(0, slash));
  if (it == series_index_.end() || series_[it->second].complexity.empty()) return nullptr;
  return &series_[it->second].complexity;
}

void GoogleBenchmarkRows::emit_metric(const Series& s, Dataset& dataset, const std::string& file,
                                      const std::string& metric, const std::vector<double>& samples,
                                      std::string_view unit_symbol, const Metadata* complexity) {
  if (samples.empty()) return;
  Metadata metadata = s.other;
  metadata.emplace_back("iterations", fmt::format("[{}]", s.iterations));
  if (const Metadata* values = s.aggregates.find(metric)) metadata.emplace_back("aggregates", json_object(*values));
  if (complexity != nullptr) metadata.emplace_back("complexity", json_object(*complexity));
  SetOptions options;
  options.run = file;
  options.metadata = std::move(metadata);
  const Labels labels{{"benchmark", s.run_name}, {"metric", metric}};
  dataset.add_set(labels, samples, parse_unit(unit_symbol), options);
}

void GoogleBenchmarkRows::emit_series(const Series& s, Dataset& dataset, const std::string& file,
                                      const Metadata* complexity) {
  emit_metric(s, dataset, file, "real_time", s.real_time, s.time_unit, complexity);
  emit_metric(s, dataset, file, "cpu_time", s.cpu_time, s.time_unit, complexity);
  for (const auto& [counter, values] : s.counters) {
    if (values.size() != s.real_time.size()) {
      dataset.warn(fmt::format("{}: counter {} of {} appears in {} of {} repetitions", file, counter, s.run_name,
                               values.size(), s.real_time.size()));
    }
    emit_metric(s, dataset, file, counter, values, counter_unit(counter), nullptr);
  }
}

void GoogleBenchmarkRows::report(Dataset& dataset, const std::string& file,
                                 const std::vector<std::string>& aggregates_only) const {
  if (aggregate_rows_ > 0 && aggregates_only.size() < series_.size()) {
    dataset.note(fmt::format("{}: kept {} aggregate rows apart from the samples (set metadata \"aggregates\")", file,
                             aggregate_rows_));
  }
  if (!aggregates_only.empty()) {
    constexpr std::size_t kNamed = 5;
    const std::size_t named = std::min(aggregates_only.size(), kNamed);
    const std::string more =
        aggregates_only.size() > kNamed ? fmt::format(" and {} more", aggregates_only.size() - kNamed) : "";
    dataset.warn(fmt::format(
        "{}: {} benchmarks have only aggregate rows (mean, median, stddev: no per-repetition samples), so they are not "
        "read: {}{}. Re-run with --benchmark_repetitions=N --benchmark_report_aggregates_only=false (add "
        "--benchmark_display_aggregates_only=true to keep the console short), or drop ReportAggregatesOnly(true) from "
        "their registration, to write one sample per repetition",
        file, aggregates_only.size(),
        fmt::join(aggregates_only.begin(), aggregates_only.begin() + static_cast<std::ptrdiff_t>(named), ", "), more));
  }
  if (!errors_.empty()) {
    dataset.warn(fmt::format("{}: {} benchmarks reported an error and have no samples: {}", file, errors_.size(),
                             fmt::join(errors_, "; ")));
  }
}

}  // namespace benchreport::io

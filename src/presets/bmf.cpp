#include "benchreport/presets/bmf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <ostream>
#include <utility>

#include "benchreport/core/error.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/stats/summary.hpp"

namespace benchreport {
namespace {

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct Measure {
  std::string name;
  Unit unit;  // what the values are written in
};

Measure measure_of(const Dataset& dataset, std::size_t set) {
  const Unit& unit = dataset.unit(set);
  if (unit.dimension == Dimension::time) return {"latency", parse_unit("ns")};
  if (unit.dimension == Dimension::rate_time) return {"throughput", parse_unit("ops/s")};
  Unit base{.symbol = std::string(base_symbol(unit.dimension)), .dimension = unit.dimension};
  if (dataset.has_label(set, "metric")) return {std::string(dataset.label(set, "metric")), base};
  return {std::string(dimension_name(unit.dimension)), base};
}

std::optional<double> metadata_number(const Metadata& metadata, std::string_view key) {
  for (const auto& [k, v] : metadata) {
    if (k != key) continue;
    double x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec == std::errc() && end == v.data() + v.size() && std::isfinite(x)) return x;
  }
  return std::nullopt;
}

// The columns of `candidates` (in order) that each split the sets further than
// the columns kept before them: a label that follows from earlier ones (Nitro's
// implementation / family / operation from benchmark), or that has one value,
// does not lengthen the name. At least the first candidate stays.
std::vector<std::string> distinguishing_columns(const Dataset& dataset, const std::vector<std::string>& candidates) {
  std::vector<std::string> kept;
  std::vector<std::size_t> group(dataset.n_sets(), 0);
  std::size_t n_groups = 1;
  for (const auto& column : candidates) {
    std::map<std::pair<std::size_t, std::string_view>, std::size_t> ids;
    std::vector<std::size_t> next(group.size());
    for (std::size_t set = 0; set < group.size(); ++set) {
      const std::string_view value = dataset.has_label(set, column) ? dataset.label(set, column) : std::string_view();
      next[set] = ids.try_emplace({group[set], value}, ids.size()).first->second;
    }
    if (ids.size() > n_groups) {
      kept.push_back(column);
      group = std::move(next);
      n_groups = ids.size();
    }
  }
  if (kept.empty() && !candidates.empty()) kept.push_back(candidates.front());
  return kept;
}

struct Entry {
  std::string name, measure, metric;
  Unit unit;
  std::vector<std::size_t> sets;
};

}  // namespace

Json bmf_json(const Dataset& dataset, const BmfOptions& options) {
  if (dataset.empty()) throw InputError("BMF: the dataset has no sample sets");
  std::vector<std::string> by;
  for (const auto& column : options.by.empty() ? dataset.columns() : options.by) {
    if (dataset.column(column) == nullptr) {
      throw InputError(
          fmt::format("BMF: no label column \"{}\" (columns: {})", column, fmt::join(dataset.columns(), ", ")));
    }
    if (options.by.empty() && (column == "metric" || contains(options.exclude, column))) continue;
    by.push_back(column);
  }
  by = distinguishing_columns(dataset, by);

  // Entries keyed by (name, measure, metric), in first-appearance order.
  std::vector<Entry> entries;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    std::vector<std::string> key;
    for (const auto& column : by) {
      if (dataset.has_label(set, column)) key.emplace_back(dataset.label(set, column));
    }
    std::string name = key.empty() ? std::string(dataset.label(set, "metric")) : join_key(key);
    if (name.empty()) name = fmt::format("set {}", set);
    Measure measure = measure_of(dataset, set);
    std::string metric(dataset.label(set, "metric"));
    auto [it, inserted] = index.try_emplace({name, measure.name, metric}, entries.size());
    if (inserted)
      entries.push_back(
          Entry{std::move(name), std::move(measure.name), std::move(metric), std::move(measure.unit), {}});
    entries[it->second].sets.push_back(set);
  }
  // Two metrics of one benchmark under one measure: the metric joins the name.
  std::map<std::pair<std::string, std::string>, std::size_t> metrics_per_measure;
  for (const auto& e : entries) ++metrics_per_measure[{e.name, e.measure}];
  for (auto& e : entries) {
    if (metrics_per_measure[{e.name, e.measure}] > 1 && !e.metric.empty()) e.name = e.name + " / " + e.metric;
  }

  SummaryOptions summary_options;
  summary_options.confidence = options.confidence;
  summary_options.stats = StatSet().with(Stat::median).with(Stat::median_ci);
  summary_options.quantiles.clear();
  check_options(summary_options);

  Json::Object out;
  std::map<std::string, std::size_t> benchmark_index;  // name -> position in out
  std::vector<double> pooled;
  for (const auto& e : entries) {
    pooled.clear();
    for (const auto set : e.sets) dataset.append_base_samples(set, pooled);
    const Summary s = summarize(pooled, summary_options);
    Json measure = Json::object();
    measure.set("value", from_base(s.median, e.unit));
    std::optional<double> lower, upper;
    if (s.median_ci.availability.ok) {
      lower = from_base(s.median_ci.lower, e.unit);
      upper = from_base(s.median_ci.upper, e.unit);
    } else if (e.sets.size() == 1 && pooled.size() == 1) {
      // A figure read from BMF keeps its bounds (written in the unit of the set).
      const std::size_t set = e.sets.front();
      const Metadata& metadata = dataset.set_metadata(set);
      const Unit& unit = dataset.unit(set);
      const auto convert = [&](double x) { return unit == e.unit ? x : from_base(x * unit.to_base, e.unit); };
      if (auto l = metadata_number(metadata, "lower_value")) lower = convert(*l);
      if (auto u = metadata_number(metadata, "upper_value")) upper = convert(*u);
    }
    if (lower) measure.set("lower_value", *lower);
    if (upper) measure.set("upper_value", *upper);
    auto [at, inserted] = benchmark_index.try_emplace(e.name, out.size());
    if (inserted) out.emplace_back(e.name, Json::object());
    out[at->second].second.set(e.measure, std::move(measure));
  }
  return Json(std::move(out));
}

void write_bmf(const Dataset& dataset, std::ostream& out, const BmfOptions& options) {
  out << to_json(bmf_json(dataset, options), JsonWriteOptions{.indent = 2}) << '\n';
}

}  // namespace benchreport

#include "benchreport/presets/bmf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <ostream>
#include <sstream>
#include <utility>

#include "benchreport/core/error.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/stats/summary.hpp"

namespace benchreport {
namespace {

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The reader that made a set ("go", "pytest-benchmark", ...; "" when not recorded).
std::string_view tool_of(const Dataset& dataset, std::size_t set) {
  const Run* run = dataset.find_run(dataset.run_id(set));
  return run == nullptr ? std::string_view() : std::string_view(run->format);
}

// Bencher's measure slug of a metric: lower case, "/" as "-per-", other runs of
// non-alphanumerics as one "-" ("B/op" -> "b-per-op", "cpu_time" -> "cpu-time").
std::string measure_slug(std::string_view metric) {
  std::string out;
  for (const char c : metric) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) {
      out += static_cast<char>(std::tolower(u));
    } else if (c == '/') {
      out += out.empty() || out.back() != '-' ? "-per-" : "per-";
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? std::string("value") : out;
}

struct Measure {
  std::string name;
  Unit unit;  // what the values are written in
};

// Bencher's adapters write every time as `latency` in ns and operation rates as
// `throughput`; a benchmark's second time metric (Google Benchmark's cpu_time
// after real_time) and every other unit get the slug of their metric, in the
// set's own unit (docs/formats.md).
Measure measure_of(const Dataset& dataset, std::size_t set, bool first_time_metric) {
  const Unit& unit = dataset.unit(set);
  const std::string metric(dataset.has_label(set, "metric") ? dataset.label(set, "metric") : std::string_view());
  if (unit.dimension == Dimension::time && first_time_metric) return {"latency", parse_unit("ns")};
  if (unit.dimension == Dimension::rate_time) return {"throughput", parse_unit("ops/s")};
  if (unit.dimension == Dimension::time) return {measure_slug(metric), parse_unit("ns")};
  return {metric.empty() ? std::string(dimension_name(unit.dimension)) : measure_slug(metric), unit};
}

// The name Bencher's adapter for the set's tool gives its benchmark: Go's with
// the GOMAXPROCS suffix ("BenchmarkSort-8", none for 1), pytest-benchmark's
// `fullname` ("tests/test_x.py::test_sum[10]"), otherwise the benchmark label
// (Google Benchmark's name, hyperfine's command or -n name, Criterion's id).
std::string tool_benchmark_name(const Dataset& dataset, std::size_t set) {
  std::string name(dataset.has_label(set, "benchmark") ? dataset.label(set, "benchmark") : std::string_view());
  const std::string_view tool = tool_of(dataset, set);
  if (tool == "go" && dataset.has_label(set, "procs") && dataset.label(set, "procs") != "1") {
    name += fmt::format("-{}", dataset.label(set, "procs"));
  } else if (tool == "pytest-benchmark") {
    if (auto full = metadata::set_metadata_display(dataset, set, "fullname"); full && !full->empty()) name = *full;
  }
  return name;
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

// A figure in its BMF unit without the conversion's last-bit noise: the
// shortest decimal that still converts back to the same base value
// (0.131451765 s is 131451764.99999999 ns after the division; 131451765 maps
// back to it), so BMF read back gives the figure exactly.
double bmf_number(double base_value, const Unit& unit) {
  const double x = from_base(base_value, unit);
  if (!std::isfinite(x)) return x;
  for (int digits = 1; digits < 17; ++digits) {
    const double shorter = std::stod(fmt::format("{:.{}g}", x, digits));
    if (shorter * unit.to_base == base_value) return shorter;
  }
  return x;
}

// The parts of each set's name (`parts[set]`, one per candidate column, "" when
// absent) reduced to the columns that each split the sets further than those
// before them: a label that follows from earlier ones (Nitro's implementation
// / family / operation from benchmark), or that has one value, does not
// lengthen the name. At least the first column stays.
void keep_distinguishing(std::vector<std::vector<std::string>>& parts) {
  if (parts.empty() || parts.front().empty()) return;
  const std::size_t columns = parts.front().size();
  std::vector<bool> kept(columns, false);
  std::vector<std::size_t> group(parts.size(), 0);
  std::size_t n_groups = 1;
  for (std::size_t c = 0; c < columns; ++c) {
    std::map<std::pair<std::size_t, std::string_view>, std::size_t> ids;
    std::vector<std::size_t> next(group.size());
    for (std::size_t set = 0; set < group.size(); ++set) {
      next[set] = ids.try_emplace({group[set], parts[set][c]}, ids.size()).first->second;
    }
    if (ids.size() > n_groups) {
      kept[c] = true;
      group = std::move(next);
      n_groups = ids.size();
    }
  }
  if (std::find(kept.begin(), kept.end(), true) == kept.end()) kept[0] = true;
  for (auto& row : parts) {
    std::vector<std::string> shortened;
    for (std::size_t c = 0; c < columns; ++c) {
      if (kept[c] && !row[c].empty()) shortened.push_back(std::move(row[c]));
    }
    row = std::move(shortened);
  }
}

// The value a column adds to a set's default name: for `benchmark` the tool's
// own name (tool_benchmark_name), nothing for Go's `procs` (in that name).
std::string name_part(const Dataset& dataset, std::size_t set, const std::string& column) {
  if (column == "benchmark") return tool_benchmark_name(dataset, set);
  if (!dataset.has_label(set, column) || (column == "procs" && tool_of(dataset, set) == "go")) return {};
  return std::string(dataset.label(set, column));
}

// Each set's benchmark name: the `by` columns' values joined with " / ", or by
// default the labels that tell sets apart, the benchmark named as its tool's
// Bencher adapter names it.
std::vector<std::string> benchmark_names(const Dataset& dataset, const BmfOptions& options) {
  std::vector<std::string> columns;
  for (const auto& column : options.by.empty() ? dataset.columns() : options.by) {
    if (dataset.column(column) == nullptr) {
      throw InputError(
          fmt::format("BMF: no label column \"{}\" (columns: {})", column, fmt::join(dataset.columns(), ", ")));
    }
    if (options.by.empty() && (column == "metric" || contains(options.exclude, column))) continue;
    columns.push_back(column);
  }
  std::vector<std::vector<std::string>> parts(dataset.n_sets());
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    for (const auto& column : columns) {
      parts[set].push_back(options.by.empty() ? name_part(dataset, set, column)
                                              : std::string(dataset.has_label(set, column) ? dataset.label(set, column)
                                                                                           : std::string_view()));
    }
  }
  keep_distinguishing(parts);
  std::vector<std::string> names(dataset.n_sets());
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    names[set] = parts[set].empty() ? std::string(dataset.label(set, "metric")) : join_key(parts[set]);
    if (names[set].empty()) names[set] = fmt::format("set {}", set);
  }
  return names;
}

struct Entry {
  std::string name, measure, metric;
  Unit unit;
  std::vector<std::size_t> sets;
};

}  // namespace

Json bmf_json(const Dataset& dataset, const BmfOptions& options) {
  if (dataset.empty()) throw InputError("BMF: the dataset has no sample sets");
  const std::vector<std::string> names = benchmark_names(dataset, options);

  // Entries keyed by (name, measure, metric), in first-appearance order; the
  // first time metric of a benchmark is its latency.
  std::vector<Entry> entries;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  std::map<std::string, std::string> latency_metric;  // benchmark name -> the metric written as latency
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    std::string metric(dataset.label(set, "metric"));
    const bool is_time = dataset.unit(set).dimension == Dimension::time;
    const bool first_time = is_time && latency_metric.try_emplace(names[set], metric).first->second == metric;
    Measure measure = measure_of(dataset, set, first_time);
    auto [it, inserted] = index.try_emplace({names[set], measure.name, metric}, entries.size());
    if (inserted) entries.push_back(Entry{names[set], std::move(measure.name), std::move(metric), measure.unit, {}});
    entries[it->second].sets.push_back(set);
  }
  // Two metrics of one benchmark under one measure slug: the metric joins the name.
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
    measure.set("value", bmf_number(s.median, e.unit));
    std::optional<double> lower, upper;
    if (s.median_ci.availability.ok) {
      lower = bmf_number(s.median_ci.lower, e.unit);
      upper = bmf_number(s.median_ci.upper, e.unit);
    } else if (e.sets.size() == 1 && pooled.size() == 1) {
      // A figure read from BMF keeps its bounds (written in the unit of the set).
      const std::size_t set = e.sets.front();
      const Metadata& metadata = dataset.set_metadata(set);
      const Unit& unit = dataset.unit(set);
      const auto convert = [&](double x) { return unit == e.unit ? x : bmf_number(x * unit.to_base, e.unit); };
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

namespace {

// The distinct values a label column takes, sorted (sets without the label left out).
std::vector<std::string> label_values(const Dataset& dataset, const std::string& column) {
  std::vector<std::string> values;
  const LabelColumn* labels = dataset.column(column);
  if (labels == nullptr) return values;
  std::vector<bool> used(labels->dictionary.size(), false);
  for (const std::int32_t code : labels->codes) {
    if (code >= 0) used[static_cast<std::size_t>(code)] = true;
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (used[i]) values.push_back(labels->dictionary[i]);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

bool file_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) != 0 || c == '.' || c == '_' || c == '-';
}

// The part of a file name a split value gives (see comparison_bmf_files).
std::string file_suffix(const std::string& value, const std::vector<std::string>& values) {
  if (value.empty()) {
    std::string name = "empty";
    while (std::find(values.begin(), values.end(), name) != values.end()) name += '_';
    return name;
  }
  std::string out;
  bool in_run = false;  // inside a run of other characters, already written as one "_"
  for (const char c : value) {
    if (file_name_char(c)) {
      out += c;
    } else if (!in_run) {
      out += '_';
    }
    in_run = !file_name_char(c);
  }
  return out;
}

}  // namespace

std::optional<std::string> side_bmf(const Dataset& dataset, const std::string& side_column,
                                    const std::string& side_value, const Labels& labels,
                                    const std::vector<std::string>& by, double confidence) {
  Labels wanted{{side_column, side_value}};
  wanted.insert(wanted.end(), labels.begin(), labels.end());
  const std::vector<std::size_t> sets = dataset.select(wanted);
  if (sets.empty()) return std::nullopt;
  BmfOptions options;
  options.confidence = confidence;
  for (const std::string& column : by) {
    const bool given = std::any_of(labels.begin(), labels.end(), [&](const auto& l) { return l.first == column; });
    if (!given) options.by.push_back(column);
  }
  std::ostringstream out;
  write_bmf(dataset.subset(sets), out, options);
  return out.str();
}

std::vector<BmfFile> comparison_bmf_files(const Dataset& dataset, const DatasetComparison& comparison,
                                          const std::string& split, double confidence) {
  const std::vector<std::string> values = label_values(dataset, split);
  std::vector<std::optional<std::string>> splits(values.begin(), values.end());
  if (splits.empty()) splits.emplace_back();  // no such label: one file per side
  std::vector<BmfFile> files;
  for (const auto& value : splits) {
    const Labels labels = value ? Labels{{split, *value}} : Labels{};
    const std::string suffix = value ? "-" + file_suffix(*value, values) : "";
    for (const auto& [side_value, prefix] :
         {std::pair{comparison.head_value, "bencher"}, std::pair{comparison.base_value, "bencher-base"}}) {
      auto text = side_bmf(dataset, comparison.baseline_column, side_value, labels, comparison.by, confidence);
      if (text) files.push_back({fmt::format("{}{}.json", prefix, suffix), std::move(*text)});
    }
  }
  return files;
}

}  // namespace benchreport

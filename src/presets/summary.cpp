// The `summary` preset: one row per sample set (or per group of pooled sets)
// with n, median, MAD / p50, CV, min – max, drift and a sparkline. Statistics
// come from one summarize_grouped call over the groups in CSR form.
#include "benchreport/presets/summary.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/report/fields.hpp"
#include "benchreport/report/format.hpp"
#include "reader_messages.hpp"
#include "benchreport/stats/grouped.hpp"
#include "sample_notes.hpp"

namespace benchreport {
namespace {

// Values shown in their dimension's scaled unit: "1.600 ms", "1.500 KiB", "94.70 MiB/s", "45.85k ops/s";
// other units with two decimals and their symbol (none for the dimensionless "1").
constexpr ValueStyle kSummaryValue{.scale = true, .significant = true, .symbol = ValueStyle::Symbol::shown_unless_one};

// Sets pooled per row, ready for the grouped kernel: values in base units, group after group.
struct SummaryGroups {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> keys;  // one label value per column, per group
  std::vector<const Unit*> units;              // each group's first set's unit (its display unit)
  std::vector<double> values;
  std::vector<std::int64_t> offsets{0};

  std::size_t size() const { return keys.size(); }
  std::span<const double> samples(std::size_t i) const {
    return std::span<const double>(values).subspan(static_cast<std::size_t>(offsets[i]),
                                                   static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
  }
};

std::string group_name(const std::vector<std::string>& columns, const std::vector<std::string>& key) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < columns.size() && i < key.size(); ++i)
    parts.push_back(fmt::format("{}={}", columns[i], key[i]));
  return parts.empty() ? std::string("all samples") : fmt::format("{}", fmt::join(parts, ", "));
}

SummaryGroups summary_groups(const Dataset& dataset, const std::vector<std::string>& by) {
  SummaryGroups out;
  std::vector<Group> groups;
  if (!by.empty()) {
    out.columns = by;
    groups = dataset.group_by(by);
  } else {
    out.columns = dataset.columns();
    for (std::size_t i = 0; i < dataset.n_sets(); ++i) {
      Group g;
      for (const auto& column : out.columns) g.key.emplace_back(dataset.label(i, column));
      g.sets = {i};
      groups.push_back(std::move(g));
    }
  }
  out.values.reserve(dataset.n_values());
  for (auto& group : groups) {
    const Unit& first = dataset.unit(group.sets.front());
    for (std::size_t j = 1; j < group.sets.size(); ++j) {
      const Unit& other = dataset.unit(group.sets[j]);
      if (other.dimension != first.dimension) {
        throw InputError(fmt::format("group {} mixes units {} and {}; add a label such as metric to --by",
                                     group_name(out.columns, group.key), first.symbol, other.symbol));
      }
    }
    for (const std::size_t set : group.sets) dataset.append_base_samples(set, out.values);
    out.offsets.push_back(static_cast<std::int64_t>(out.values.size()));
    out.units.push_back(&first);
    out.keys.push_back(std::move(group.key));
  }
  return out;
}

bool drifts(const GroupedSummary& s, std::size_t i, double limit) {
  return s.drift_ok[i] != 0 && std::abs(s.drift[i]) >= limit;
}

Cell drift_cell(const GroupedSummary& s, std::size_t i, double limit) {
  if (s.drift_ok[i] == 0) return Cell("n/a", CellRole::muted);
  return Cell(format_change_percent(s.drift[i]), s.drift[i],
              drifts(s, i, limit) ? CellRole::inconclusive : CellRole::none);
}

std::vector<Cell> row(const SummaryGroups& groups, const GroupedSummary& s, std::size_t i, double limit) {
  const Unit& unit = *groups.units[i];
  std::vector<Cell> cells(groups.keys[i].begin(), groups.keys[i].end());
  cells.emplace_back(std::to_string(s.n[i]), static_cast<double>(s.n[i]));
  cells.emplace_back(format_value(s.median[i], unit, kSummaryValue), s.median[i]);
  cells.emplace_back(format_percent(s.mad_over_median_pct[i] / 100.0), s.mad_over_median_pct[i]);
  cells.emplace_back(format_percent(s.cv[i]), s.cv[i]);
  cells.emplace_back(fmt::format("{} \u2013 {}", format_value(s.min[i], unit, kSummaryValue),
                                 format_value(s.max[i], unit, kSummaryValue)));
  cells.push_back(drift_cell(s, i, limit));
  const auto samples = groups.samples(i);
  cells.push_back(Cell("").with_samples(cell_sparkline_samples(samples)));
  return cells;
}

// One group of the payload and one row of the columns (report/fields.hpp): its labels
// (columns: unprefixed, "" where a set has none), units and statistics.
template <class Visitor>
void group_fields(Visitor& v, const SummaryGroups& groups, const GroupedSummary& s, std::size_t i) {
  v.begin_group("labels");
  for (std::size_t c = 0; c < groups.columns.size(); ++c) {
    const bool present = c < groups.keys[i].size();
    v.field_if(present, groups.columns[c].c_str(), present ? groups.keys[i][c] : std::string());
  }
  v.end_group();
  const Unit& unit = *groups.units[i];
  v.field("unit", std::string(base_symbol(unit.dimension)));
  v.field("display_unit", unit.symbol);
  v.field("n", static_cast<std::size_t>(s.n[i]));
  const auto finite = [&](const char* name, double x) { v.optional(name, std::isfinite(x), x); };
  finite("median", s.median[i]);
  finite("mad", s.mad[i]);
  finite("mad_over_median_pct", s.mad_over_median_pct[i]);
  finite("cv", s.cv[i]);
  finite("min", s.min[i]);
  finite("max", s.max[i]);
  v.optional("drift", s.drift_ok[i] != 0 && std::isfinite(s.drift[i]), s.drift[i]);
  v.field("drift_reason", s.drift_reason[i]);
}

Json group_json(const SummaryGroups& groups, const GroupedSummary& s, std::size_t i) {
  JsonFields fields;
  group_fields(fields, groups, s, i);
  return Json(fields.take());
}

Columns group_columns(const SummaryGroups& groups, const GroupedSummary& s) {
  Columns columns;
  ColumnFields fields(columns);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    columns.begin_row();
    group_fields(fields, groups, s, i);
  }
  return columns;
}

// Rows and payload items are built in chunks over the threads (each item on its
// own, so the report is the same for any thread count).
constexpr std::size_t kRowChunk = 1024;

Json payload(const SummaryGroups& groups, const GroupedSummary& s, std::size_t k, unsigned threads) {
  Json rows(map_indexed(groups.size(), kRowChunk, threads, [&](std::size_t i) { return group_json(groups, s, i); }));
  Json by = Json::array();
  for (const auto& column : groups.columns) by.push_back(column);
  Json methods = Json::object();
  methods.set("cv", "population std / mean (ddof 0)");
  methods.set("mad_over_median_pct", "raw MAD / median x 100");
  methods.set("drift", fmt::format("median(last {}) / median(first {}) - 1", k, k));
  Json out = Json::object();
  out.set("schema", std::string(kSummarySchema));
  out.set("by", std::move(by));
  out.set("drift_k", k);
  out.set("methods", std::move(methods));
  out.set("groups", std::move(rows));
  return out;
}

}  // namespace

SummaryResult summary(const Dataset& dataset, const SummaryReportOptions& options, bool with_columns) {
  const SummaryGroups groups = summary_groups(dataset, options.by);
  if (groups.size() == 0) throw InputError("no sample sets to summarise");
  SummaryOptions stats;
  stats.drift_k = options.drift_k;
  stats.stats = StatSet{};
  for (const char* name : {"moments", "median", "mad", "drift"}) stats.stats = parse_stat(name, stats.stats);
  const GroupedSummary s = summarize_grouped(groups.values, groups.offsets, stats, options.threads);
  const std::size_t k = options.drift_k;

  Report report(options.title);
  const std::string grouping =
      options.by.empty() ? std::string()
                         : fmt::format(", pooled by {} into {} groups", fmt::join(groups.columns, ", "), groups.size());
  report.add_paragraph(fmt::format("{} sample sets, {} samples{}.", dataset.n_sets(), groups.values.size(), grouping));
  if (const auto warnings = grouped_messages(dataset, dataset.warnings()); !warnings.empty()) {
    report.add_note(fmt::format("The readers reported {}.", format_count(warnings.size(), "warning", "warnings")),
                    NoteKind::warning);
    report.add_list(warnings);
  }
  std::size_t drifting = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) drifting += drifts(s, i, options.drift_limit) ? 1 : 0;
  if (drifting > 0) {
    report.add_note(fmt::format("{} of {} rows drift by {} or more between the first and last {} samples.", drifting,
                                groups.size(), format_percent(options.drift_limit, 0), k),
                    NoteKind::warning);
  }
  static constexpr std::array<std::string_view, 7> kStatColumns{"n",     "p50",    "MAD / p50", "CV", "min \u2013 max",
                                                                "drift", "samples"};
  std::vector<Column> columns;
  for (const auto& label : groups.columns) {
    // A label named like a statistic column (hyperfine's parameter "n") is marked as the label it is.
    const bool clashes = std::find(kStatColumns.begin(), kStatColumns.end(), label) != kStatColumns.end();
    columns.emplace_back(clashes ? fmt::format("{} (label)", label) : label);
  }
  for (std::size_t c = 0; c + 1 < kStatColumns.size(); ++c)
    columns.emplace_back(std::string(kStatColumns[c]), Align::right);
  columns.emplace_back(std::string(kStatColumns.back()));
  Table& table = report.add_table(std::move(columns), {}, "summary");
  table.records_when_wide = false;  // one line per set: a listing to scan, sort and grep
  auto rows = map_indexed(groups.size(), kRowChunk, options.threads,
                          [&](std::size_t i) { return row(groups, s, i, options.drift_limit); });
  for (auto& cells : rows) table.add_row(std::move(cells));
  table.footnote = fmt::format(
      "p50 = median; MAD / p50 = median absolute deviation over the median; CV = population standard deviation over "
      "the mean; drift = median of the last {} samples over the first {} \u2212 1 (n/a below {} samples).",
      k, k, 2 * k);
  if (const std::string samples = sample_footnote(dataset); !samples.empty()) report.add_footnote(samples);
  report.data = payload(groups, s, k, options.threads);
  return SummaryResult{std::move(report), with_columns ? group_columns(groups, s) : Columns{}};
}

Report summary_report(const Dataset& dataset, const SummaryReportOptions& options) {
  return summary(dataset, options, false).report;
}

}  // namespace benchreport

#include "benchreport/presets/notebook.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "benchreport/presets/summary.hpp"
#include "benchreport/report/general_format.hpp"

namespace benchreport {
namespace {

// A statistic's cell: its text, and the number behind it when it is finite.
Cell number_cell(double value) {
  Cell cell(format_general(value));
  if (std::isfinite(value)) cell.value = value;
  return cell;
}

}  // namespace

Report summary_statistics_report(const Summary& s, std::string title) {
  Report report(std::move(title));
  Table& table = report.add_table({"Statistic", {"Value", Align::right}}, {}, "summary");
  Cell n(std::to_string(s.n), static_cast<double>(s.n));
  table.add_row({"n", std::move(n)});
  const std::pair<const char*, double> stats[] = {
      {"median", s.median}, {"mean", s.mean}, {"std (ddof 0)", s.std_population},
      {"CV", s.cv},         {"MAD", s.mad},   {"MAD / p50 %", s.mad_over_median_pct},
      {"IQR", s.iqr},       {"min", s.min},   {"max", s.max}};
  for (const auto& [label, value] : stats) table.add_row({label, number_cell(value)});
  for (std::size_t i = 0; i < s.probabilities.size(); ++i) {
    table.add_row({"quantile " + format_general(s.probabilities[i]), number_cell(s.quantiles[i])});
  }
  const MedianCI& ci = s.median_ci;
  if (ci.availability.ok) {
    table.add_row({fmt::format("median CI ({:.1f}% achieved)", 100 * ci.achieved),
                   fmt::format("{} \u2013 {}", format_general(ci.lower), format_general(ci.upper))});
  }
  const Drift& drift = s.drift;
  table.add_row({"drift", drift.change_availability.ok
                              ? number_cell(drift.change)
                              : Cell(fmt::format("n/a ({})", drift.change_availability.reason))});
  return report;
}

Report dataset_display_report(const Dataset& dataset, const std::optional<std::string>& title) {
  const std::size_t n = dataset.n_sets();
  SummaryReportOptions options;
  // A short heading (a page-wide heading of the one-line repr said too much); the table says the rest.
  options.title = title ? *title : fmt::format("Dataset: {} sample sets", n);
  if (n <= kDatasetMaxRows) return summary_report(dataset, options);
  const std::size_t edge = kDatasetEdgeRows;
  std::vector<std::size_t> shown(2 * edge);
  std::iota(shown.begin(), shown.begin() + edge, std::size_t{0});
  std::iota(shown.begin() + edge, shown.end(), n - edge);
  Report report = summary_report(dataset.subset(shown), options);
  report.add_paragraph(
      fmt::format("Sets 1\u2013{} and {}\u2013{} of {} shown ({} not shown); "
                  "summary_report(dataset) shows every set, dataset.to_pandas() every sample.",
                  edge, n - edge + 1, n, n, n - 2 * edge));
  return report;
}

}  // namespace benchreport

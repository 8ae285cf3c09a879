#pragma once
// What the charts of Python's benchreport.plot draw, computed here so that Python keeps only the
// matplotlib calls: values in the unit drawn, positions, colours chosen by rule, legend and axis text.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchreport/compare/history.hpp"
#include "benchreport/compare/scaling.hpp"
#include "benchreport/report/forest.hpp"

namespace benchreport {

// Base and head sides; a verdict's colour ("slower", ...), the base colour for any other.
inline constexpr std::string_view kBaseColor = "#4c72b0";
inline constexpr std::string_view kHeadColor = "#dd8452";
std::span<const std::pair<std::string_view, std::string_view>> verdict_colors();
std::string verdict_color(std::string_view verdict);

// One side of a distributions plot: its samples in the unit drawn and their median (as numpy's).
struct DistributionSide {
  std::vector<double> values;
  double median = 0;
  std::string color, label;  // legend: "base (n=41, median 19.74 µs)"
};
struct DistributionsPlot {
  std::vector<DistributionSide> sides;  // base, head
  std::string x_label;
};
// `base` and `head` are samples in `unit`, drawn in the unit the reports show their median in.
DistributionsPlot distributions_plot(std::span<const double> base, std::span<const double> head, std::string_view unit,
                                     const std::pair<std::string, std::string>& labels);

// A drift window of a samples plot: shaded over [begin, end] (sample positions ± 0.5), its median across it.
struct DriftWindowMark {
  double begin = 0, end = 0, median = 0;
  std::string label;  // "median of first 5: 19.74 µs"
};
struct SamplesPlot {
  std::vector<double> values;            // in the unit drawn, in measurement order
  std::vector<DriftWindowMark> windows;  // first and last k; none when fewer than 2k samples
  std::string title, y_label;            // the title gives the drift, or why it is n/a
};
SamplesPlot samples_plot(std::span<const double> values, std::size_t k, std::string_view unit);

// A forest plot's case at height y = its index: change and interval in percent.
struct ForestMark {
  double change = 0, lower = 0, upper = 0;
  bool interval = false;  // both ends finite: the interval is drawn
  std::string color;
};
struct LegendEntry {
  std::string color, label;
};
struct ForestPlot {
  std::vector<ForestMark> marks;
  std::vector<std::string> names;     // the y tick labels
  std::vector<double> thresholds;     // in percent: -t and t; none without a threshold
  std::string threshold_label;        // "±5% threshold"
  std::vector<LegendEntry> verdicts;  // one per verdict shown, first-seen order
  std::string title;                  // "20 of 80 cases (largest |change|)" when cases are left out
  double height = 0;                  // of a new figure, inches
};
// InputError when there are no rows; threshold unset or 0: no threshold lines.
ForestPlot forest_plot(std::vector<ForestRow> rows, std::size_t max_cases, std::optional<double> threshold);

// A change point on a history line: a vertical line at the commit, coloured by its direction.
struct HistoryChangeMark {
  std::size_t commit = 0;
  double value = 0;  // the line's value at the commit (marked with a dot)
  std::string color;
};
struct HistoryLine {
  std::vector<std::size_t> commits;  // x: index into History::commits
  std::vector<double> values;        // in the unit drawn, or relative to the first commit
  std::string label;                 // the case key joined by " / ", "all sets" when empty
  std::vector<HistoryChangeMark> changes;
};
struct HistoryPlot {
  std::vector<HistoryLine> lines;  // the first max_cases series
  bool relative = false;
  std::vector<std::size_t> ticks;        // at most 8 commits, evenly spread
  std::vector<std::string> tick_labels;  // their names, first 12 characters
  std::string x_label, y_label;
};
// `relative` as history_axis (report/plot_axes.hpp) takes it.
HistoryPlot history_plot(const HistoryAnalysis& analysis, std::size_t max_cases, std::optional<bool> relative);

// One fit of a scaling plot: every process median as a point, and the model's curve.
struct ScalingSide {
  ScalingFit fit;
  double factor = 1;  // costs drawn are base-unit costs × factor
  std::string color;
  std::vector<double> x, y;  // one point per process median: its size and cost
  std::string points_label, curve_label;
  bool fits = false;  // a model fits: a solid curve (dashed: only the closest model)
  // The curve's costs at `sizes`: the best model's prediction × factor.
  std::vector<double> curve(std::span<const double> sizes) const;
};
struct ScalingPlot {
  std::vector<ScalingSide> sides;  // base and head when compared, else the one fit
  std::string title, x_label, y_label;
};
// The family as scaling_family_plot (report/plot_axes.hpp) chooses it.
ScalingPlot scaling_plot(const ScalingResult& result, const std::optional<std::string>& family);

}  // namespace benchreport

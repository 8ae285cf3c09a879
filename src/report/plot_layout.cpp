#include "benchreport/report/plot_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/report/general_format.hpp"
#include "benchreport/report/plot_axes.hpp"
#include "benchreport/stats/drift.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kVerdictColors{{
    {"faster", "#2a9d3f"},
    {"slower", "#c8372d"},
    {"inconclusive", "#d49a00"},
    {"equivalent", "#5b6b7a"},
    {"unchanged", "#5b6b7a"},
}};

// numpy's median: the mean of the two middle values is (a + b) / 2, not a + (b - a) / 2, so the
// line drawn lies where numpy puts it.
double numpy_median(std::span<const double> values) {
  std::vector<double> work(values.begin(), values.end());
  const std::size_t hi = work.size() / 2;
  const double upper = select_kth(work, hi);
  if (work.size() % 2 == 1) return upper;
  return walsh_average(*std::max_element(work.begin(), work.begin() + static_cast<std::ptrdiff_t>(hi)), upper);
}

std::vector<double> scaled(std::span<const double> values, double factor) {
  std::vector<double> out(values.begin(), values.end());
  for (double& v : out) v *= factor;
  return out;
}

std::string axis_label(std::string_view name, std::string_view unit) {
  return unit.empty() ? std::string(name) : fmt::format("{} ({})", name, unit);
}

// The first `n` code points of text, as Python's text[:n].
std::string first_code_points(std::string_view text, std::size_t n) {
  std::size_t end = 0;
  for (; n > 0 && end < text.size(); --n) end += decode_utf8(text, end).length;
  return std::string(text.substr(0, end));
}

// Python's np.unique(np.linspace(0, n - 1, min(n, 8)).astype(int)): at most 8 evenly spread positions.
std::vector<std::size_t> spread_ticks(std::size_t n) {
  const std::size_t count = std::min<std::size_t>(n, 8);
  std::vector<std::size_t> ticks;
  const double step = count > 1 ? static_cast<double>(n - 1) / static_cast<double>(count - 1) : 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto t = i + 1 == count ? n - 1 : static_cast<std::size_t>(static_cast<double>(i) * step);
    if (ticks.empty() || ticks.back() != t) ticks.push_back(t);
  }
  return ticks;
}

// Python's str.strip() of ASCII whitespace.
std::string stripped(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\r\v\f";
  const auto begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return "";
  return std::string(text.substr(begin, text.find_last_not_of(kSpace) + 1 - begin));
}

ScalingSide scaling_side(const FamilyFit& family, const std::string& side, std::string_view color, double factor) {
  ScalingSide drawn{family.fit, factor, std::string(color), {}, {}, "", "", !family.fit.lack_of_fit.detected};
  for (std::size_t i = 0; i < std::min(family.levels.size(), family.fit.sizes.size()); ++i) {
    for (double v : family.levels[i].values) {
      drawn.x.push_back(family.fit.sizes[i]);
      drawn.y.push_back(factor * v);
    }
  }
  const std::string_view closest = growth_model_name(family.fit.best);
  const std::string name =
      drawn.fits ? fmt::format("O({})", closest) : fmt::format("no model fits (closest O({}))", closest);
  const double exponent = family.fit.power.exponent;
  drawn.points_label = stripped(side + " processes");
  drawn.curve_label = stripped(
      fmt::format("{} {}, b = {}", side, name, std::isnan(exponent) ? "nan" : fmt::format("{:.2f}", exponent)));
  return drawn;
}

}  // namespace

std::vector<double> ScalingSide::curve(std::span<const double> sizes) const {
  std::vector<double> costs;
  for (double n : sizes) costs.push_back(factor * fit.predict(n));
  return costs;
}

ScalingPlot scaling_plot(const ScalingResult& result, const std::optional<std::string>& family) {
  const ScalingFamilyPlot chosen = scaling_family_plot(result, family);
  const double factor = chosen.scale.factor;
  ScalingPlot plot;
  if (result.compared) {
    const FamilyComparison& c = result.comparisons[chosen.index];
    plot.sides = {scaling_side(c.base, result.base_value, kBaseColor, factor),
                  scaling_side(c.head, result.head_value, kHeadColor, factor)};
  } else {
    plot.sides = {scaling_side(result.fits[chosen.index], "", kBaseColor, factor)};
  }
  plot.title = chosen.title;
  plot.x_label = result.size_source.empty() || result.size_source == "name" ? "size n" : result.size_source;
  plot.y_label = axis_label("cost", chosen.scale.symbol);
  return plot;
}

std::span<const std::pair<std::string_view, std::string_view>> verdict_colors() { return kVerdictColors; }

std::string verdict_color(std::string_view verdict) {
  const auto* found = std::find_if(kVerdictColors.begin(), kVerdictColors.end(),
                                   [verdict](const auto& entry) { return entry.first == verdict; });
  return std::string(found == kVerdictColors.end() ? kBaseColor : found->second);
}

DistributionsPlot distributions_plot(std::span<const double> base, std::span<const double> head, std::string_view unit,
                                     const std::pair<std::string, std::string>& labels) {
  std::vector<double> both(base.begin(), base.end());
  both.insert(both.end(), head.begin(), head.end());
  const PlotScale scale = plot_scale(both, unit);
  DistributionsPlot plot;
  const std::array sides{std::tuple{base, kBaseColor, &labels.first}, std::tuple{head, kHeadColor, &labels.second}};
  for (const auto& side : sides) {
    DistributionSide drawn{scaled(std::get<0>(side), scale.factor), 0, std::string(std::get<1>(side)), ""};
    drawn.median = numpy_median(drawn.values);
    drawn.label = fmt::format("{} (n={}, median {})", *std::get<2>(side), drawn.values.size(),
                              value_with_unit(drawn.median, scale.symbol));
    plot.sides.push_back(std::move(drawn));
  }
  plot.x_label = axis_label("value", scale.symbol);
  return plot;
}

SamplesPlot samples_plot(std::span<const double> values, std::size_t k, std::string_view unit) {
  if (k < 1) throw InputError(fmt::format("k must be at least 1 (got {})", k));
  const PlotScale scale = plot_scale(values, unit);
  SamplesPlot plot{scaled(values, scale.factor), {}, "", axis_label("value", scale.symbol)};
  const auto windows = drift_windows(plot.values.size(), k);
  if (!windows) {
    plot.title = fmt::format("drift n/a: {} samples, needs at least {} (k = {})", plot.values.size(), 2 * k, k);
    return plot;
  }
  const std::span<const double> drawn = plot.values;
  for (const auto& [begin, end, name] : {std::tuple{windows->first_begin, windows->first_end, "first"},
                                         std::tuple{windows->last_begin, windows->last_end, "last"}}) {
    const double median = numpy_median(drawn.subspan(begin, end - begin));
    plot.windows.push_back({static_cast<double>(begin) - 0.5, static_cast<double>(end) - 0.5, median,
                            fmt::format("median of {} {}: {}", name, k, value_with_unit(median, scale.symbol))});
  }
  // Python's {:+.2%}: the value times 100 in fixed notation with 2 decimals; a NaN is "+nan" whatever its sign.
  const double change = drift(plot.values, {.k = k}).change;
  const std::string percent = std::isnan(change) ? "+nan" : fmt::format("{:+.2f}", 100 * change);
  plot.title = fmt::format("drift {}% (median of last {} / first {} \u2212 1)", percent, k, k);
  return plot;
}

ForestPlot forest_plot(std::vector<ForestRow> rows, std::size_t max_cases, std::optional<double> threshold) {
  if (rows.empty()) throw InputError("nothing to plot: the comparison has no matched cases");
  const std::size_t total = rows.size();
  const std::vector<ForestRow> shown = forest_shown(std::move(rows), max_cases);
  ForestPlot plot;
  for (const ForestRow& r : shown) {
    const bool interval = std::isfinite(r.lower) && std::isfinite(r.upper);
    plot.marks.push_back({100 * r.change, 100 * r.lower, 100 * r.upper, interval, verdict_color(r.verdict)});
    plot.names.push_back(r.name);
    const bool seen = std::any_of(plot.verdicts.begin(), plot.verdicts.end(),
                                  [&r](const LegendEntry& e) { return e.label == r.verdict + " (change, CI)"; });
    if (!seen) plot.verdicts.push_back({verdict_color(r.verdict), r.verdict + " (change, CI)"});
  }
  if (threshold && *threshold != 0) {
    plot.thresholds = {100 * -*threshold, 100 * *threshold};
    plot.threshold_label = fmt::format("\u00b1{}% threshold", format_general(100 * *threshold));
  }
  if (shown.size() < total) plot.title = fmt::format("{} of {} cases (largest |change|)", shown.size(), total);
  plot.height = std::max(2.0, 0.28 * static_cast<double>(shown.size()) + 1);
  return plot;
}

HistoryPlot history_plot(const HistoryAnalysis& analysis, std::size_t max_cases, std::optional<bool> relative) {
  const History& history = analysis.history;
  const std::size_t drawn = std::min(max_cases, history.series.size());
  std::vector<const Series*> series;
  for (std::size_t i = 0; i < drawn; ++i) series.push_back(&history.series[i]);
  const HistoryAxis axis = history_axis(series, relative);
  HistoryPlot plot;
  plot.relative = axis.relative;
  for (std::size_t i = 0; i < drawn; ++i) {
    const Series& s = history.series[i];
    HistoryLine line{s.commits, s.values, fmt::format("{}", fmt::join(s.key, " / ")), {}};
    if (line.label.empty()) line.label = "all sets";
    const double first = line.values.front();
    for (double& v : line.values) v = axis.relative ? v / first : v * axis.scale.factor;
    for (const ChangePoint& cp : analysis.changes[i].change_points) {
      line.changes.push_back({cp.commit, line.values[cp.index], verdict_color(cp.regression ? "slower" : "faster")});
    }
    plot.lines.push_back(std::move(line));
  }
  plot.ticks = spread_ticks(history.commits.size());
  for (std::size_t t : plot.ticks) plot.tick_labels.push_back(first_code_points(history.commits[t], 12));
  plot.x_label = history.order;
  plot.y_label = axis.relative ? "summary / first commit" : axis_label("summary", axis.scale.symbol);
  return plot;
}

}  // namespace benchreport

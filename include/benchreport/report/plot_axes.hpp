#pragma once
// The value axis of plots drawn outside the renderers (Python's benchreport.plot, matplotlib):
// the unit values are drawn in, and whether history series are drawn relative to their start.
#include <optional>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "benchreport/compare/scaling.hpp"
#include "benchreport/compare/series.hpp"
#include "benchreport/data/display_unit.hpp"

namespace benchreport {

// data/display_unit.hpp's display_scale for values given in `unit`, at their median (NaN when
// one is NaN, as numpy's); no values or no unit: the unit as given, factor 1.
PlotScale plot_scale(std::span<const double> values, std::string_view unit);

// A history plot's y axis: each series divided by its first value (relative), or every value
// × factor in `unit`, the display unit of all the series' values.
struct HistoryAxis {
  bool relative = false;
  PlotScale scale;
};

// `relative` unset: relative when more than one series is drawn or their base units differ.
// Not relative with base units that differ: InputError listing them ("pass relative=True").
HistoryAxis history_axis(std::span<const Series* const> drawn, std::optional<bool> relative);

// The family a scaling plot draws: its index in result.comparisons (compared) or result.fits, the
// plot's title (`family`, or the first family's name when none is asked for) and the display scale
// of every process median drawn. InputError when there is no family, or none of that name.
struct ScalingFamilyPlot {
  std::size_t index = 0;
  std::string title;
  PlotScale scale;
};
ScalingFamilyPlot scaling_family_plot(const ScalingResult& result, const std::optional<std::string>& family);

}  // namespace benchreport

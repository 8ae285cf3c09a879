#include "benchreport/report/plot_axes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {

PlotScale plot_scale(std::span<const double> values, std::string_view unit) {
  if (unit.empty() || values.empty()) return {1.0, std::string(unit)};
  const bool has_nan = std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
  return display_scale(has_nan ? std::numeric_limits<double>::quiet_NaN() : median(values), unit);
}

HistoryAxis history_axis(std::span<const Series* const> drawn, std::optional<bool> relative) {
  std::set<std::string> units;
  for (const Series* s : drawn) units.emplace(base_symbol(s->unit.dimension));
  HistoryAxis axis;
  axis.relative = relative.value_or(drawn.size() > 1 || units.size() > 1);
  if (axis.relative) return axis;
  if (units.size() > 1) {
    throw InputError(fmt::format("cases in different units ({}): pass relative=True", fmt::join(units, ", ")));
  }
  std::vector<double> every;
  for (const Series* s : drawn) every.insert(every.end(), s->values.begin(), s->values.end());
  axis.scale = plot_scale(every, units.empty() ? std::string() : *units.begin());
  return axis;
}

namespace {

// A name as Python's repr() quotes it: single quotes unless it holds one and no double quote.
std::string quoted(const std::string& name) {
  const char q = name.find('\'') != std::string::npos && name.find('"') == std::string::npos ? '"' : '\'';
  return fmt::format("{}{}{}", q, name, q);
}

}  // namespace

ScalingFamilyPlot scaling_family_plot(const ScalingResult& result, const std::optional<std::string>& family) {
  // Each family's name and the fits drawn: base and head when compared, else its one fit.
  std::vector<std::pair<std::string, std::vector<const FamilyFit*>>> families;
  if (result.compared) {
    for (const auto& c : result.comparisons) families.push_back({c.name, {&c.base, &c.head}});
  } else {
    for (const auto& f : result.fits) families.push_back({f.name, {&f}});
  }
  if (families.empty()) throw InputError("no size families to plot");
  const auto named = [&family](const auto& f) { return f.first == *family; };
  const auto found = family ? std::find_if(families.begin(), families.end(), named) : families.begin();
  if (found == families.end()) {
    std::vector<std::string> names;
    for (const auto& f : families) names.push_back(f.first);
    throw InputError(fmt::format("no family {}; families: {}", quoted(*family), fmt::join(names, ", ")));
  }
  ScalingFamilyPlot plot;
  plot.index = static_cast<std::size_t>(found - families.begin());
  plot.title = family && !family->empty() ? *family : families.front().first;
  std::vector<double> costs;
  for (const FamilyFit* fit : found->second) {
    for (const SizeLevel& level : fit->levels) costs.insert(costs.end(), level.values.begin(), level.values.end());
  }
  plot.scale = plot_scale(costs, base_symbol(found->second.front()->unit.dimension));
  return plot;
}

}  // namespace benchreport

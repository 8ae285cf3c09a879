#include "benchreport/report/plot.hpp"

#include <fmt/format.h>

#include <cmath>

#include "benchreport/core/error.hpp"

namespace benchreport {

void Plot::validate() const {
  for (const PlotSeries& s : series) {
    if (s.x.size() != s.y.size()) {
      throw InputError(
          fmt::format("plot '{}', series '{}': {} x values but {} y values", title, s.name, s.x.size(), s.y.size()));
    }
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const bool gap = s.line && std::isnan(s.y[i]);  // a break in the line, not a point
      const bool bad_x = !std::isfinite(s.x[i]) || (log_x && s.x[i] <= 0);
      const bool bad_y = !gap && (!std::isfinite(s.y[i]) || (log_y && s.y[i] <= 0));
      if (bad_x || bad_y) {
        throw InputError(fmt::format("plot '{}', series '{}', point {}: ({}, {}) cannot be drawn on {} axes", title,
                                     s.name, i, s.x[i], s.y[i], log_x || log_y ? "log" : "linear"));
      }
    }
  }
  for (const PlotMarker& m : markers) {
    if (!std::isfinite(m.x) || (log_x && m.x <= 0)) {
      throw InputError(fmt::format("plot '{}', marker '{}': x = {} cannot be drawn", title, m.label, m.x));
    }
  }
}

}  // namespace benchreport

#pragma once
// A plot block: named series of (x, y) points on linear or log axes, with
// optional vertical markers and named x positions. Renderers that can draw
// (HTML: inline SVG) draw it; the others leave it out, so a plot only ever
// repeats numbers that a table of the same report shows.
#include <cstdint>
#include <string>
#include <vector>

namespace benchreport {

// How a series or marker is coloured: by its position, or as a change for the
// worse (a regression) or for the better.
enum class PlotTone : std::uint8_t { neutral, worse, better };

struct PlotSeries {
  std::string name;  // legend text (untrusted: escaped); empty: not in the legend
  std::vector<double> x, y;
  bool line = false;  // joined by a line (a fit, a level) rather than drawn as points (measurements)
  PlotTone tone = PlotTone::neutral;
};

// A vertical line across the plot at x (a change point), labelled at its top.
struct PlotMarker {
  double x = 0;
  std::string label;  // untrusted: escaped
  PlotTone tone = PlotTone::neutral;
};

struct Plot {
  std::string title, x_label, y_label;
  bool log_x = true, log_y = true;
  // Base unit symbols of the axes ("s", "B", "ops/s"; empty: a plain number):
  // tick labels are 1-2-5 values with an SI prefix ("20 µs", "200k").
  std::string x_unit, y_unit;
  // When set, x is a position 0, 1, ... and the ticks are these names (commits).
  std::vector<std::string> x_names;
  std::vector<PlotSeries> series;
  std::vector<PlotMarker> markers;

  // Throws InputError naming the plot and series when x and y differ in length,
  // a value is not finite (a line's y may be NaN: a gap in the line), a log
  // axis gets a value <= 0, or a marker's x is not finite.
  void validate() const;
};

}  // namespace benchreport

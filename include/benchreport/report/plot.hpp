#pragma once
// A plot block: named series of (x, y) points on linear or log axes. Renderers
// that can draw (HTML: inline SVG) draw it; the others leave it out, so a plot
// only ever repeats numbers that a table of the same report shows.
#include <string>
#include <vector>

namespace benchreport {

struct PlotSeries {
  std::string name;  // legend text (untrusted: escaped)
  std::vector<double> x, y;
  bool line = false;  // joined by a line (a fit) rather than drawn as points (measurements)
};

struct Plot {
  std::string title, x_label, y_label;
  bool log_x = true, log_y = true;
  std::vector<PlotSeries> series;

  // Throws InputError naming the plot and series when x and y differ in length,
  // a value is not finite, or a log axis gets a value <= 0.
  void validate() const;
};

}  // namespace benchreport

#pragma once
// Internal: a Plot block as one inline SVG (used by the HTML renderer).
#include <string>

#include "benchreport/report/plot.hpp"

namespace benchreport {

// A self-contained <svg> (no scripts, no external references); every string
// from the plot is escaped. Log axes get a tick per power of ten.
std::string plot_svg(const Plot& plot);

}  // namespace benchreport

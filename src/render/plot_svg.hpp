#pragma once
// Internal: a Plot block as one inline SVG (used by the HTML renderer).
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/report/plot.hpp"

namespace benchreport {

// A self-contained <svg> (no scripts, no external references); every string
// from the plot is escaped. Ticks are 1-2-5 values (log axes: powers of ten
// when three or more fit) labelled with an SI prefix and the axis unit.
std::string plot_svg(const Plot& plot);

// Tick values of the range [lo, hi] (data units, lo < hi; lo > 0 when log).
std::vector<double> plot_ticks(double lo, double hi, bool log);

// A tick label: `value` with an SI prefix and `unit` ("20 µs", "200k",
// "1.5 MB"), with the decimals `resolution` (the tick step) needs.
std::string tick_label(double value, double resolution, std::string_view unit);

}  // namespace benchreport

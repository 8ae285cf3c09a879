#pragma once
// Numbers in the "g" format of printf and Python (significant digits, exponent when large or
// small, "nan" and "inf" spelled out rather than a dash): for text that Python tools show beside
// benchreport's reports — matplotlib's tick and legend labels, the notebook's statistics table.
#include <string>
#include <string_view>

namespace benchreport {

// `value` with `digits` significant digits, as Python's f"{value:.{digits}g}" ("nan", never "-nan").
std::string format_general(double value, int digits = 6);

// A tick label people read: 3 significant digits with a k, M, G or T suffix from a thousand up
// ("200k", "1.08M", not "184536" or "1.0838e+06"); 0 and non-finite values as format_general.
std::string human_number(double value);

// A legend value with its unit: 4 significant digits, then the unit after a space ("19.74 µs").
std::string value_with_unit(double value, std::string_view unit);

}  // namespace benchreport

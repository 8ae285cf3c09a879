#pragma once
// Messages quote values the way Python shows them (`--alpha 1.5`, `--label 'x'`,
// a store's commit), and numbers are parsed as Python's float() does, so a
// message reads the same whichever side of the binding produced it.
#include <optional>
#include <string>
#include <string_view>

namespace benchreport {

// Python's repr() of a str: single quotes unless the text holds ' and no ",
// backslash escapes for the quote, \, \t, \n, \r, other controls and the
// invisible format characters; bytes that are not UTF-8 as \udcXX (how
// Python decodes a command-line argument it cannot read).
std::string repr_text(std::string_view text);

// Python's repr() of a float: shortest round-trip digits, fixed notation
// with at least one decimal for exponents -4..15 ("5.0", "0.05"), else
// scientific ("1e-05", "1e+16"); "nan", "inf", "-inf".
std::string repr_number(double value);

// Python's float(text): surrounding whitespace, a sign, `_` between digits,
// inf/infinity/nan in any case; nullopt when it is no number.
std::optional<double> parse_float(std::string_view text);

// Text without leading and trailing ASCII whitespace (Python's str.strip on it).
std::string_view strip(std::string_view text);

}  // namespace benchreport

#pragma once
// Internal: one fast pass over a JSON text before simdjson parses it. It
// enforces the nesting limit (simdjson's on-demand front end does not while it
// skips values) and counts what readers use to size their arrays up front.
#include <cstddef>
#include <string_view>

namespace benchreport::io {

struct JsonShape {
  std::size_t commas = 0;  // outside strings
  std::size_t opens = 0;   // '[' and '{' outside strings
  std::size_t depth_at_end = 0;
  bool closes_below_zero = false;  // a closing bracket with nothing open
  bool ends_in_string = false;
  // At least the number of elements of all arrays together (each element
  // follows a comma or an opening bracket): a bound for reserving.
  std::size_t max_elements() const { return commas + opens; }
  // Every bracket outside strings is matched (kinds not compared).
  bool balanced() const { return depth_at_end == 0 && !closes_below_zero && !ends_in_string; }
};

// Throws InputError "<name>:<line>: JSON nesting deeper than the limit of
// <max_depth> levels (raise ReadOptions::max_depth)". Strings (with escapes)
// are skipped; the text need not be valid JSON.
JsonShape scan_json(std::string_view json, std::size_t max_depth, std::string_view name);

}  // namespace benchreport::io

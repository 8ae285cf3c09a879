#include "benchreport/cli/usage_error.hpp"

#include "benchreport/core/python_text.hpp"
#include "benchreport/core/escape.hpp"

namespace benchreport::cli {

std::string one_line(std::string_view text, bool whole, std::string_view type_name) {
  text = strip(text);
  if (text.empty()) return std::string(type_name);
  if (!whole) text = text.substr(0, text.find_first_of("\n\r\v\f\x1c\x1d\x1e"));
  return neutralize_text(text);
}

}  // namespace benchreport::cli

#pragma once
// Problems with the command line or its inputs, and how any error becomes
// the one line `benchreport: error: ...` prints (exit 2).
#include <stdexcept>
#include <string>
#include <string_view>

namespace benchreport::cli {

// A usage problem: reported in one line, exit 2 (bound to cli.UsageError).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An error message as one terminal-safe line: stripped; the whole text when
// `whole` (an InputError, whose input text may hold newlines: they become
// spaces), else its first line; `type_name` when nothing is left.
std::string one_line(std::string_view text, bool whole, std::string_view type_name);

}  // namespace benchreport::cli

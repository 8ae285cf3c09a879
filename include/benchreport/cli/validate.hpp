#pragma once
// `benchreport validate`: one line per input, `ok <name>: ...` with the
// input's warnings (and with --verbose its notes) indented below, or
// `INVALID <problem>`; every input text neutralised.
#include <string>
#include <string_view>

namespace benchreport {
class Dataset;
}

namespace benchreport::cli {

// The lines (each ending in a newline) for an input that read cleanly.
std::string validate_ok_lines(std::string_view name, const Dataset& dataset, bool verbose);

// The line (no newline) for an input that did not; the problem is prefixed
// with the input's name unless it names it already.
std::string validate_invalid_line(std::string_view name, std::string_view problem);

}  // namespace benchreport::cli

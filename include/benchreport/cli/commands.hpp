#pragma once
// The options of each command, declared once: the Python skin feeds them to
// argparse (`benchreport COMMAND --help` shows them; docs/cli.md follows them).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport::cli {

// One argparse argument.
struct Option {
  std::vector<std::string> flags;  // "--format", "-f"; or a positional's name
  std::string help;
  std::string type;                          // "" (text), "int" or "float"
  std::string action;                        // "", "store_true" or "append"
  std::optional<std::string> default_value;  // as text in `type`; "[]" = an empty list
  std::string nargs, metavar;
  std::vector<std::string> choices;
  bool required = false;  // an option (not a positional) argparse insists on
};

// Inputs, --input-format, --label, the --max-* limits, --quiet, --verbose;
// positional inputs are optional unless `required`.
std::vector<Option> input_options(bool required);

// compare, summary, scaling, history, runners, matrix, convert, validate, demo,
// record, ack, and the store's actions "store export" and "store import";
// InputError for another name.
std::vector<Option> command_options(std::string_view command);

}  // namespace benchreport::cli

// The submodule _core.cli: the command line's work below argparse (cli/*.hpp):
// inputs and stdin, the input budget, reading with a progress bar, option
// parsing, the validate lines and the gate message, and each command's
// option declarations. Text reaches Python's streams through write callbacks,
// never the process's file descriptors.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchreport/cli/budget.hpp"
#include "benchreport/cli/commands.hpp"
#include "benchreport/cli/gate.hpp"
#include "benchreport/cli/inputs.hpp"
#include "benchreport/cli/load.hpp"
#include "benchreport/cli/options.hpp"
#include "benchreport/cli/progress.hpp"
#include "benchreport/cli/usage_error.hpp"
#include "benchreport/cli/validate.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/dataset.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

using namespace benchreport::cli;

// A path or name as bytes: str through os.fsencode (undecodable argv bytes come back), bytes as they are.
std::string path_bytes(const py::handle& text) {
  return py::module_::import("os").attr("fsencode")(text).cast<std::string>();
}

py::str path_text(const std::string& bytes) { return py::module_::import("os").attr("fsdecode")(py::bytes(bytes)); }

std::vector<std::string> path_list(const py::handle& items) {
  std::vector<std::string> out;
  if (!items.is_none())
    for (const auto& item : items) out.push_back(path_bytes(item));
  return out;
}

const Dataset& dataset_of(const py::handle& dataset) { return dataset.attr("_ds").cast<const Dataset&>(); }

py::dict as_dict(const std::vector<std::pair<std::string, std::string>>& pairs) {
  py::dict out;
  for (const auto& [key, value] : pairs) out[py::str(key)] = value;
  return out;
}

// An Option as (flags, argparse keyword arguments).
py::tuple argparse_call(const Option& option) {
  const py::module_ builtins = py::module_::import("builtins");
  py::dict kwargs;
  if (!option.type.empty()) kwargs["type"] = builtins.attr(option.type.c_str());
  if (!option.action.empty()) kwargs["action"] = option.action;
  if (!option.nargs.empty()) kwargs["nargs"] = option.nargs;
  if (!option.choices.empty()) kwargs["choices"] = option.choices;
  if (option.default_value) {
    const std::string& value = *option.default_value;
    kwargs["default"] = value == "[]"         ? py::object(py::list())
                        : option.type.empty() ? py::object(py::str(value))
                                              : builtins.attr(option.type.c_str())(value);
  } else if (!option.type.empty()) {
    kwargs["default"] = py::none();
  }
  if (!option.metavar.empty()) kwargs["metavar"] = option.metavar;
  if (option.required) kwargs["required"] = true;
  kwargs["help"] = option.help;
  return py::make_tuple(py::tuple(py::cast(option.flags)), kwargs);
}

void bind_inputs(py::module_& m) {
  py::class_<Source>(m, "Source", "One input: a path (file or folder) or the bytes read from stdin.")
      .def(py::init([](const py::object& name, const std::optional<py::bytes>& data) {
             Source source{path_bytes(name), nullptr};
             if (data) source.data = std::make_shared<const std::string>(data->cast<std::string>());
             return source;
           }),
           "name"_a, "data"_a = py::none())
      .def_property_readonly("name", [](const Source& s) { return path_text(s.name); })
      .def_property_readonly(
          "data",
          [](const Source& s) -> std::optional<py::bytes> {
            if (!s.data) return std::nullopt;
            return py::bytes(*s.data);
          },
          "stdin's bytes, or None for a path.")
      .def_property_readonly("is_stdin", &Source::is_stdin)
      .def("__repr__",
           [](const Source& s) { return "Source(" + py::repr(path_text(s.name)).cast<std::string>() + ")"; });
  m.attr("MAX_STDIN_BYTES") = kMaxStdinBytes;
  m.attr("STDIN_NAME") = std::string(kStdinName);
  m.def(
      "expand_inputs",
      [](const py::object& items, const std::function<py::bytes(std::uint64_t)>& read_stdin, std::uint64_t max_bytes) {
        return expand_inputs(
            path_list(items), [&](std::uint64_t limit) { return read_stdin(limit).cast<std::string>(); }, max_bytes);
      },
      "items"_a, "read_stdin"_a, "max_bytes"_a = kMaxStdinBytes,
      "Files, folders and globs as given (globs in natural order); - reads stdin once through read_stdin(limit) "
      "(at most max_bytes). UsageError for an item nothing matches, a second -, or no items.");
  m.def("input_bytes", &input_bytes, "sources"_a,
        "Bytes of the inputs as stored (folders summed over their files; stdin as read).");
  m.def("source_bytes", &source_bytes, "source"_a,
        "Bytes a source decompresses to (a .gz by the larger of its size and its gzip trailer's length).");
}

void bind_reading(py::module_& m) {
  py::class_<InputBudget>(m, "InputBudget",
                          "The totals of --max-samples and --max-input-bytes over every input of a command; under a "
                          "memory limit, inputs whose estimated need exceeds it are refused before reading.")
      .def(py::init([](std::optional<std::uint64_t> max_samples, std::optional<std::uint64_t> max_bytes,
                       std::optional<std::uint64_t> memory_bytes, const std::string& memory_description,
                       const std::optional<std::function<std::uint64_t(std::uint64_t)>>& memory_need) {
             std::optional<MemoryBudget> memory;
             if (memory_bytes && memory_need) memory = MemoryBudget{*memory_bytes, memory_description, *memory_need};
             return InputBudget(max_samples, max_bytes, std::move(memory));
           }),
           "max_samples"_a = py::none(), "max_bytes"_a = py::none(), "memory_bytes"_a = py::none(),
           "memory_description"_a = "", "memory_need"_a = py::none())
      .def_property_readonly("total_samples", &InputBudget::total_samples)
      .def_property_readonly("total_bytes", &InputBudget::total_bytes);
  py::class_<Progress>(m, "Progress", "A one-line progress bar through write(text), drawn only on a terminal.")
      .def(py::init([](std::uint64_t total, const std::function<void(py::str)>& write, const std::string& label,
                       std::uint64_t size, bool quiet, bool terminal, std::uint64_t min_inputs,
                       std::uint64_t min_bytes) {
             return Progress(
                 total, [write](std::string_view text) { write(py::str(text.data(), text.size())); }, label, size,
                 quiet, terminal, ProgressPolicy{min_inputs, min_bytes});
           }),
           "total"_a, "write"_a, "label"_a = "reading", py::kw_only(), "size"_a = 0, "quiet"_a = false,
           "terminal"_a = false, "min_inputs"_a = ProgressPolicy{}.min_inputs,
           "min_bytes"_a = ProgressPolicy{}.min_bytes)
      .def_property_readonly("enabled", &Progress::enabled)
      .def(
          "update", [](Progress& p, std::uint64_t done, const py::object& name) { p.update(done, path_bytes(name)); },
          "done"_a, "name"_a = "")
      .def("close", &Progress::close);
  m.def(
      "status_text", [](const py::object& text) { return status_text(path_bytes(py::str(text))); }, "text"_a,
      "A status line: the text neutralised, at the start of a cleared line.");
  m.def(
      "load_sources",
      [](const std::vector<Source>& sources, InputBudget& budget, Progress& progress, const py::function& read) {
        const py::object input_error = py::module_::import("benchreport._core").attr("InputError");
        py::list parts;
        load_sources(sources, budget, progress, [&](const Source& source, const ReadLimits& limits) -> std::uint64_t {
          py::dict kwargs;
          if (limits.max_samples) kwargs["max_samples"] = *limits.max_samples;
          if (limits.max_file_size) kwargs["max_file_size"] = *limits.max_file_size;
          py::object dataset;
          try {
            dataset = read(source, kwargs);
          } catch (py::error_already_set& error) {
            if (error.matches(input_error)) throw InputError(py::str(error.value()).cast<std::string>());
            throw;
          }
          parts.append(dataset);
          return py::len(dataset.attr("values_as_read"));
        });
        return parts;
      },
      "sources"_a, "budget"_a, "progress"_a, "read"_a,
      "Every source read in order by read(source, limits) under the budget, the bar advanced before each; one "
      "Dataset per source. A reader's limit error names the option it came from.");
  m.def(
      "needs_file_column",
      [](const py::list& parts) {
        std::vector<const Dataset*> datasets;
        for (const auto& part : parts) datasets.push_back(&dataset_of(part));
        return needs_file_column(datasets);
      },
      "parts"_a, "Whether the inputs' sets repeat one another's labels (a file label must tell them apart).");
}

void bind_options(py::module_& m) {
  m.def(
      "parse_threshold", [](const py::object& text) { return parse_threshold(path_bytes(py::str(text))); }, "text"_a,
      "5% or 0.05 -> 0.05. A bare number of 1 or more is refused: --threshold 5 would mean 500 %.");
  m.def("check_fraction", &check_fraction, "value"_a, "option"_a, "upper"_a = 1.0,
        "A fraction in (0, upper): 0.05 means 5 %.");
  m.def(
      "parse_size",
      [](const py::object& text) -> std::optional<double> {
        if (text.is_none()) return std::nullopt;
        return parse_size(path_bytes(text));
      },
      "text"_a, "--at: a size > 0, or None.");
  m.def(
      "parse_baseline",
      [](const py::object& text) {
        const auto [key, value] = parse_baseline(path_bytes(text));
        return as_dict({{key, value}});
      },
      "text"_a, "--baseline LABEL=VALUE as {label: value}.");
  m.def(
      "parse_labels", [](const py::object& options) { return as_dict(parse_labels(path_list(options))); }, "options"_a,
      "--label KEY=VALUE options as a dict (the last one wins for a repeated key).");
  m.def(
      "parse_key_values",
      [](const py::object& options, const std::string& option, const std::string& example) {
        return as_dict(parse_key_values(path_list(options), option, example));
      },
      "options"_a, "option"_a, "example"_a,
      "Repeatable KEY=VALUE options (record's --env) as a dict (the last one wins for a repeated key); a UsageError "
      "naming option and showing example for a malformed one.");
  m.def(
      "split_columns", [](const py::object& values) { return split_columns(path_list(values)); }, "values"_a,
      "Repeatable comma-separated column options as one list.");
  m.def("check_columns", &check_columns, "known"_a, "columns"_a, "option"_a,
        "UsageError naming the columns the inputs lack, before a preset fails on them less clearly.");
  m.def("check_integer_option", &check_integer_option, "name"_a, "decimal"_a,
        "UsageError when an integer option lies outside the range the core takes.");
  m.def("one_line", &one_line, "text"_a, "whole"_a, "type_name"_a,
        "An error message as one terminal-safe line (whole: every line joined, else the first).");
}

void bind_commands(py::module_& m) {
  m.def(
      "input_options",
      [](bool required) {
        py::list out;
        for (const Option& option : input_options(required)) out.append(argparse_call(option));
        return out;
      },
      "required"_a, "The input options as (flags, argparse keywords).");
  m.def(
      "command_options",
      [](const std::string& command) {
        py::list out;
        for (const Option& option : command_options(command)) out.append(argparse_call(option));
        return out;
      },
      "command"_a,
      "A command's options as (flags, argparse keywords); the store's actions are \"store export\" and "
      "\"store import\".");
  m.def(
      "validate_ok_lines",
      [](const py::object& name, const py::handle& dataset, bool verbose) {
        return validate_ok_lines(path_bytes(name), dataset_of(dataset), verbose);
      },
      "name"_a, "dataset"_a, "verbose"_a, "validate's lines for an input that read cleanly.");
  m.def(
      "validate_invalid_line",
      [](const py::object& name, const std::string& problem) {
        return validate_invalid_line(path_bytes(name), problem);
      },
      "name"_a, "problem"_a, "validate's INVALID line for an input that did not.");
  m.def(
      "gate_message",
      [](const py::iterable& cases) {
        std::vector<GateCase> gate;
        for (const auto& c : cases) {
          GateCase one{c.attr("verdict").cast<std::string>(), {}, c.attr("name").cast<std::string>()};
          for (const auto& item : c.attr("key").attr("items")()) {
            const auto pair = py::reinterpret_borrow<py::tuple>(item);
            one.key.emplace_back(pair[0].cast<std::string>(), pair[1].cast<std::string>());
          }
          gate.push_back(std::move(one));
        }
        return gate_message(gate);
      },
      "cases"_a, "compare --fail-on slower: the stderr line naming the slower cases, or None.");
}

}  // namespace

void register_cli(py::module_& m) {
  py::module_ sub = m.def_submodule("cli", "The command line's work below argparse (cli/*.hpp).");
  py::register_exception<benchreport::cli::UsageError>(sub, "UsageError", PyExc_Exception).doc() =
      "A problem with the command line or its inputs: reported in one line, exit 2.";
  bind_inputs(sub);
  bind_reading(sub);
  bind_options(sub);
  bind_commands(sub);
}

}  // namespace benchreport::python

// The submodule _core.cli: the command line's work below argparse (cli/*.hpp):
// inputs and stdin, the input budget, reading with a progress bar, option
// parsing, the validate lines and the gate message, and each command's
// option declarations, and the commands themselves (cli/run.hpp): the argparse
// namespace becomes CommandOptions here, in one place. Text reaches Python's
// streams through write callbacks, never the process's file descriptors.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchreport/cli/budget.hpp"
#include "benchreport/cli/command_inputs.hpp"
#include "benchreport/cli/commands.hpp"
#include "benchreport/cli/emit.hpp"
#include "benchreport/cli/gate.hpp"
#include "benchreport/cli/inputs.hpp"
#include "benchreport/cli/load.hpp"
#include "benchreport/cli/options.hpp"
#include "benchreport/cli/outputs.hpp"
#include "benchreport/cli/progress.hpp"
#include "benchreport/cli/run.hpp"
#include "benchreport/cli/usage_error.hpp"
#include "benchreport/cli/validate.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/dataset.hpp"
#include "exceptions.hpp"
#include "preset_results.hpp"
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
  m.def(
      "one_line",
      [](const py::object& text, bool whole, const std::string& type_name) {
        return one_line(path_bytes(py::str(text)), whole, type_name);
      },
      "text"_a, "whole"_a, "type_name"_a,
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

// ---- the commands ----------------------------------------------------------------------

// The value of a namespace field in a CommandOptions field; None keeps the default.
void assign(const py::handle& value, std::string& field) { field = path_bytes(value); }
void assign(const py::handle& value, std::optional<std::string>& field) { field = path_bytes(value); }
void assign(const py::handle& value, std::vector<std::string>& field) { field = path_list(value); }
template <class Number>
void assign(const py::handle& value, Number& field) {
  field = value.cast<Number>();
}
template <class Number>
void assign(const py::handle& value, std::optional<Number>& field) {
  field = value.cast<Number>();
}

template <class Field>
void read_field(const py::handle& args, const char* name, Field& field) {
  const py::object value = py::getattr(args, name, py::none());
  if (!value.is_none()) assign(value, field);
}

// The argparse namespace as CommandOptions: the one place its fields are read (names as argparse's dests).
CommandOptions options_of(const py::handle& args) {
  CommandOptions o;
  const auto text_fields = {std::pair{"input_format", &o.input_format},
                            {"format", &o.format},
                            {"baseline", &o.baseline},
                            {"threshold", &o.threshold},
                            {"min_magnitude", &o.min_magnitude},
                            {"method", &o.method},
                            {"stat", &o.stat}};
  for (const auto& [name, field] : text_fields) read_field(args, name, *field);
  const auto maybe_fields = {std::pair{"output", &o.output},
                             {"comment_file", &o.comment_file},
                             {"head_value", &o.head_value},
                             {"fail_on", &o.fail_on},
                             {"bmf_dir", &o.bmf_dir},
                             {"size_label", &o.size_label},
                             {"at", &o.at},
                             {"order", &o.order},
                             {"output_dir", &o.output_dir}};
  for (const auto& [name, field] : maybe_fields) read_field(args, name, *field);
  const auto list_fields = {
      std::pair{"inputs", &o.inputs}, {"label", &o.labels}, {"by", &o.by},    {"rows", &o.rows}, {"cols", &o.cols},
      {"tables", &o.tables},          {"base", &o.base},    {"head", &o.head}};
  for (const auto& [name, field] : list_fields) read_field(args, name, *field);
  const auto flag_fields = {std::pair{"quiet", &o.quiet},
                            {"verbose", &o.verbose},
                            {"github", &o.github},
                            {"no_check", &o.no_check},
                            {"assume_launches_identical", &o.assume_launches_identical}};
  for (const auto& [name, field] : flag_fields) read_field(args, name, *field);
  const auto real_fields = {std::pair{"alpha", &o.alpha},
                            {"confidence", &o.confidence},
                            {"exponent_threshold", &o.exponent_threshold},
                            {"max_p_value", &o.max_p_value},
                            {"screen_p_value", &o.screen_p_value}};
  for (const auto& [name, field] : real_fields) read_field(args, name, *field);
  const auto size_fields = {std::pair{"budget", &o.budget},
                            {"size_argument", &o.size_argument},
                            {"permutations", &o.permutations},
                            {"k", &o.k}};
  for (const auto& [name, field] : size_fields) read_field(args, name, *field);
  read_field(args, "max_samples", o.max_samples);
  read_field(args, "max_input_bytes", o.max_input_bytes);
  read_field(args, "seed", o.seed);
  read_field(args, "resamples", o.resamples);
  const py::object limit = py::getattr(args, "memory_limit", py::none());
  if (!limit.is_none())
    o.memory_limit = MemoryLimit{limit[py::int_(0)].cast<std::uint64_t>(), path_bytes(limit[py::int_(1)])};
  const py::object summary = py::module_::import("os").attr("environ").attr("get")("GITHUB_STEP_SUMMARY");
  if (!summary.is_none() && py::len(summary) > 0) o.step_summary = path_bytes(summary);
  // The skin's thresholds (module constants, so that a test can lower them).
  const py::module_ skin = py::module_::import("benchreport.cli");
  o.progress = {skin.attr("PROGRESS_MIN_INPUTS").cast<std::uint64_t>(),
                skin.attr("PROGRESS_MIN_BYTES").cast<std::uint64_t>()};
  o.status_min_sets = skin.attr("PROGRESS_MIN_SETS").cast<std::size_t>();
  return o;
}

bool is_terminal(const py::object& stream) {
  try {
    return stream.attr("isatty")().cast<bool>();
  } catch (py::error_already_set& error) {
    if (error.matches(PyExc_AttributeError) || error.matches(PyExc_ValueError)) return false;
    throw;
  }
}

// Text to a Python stream: stdout written, stderr also flushed (a progress bar shows at once).
Write stream_writer(const char* name, bool flush) {
  return [name, flush](std::string_view text) {
    const py::object stream = py::module_::import("sys").attr(name);
    stream.attr("write")(py::str(text.data(), text.size()));
    if (flush) stream.attr("flush")();
  };
}

// An exception as the one line `benchreport: error:` and validate's INVALID show: an InputError
// whole, an OSError as "file: reason", a KeyError as the key missing, anything else its first line.
std::string error_line(const py::object& error) {
  const py::module_ builtins = py::module_::import("builtins");
  const py::object input_error = py::module_::import("benchreport._core").attr("InputError");
  py::object text = py::str(error);
  if (py::isinstance(error, builtins.attr("OSError")) && !error.attr("filename").is_none() &&
      py::bool_(error.attr("strerror"))) {
    text = py::str("{}: {}").format(error.attr("filename"), error.attr("strerror"));
  }
  if (py::isinstance(error, builtins.attr("KeyError")) && py::bool_(error.attr("args")) &&
      !py::isinstance(error, input_error)) {
    text = py::str("no such label or key: {}").format(error.attr("args")[py::int_(0)]);
  }
  return one_line(path_bytes(text), py::isinstance(error, input_error),
                  py::type::of(error).attr("__name__").cast<std::string>());
}

// The skin's reader read(source, limits) -> Dataset. A reader's InputError reaches the budget
// as C++ (which names the option behind a limit); with `as_problems` (validate) every
// ValueError and OSError becomes the ReadProblem line that validate prints.
ReadDataset python_reader(const py::object& read, bool as_problems) {
  return [read, as_problems](const Source& source, const ReadLimits& limits) -> std::shared_ptr<const Dataset> {
    py::dict kwargs;
    if (limits.max_samples) kwargs["max_samples"] = *limits.max_samples;
    if (limits.max_file_size) kwargs["max_file_size"] = *limits.max_file_size;
    try {
      const auto core = std::make_shared<py::object>(read(source, kwargs).attr("_ds"));
      return {core, &core->cast<const Dataset&>()};
    } catch (py::error_already_set& error) {
      if (as_problems && (error.matches(PyExc_ValueError) || error.matches(PyExc_OSError)))
        throw ReadProblem(error_line(error.value()));
      if (!as_problems && error.matches(py::module_::import("benchreport._core").attr("InputError")))
        throw InputError(path_bytes(py::str(error.value())));
      throw;
    }
  };
}

// Python's streams (looked up at each write: a test may swap them) and stdin's bytes.
CommandIo python_io(const py::object& read, bool as_problems = false) {
  const py::module_ sys = py::module_::import("sys");
  CommandIo io;
  io.read = python_reader(read, as_problems);
  io.read_stdin = [](std::uint64_t limit) {
    const py::object stream = py::module_::import("sys").attr("stdin");
    py::object data = (py::hasattr(stream, "buffer") ? stream.attr("buffer") : stream).attr("read")(limit);
    if (py::isinstance<py::str>(data)) data = data.attr("encode")("utf-8");
    return py::bytes(data).cast<std::string>();
  };
  io.out = stream_writer("stdout", false);
  io.err = stream_writer("stderr", true);
  io.out_is_terminal = is_terminal(sys.attr("stdout"));
  io.err_is_terminal = is_terminal(sys.attr("stderr"));
  io.check_signals = [] {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  };
  // -o through the bound Report.render_to_fd, as a Python caller renders it (a signal arriving while it
  // writes is raised there); its OSError becomes the writer's error, named by its reason.
  io.render_to_fd = [](const Report& report, int fd, const std::string& format, std::size_t budget) {
    try {
      py::cast(&report, py::return_value_policy::reference)
          .attr("render_to_fd")(fd, "format"_a = format, "markdown_budget"_a = budget);
    } catch (py::error_already_set& raised) {
      if (!raised.matches(PyExc_OSError)) throw;
      const py::object reason = raised.value().attr("strerror");
      throw DescriptorWriteError{py::str(py::bool_(reason) ? reason : raised.value())};
    }
  };
  return io;
}

// compare --store: the skin's compare (launch noise from the store) called with the same options.
Compare python_compare(const py::object& compare, const CommandOptions& options) {
  return [compare, &options](const Dataset& dataset, const ComparisonReportOptions& o) {
    const py::object wrapped = py::module_::import("benchreport._dataset").attr("Dataset")(dataset);
    py::dict baseline;
    baseline[py::str(o.baseline_column)] = o.baseline_value;
    const py::object result = compare(
        wrapped, "baseline"_a = baseline, "by"_a = o.by.empty() ? py::object(py::none()) : py::cast(o.by),
        "threshold"_a = o.threshold, "alpha"_a = o.alpha, "confidence"_a = o.confidence, "seed"_a = o.seed,
        "resamples"_a = o.resamples, "gate"_a = o.gate, "head_value"_a = options.head_value,
        "check_comparability"_a = o.check_comparability, "assume_launches_identical"_a = o.assume_launches_identical);
    const auto& preset = result.cast<const ComparisonPreset&>();
    const auto kept = std::make_shared<py::object>(result);
    return ComparisonOutcome{
        std::shared_ptr<const Report>(kept, &preset.report), gate_cases(*preset.view),
        [kept] { return kept->attr("bmf_files")().cast<std::vector<std::pair<std::string, std::string>>>(); }};
  };
}

int run_command(const py::object& args, const py::object& read, const py::object& compare, const py::object& read_table,
                const py::object& demo_reports) {
  const std::string command = py::getattr(args, "command").cast<std::string>();
  const CommandOptions options = options_of(args);
  const CommandIo io = python_io(read, command == "validate");
  if (command == "summary") return run_summary(options, io);
  if (command == "runners") return run_runners(options, io);
  if (command == "matrix") return run_matrix(options, io);
  if (command == "scaling") return run_scaling(options, io);
  if (command == "validate") return run_validate(options, io);
  if (command == "compare")
    return compare.is_none() ? run_compare(options, io) : run_compare(options, io, python_compare(compare, options));
  if (command == "history") {
    return run_history(options, io, [&read_table](const Source& source) -> std::shared_ptr<const Dataset> {
      const auto core = std::make_shared<py::object>(read_table(source).attr("_ds"));
      return {core, &core->cast<const Dataset&>()};
    });
  }
  if (command == "demo") {
    return run_demo(options, io, [&demo_reports](long long resamples) {
      NamedReports reports;
      for (const auto& item : demo_reports(resamples)) {
        const auto pair = py::reinterpret_borrow<py::tuple>(item);
        const auto kept = std::make_shared<py::object>(pair[1]);
        reports.emplace_back(pair[0].cast<std::string>(),
                             std::shared_ptr<const Report>(kept, &kept->cast<const Report&>()));
      }
      return reports;
    });
  }
  throw UsageError("no command " + command + " below argparse");
}

void bind_runs(py::module_& m) {
  m.attr("EXTENSIONS") = [] {
    py::dict out;
    for (const char* format : {"markdown", "html", "text", "csv", "json"}) out[format] = format_extension(format);
    return out;
  }();
  m.def("run_command", &run_command, "args"_a, "read"_a, py::kw_only(), "compare"_a = py::none(),
        "read_table"_a = py::none(), "demo_reports"_a = py::none(),
        "Runs args.command (summary, runners, matrix, scaling, compare, history, validate, demo) with the options "
        "of the argparse namespace args (cli/run.hpp); read(source, limits) -> Dataset reads an input. compare: "
        "another compare(dataset, baseline=, by=, ...) taking the comparison options as keywords (launch noise from a "
        "store); read_table(source) -> Dataset: "
        "history's Parquet/Arrow files; demo_reports(resamples) -> [(name, Report)]. Returns the exit code.");
  m.def(
      "load_inputs",
      [](const py::object& args, const py::object& read) { return load_inputs(options_of(args), python_io(read)); },
      "args"_a, "read"_a, "The namespace's positional inputs read, joined and labelled (--label) as one Dataset.");
  m.def(
      "load_sides",
      [](const py::object& base, const py::object& head, const py::object& column, const py::object& base_value,
         const py::object& head_value, const py::object& read, bool quiet, const py::object& budget, bool verbose) {
        CommandOptions options;
        options.quiet = quiet;
        options.verbose = verbose;
        InputBudget unlimited;
        return load_sides(path_list(base), path_list(head), {path_bytes(column), path_bytes(base_value)},
                          path_bytes(head_value), options, python_io(read),
                          budget.is_none() ? unlimited : budget.cast<InputBudget&>());
      },
      "base"_a, "head"_a, "column"_a, "base_value"_a, "head_value"_a, "read"_a, py::kw_only(), "quiet"_a = false,
      "budget"_a = py::none(), "verbose"_a = false,
      "Each --base/--head input read as a process of its side (label_sides); base-1 pairs with head-1.");
  m.def(
      "emit",
      [](const Report& report, const py::object& args) { emit(report, options_of(args), python_io(py::none())); },
      "report"_a, "args"_a,
      "Writes the report as the namespace asks (stdout or -o, --format, --budget, --github), every path checked "
      "first.");
  m.def(
      "write_github",
      [](const Report& report, std::size_t budget, const py::object& comment_file) {
        const CommandIo io = python_io(py::none());
        const py::object summary = py::module_::import("os").attr("environ").attr("get")("GITHUB_STEP_SUMMARY");
        std::optional<std::string> step_summary;
        if (!summary.is_none() && py::len(summary) > 0) step_summary = path_bytes(summary);
        std::vector<std::string> held;
        const auto outputs =
            github_outputs(report, budget, comment_file.is_none() ? kDefaultCommentFile : path_bytes(comment_file),
                           step_summary, io, held);
        write_outputs(outputs);
        return path_text(say_github_written(outputs, io));
      },
      "report"_a, "budget"_a = kGithubCommentBudget, "comment_file"_a = py::none(),
      "Appends the Markdown report to $GITHUB_STEP_SUMMARY (when set) and writes a PR comment body within the "
      "budget (0 = GitHub's limit); every path is checked first. Returns the comment file's path.");
  m.def("error_line", &error_line, "error"_a,
        "The exception as one terminal-safe line: an InputError whole, an OSError as 'file: reason', a KeyError as "
        "the missing key, anything else its first line.");
}

// UsageError, its message decoded as Python decodes a command line (exceptions.hpp).
void bind_usage_error(py::module_& m) {
  register_decoded_exception<UsageError>(
      m, "UsageError", PyExc_Exception, "A problem with the command line or its inputs: reported in one line, exit 2.");
}

}  // namespace

void register_cli(py::module_& m) {
  py::module_ sub = m.def_submodule("cli", "The command line's work below argparse (cli/*.hpp).");
  bind_usage_error(sub);
  bind_inputs(sub);
  bind_reading(sub);
  bind_options(sub);
  bind_commands(sub);
  bind_runs(sub);
}

}  // namespace benchreport::python

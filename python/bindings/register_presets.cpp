// Bindings of the presets (presets/*.hpp, compare/dataset.hpp, compare/matrix.hpp): the functions
// br.compare, br.summary, br.runners, br.matrix and their *_report forms, with typed keywords whose
// defaults are the C++ options' own (None keeps a C++ default); the result classes they return are
// in preset_results.cpp. Also BMF out, SHA-256 and parameter fingerprints. The skin is
// python/benchreport/_presets.py (pickling by the call, paths as sides, the packaged examples).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <map>
#include <optional>
#include <sstream>

#include "benchreport/compare/dataset.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/sha256.hpp"
#include "benchreport/data/fingerprint.hpp"
#include "benchreport/io/nitro.hpp"
#include "benchreport/presets/bmf.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/presets/matrix.hpp"
#include "benchreport/presets/runners.hpp"
#include "benchreport/presets/summary.hpp"
#include "arrays.hpp"
#include "keyword_options.hpp"
#include "preset_results.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

using Strings = std::vector<std::string>;
using Names = std::map<std::string, std::string>;

// {column: value} -> (column, value): the one label that picks the base side.
std::pair<std::string, std::string> split_baseline(const py::object& baseline) {
  const py::dict labels(baseline);
  if (labels.size() != 1) {
    throw py::value_error(fmt::format("baseline must have exactly one label, e.g. {{'revision': 'base'}}; got {}",
                                      std::string(py::repr(labels))));
  }
  const auto [column, value] = *labels.begin();
  return {py::str(column), py::str(value)};
}

// compare(base_paths, head_paths): two inputs instead of a labelled Dataset, read as load(base=, head=) does.
py::object compared_dataset(const py::object& dataset, const py::object& baseline) {
  if (baseline.is_none() || py::isinstance(baseline, py::module_::import("collections.abc").attr("Mapping"))) {
    return dataset;
  }
  return py::module_::import("benchreport._core").attr("load")("base"_a = dataset, "head"_a = baseline);
}

ComparisonPreset compare_dataset(const py::object& given, const py::object& given_baseline, Maybe<Strings> by,
                                 Maybe<double> threshold, Maybe<std::string> head_value, Maybe<double> alpha,
                                 Maybe<double> confidence, Maybe<int> resamples, Maybe<std::uint64_t> seed,
                                 Maybe<double> noise_limit, Maybe<std::string> pair_column,
                                 Maybe<Strings> process_columns, Maybe<bool> check_comparability,
                                 Maybe<bool> allow_new_and_removed, Maybe<unsigned> threads,
                                 Maybe<std::string> section_column, Maybe<Strings> section_order,
                                 Maybe<Names> section_titles, Maybe<Names> display_names, Maybe<double> drift_limit,
                                 Maybe<std::size_t> drift_k, Maybe<bool> gate, Maybe<std::string> title,
                                 Maybe<bool> moderate, Maybe<bool> assume_launches_identical,
                                 Maybe<std::map<std::string, LaunchNoise>> launch_noise) {
  const py::object dataset = compared_dataset(given, given_baseline);
  const py::object baseline = dataset.is(given) ? given_baseline : py::none();
  ComparisonReportOptions o;
  DatasetCompareOptions& c = o;
  if (!baseline.is_none()) std::tie(c.baseline_column, c.baseline_value) = split_baseline(baseline);
  set_given(c.by, by);
  set_given(c.threshold, threshold);
  set_given(c.head_value, head_value);
  set_given(c.alpha, alpha);
  set_given(c.confidence, confidence);
  set_given(c.resamples, resamples);
  set_given(c.seed, seed);
  set_given(c.noise_limit, noise_limit);
  set_given(c.pair_column, pair_column);
  set_given(c.process_columns, process_columns);
  set_given(c.check_comparability, check_comparability);
  set_given(c.allow_new_and_removed, allow_new_and_removed);
  set_given(c.threads, threads);
  set_given(o.section_column, section_column);
  set_given(o.section_order, section_order);
  set_given(o.section_titles, section_titles);
  set_given(o.display_names, display_names);
  set_given(o.drift_limit, drift_limit);
  set_given(o.drift_k, drift_k);
  set_given(o.gate, gate);
  set_given(o.title, title);
  set_given(c.moderate, moderate);
  set_given(c.assume_launches_identical, assume_launches_identical);
  set_given(c.launch_noise, launch_noise);
  const Dataset& native = native_dataset(dataset);
  ComparisonPreset result;
  result.dataset = dataset;
  {
    py::gil_scoped_release release;
    auto view = std::make_shared<ComparisonView>(comparison_view(native, o));
    result.report = comparison_report(native, view, o);
    result.columns = comparison_columns(native, *view);
    result.view = std::move(view);
  }
  return result;
}

// Parameters as JSON text: a str is taken as it is, anything else goes through json.dumps.
std::string json_text(const py::object& parameters) {
  if (py::isinstance<py::str>(parameters)) return parameters.cast<std::string>();
  return py::module_::import("json").attr("dumps")(parameters).cast<std::string>();
}

constexpr const char* kCompareDoc = R"doc(Compare head against the baseline side of ``dataset`` per case.

``compare(base, head)`` with two inputs (files, folders, globs) instead reads them as
``load(base=base, head=head)`` does and compares that.

``baseline`` picks the base side by one label (``{"revision": "base"}``); the
head side is the other value of that label (or ``head_value``). Cases are the
distinct values of ``by`` (default: every label except the baseline and
per-process labels). Processes pair by the ``pair_column`` label (``pair``). Refuses
(``InputError``) when suite hashes, devices, OS versions, architectures,
toolchains, runner settings or per-case iterations differ, unless
``check_comparability=False``. ``threshold`` is the relative change that matters (5 %).

Every keyword is the field of the same name of the C++ ``ComparisonReportOptions`` /
``DatasetCompareOptions`` / ``CompareOptions`` (docs/presets.md); None keeps its C++ default
(alpha 0.05, confidence 0.95, resamples 10 000, seed 0, section_column ``platform``, drift_limit 10 %,
title "Performance Report").
``confidence`` is the level of the intervals (and of the equivalence test); ``moderate``: the
moderated t across cases (docs/statistics-comparison.md). With one process per side no
slower/faster/equivalent claim is made unless ``assume_launches_identical`` (every launch assumed
to run at one speed). ``launch_noise`` maps case names to ``LaunchNoise`` learned from a branch's stored
runs (:mod:`benchreport.launch_noise`; :func:`benchreport.launch_noise.compare_with_store` builds it).

``compare(base, head)`` with two Datasets, paths, folders or globs (one or
a list each) compares them as the sides, labelled as ``load(base=, head=)``.)doc";

SummaryReportOptions summary_options(Maybe<Strings> by, long long k, Maybe<double> drift_limit, std::string title,
                                     long long threads) {
  SummaryReportOptions o;
  set_given(o.by, by);
  o.drift_k = non_negative(k, "k");
  set_given(o.drift_limit, drift_limit);
  o.title = std::move(title);
  o.threads = static_cast<unsigned>(non_negative(threads, "threads"));
  return o;
}

RunnersReportOptions runners_options(Maybe<std::string> fingerprint, std::string protocol_key,
                                     long long fingerprint_digits, std::string runner_column, std::string title) {
  RunnersReportOptions o;
  set_given(o.fingerprint, fingerprint);
  o.protocol_key = std::move(protocol_key);
  o.fingerprint_digits = non_negative(fingerprint_digits, "fingerprint_digits");
  o.runner_column = std::move(runner_column);
  o.title = std::move(title);
  return o;
}

// A preset bound twice over the same keywords: `name` returns its Result (report and columns),
// `report_name` its Report alone. The options are parsed with the GIL, the preset runs without it.
template <class Result, class Options, class... Args, class... Keywords>
void def_preset(py::module_& m, const char* name, const char* report_name, Options (*parse)(Args...),
                PresetResult (*run)(const Dataset&, const Options&, bool), const char* doc, const char* report_doc,
                const Keywords&... keywords) {
  const auto compute = [parse, run](const py::object& dataset, bool columns, Args... args) {
    const Options options = parse(std::move(args)...);
    const Dataset& native = native_dataset(dataset);
    py::gil_scoped_release release;
    return run(native, options, columns);
  };
  m.def(
      name,
      [compute](const py::object& dataset, Args... args) {
        Result result;
        static_cast<PresetResult&>(result) = compute(dataset, true, std::move(args)...);
        return result;
      },
      doc, py::arg("dataset"), keywords...);
  m.def(
      report_name,
      [compute](const py::object& dataset, Args... args) { return compute(dataset, false, std::move(args)...).report; },
      report_doc, py::arg("dataset"), keywords...);
}

}  // namespace

void register_presets(py::module_& m) {
  register_preset_results(m);
  m.def("split_baseline", &split_baseline, py::arg("baseline"),
        "(column, value) of a baseline given as one label, {column: value}; ValueError otherwise.");
  m.def("compare_dataset", &compare_dataset, kCompareDoc, py::arg("dataset"), py::arg("baseline") = py::none(),
        py::arg("by") = py::none(), py::arg("threshold") = py::none(), py::kw_only(),
        py::arg("head_value") = py::none(), py::arg("alpha") = py::none(), py::arg("confidence") = py::none(),
        py::arg("resamples") = py::none(), py::arg("seed") = py::none(), py::arg("noise_limit") = py::none(),
        py::arg("pair_column") = py::none(), py::arg("process_columns") = py::none(),
        py::arg("check_comparability") = py::none(), py::arg("allow_new_and_removed") = py::none(),
        py::arg("threads") = py::none(), py::arg("section_column") = py::none(), py::arg("section_order") = py::none(),
        py::arg("section_titles") = py::none(), py::arg("display_names") = py::none(),
        py::arg("drift_limit") = py::none(), py::arg("drift_k") = py::none(), py::arg("gate") = py::none(),
        py::arg("title") = py::none(), py::arg("moderate") = py::none(),
        py::arg("assume_launches_identical") = py::none(), py::arg("launch_noise") = py::none());

  const SummaryReportOptions summary_defaults;
  def_preset<SummaryPreset>(m, "summary", "summary_report", &summary_options, &summary,
                            "The ``summary`` preset as a result: its report (as summary_report) and ``columns()``.",
                            R"doc(The ``summary`` preset: one row per sample set, or per group of sets pooled by ``by``.

Columns: the label values, n, median (p50), MAD / p50, CV (population σ /
mean), min – max, drift (median of the last ``k`` samples over the first
``k`` − 1; |drift| ≥ ``drift_limit`` highlighted) and a sparkline of the
samples in measurement order. Reader warnings become a warning note;
``report.data`` carries every number in base units. Raises
:class:`benchreport.InputError` when a group mixes dimensions (e.g. times
with throughputs), which cannot be pooled. Definitions are in
docs/statistics-summary.md.)doc",
                            py::arg("by") = py::none(), py::kw_only(),
                            py::arg("k") = static_cast<long long>(summary_defaults.drift_k),
                            py::arg("drift_limit") = py::none(), py::arg("title") = summary_defaults.title,
                            py::arg("threads") = static_cast<long long>(summary_defaults.threads));
  m.attr("SUMMARY_SCHEMA") = std::string(kSummarySchema);

  const RunnersReportOptions runners_defaults;
  def_preset<RunnersPreset>(
      m, "runners", "runners_report", &runners_options, &runners_preset,
      "The ``runners`` preset as a result: its report (as runners_report) and ``columns()``.",
      "The ``runners`` preset: parameter fingerprints, pinned/unpinned CPU results, disk I/O, cache backends.",
      py::kw_only(), py::arg("fingerprint") = py::none(), py::arg("protocol_key") = runners_defaults.protocol_key,
      py::arg("fingerprint_digits") = static_cast<long long>(runners_defaults.fingerprint_digits),
      py::arg("runner_column") = runners_defaults.runner_column, py::arg("title") = runners_defaults.title);

  const MatrixReportOptions matrix_defaults;
  const std::string default_stat(matrix_stat_name(matrix_defaults.stat));
  m.def(
      "matrix_report",
      [](const py::object& dataset, Strings rows, Strings cols, Strings tables, const std::string& stat,
         Maybe<Names> names, Maybe<Strings> quick_rows, long long quick_row_count, Maybe<std::string> ratio_baseline,
         std::string title) {
        MatrixReportOptions o;
        o.rows = std::move(rows);
        o.cols = std::move(cols);
        o.tables = std::move(tables);
        o.stat = parse_matrix_stat(stat);
        set_given(o.names, names);
        set_given(o.quick_rows, quick_rows);
        o.quick_row_count = non_negative(quick_row_count, "quick_row_count");
        set_given(o.ratio_baseline, ratio_baseline);
        o.title = std::move(title);
        const Dataset& native = native_dataset(dataset);
        py::gil_scoped_release release;
        return matrix_preset(native, o, false).report;
      },
      py::arg("dataset"), py::arg("rows") = matrix_defaults.rows, py::arg("cols") = matrix_defaults.cols,
      py::arg("tables") = matrix_defaults.tables, py::arg("stat") = default_stat, py::arg("names") = py::none(),
      py::arg("quick_rows") = py::none(),
      py::arg("quick_row_count") = static_cast<long long>(matrix_defaults.quick_row_count),
      py::arg("ratio_baseline") = py::none(), py::arg("title") = matrix_defaults.title,
      "The ``matrix`` preset: key take-aways, quick comparison and one full matrix per ``tables`` combination.\n\n"
      "``names`` maps label values to display names, over those the data brings (a ZFH log names its engines).");
  m.def(
      "matrix",
      [](const py::object& dataset, Strings rows, Strings cols, const std::string& stat, Maybe<Names> names) {
        MatrixReportOptions o;
        o.rows = std::move(rows);
        o.cols = std::move(cols);
        o.tables = {};
        o.stat = parse_matrix_stat(stat);
        set_given(o.names, names);
        const Dataset& native = native_dataset(dataset);
        MatrixPreset result;
        {
          py::gil_scoped_release release;
          result.matrix = matrix(native, MatrixOptions{o.rows, o.cols, o.stat});
          PresetResult preset = matrix_preset(native, o, true);
          result.report = std::move(preset.report);
          result.columns = std::move(preset.columns);
        }
        return result;
      },
      py::arg("dataset"), py::arg("rows"), py::arg("cols"), py::arg("stat") = default_stat,
      py::arg("names") = py::none(),
      "Rows × columns of ``stat`` (median of run medians, pooled_median, mean, min) over the whole dataset.");

  m.def(
      "presets_case_comparisons_report",
      [](const std::vector<const CaseComparison*>& cases, const std::string& title) {
        return case_comparisons_report(cases, title);
      },
      py::arg("results"), py::arg("title") = "Comparison",
      "CompareResults as a Report: the comparison preset's change table and the warnings.");

  const BmfOptions bmf_defaults;
  m.def(
      "bmf_string",
      [](const Dataset& dataset, std::vector<std::string> by, std::vector<std::string> exclude, double confidence) {
        BmfOptions o;
        o.by = std::move(by);
        o.exclude = std::move(exclude);
        o.confidence = confidence;
        std::ostringstream out;
        py::gil_scoped_release release;
        write_bmf(dataset, out, o);
        return out.str();
      },
      py::arg("dataset"), py::kw_only(), py::arg("by") = bmf_defaults.by, py::arg("exclude") = bmf_defaults.exclude,
      py::arg("confidence") = bmf_defaults.confidence,
      "Bencher Metric Format JSON: per benchmark, latency (ns) / throughput (ops/s) / other measures, value = "
      "median, lower_value / upper_value = its distribution-free CI.");

  m.def("nitro_case_name", &nitro_case_name, py::arg("metric_id"), py::arg("platform"), py::arg("display_name") = "",
        "Display name of a Nitro metric id: 'nitro-cpp/function/add-numbers' on 'ios' -> 'C++ addNumbers()'.");
  m.def(
      "sha256_hex",
      [](const py::object& data) {
        const py::bytes bytes = py::module_::import("builtins").attr("bytes")(data);
        return sha256_hex(std::string_view(bytes));
      },
      py::arg("data"), "Lower-case hex SHA-256 (benchreport's own implementation) of bytes(data).");
  m.def(
      "canonical_json", [](const py::object& parameters) { return canonical_json(json_text(parameters)); },
      py::arg("parameters"),
      "Canonical JSON text (sorted keys, no whitespace), as json.dumps(sort_keys=True, separators=(',', ':'), "
      "ensure_ascii=False). A ``str`` is JSON text; other objects go through ``json.dumps``.");
  m.def(
      "fingerprint",
      [](const py::object& parameters, std::size_t hex_digits) {
        return fingerprint(json_text(parameters), hex_digits);
      },
      py::arg("parameters"), py::arg("hex_digits") = 12,
      "Parameter fingerprint: first hex digits of SHA-256 of the canonical JSON of ``parameters``. A ``str`` is "
      "taken as JSON text; any other object is serialised with ``json.dumps`` first.");
}

}  // namespace benchreport::python

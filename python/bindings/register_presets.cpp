// Bindings for the presets: dataset comparison (compare/dataset.hpp, presets/comparison.hpp
// with its columnar view), matrix (compare/matrix.hpp, presets/matrix.hpp), the runners,
// summary and BMF presets, SHA-256 and parameter fingerprints. Options come as keyword arguments (None keeps the C++
// default); results are typed classes with read-only properties. The typed
// skin is python/benchreport/_presets.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "benchreport/compare/dataset.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/sha256.hpp"
#include "benchreport/data/fingerprint.hpp"
#include "benchreport/presets/bmf.hpp"
#include "benchreport/io/nitro.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/presets/matrix.hpp"
#include "benchreport/presets/runners.hpp"
#include "benchreport/presets/summary.hpp"
#include "arrays.hpp"
#include "keyword_options.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {
namespace {

// One matched case of a comparison with the name and section the report shows it under.
struct ComparisonCase {
  std::vector<std::string> key;
  std::string name, section;
  std::vector<std::string> pairs;
  CaseComparison comparison;
};

std::vector<std::string> joined_keys(const std::vector<std::vector<std::string>>& keys) {
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (const auto& key : keys) out.push_back(join_key(key));
  return out;
}

py::array_t<double> matrix_values(const Matrix& m) {
  py::array_t<double> values({m.n_rows(), m.n_cols()});
  auto v = values.mutable_unchecked<2>();
  for (std::size_t r = 0; r < m.n_rows(); ++r) {
    for (std::size_t c = 0; c < m.n_cols(); ++c) {
      const auto& cell = m.at(r, c);
      v(r, c) = cell ? *cell : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return values;
}

void register_results(py::module_& m) {
  py::class_<ComparisonCase>(m, "ComparisonCase",
                             "One matched case: key (values of `by`), display name, section, "
                             "process pairs and its CaseComparison.")
      .def_readonly("key", &ComparisonCase::key)
      .def_readonly("name", &ComparisonCase::name)
      .def_readonly("section", &ComparisonCase::section)
      .def_readonly("pairs", &ComparisonCase::pairs)
      .def_readonly("comparison", &ComparisonCase::comparison);

  py::class_<ComparisonView, std::shared_ptr<ComparisonView>>(
      m, "ComparisonView", "A dataset comparison with its cases' display names and sections.")
      .def_property_readonly("by", [](const ComparisonView& v) { return v.comparison.by; })
      .def_property_readonly("baseline_column", [](const ComparisonView& v) { return v.comparison.baseline_column; })
      .def_property_readonly("base_value", [](const ComparisonView& v) { return v.comparison.base_value; })
      .def_property_readonly("head_value", [](const ComparisonView& v) { return v.comparison.head_value; })
      .def_property_readonly("base_commit", [](const ComparisonView& v) { return v.comparison.base_commit; })
      .def_property_readonly("head_commit", [](const ComparisonView& v) { return v.comparison.head_commit; })
      .def_property_readonly("same_revision", [](const ComparisonView& v) { return v.comparison.same_revision; })
      .def_property_readonly("new_cases", [](const ComparisonView& v) { return v.comparison.new_cases; })
      .def_property_readonly("removed_cases", [](const ComparisonView& v) { return v.comparison.removed_cases; })
      .def_property_readonly("cases", [](const ComparisonView& v) {
        std::vector<ComparisonCase> out;
        out.reserve(v.comparison.cases.size());
        for (std::size_t i = 0; i < v.comparison.cases.size(); ++i) {
          const CaseResult& r = v.comparison.cases[i];
          out.push_back({r.key, v.names[i], v.sections[i], r.pairs, r.comparison});
        }
        return out;
      });

  py::class_<Matrix>(m, "Matrix", "Rows × columns of one statistic (values in base units, NaN = no data).")
      .def_readonly("row_columns", &Matrix::row_columns)
      .def_readonly("col_columns", &Matrix::col_columns)
      .def_readonly("row_keys", &Matrix::row_keys)
      .def_readonly("col_keys", &Matrix::col_keys)
      .def_property_readonly(
          "row_names", [](const Matrix& x) { return joined_keys(x.row_keys); },
          "Row keys joined with \" / \" (as the report shows them).")
      .def_property_readonly("col_names", [](const Matrix& x) { return joined_keys(x.col_keys); })
      .def_property_readonly("values", &matrix_values, "n_rows × n_cols float64 array in base units, NaN = no data.")
      .def_readonly("set_counts", &Matrix::set_counts)
      .def_property_readonly("unit", [](const Matrix& x) { return x.unit.symbol; })
      .def_property_readonly("base_unit", [](const Matrix& x) { return std::string(base_symbol(x.unit.dimension)); })
      .def_readonly("higher_is_better", &Matrix::higher_is_better)
      .def_property_readonly("stat", [](const Matrix& x) { return std::string(matrix_stat_name(x.stat)); })
      .def("best_col", &Matrix::best_col, py::arg("row"),
           "Column of the best value of a row (direction-aware, the first on a tie); None for an empty row.");
}

// A preset taking keyword options: parse them (with the GIL), build the report without it.
// Returns (Report, columns dict or None).
template <class Build>
py::tuple preset_tuple(Build&& build, bool columns) {
  PresetResult result;
  {
    py::gil_scoped_release release;
    result = build();
  }
  return py::make_tuple(std::move(result.report), columns ? py::object(columns_dict(result.columns)) : py::none());
}
}  // namespace

void register_presets(py::module_& m) {
  register_results(m);

  m.def(
      "presets_comparison",
      [](const Dataset& dataset, Maybe<std::string> baseline_column, Maybe<std::string> baseline_value,
         Maybe<std::string> head_value, Maybe<std::vector<std::string>> by, Maybe<std::string> pair_column,
         Maybe<std::vector<std::string>> process_columns, Maybe<unsigned> threads,
         Maybe<std::vector<std::string>> run_checks, Maybe<std::vector<std::string>> work_checks,
         Maybe<std::vector<std::string>> commit_keys, Maybe<bool> check_comparability,
         Maybe<bool> allow_new_and_removed, Maybe<double> threshold, Maybe<double> alpha, Maybe<double> confidence,
         Maybe<int> resamples, Maybe<std::uint64_t> seed, Maybe<double> noise_limit, Maybe<bool> moderate,
         Maybe<bool> assume_launches_identical, Maybe<std::string> title, Maybe<std::string> section_column,
         Maybe<std::vector<std::string>> section_order, Maybe<std::map<std::string, std::string>> section_titles,
         Maybe<std::string> benchmark_column, Maybe<std::map<std::string, std::string>> display_names,
         Maybe<std::string> display_name_key, Maybe<double> drift_limit, Maybe<std::size_t> drift_k, Maybe<bool> gate,
         Maybe<std::map<std::string, LaunchNoise>> launch_noise) {
        ComparisonReportOptions o;
        DatasetCompareOptions& c = o;
        set_given(c.baseline_column, baseline_column);
        set_given(c.baseline_value, baseline_value);
        set_given(c.head_value, head_value);
        set_given(c.by, by);
        set_given(c.pair_column, pair_column);
        set_given(c.process_columns, process_columns);
        set_given(c.threads, threads);
        set_given(c.run_checks, run_checks);
        set_given(c.work_checks, work_checks);
        set_given(c.commit_keys, commit_keys);
        set_given(c.check_comparability, check_comparability);
        set_given(c.allow_new_and_removed, allow_new_and_removed);
        set_given(c.threshold, threshold);
        set_given(c.alpha, alpha);
        set_given(c.confidence, confidence);
        set_given(c.resamples, resamples);
        set_given(c.seed, seed);
        set_given(c.noise_limit, noise_limit);
        set_given(c.moderate, moderate);
        set_given(c.assume_launches_identical, assume_launches_identical);
        set_given(o.title, title);
        set_given(o.section_column, section_column);
        set_given(o.section_order, section_order);
        set_given(o.section_titles, section_titles);
        set_given(o.benchmark_column, benchmark_column);
        set_given(o.display_names, display_names);
        set_given(o.display_name_key, display_name_key);
        set_given(o.drift_limit, drift_limit);
        set_given(o.drift_k, drift_k);
        set_given(o.gate, gate);
        set_given(c.launch_noise, launch_noise);
        std::shared_ptr<ComparisonView> view;  // shared with the report's payload (rendered from it)
        Report report;
        Columns columns;
        {
          py::gil_scoped_release release;
          view = std::make_shared<ComparisonView>(comparison_view(dataset, o));
          report = comparison_report(dataset, view, o);
          columns = comparison_columns(dataset, *view);
        }
        return py::make_tuple(view, std::move(report), columns_dict(columns));
      },
      py::arg("dataset"), py::kw_only(), py::arg("baseline_column") = py::none(),
      py::arg("baseline_value") = py::none(), py::arg("head_value") = py::none(), py::arg("by") = py::none(),
      py::arg("pair_column") = py::none(), py::arg("process_columns") = py::none(), py::arg("threads") = py::none(),
      py::arg("run_checks") = py::none(), py::arg("work_checks") = py::none(), py::arg("commit_keys") = py::none(),
      py::arg("check_comparability") = py::none(), py::arg("allow_new_and_removed") = py::none(),
      py::arg("threshold") = py::none(), py::arg("alpha") = py::none(), py::arg("confidence") = py::none(),
      py::arg("resamples") = py::none(), py::arg("seed") = py::none(), py::arg("noise_limit") = py::none(),
      py::arg("moderate") = py::none(), py::arg("assume_launches_identical") = py::none(),
      py::arg("title") = py::none(), py::arg("section_column") = py::none(), py::arg("section_order") = py::none(),
      py::arg("section_titles") = py::none(), py::arg("benchmark_column") = py::none(),
      py::arg("display_names") = py::none(), py::arg("display_name_key") = py::none(),
      py::arg("drift_limit") = py::none(), py::arg("drift_k") = py::none(), py::arg("gate") = py::none(),
      py::arg("launch_noise") = py::none(),
      "Compare base and head over a Dataset; returns (ComparisonView, Report, columns). Keywords are the fields "
      "of ComparisonReportOptions and DatasetCompareOptions; None keeps the C++ default.");

  m.def(
      "presets_case_comparisons_report",
      [](const std::vector<const CaseComparison*>& cases, const std::string& title) {
        return case_comparisons_report(cases, title);
      },
      py::arg("results"), py::arg("title") = "Comparison",
      "CompareResults as a Report: the comparison preset's change table and the warnings.");

  m.def(
      "presets_matrix",
      [](const Dataset& dataset, const std::vector<std::string>& rows, const std::vector<std::string>& cols,
         const std::string& stat) {
        const MatrixOptions o{rows, cols, parse_matrix_stat(stat)};
        py::gil_scoped_release release;
        return matrix(dataset, o);
      },
      py::arg("dataset"), py::arg("rows"), py::arg("cols"), py::arg("stat") = "median",
      "Rows × columns of one statistic (values in base units, NaN = no data).");

  m.def(
      "presets_matrix_report",
      [](const Dataset& dataset, Maybe<std::string> title, Maybe<std::vector<std::string>> rows,
         Maybe<std::vector<std::string>> cols, Maybe<std::vector<std::string>> tables, Maybe<std::string> stat,
         Maybe<std::map<std::string, std::string>> names, Maybe<std::string> label_names_key,
         Maybe<std::vector<std::string>> quick_rows, Maybe<std::size_t> quick_row_count,
         Maybe<std::string> ratio_baseline, bool columns) {
        MatrixReportOptions o;
        set_given(o.title, title);
        set_given(o.rows, rows);
        set_given(o.cols, cols);
        set_given(o.tables, tables);
        if (stat) o.stat = parse_matrix_stat(*stat);
        set_given(o.names, names);
        set_given(o.label_names_key, label_names_key);
        set_given(o.quick_rows, quick_rows);
        set_given(o.quick_row_count, quick_row_count);
        set_given(o.ratio_baseline, ratio_baseline);
        return preset_tuple([&] { return matrix_preset(dataset, o, columns); }, columns);
      },
      py::arg("dataset"), py::kw_only(), py::arg("title") = py::none(), py::arg("rows") = py::none(),
      py::arg("cols") = py::none(), py::arg("tables") = py::none(), py::arg("stat") = py::none(),
      py::arg("names") = py::none(), py::arg("label_names_key") = py::none(), py::arg("quick_rows") = py::none(),
      py::arg("quick_row_count") = py::none(), py::arg("ratio_baseline") = py::none(), py::arg("columns") = false,
      "The matrix preset; keywords are the fields of MatrixReportOptions (None keeps the C++ default); returns "
      "(Report, one row per cell or None).");
  m.def(
      "presets_runners_report",
      [](const Dataset& dataset, Maybe<std::string> title, Maybe<std::string> runner_column,
         Maybe<std::string> suite_column, Maybe<std::string> metric_column, Maybe<std::string> backend_column,
         Maybe<std::string> service_column, Maybe<std::string> protocol_key, Maybe<std::size_t> fingerprint_digits,
         Maybe<std::string> fingerprint, bool columns) {
        RunnersReportOptions o;
        set_given(o.title, title);
        set_given(o.runner_column, runner_column);
        set_given(o.suite_column, suite_column);
        set_given(o.metric_column, metric_column);
        set_given(o.backend_column, backend_column);
        set_given(o.service_column, service_column);
        set_given(o.protocol_key, protocol_key);
        set_given(o.fingerprint_digits, fingerprint_digits);
        set_given(o.fingerprint, fingerprint);
        return preset_tuple([&] { return runners_preset(dataset, o, columns); }, columns);
      },
      py::arg("dataset"), py::kw_only(), py::arg("title") = py::none(), py::arg("runner_column") = py::none(),
      py::arg("suite_column") = py::none(), py::arg("metric_column") = py::none(),
      py::arg("backend_column") = py::none(), py::arg("service_column") = py::none(),
      py::arg("protocol_key") = py::none(), py::arg("fingerprint_digits") = py::none(),
      py::arg("fingerprint") = py::none(), py::arg("columns") = false,
      "The runners preset; keywords are the fields of RunnersReportOptions (None keeps the C++ default); returns "
      "(Report, one row per compared set or None).");

  const SummaryReportOptions summary_defaults;
  m.def(
      "presets_summary_report",
      [](const Dataset& dataset, std::vector<std::string> by, long long k, double drift_limit, std::string title,
         long long threads, bool columns) {
        SummaryReportOptions o;
        o.by = std::move(by);
        o.drift_k = non_negative(k, "k");
        o.drift_limit = drift_limit;
        o.title = std::move(title);
        o.threads = static_cast<unsigned>(non_negative(threads, "threads"));
        return preset_tuple([&] { return summary(dataset, o, columns); }, columns);
      },
      py::arg("dataset"), py::kw_only(), py::arg("by") = summary_defaults.by,
      py::arg("k") = static_cast<long long>(summary_defaults.drift_k),
      py::arg("drift_limit") = summary_defaults.drift_limit, py::arg("title") = summary_defaults.title,
      py::arg("threads") = static_cast<long long>(summary_defaults.threads), py::arg("columns") = false,
      "The summary preset: one row per set, or per group of sets pooled by `by`; returns (Report, columns or None).");
  m.attr("SUMMARY_SCHEMA") = std::string(kSummarySchema);

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

  m.def("nitro_case_name", &nitro_case_name, py::arg("id"), py::arg("platform"), py::arg("display_name") = "",
        "Display name of a Nitro metric id: 'nitro-cpp/function/add-numbers' on 'ios' -> 'C++ addNumbers()'.");
  m.def(
      "sha256_hex", [](const py::bytes& data) { return sha256_hex(std::string_view(data)); }, py::arg("data"),
      "Lower-case hex SHA-256 of bytes.");
  m.def("canonical_json", &canonical_json, py::arg("json_text"),
        "Canonical JSON text (sorted keys, no whitespace), as json.dumps(sort_keys=True, separators=(',', ':'), "
        "ensure_ascii=False).");
  m.def("fingerprint", &fingerprint, py::arg("json_text"), py::arg("hex_digits") = 12,
        "First hex digits of the SHA-256 of the canonical JSON.");
}

}  // namespace benchreport::python

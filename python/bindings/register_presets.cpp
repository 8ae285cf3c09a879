// Bindings for the presets: dataset comparison, matrix, the four report
// presets (comparison, runners, matrix, summary), SHA-256 and parameter
// fingerprints. Options come as keyword arguments (None keeps the C++
// default); results are typed classes with read-only properties. The typed
// skin is python/benchreport/_presets.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
#include "keyword_options.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {
namespace {

ComparisonReportOptions comparison_options(const py::kwargs& kwargs) {
  ComparisonReportOptions out;
  DatasetCompareOptions& c = out.compare;
  KeywordOptions(kwargs, "presets_comparison")
      .read("baseline_column", c.baseline_column)
      .read("baseline_value", c.baseline_value)
      .read("head_value", c.head_value)
      .read("by", c.by)
      .read("pair_column", c.pair_column)
      .read("process_columns", c.process_columns)
      .read("threads", c.threads)
      .read("run_checks", c.run_checks)
      .read("work_checks", c.work_checks)
      .read("commit_keys", c.commit_keys)
      .read("check_comparability", c.check_comparability)
      .read("allow_new_and_removed", c.allow_new_and_removed)
      .read("threshold", c.compare.threshold)
      .read("alpha", c.compare.alpha)
      .read("confidence", c.compare.confidence)
      .read("resamples", c.compare.resamples)
      .read("seed", c.compare.seed)
      .read("noise_limit", c.compare.noise_limit)
      .read("moderate", c.compare.moderate)
      .read("assume_launches_identical", c.compare.assume_launches_identical)
      .read("title", out.title)
      .read("section_column", out.section_column)
      .read("section_order", out.section_order)
      .read("section_titles", out.section_titles)
      .read("benchmark_column", out.benchmark_column)
      .read("display_names", out.display_names)
      .read("display_name_key", out.display_name_key)
      .read("drift_limit", out.drift_limit)
      .read("drift_k", out.drift_k)
      .read("gate", out.gate)
      .finish();
  return out;
}

MatrixReportOptions matrix_report_options(const py::kwargs& kwargs) {
  MatrixReportOptions out;
  std::string stat(matrix_stat_name(out.stat));
  KeywordOptions(kwargs, "presets_matrix_report")
      .read("title", out.title)
      .read("rows", out.rows)
      .read("cols", out.cols)
      .read("tables", out.tables)
      .read("stat", stat)
      .read("names", out.names)
      .read("label_names_key", out.label_names_key)
      .read("quick_rows", out.quick_rows)
      .read("quick_row_count", out.quick_row_count)
      .read("ratio_baseline", out.ratio_baseline)
      .finish();
  out.stat = parse_matrix_stat(stat);
  return out;
}

RunnersReportOptions runners_options(const py::kwargs& kwargs) {
  RunnersReportOptions out;
  KeywordOptions(kwargs, "presets_runners_report")
      .read("title", out.title)
      .read("runner_column", out.runner_column)
      .read("suite_column", out.suite_column)
      .read("metric_column", out.metric_column)
      .read("backend_column", out.backend_column)
      .read("service_column", out.service_column)
      .read("protocol_key", out.protocol_key)
      .read("fingerprint_digits", out.fingerprint_digits)
      .read("fingerprint", out.fingerprint)
      .finish();
  return out;
}

std::size_t non_negative(long long v, const char* what) {
  if (v < 0) throw InputError(fmt::format("{} is {}: expected a non-negative integer", what, v));
  return static_cast<std::size_t>(v);
}

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
  py::class_<ComparisonCase>(m, "ComparisonCase", "One matched case: key (values of `by`), display name, section, "
                                                  "process pairs and its CaseComparison.")
      .def_readonly("key", &ComparisonCase::key)
      .def_readonly("name", &ComparisonCase::name)
      .def_readonly("section", &ComparisonCase::section)
      .def_readonly("pairs", &ComparisonCase::pairs)
      .def_readonly("comparison", &ComparisonCase::comparison);

  py::class_<ComparisonView>(m, "ComparisonView", "A dataset comparison with its cases' display names and sections.")
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
      })
      .def("take_cases", [](ComparisonView& v) {
        // As `cases`, moving each CaseComparison out instead of copying it (100 000 cases
        // would otherwise be held twice); `cases` is empty afterwards.
        std::vector<ComparisonCase> out;
        out.reserve(v.comparison.cases.size());
        for (std::size_t i = 0; i < v.comparison.cases.size(); ++i) {
          CaseResult& r = v.comparison.cases[i];
          out.push_back({std::move(r.key), v.names[i], v.sections[i], std::move(r.pairs), std::move(r.comparison)});
        }
        v.comparison.cases.clear();
        return out;
      });

  py::class_<Matrix>(m, "Matrix", "Rows × columns of one statistic (values in base units, NaN = no data).")
      .def_readonly("row_columns", &Matrix::row_columns)
      .def_readonly("col_columns", &Matrix::col_columns)
      .def_readonly("row_keys", &Matrix::row_keys)
      .def_readonly("col_keys", &Matrix::col_keys)
      .def_property_readonly("row_names", [](const Matrix& x) { return joined_keys(x.row_keys); },
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
template <class ParseOptions, class Preset>
void def_report_preset(py::module_& m, const char* name, ParseOptions parse, Preset preset, const char* doc) {
  m.def(
      name,
      [parse, preset](const Dataset& dataset, const py::kwargs& options) {
        const auto o = parse(options);
        py::gil_scoped_release release;
        return preset(dataset, o);
      },
      py::arg("dataset"), doc);
}

}  // namespace

void register_presets(py::module_& m) {
  register_results(m);

  m.def(
      "presets_comparison",
      [](const Dataset& dataset, const py::kwargs& options) {
        const ComparisonReportOptions o = comparison_options(options);
        ComparisonView view;
        Report report;
        {
          py::gil_scoped_release release;
          view = comparison_view(dataset, o);
          report = comparison_report(dataset, view, o);
        }
        return std::make_pair(std::move(view), std::move(report));
      },
      py::arg("dataset"),
      "Compare base and head over a Dataset; returns (ComparisonView, Report). Keyword options as "
      "ComparisonReportOptions and DatasetCompareOptions. See benchreport.compare.");

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

  def_report_preset(m, "presets_matrix_report", matrix_report_options, matrix_report,
                    "The matrix preset; keyword options as MatrixReportOptions.");
  def_report_preset(m, "presets_runners_report", runners_options, runners_report,
                    "The runners preset; keyword options as RunnersReportOptions.");

  const SummaryReportOptions summary_defaults;
  m.def(
      "presets_summary_report",
      [](const Dataset& dataset, std::vector<std::string> by, long long k, double drift_limit, std::string title,
         long long threads) {
        SummaryReportOptions o;
        o.by = std::move(by);
        o.drift_k = non_negative(k, "k");
        o.drift_limit = drift_limit;
        o.title = std::move(title);
        o.threads = static_cast<unsigned>(non_negative(threads, "threads"));
        py::gil_scoped_release release;
        return summary_report(dataset, o);
      },
      py::arg("dataset"), py::kw_only(), py::arg("by") = summary_defaults.by,
      py::arg("k") = static_cast<long long>(summary_defaults.drift_k), py::arg("drift_limit") = summary_defaults.drift_limit,
      py::arg("title") = summary_defaults.title, py::arg("threads") = static_cast<long long>(summary_defaults.threads),
      "The summary preset: one row per set, or per group of sets pooled by `by`.");
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

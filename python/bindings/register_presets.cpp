// Bindings for the presets: dataset comparison, matrix, the three report
// presets, SHA-256 and parameter fingerprints. The typed skin is
// python/benchreport/_presets.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>

#include "benchreport/compare/dataset.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/fingerprint.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/presets/matrix.hpp"
#include "benchreport/presets/runners.hpp"
#include "benchreport/core/sha256.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {
namespace {

DatasetCompareOptions compare_options(const py::dict& o) {
  DatasetCompareOptions out;
  const auto take = [&](const char* key, auto& field) {
    if (o.contains(key) && !o[key].is_none()) field = o[key].cast<std::decay_t<decltype(field)>>();
  };
  take("baseline_column", out.baseline_column);
  take("baseline_value", out.baseline_value);
  take("head_value", out.head_value);
  take("by", out.by);
  take("pair_column", out.pair_column);
  take("process_columns", out.process_columns);
  take("threads", out.threads);
  take("run_checks", out.run_checks);
  take("work_checks", out.work_checks);
  take("commit_keys", out.commit_keys);
  take("check_comparability", out.check_comparability);
  take("allow_new_and_removed", out.allow_new_and_removed);
  take("threshold", out.compare.threshold);
  take("alpha", out.compare.alpha);
  take("confidence", out.compare.confidence);
  take("resamples", out.compare.resamples);
  take("seed", out.compare.seed);
  take("noise_limit", out.compare.noise_limit);
  return out;
}

ComparisonReportOptions comparison_options(const py::dict& o) {
  ComparisonReportOptions out;
  out.compare = compare_options(o);
  const auto take = [&](const char* key, auto& field) {
    if (o.contains(key) && !o[key].is_none()) field = o[key].cast<std::decay_t<decltype(field)>>();
  };
  take("title", out.title);
  take("section_column", out.section_column);
  take("section_order", out.section_order);
  take("section_titles", out.section_titles);
  take("benchmark_column", out.benchmark_column);
  take("display_names", out.display_names);
  take("display_name_key", out.display_name_key);
  take("drift_limit", out.drift_limit);
  take("drift_k", out.drift_k);
  take("gate", out.gate);
  return out;
}

py::dict view_dict(const ComparisonView& view) {
  const DatasetComparison& c = view.comparison;
  py::list cases;
  for (std::size_t i = 0; i < c.cases.size(); ++i) {
    const CaseResult& r = c.cases[i];
    py::dict item;
    item["key"] = r.key;
    item["name"] = view.names[i];
    item["section"] = view.sections[i];
    item["pairs"] = r.pairs;
    item["comparison"] = py::cast(r.comparison);
    cases.append(std::move(item));
  }
  py::dict out;
  out["by"] = c.by;
  out["baseline_column"] = c.baseline_column;
  out["base_value"] = c.base_value;
  out["head_value"] = c.head_value;
  out["base_commit"] = c.base_commit;
  out["head_commit"] = c.head_commit;
  out["same_revision"] = c.same_revision;
  out["new_cases"] = c.new_cases;
  out["removed_cases"] = c.removed_cases;
  out["cases"] = cases;
  return out;
}

py::dict matrix_dict(const Matrix& m) {
  py::array_t<double> values({m.n_rows(), m.n_cols()});
  auto v = values.mutable_unchecked<2>();
  for (std::size_t r = 0; r < m.n_rows(); ++r) {
    for (std::size_t c = 0; c < m.n_cols(); ++c) {
      const auto& cell = m.at(r, c);
      v(r, c) = cell ? *cell : std::numeric_limits<double>::quiet_NaN();
    }
  }
  py::dict out;
  out["row_columns"] = m.row_columns;
  out["col_columns"] = m.col_columns;
  out["row_keys"] = m.row_keys;
  out["col_keys"] = m.col_keys;
  out["values"] = values;
  out["set_counts"] = m.set_counts;
  out["unit"] = m.unit.symbol;
  out["base_unit"] = std::string(base_symbol(m.unit.dimension));
  out["higher_is_better"] = m.higher_is_better;
  out["stat"] = std::string(matrix_stat_name(m.stat));
  return out;
}

MatrixReportOptions matrix_report_options(const py::dict& o) {
  MatrixReportOptions out;
  const auto take = [&](const char* key, auto& field) {
    if (o.contains(key) && !o[key].is_none()) field = o[key].cast<std::decay_t<decltype(field)>>();
  };
  take("title", out.title);
  take("rows", out.rows);
  take("cols", out.cols);
  take("tables", out.tables);
  take("quick_rows", out.quick_rows);
  take("quick_row_count", out.quick_row_count);
  take("ratio_baseline", out.ratio_baseline);
  if (o.contains("names") && !o["names"].is_none()) {
    for (const auto& [key, value] : o["names"].cast<std::map<std::string, std::string>>()) out.names[key] = value;
  }
  if (o.contains("stat") && !o["stat"].is_none()) out.stat = parse_matrix_stat(o["stat"].cast<std::string>());
  return out;
}

RunnersReportOptions runners_options(const py::dict& o) {
  RunnersReportOptions out;
  const auto take = [&](const char* key, auto& field) {
    if (o.contains(key) && !o[key].is_none()) field = o[key].cast<std::decay_t<decltype(field)>>();
  };
  take("title", out.title);
  take("runner_column", out.runner_column);
  take("suite_column", out.suite_column);
  take("metric_column", out.metric_column);
  take("backend_column", out.backend_column);
  take("service_column", out.service_column);
  take("protocol_key", out.protocol_key);
  take("fingerprint_digits", out.fingerprint_digits);
  take("fingerprint", out.fingerprint);
  return out;
}

}  // namespace

void register_presets(py::module_& m) {
  m.def(
      "presets_comparison",
      [](const Dataset& dataset, const py::dict& options) {
        const ComparisonReportOptions o = comparison_options(options);
        ComparisonView view;
        Report report;
        {
          py::gil_scoped_release release;
          view = comparison_view(dataset, o);
          report = comparison_report(dataset, view, o);
        }
        return py::make_tuple(view_dict(view), std::move(report));
      },
      py::arg("dataset"), py::arg("options") = py::dict(),
      "Compare base and head over a Dataset; returns (view dict, Report). See benchreport.compare.");

  m.def(
      "presets_matrix",
      [](const Dataset& dataset, const std::vector<std::string>& rows, const std::vector<std::string>& cols,
         const std::string& stat) {
        const MatrixOptions o{rows, cols, parse_matrix_stat(stat)};
        Matrix result;
        {
          py::gil_scoped_release release;
          result = matrix(dataset, o);
        }
        return matrix_dict(result);
      },
      py::arg("dataset"), py::arg("rows"), py::arg("cols"), py::arg("stat") = "median",
      "Rows × columns of one statistic (values in base units, NaN = no data).");

  m.def(
      "presets_matrix_report",
      [](const Dataset& dataset, const py::dict& options) {
        const MatrixReportOptions o = matrix_report_options(options);
        py::gil_scoped_release release;
        return matrix_report(dataset, o);
      },
      py::arg("dataset"), py::arg("options") = py::dict());

  m.def(
      "presets_runners_report",
      [](const Dataset& dataset, const py::dict& options) {
        const RunnersReportOptions o = runners_options(options);
        py::gil_scoped_release release;
        return runners_report(dataset, o);
      },
      py::arg("dataset"), py::arg("options") = py::dict());

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

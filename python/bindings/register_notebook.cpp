// Bindings for what benchreport.notebook and benchreport.plot show beside the reports:
// presets/notebook.hpp (a Summary's and a Dataset's notebook table), report/forest.hpp (forest-plot
// rows), report/general_format.hpp (tick and legend text), data/display_unit.hpp's display_scale and
// stats/drift.hpp's drift windows. The Python modules keep matplotlib, pandas and IPython.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/compare/scaling.hpp"
#include "benchreport/compare/series.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/presets/notebook.hpp"
#include "benchreport/report/forest.hpp"
#include "benchreport/report/general_format.hpp"
#include "benchreport/report/plot_axes.hpp"
#include "benchreport/stats/drift.hpp"
#include "benchreport/stats/summary.hpp"
#include "arrays.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

using RowTuple = std::tuple<std::string, double, double, double, std::string>;

RowTuple to_tuple(ForestRow r) { return {std::move(r.name), r.change, r.lower, r.upper, std::move(r.verdict)}; }

std::vector<RowTuple> to_tuples(std::vector<ForestRow> rows) {
  std::vector<RowTuple> out;
  out.reserve(rows.size());
  for (auto& r : rows) out.push_back(to_tuple(std::move(r)));
  return out;
}

// A row from a mapping (a dict, a DataFrame row): change, and change_lower / change_upper or a
// change_ci pair; verdict when it has one. Values pass through Python's float() and str().
ForestRow row_of_mapping(std::string name, const py::object& m) {
  ForestRow row;
  row.name = std::move(name);
  row.change = py::float_(m["change"]);
  if (m.contains("change_lower")) {
    row.lower = py::float_(m["change_lower"]);
    row.upper = py::float_(m["change_upper"]);
  } else {
    const auto [lower, upper] = m["change_ci"].cast<std::pair<py::object, py::object>>();
    row.lower = py::float_(lower);
    row.upper = py::float_(upper);
  }
  row.verdict = py::str(m.attr("get")("verdict", ""));
  return row;
}

std::vector<ForestRow> forest_rows(const py::object& result) {
  std::vector<ForestRow> rows;
  if (const py::object cases = py::getattr(result, "cases", py::none()); !cases.is_none()) {
    for (const auto& c : cases)
      rows.push_back(forest_row(py::str(c.attr("name")), c.attr("stats").cast<const CaseComparison&>()));
    return rows;
  }
  if (py::hasattr(result, "columns") && py::hasattr(result, "iterrows")) {  // a pandas DataFrame
    for (const auto& item : result.attr("iterrows")()) {
      const auto [index, row] = item.cast<std::pair<py::object, py::object>>();
      rows.push_back(row_of_mapping(py::str(row.attr("get")("name", index)), row));
    }
    return rows;
  }
  const py::list items =
      py::isinstance<py::list>(result) || py::isinstance<py::tuple>(result) ? py::list(result) : [&] {
        py::list one;
        one.append(result);
        return one;
      }();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const py::object item = items[i];
    const std::string fallback = fmt::format("case {}", i + 1);
    if (py::isinstance<CaseComparison>(item)) {
      const auto& c = item.cast<const CaseComparison&>();
      rows.push_back(forest_row(c.case_name.empty() ? fallback : c.case_name, c));
    } else {
      const py::object name = item.attr("get")("case");
      rows.push_back(row_of_mapping(py::bool_(name) ? std::string(py::str(name)) : fallback, item));
    }
  }
  return rows;
}

// One side's samples as one flat float64 array: an array (any shape), a list of numbers, or a list
// of per-process arrays (concatenated); `name` says whose samples are missing or not finite.
py::array_t<double> plot_values(const py::object& side, const std::string& name) {
  std::vector<double> values;
  const auto append = [&values](const py::handle& a) {
    const auto array = py::reinterpret_borrow<py::object>(a).cast<DoubleArray>();
    values.insert(values.end(), array.data(), array.data() + array.size());
  };
  if (py::isinstance<py::array>(side)) {
    append(side);
  } else {
    const py::list items(side);
    const py::object ndim = py::module_::import("numpy").attr("ndim");
    bool per_process = !items.empty();
    for (const auto& item : items) per_process = per_process && ndim(item).cast<int>() == 1;
    if (per_process) {
      for (const auto& item : items) append(item);
    } else {
      append(items);
    }
  }
  if (values.empty()) throw InputError(fmt::format("{}: no samples to plot", name));
  for (double v : values) {
    if (!std::isfinite(v)) throw InputError(fmt::format("{}: samples contain NaN or infinity", name));
  }
  return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
}

std::pair<double, std::string> display_scale_of(const DoubleArray& values, const std::string& unit) {
  PlotScale scale = plot_scale({values.data(), static_cast<std::size_t>(values.size())}, unit);
  return {scale.factor, std::move(scale.symbol)};
}

// The CaseComparisons in obj (one, a list or tuple of them, or a dict's values), else None.
py::object case_comparisons_in(const py::object& obj) {
  if (py::isinstance<CaseComparison>(obj)) return py::list(py::make_tuple(obj));
  py::object items = py::none();
  if (py::isinstance(obj, py::module_::import("collections.abc").attr("Mapping")))
    items = py::list(obj.attr("values")());
  else if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj))
    items = py::list(obj);
  if (items.is_none() || py::len(items) == 0) return py::none();
  for (const auto& item : items) {
    if (!py::isinstance<CaseComparison>(item)) return py::none();
  }
  return items;
}

py::dict flatten(const py::object& record, const std::string& prefix) {
  const py::object mapping = py::module_::import("collections.abc").attr("Mapping");
  py::dict out;
  for (const auto& item : record.attr("items")()) {
    const auto [key, value] = item.cast<std::pair<py::object, py::object>>();
    const std::string name = prefix + std::string(py::str(key));
    if (py::isinstance(value, mapping)) {
      out.attr("update")(flatten(value, name + "_"));
    } else if (py::isinstance<py::tuple>(value) && py::len(value) == 2) {
      out[py::str(name + "_lower")] = value[py::int_(0)];
      out[py::str(name + "_upper")] = value[py::int_(1)];
    } else {
      out[py::str(name)] = value;
    }
  }
  return out;
}

// summarize_grouped's columns for a DataFrame: the quantiles matrix becomes one q<p> column per
// probability (after the others, as pandas shows them); every other column is kept.
py::dict grouped_frame_columns(const py::object& grouped) {
  py::dict out;
  for (const auto& item : grouped.attr("items")()) {
    const auto [key, value] = item.cast<std::pair<py::object, py::object>>();
    const std::string name = py::str(key);
    if (name != "quantiles" && name != "probabilities") out[key] = value;
  }
  const py::object quantiles = grouped["quantiles"];
  const auto probabilities = grouped["probabilities"].cast<std::vector<double>>();
  for (std::size_t j = 0; j < probabilities.size(); ++j) {
    out[py::str("q" + format_general(probabilities[j]))] = quantiles[py::make_tuple(py::slice(), j)];
  }
  return out;
}

py::object reason_or_none(const Availability& a) {
  return a.ok ? py::object(py::none()) : py::object(py::str(a.reason));
}

py::dict summary_row(const Summary& s) {
  py::dict row;
  const auto put = [&row](const std::string& key, py::object value) { row[py::str(key)] = std::move(value); };
  put("n", py::int_(s.n));
  put("n_omitted", py::int_(s.n_omitted));
  const std::pair<const char*, double> leading[] = {
      {"min", s.min}, {"max", s.max},      {"mean", s.mean}, {"std", s.std_population}, {"std_sample", s.std_sample},
      {"cv", s.cv},   {"median", s.median}};
  for (const auto& [key, value] : leading) put(key, py::float_(value));
  const py::object float64 = py::module_::import("numpy").attr("float64");  // as Summary.quantiles' items
  for (std::size_t i = 0; i < s.probabilities.size(); ++i) {
    put("q" + format_general(s.probabilities[i]), float64(s.quantiles[i]));
  }
  const std::pair<const char*, double> spread[] = {{"iqr", s.iqr},
                                                   {"mad", s.mad},
                                                   {"mad_over_median_pct", s.mad_over_median_pct},
                                                   {"robust_cv", s.robust_cv},
                                                   {"median_ci_lower", s.median_ci.lower},
                                                   {"median_ci_upper", s.median_ci.upper},
                                                   {"median_ci_achieved", s.median_ci.achieved},
                                                   {"drift", s.drift.change}};
  for (const auto& [key, value] : spread) put(key, py::float_(value));
  put("drift_reason", reason_or_none(s.drift.change_availability));
  put("theil_sen_relative", py::float_(s.drift.theil_sen_relative));
  put("mann_kendall_p", py::float_(s.drift.mann_kendall_p));
  put("tukey_mild", py::int_(s.outliers.tukey_mild));
  put("tukey_severe", py::int_(s.outliers.tukey_severe));
  put("modified_z_outliers", py::int_(s.outliers.modified_z));
  return row;
}

}  // namespace

// A Report for what notebook.to_report takes that the core knows: a Report (itself), CaseComparisons,
// a Summary or a Dataset (benchreport.Dataset); a TypeError names any other type.
py::object notebook_report(const py::object& obj, const std::optional<std::string>& title) {
  if (py::isinstance<Report>(obj)) return obj;
  if (const py::object results = case_comparisons_in(obj); !results.is_none()) {
    std::vector<const CaseComparison*> cases;
    for (const auto& r : results) cases.push_back(&r.cast<const CaseComparison&>());
    return py::cast(case_comparisons_report(cases, title.value_or("Comparison")));
  }
  if (py::isinstance<Summary>(obj))
    return py::cast(summary_statistics_report(obj.cast<const Summary&>(), title.value_or("Summary")));
  if (py::isinstance(obj, py::module_::import("benchreport._core").attr("DatasetBase"))) {
    const Dataset& dataset = obj.attr("_ds").cast<const Dataset&>();
    return py::cast(dataset_display_report(dataset, title));
  }
  throw py::type_error(fmt::format("no report view for {}", std::string(py::str(py::type::of(obj).attr("__name__")))));
}

void register_notebook(py::module_& m) {
  py::module_ nb = m.def_submodule("notebook", "What benchreport.notebook shows that is not IPython or pandas.");
  nb.def("notebook_report", &notebook_report, "obj"_a, "title"_a = py::none(),
         "A Report for a Report (itself), CaseComparison(s), a Summary or a Dataset; TypeError otherwise.");
  nb.def("case_comparisons_in", &case_comparisons_in, "obj"_a,
         "The CaseComparisons in obj (one, a list or tuple of them, or a dict's values) as a list, else None.");
  nb.def("summary_row", &summary_row, "s"_a,
         "The DataFrame row of one :class:`benchreport.Summary` (quantiles as ``q<p>`` columns).");
  nb.def("flatten", &flatten, "record"_a, "prefix"_a = "",
         "One flat row from a nested mapping: dicts become ``outer_inner`` columns,\n"
         "2-tuples ``_lower``/``_upper``; lists stay as cells.");
  nb.def("grouped_frame_columns", &grouped_frame_columns, "grouped"_a,
         "summarize_grouped's columns with the quantiles matrix as one ``q<p>`` column per probability.");
  nb.attr("DATASET_MAX_ROWS") = kDatasetMaxRows;
  nb.attr("DATASET_EDGE_ROWS") = kDatasetEdgeRows;

  py::module_ plot = m.def_submodule("plot", "What benchreport.plot draws that is not matplotlib.");
  plot.def(
      "drift_windows",
      [](long long n, long long k)
          -> std::optional<std::pair<std::pair<std::size_t, std::size_t>, std::pair<std::size_t, std::size_t>>> {
        if (k < 1) throw InputError(fmt::format("k must be at least 1 (got {})", k));
        const auto w = drift_windows(n < 0 ? 0 : static_cast<std::size_t>(n), static_cast<std::size_t>(k));
        if (!w) return std::nullopt;
        return std::pair{std::pair{w->first_begin, w->first_end}, std::pair{w->last_begin, w->last_end}};
      },
      "n"_a, "k"_a, "Half-open index ranges of the first and last ``k`` samples, or None when n < 2k (drift n/a).");
  plot.def("display_scale", &display_scale_of, "values"_a, "unit"_a,
           "(factor, symbol): values given in ``unit`` times factor are in the unit benchreport's reports\n"
           "show their median in (``_core.display_unit``): seconds ``1.974e-05`` -> ``19.74`` µs. A unit\n"
           "benchreport does not know, or none, is kept as given (factor 1).");
  plot.def(
      "history_axis",
      [](const std::vector<const Series*>& drawn, std::optional<bool> relative) {
        HistoryAxis axis = history_axis(drawn, relative);
        return std::tuple(axis.relative, axis.scale.factor, std::move(axis.scale.symbol));
      },
      "drawn"_a, "relative"_a = py::none(),
      "(relative, factor, unit) of a history plot's y axis for the Series drawn: relative (default: more\n"
      "than one series, or base units that differ) divides each by its first value; otherwise values\n"
      "× factor are in `unit`, the display unit of them all. ValueError when units differ and not relative.");
  plot.def(
      "scaling_family",
      [](const py::object& core, const std::optional<std::string>& family) {
        const auto& result = core.cast<const ScalingResult&>();
        const ScalingFamilyPlot chosen = scaling_family_plot(result, family);
        py::list sides;  // (label, FamilyFit): base and head when compared, else ("", the fit)
        if (result.compared) {
          const py::object c = core.attr("comparisons")[py::int_(chosen.index)];
          sides.append(py::make_tuple(result.base_value, c.attr("base")));
          sides.append(py::make_tuple(result.head_value, c.attr("head")));
        } else {
          sides.append(py::make_tuple("", core.attr("fits")[py::int_(chosen.index)]));
        }
        return py::make_tuple(chosen.title, sides, chosen.scale.factor, chosen.scale.symbol);
      },
      "core"_a, "family"_a = py::none(),
      "(title, [(side, FamilyFit)], factor, unit) of the family a scaling plot draws (the first when\n"
      "family is None), its costs × factor in `unit`. ValueError when there is no such family.");
  plot.def("human_number", &human_number, "value"_a,
           "A tick label people read: ``200k`` and ``1M``, not ``184536`` or ``1.0838e+06``; 3 significant digits.");
  plot.def("value_with_unit", &value_with_unit, "value"_a, "unit"_a,
           "A legend number with its unit (\"19.74 µs\"), 4 significant digits, as its axis is labelled.");
  plot.def("plot_values", &plot_values, "side"_a, "name"_a,
           "One side's samples as one 1-D float64 array (a list of per-process arrays is concatenated);\n"
           "ValueError naming the side when there are none or one is NaN or infinite.");
  plot.def(
      "forest_rows", [](const py::object& result) { return to_tuples(forest_rows(result)); }, "result"_a,
      "(name, change, lower, upper, verdict) per case from any comparison result.\n\n"
      "Accepts a :class:`benchreport.ComparisonResult` (``br.compare``), one\n"
      ":class:`benchreport.CompareResult` (``br.compare_samples``) or a list of\n"
      "them, or a DataFrame with ``change``, ``change_lower``, ``change_upper``\n"
      "(and optionally ``name``, ``verdict``) columns.");
  plot.def(
      "forest_shown",
      [](const std::vector<RowTuple>& rows, long long max_cases) {
        std::vector<ForestRow> all;
        for (const auto& [name, change, lower, upper, verdict] : rows)
          all.push_back({name, change, lower, upper, verdict});
        // A negative count keeps all but that many, as a Python slice [:max_cases] would.
        const long long n = static_cast<long long>(all.size());
        const long long keep = max_cases < 0 ? std::max(0LL, n + max_cases) : max_cases;
        return to_tuples(forest_shown(std::move(all), static_cast<std::size_t>(keep)));
      },
      "rows"_a, "max_cases"_a, "The forest rows a plot shows: the ``max_cases`` largest |change|, sorted by change.");
}

}  // namespace benchreport::python

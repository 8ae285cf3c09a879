// Bindings for what benchreport.notebook and benchreport.plot show beside the reports:
// presets/notebook.hpp (a Summary's and a Dataset's notebook table), report/forest.hpp (forest-plot
// rows), report/plot_layout.hpp (what each chart draws), report/general_format.hpp (tick and legend
// text), data/display_unit.hpp's display_scale and stats/drift.hpp's drift windows. The Python modules
// keep matplotlib, pandas and IPython.
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
#include "benchreport/report/case_fields.hpp"
#include "benchreport/report/forest.hpp"
#include "benchreport/report/general_format.hpp"
#include "benchreport/report/plot_axes.hpp"
#include "benchreport/report/plot_layout.hpp"
#include "benchreport/stats/drift.hpp"
#include "benchreport/stats/summary.hpp"
#include "arrays.hpp"
#include "preset_results.hpp"
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

// How many of n items a Python slice [:max_count] keeps (a negative count keeps all but that many).
std::size_t slice_count(std::size_t n, long long max_count) {
  const auto size = static_cast<long long>(n);
  return static_cast<std::size_t>(max_count < 0 ? std::max(0LL, size + max_count) : std::min(size, max_count));
}

// The drift window size k from Python's int: at least 1.
std::size_t window_k(long long k) {
  if (k < 1) throw InputError(fmt::format("k must be at least 1 (got {})", k));
  return static_cast<std::size_t>(k);
}

// A numpy view of a vector of values held by the bound object `self`.
template <class Owner, class T>
auto array_of(std::vector<T> Owner::*member) {
  return [member](const py::object& self) { return readonly_view<T>(self.cast<const Owner&>().*member, self); };
}

void register_plot_layouts(py::module_& plot) {
  py::class_<DistributionSide>(plot, "DistributionSide", "One side of a distributions plot, in the unit drawn.")
      .def_property_readonly("values", array_of(&DistributionSide::values))
      .def_readonly("median", &DistributionSide::median)
      .def_readonly("color", &DistributionSide::color)
      .def_readonly("label", &DistributionSide::label);
  py::class_<DistributionsPlot>(plot, "DistributionsPlot", "What plot_distributions draws.")
      .def_readonly("sides", &DistributionsPlot::sides)
      .def_readonly("x_label", &DistributionsPlot::x_label);
  py::class_<DriftWindowMark>(plot, "DriftWindowMark",
                              "A drift window: shaded over [begin, end], its median across it.")
      .def_readonly("begin", &DriftWindowMark::begin)
      .def_readonly("end", &DriftWindowMark::end)
      .def_readonly("median", &DriftWindowMark::median)
      .def_readonly("label", &DriftWindowMark::label);
  py::class_<SamplesPlot>(plot, "SamplesPlot", "What plot_samples draws.")
      .def_property_readonly("values", array_of(&SamplesPlot::values))
      .def_readonly("windows", &SamplesPlot::windows)
      .def_readonly("title", &SamplesPlot::title)
      .def_readonly("y_label", &SamplesPlot::y_label);
  py::class_<ForestMark>(plot, "ForestMark", "One case of a forest plot: change and interval in percent.")
      .def_readonly("change", &ForestMark::change)
      .def_readonly("lower", &ForestMark::lower)
      .def_readonly("upper", &ForestMark::upper)
      .def_readonly("interval", &ForestMark::interval)
      .def_readonly("color", &ForestMark::color);
  py::class_<LegendEntry>(plot, "LegendEntry", "A legend entry: a colour and its text.")
      .def_readonly("color", &LegendEntry::color)
      .def_readonly("label", &LegendEntry::label);
  py::class_<ForestPlot>(plot, "ForestPlot", "What plot_forest draws; case i at height i.")
      .def_readonly("marks", &ForestPlot::marks)
      .def_readonly("names", &ForestPlot::names)
      .def_readonly("thresholds", &ForestPlot::thresholds)
      .def_readonly("threshold_label", &ForestPlot::threshold_label)
      .def_readonly("verdicts", &ForestPlot::verdicts)
      .def_readonly("title", &ForestPlot::title)
      .def_readonly("height", &ForestPlot::height);
  py::class_<HistoryChangeMark>(plot, "HistoryChangeMark", "A change point on a history line.")
      .def_readonly("commit", &HistoryChangeMark::commit)
      .def_readonly("value", &HistoryChangeMark::value)
      .def_readonly("color", &HistoryChangeMark::color);
  py::class_<HistoryLine>(plot, "HistoryLine", "One case of a history plot.")
      .def_readonly("commits", &HistoryLine::commits)
      .def_property_readonly("values", array_of(&HistoryLine::values))
      .def_readonly("label", &HistoryLine::label)
      .def_readonly("changes", &HistoryLine::changes);
  py::class_<HistoryPlot>(plot, "HistoryPlot", "What plot_history draws.")
      .def_readonly("lines", &HistoryPlot::lines)
      .def_readonly("relative", &HistoryPlot::relative)
      .def_readonly("ticks", &HistoryPlot::ticks)
      .def_readonly("tick_labels", &HistoryPlot::tick_labels)
      .def_readonly("x_label", &HistoryPlot::x_label)
      .def_readonly("y_label", &HistoryPlot::y_label);
  py::class_<ScalingSide>(plot, "ScalingSide", "One fit of a scaling plot: its process medians and model curve.")
      .def_readonly("sizes", &ScalingSide::x)
      .def_readonly("costs", &ScalingSide::y)
      .def_property_readonly("first_size", [](const ScalingSide& s) { return s.fit.sizes.front(); })
      .def_property_readonly("last_size", [](const ScalingSide& s) { return s.fit.sizes.back(); })
      .def_readonly("color", &ScalingSide::color)
      .def_readonly("points_label", &ScalingSide::points_label)
      .def_readonly("curve_label", &ScalingSide::curve_label)
      .def_readonly("fits", &ScalingSide::fits)
      .def(
          "curve",
          [](const ScalingSide& s, const DoubleArray& sizes) { return s.curve(one_dimensional(sizes, "sizes")); },
          "sizes"_a, "The curve's costs at ``sizes`` (the best model's, in the unit drawn).");
  py::class_<ScalingPlot>(plot, "ScalingPlot", "What plot_scaling draws.")
      .def_readonly("sides", &ScalingPlot::sides)
      .def_readonly("title", &ScalingPlot::title)
      .def_readonly("x_label", &ScalingPlot::x_label)
      .def_readonly("y_label", &ScalingPlot::y_label);
  plot.attr("BASE_COLOR") = std::string(kBaseColor);
  plot.attr("HEAD_COLOR") = std::string(kHeadColor);
  py::dict colors;
  for (const auto& [verdict, color] : verdict_colors()) colors[py::str(std::string(verdict))] = std::string(color);
  plot.attr("VERDICT_COLORS") = colors;
  plot.def(
      "distributions",
      [](const py::object& base, const py::object& head, const std::string& unit,
         const std::pair<std::string, std::string>& labels) {
        const auto b = plot_values(base, labels.first), h = plot_values(head, labels.second);
        return distributions_plot({b.data(), static_cast<std::size_t>(b.size())},
                                  {h.data(), static_cast<std::size_t>(h.size())}, unit, labels);
      },
      "base"_a, "head"_a, py::kw_only(), "unit"_a, "labels"_a,
      "Both sides' samples (as plot_values takes them, in ``unit``) as plot_distributions draws them.");
  plot.def(
      "samples",
      [](const py::object& values, long long k, const std::string& unit, const std::string& label) {
        const auto v = plot_values(values, label);
        return samples_plot({v.data(), static_cast<std::size_t>(v.size())}, window_k(k), unit);
      },
      "values"_a, py::kw_only(), "k"_a, "unit"_a, "label"_a,
      "Samples in measurement order (``label`` names them in errors) as plot_samples draws them.");
  plot.def(
      "forest",
      [](const py::object& result, long long max_cases, std::optional<double> threshold) {
        std::vector<ForestRow> rows = forest_rows(result);
        const std::size_t keep = slice_count(rows.size(), max_cases);
        return forest_plot(std::move(rows), keep, threshold);
      },
      "result"_a, py::kw_only(), "max_cases"_a, "threshold"_a,
      "Any comparison result (as forest_rows takes it) as plot_forest draws it; ValueError when it has no cases.");
  plot.def(
      "history",
      [](const py::object& core, long long max_cases, std::optional<bool> relative) {
        const auto& analysis = core.cast<const HistoryAnalysis&>();
        return history_plot(analysis, slice_count(analysis.history.series.size(), max_cases), relative);
      },
      "core"_a, py::kw_only(), "max_cases"_a, "relative"_a,
      "A HistoryAnalysis (``br.history(...).core``) as plot_history draws it.");
  plot.def(
      "scaling",
      [](const py::object& core, const std::optional<std::string>& family) {
        return scaling_plot(core.cast<const ScalingResult&>(), family);
      },
      "core"_a, "family"_a = py::none(),
      "A ScalingResult (``br.scaling(...).core``) as plot_scaling draws one family (the first when None).");
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

// What notebook.to_pandas makes a DataFrame of when obj has no to_pandas of its own: CaseComparisons'
// columns (report/case_fields.hpp), a Summary's one row, summarize_grouped's columns; else a TypeError.
py::object frame_data(const py::object& obj) {
  if (const py::object results = case_comparisons_in(obj); !results.is_none()) {
    return columns_dict(case_columns(results.cast<std::vector<const CaseComparison*>>()));
  }
  if (py::isinstance<Summary>(obj)) return py::list(py::make_tuple(summary_row(obj.cast<const Summary&>())));
  const py::object mapping = py::module_::import("collections.abc").attr("Mapping");
  if (py::isinstance(obj, mapping) && obj.contains("quantiles") && obj.contains("probabilities")) {
    return grouped_frame_columns(obj);
  }
  throw py::type_error(fmt::format("no pandas view for {}", std::string(py::str(py::type::of(obj).attr("__name__")))));
}

// The display methods IPython looks for that type t lacks, each (method, MIME type): HTML and
// Markdown, and pretty text except for a Dataset, which keeps its one-line repr (results print as
// their report). Methods a type defines itself are left alone.
std::vector<std::pair<std::string, std::string>> missing_display(const py::type& t) {
  std::vector<std::pair<std::string, std::string>> wanted{{"_repr_html_", "text/html"},
                                                          {"_repr_markdown_", "text/markdown"}};
  if (std::string(py::str(t.attr("__name__"))) != "Dataset") wanted.emplace_back("_repr_pretty_", "text/plain");
  std::erase_if(wanted, [&t](const auto& w) { return py::hasattr(t, w.first.c_str()); });
  return wanted;
}

}  // namespace

// A Report for what notebook.to_report takes: a Report (itself), a preset result (its report),
// CaseComparisons, a Summary or a Dataset (benchreport.Dataset); a TypeError names any other type.
py::object notebook_report(const py::object& obj, const std::optional<std::string>& title) {
  if (py::isinstance<Report>(obj)) return obj;
  if (py::isinstance<ComparisonPreset>(obj) || py::isinstance<MatrixPreset>(obj)) return obj.attr("report");
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
         "A Report for a Report (itself), a ComparisonResult or MatrixResult (its report), CaseComparison(s), a\n"
         "Summary or a Dataset; TypeError otherwise.");
  nb.def("missing_display", &missing_display, "t"_a,
         "(method, MIME type) of each IPython display method type ``t`` lacks: ``_repr_html_`` and\n"
         "``_repr_markdown_``, and ``_repr_pretty_`` except for a Dataset (it keeps its one-line repr).");
  nb.def("frame_data", &frame_data, "obj"_a,
         "What ``pandas.DataFrame`` makes notebook.to_pandas's frame of, for a result without a ``to_pandas``:\n"
         "CaseComparisons' columns, a Summary's one row, summarize_grouped's columns; TypeError otherwise.");
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
        const auto w = drift_windows(n < 0 ? 0 : static_cast<std::size_t>(n), window_k(k));
        if (!w) return std::nullopt;
        return std::pair{std::pair{w->first_begin, w->first_end}, std::pair{w->last_begin, w->last_end}};
      },
      "n"_a, "k"_a, "Half-open index ranges of the first and last ``k`` samples, or None when n < 2k (drift n/a).");
  plot.def("display_scale", &display_scale_of, "values"_a, "unit"_a,
           "(factor, symbol): values given in ``unit`` times factor are in the unit benchreport's reports\n"
           "show their median in (``_core.display_unit``): seconds ``1.974e-05`` -> ``19.74`` µs. A unit\n"
           "benchreport does not know, or none, is kept as given (factor 1).");
  plot.def("human_number", &human_number, "value"_a,
           "A tick label people read: ``200k`` and ``1M``, not ``184536`` or ``1.0838e+06``; 3 significant digits.");
  plot.def(
      "forest_rows", [](const py::object& result) { return to_tuples(forest_rows(result)); }, "result"_a,
      "(name, change, lower, upper, verdict) per case from any comparison result.\n\n"
      "Accepts a :class:`benchreport.ComparisonResult` (``br.compare``), one\n"
      ":class:`benchreport.CompareResult` (``br.compare_samples``) or a list of\n"
      "them, or a DataFrame with ``change``, ``change_lower``, ``change_upper``\n"
      "(and optionally ``name``, ``verdict``) columns.");
  register_plot_layouts(plot);
}

}  // namespace benchreport::python

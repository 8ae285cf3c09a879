// Bindings for scaling: size families (data/families.hpp), growth fits and
// their change (stats/scaling.hpp), scaling over a Dataset
// (compare/scaling.hpp) and the scaling preset (presets/scaling.hpp). Results
// are read-only classes; the typed skin is python/benchreport/_scaling.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "benchreport/compare/scaling.hpp"
#include "benchreport/data/families.hpp"
#include "benchreport/presets/scaling.hpp"
#include "benchreport/stats/scaling.hpp"
#include "arrays.hpp"
#include "preset_results.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

std::string model_name(GrowthModel m) { return std::string(growth_model_name(m)); }

void register_fit_classes(py::module_& m) {
  py::class_<ModelFit>(m, "ModelFit", "y = a·g(n) (or a·n^b) with the coefficient's interval and fit quality.")
      .def_property_readonly("model", [](const ModelFit& f) { return model_name(f.model); })
      .def_readonly("coefficient", &ModelFit::coefficient)
      .def_readonly("coefficient_lower", &ModelFit::coefficient_lower)
      .def_readonly("coefficient_upper", &ModelFit::coefficient_upper)
      .def_readonly("intercept", &ModelFit::intercept, "c of c + b·g(n); 0 without a fixed cost")
      .def_readonly("intercept_lower", &ModelFit::intercept_lower)
      .def_readonly("intercept_upper", &ModelFit::intercept_upper)
      .def_readonly("exponent", &ModelFit::exponent, "b of a·n^b, k of c + b·n^k; NaN otherwise")
      .def_readonly("exponent_lower", &ModelFit::exponent_lower)
      .def_readonly("exponent_upper", &ModelFit::exponent_upper)
      .def("predict", &model_value, py::arg("n"), "The model's fitted cost at n.")
      .def_readonly("parameters", &ModelFit::parameters)
      .def_readonly("aicc", &ModelFit::aicc)
      .def_readonly("rms_relative", &ModelFit::rms_relative);
  py::class_<PowerFit>(m, "PowerFit", "log y = level + b·(log n − log n_ref), t intervals.")
      .def_readonly("exponent", &PowerFit::exponent)
      .def_readonly("exponent_lower", &PowerFit::exponent_lower)
      .def_readonly("exponent_upper", &PowerFit::exponent_upper)
      .def_readonly("exponent_se", &PowerFit::exponent_se)
      .def_readonly("level", &PowerFit::level)
      .def_readonly("level_se", &PowerFit::level_se)
      .def_readonly("covariance", &PowerFit::covariance)
      .def_readonly("reference_size", &PowerFit::reference_size)
      .def_readonly("df", &PowerFit::df);
  py::class_<LackOfFit>(m, "LackOfFit", "F test of the best model's residuals against the between-process noise.")
      .def_readonly("tested", &LackOfFit::tested)
      .def_readonly("detected", &LackOfFit::detected, "p < alpha: no model fits the sizes within their noise")
      .def_readonly("f", &LackOfFit::f)
      .def_readonly("p", &LackOfFit::p)
      .def_readonly("df_model", &LackOfFit::df_model)
      .def_readonly("df_pure", &LackOfFit::df_pure);
  py::class_<ScalingFit>(m, "ScalingFit", "Growth fits of one family (or one side of it).")
      .def_readonly("sizes", &ScalingFit::sizes)
      .def_readonly("summaries", &ScalingFit::summaries)
      .def_readonly("processes", &ScalingFit::processes)
      .def_readonly("models", &ScalingFit::models)
      .def_property_readonly(
          "best",
          [](const ScalingFit& f) -> std::optional<std::string> {
            if (f.lack_of_fit.detected) return std::nullopt;
            return model_name(f.best);
          },
          "The chosen model's name; None when no model fits (lack_of_fit.detected)")
      .def_property_readonly(
          "closest", [](const ScalingFit& f) { return model_name(f.best); },
          "The chosen model's name even when none fits")
      .def_property_readonly("best_fit", &ScalingFit::best_fit, py::return_value_policy::reference_internal,
                             "The chosen (or, when none fits, the closest) model's fit")
      .def_readonly("lack_of_fit", &ScalingFit::lack_of_fit)
      .def_readonly("power", &ScalingFit::power)
      .def_readonly("residuals", &ScalingFit::residuals)
      .def_readonly("sigma", &ScalingFit::sigma)
      .def_readonly("sigma_between_processes", &ScalingFit::sigma_between_processes)
      .def_readonly("confidence", &ScalingFit::confidence)
      .def("predict", &ScalingFit::predict, py::arg("n"), "The fitted cost at n under the best model.");
  py::class_<GrowthChange>(m, "GrowthChange", "Base → head change of growth.")
      .def_readonly("exponent_change", &GrowthChange::exponent_change)
      .def_readonly("exponent_lower", &GrowthChange::exponent_lower)
      .def_readonly("exponent_upper", &GrowthChange::exponent_upper)
      .def_readonly("level_ratio", &GrowthChange::level_ratio)
      .def_readonly("level_lower", &GrowthChange::level_lower)
      .def_readonly("level_upper", &GrowthChange::level_upper)
      .def_readonly("reference_size", &GrowthChange::reference_size)
      .def_readonly("df", &GrowthChange::df)
      .def_property_readonly("verdict",
                             [](const GrowthChange& c) { return std::string(growth_verdict_name(c.verdict)); })
      .def_readonly("at", &GrowthChange::at)
      .def_readonly("at_ratio", &GrowthChange::at_ratio)
      .def_readonly("at_lower", &GrowthChange::at_lower)
      .def_readonly("at_upper", &GrowthChange::at_upper)
      .def_readonly("far", &GrowthChange::far);
}

void register_family_classes(py::module_& m) {
  py::class_<ReportedComplexity>(m, "ReportedComplexity", "Google Benchmark's own BigO/RMS of a family.")
      .def_readonly("big_o", &ReportedComplexity::big_o)
      .def_readonly("coefficient", &ReportedComplexity::coefficient)
      .def_readonly("rms", &ReportedComplexity::rms);
  py::class_<FamilyFit>(m, "FamilyFit", "One family's per-size process medians and growth fit.")
      .def_readonly("key", &FamilyFit::key)
      .def_readonly("name", &FamilyFit::name)
      .def_property_readonly("unit", [](const FamilyFit& f) { return std::string(base_symbol(f.unit.dimension)); })
      .def_property_readonly("sizes", [](const FamilyFit& f) { return f.fit.sizes; })
      .def_property_readonly("process_values",
                             [](const FamilyFit& f) {
                               std::vector<std::vector<double>> out;
                               for (const SizeLevel& l : f.levels) out.push_back(l.values);
                               return out;
                             })
      .def_readonly("fit", &FamilyFit::fit)
      .def_readonly("reported", &FamilyFit::reported);
  py::class_<FamilyComparison>(m, "FamilyComparison", "Base and head fits of one family and the change of growth.")
      .def_readonly("key", &FamilyComparison::key)
      .def_readonly("name", &FamilyComparison::name)
      .def_readonly("base", &FamilyComparison::base)
      .def_readonly("head", &FamilyComparison::head)
      .def_readonly("change", &FamilyComparison::change);
  py::class_<ScalingResult>(m, "ScalingAnalysis", "Every family of a Dataset fitted, or compared base → head.")
      .def(
          "columns", [](const ScalingResult& r) { return columns_dict(scaling_columns(r)); },
          "Columnar view: the scalar fields of the JSON comparisons (base_*, head_*, the change's) or fits.")
      .def_readonly("by", &ScalingResult::by)
      .def_readonly("size_source", &ScalingResult::size_source)
      .def_readonly("compared", &ScalingResult::compared)
      .def_readonly("baseline_column", &ScalingResult::baseline_column)
      .def_readonly("base_value", &ScalingResult::base_value)
      .def_readonly("head_value", &ScalingResult::head_value)
      .def_readonly("fits", &ScalingResult::fits)
      .def_readonly("comparisons", &ScalingResult::comparisons)
      .def_readonly("skipped", &ScalingResult::skipped);
}

// baseline = {column: value} (None or empty: the default sides) into the options.
void set_baseline(ScalingOptions& o, const py::object& baseline) {
  if (baseline.is_none()) return;
  const py::dict sides(baseline);
  if (sides.empty()) return;
  if (sides.size() != 1) {
    throw py::value_error("baseline must have exactly one label, e.g. {'revision': 'base'}; got " +
                          py::repr(sides).cast<std::string>());
  }
  for (const auto& [column, value] : sides) {
    o.baseline_column = py::str(column);
    o.baseline_value = py::str(value);
  }
}

void bind_scaling_preset(py::module_& m) {
  // dynamic_attr: benchreport._pickling keeps the call that made it, which pickle recomputes.
  py::class_<ScalingPreset> result(m, "ScalingResult", py::dynamic_attr(),
                                   "Result of scaling(): one fit per family, or base/head fits and the change of "
                                   "growth, and the report.");
  result
      .def_property_readonly(
          "core", [](const ScalingPreset& r) -> const ScalingResult& { return r.result; },
          py::return_value_policy::reference_internal, "The ScalingAnalysis: fits, comparisons, sides, size source.")
      .def_readonly("report", &ScalingPreset::report)
      .def_property_readonly("compared", [](const ScalingPreset& r) { return r.result.compared; })
      .def_property_readonly("fits", [](const ScalingPreset& r) { return r.result.fits; })
      .def_property_readonly("comparisons", [](const ScalingPreset& r) { return r.result.comparisons; })
      .def(
          "columns", [](const ScalingPreset& r) { return columns_dict(scaling_columns(r.result)); },
          "``{field: numpy array}``: one entry per family comparison (``family``, the ``base_`` and ``head_`` fit "
          "fields, the change's fields: ``exponent_change``, ``level_ratio``, ``verdict``, ``at_ratio``, ...) or, "
          "without two sides, per fit (``family``, ``unit``, ``best``, ``exponent`` with its interval, ``df``, "
          "``sigma``, ``google_benchmark_big_o``, ...): the scalar fields of the JSON ``data``.")
      .def(
          "to_pandas", [](const ScalingPreset& r) { return data_frame(scaling_columns(r.result)); },
          "``DataFrame(self.columns())``.")
      .def(
          "plot",
          [](const py::object& self, const py::object& family, const py::object& ax) {
            return py::module_::import("benchreport.plot").attr("plot_scaling")(self, "family"_a = family, "ax"_a = ax);
          },
          "family"_a = py::none(), "ax"_a = py::none(),
          "Log–log plot of one family (the first when None): process medians and the fitted model(s) (matplotlib, "
          "benchreport.plot.plot_scaling).")
      .def("__repr__", [](const ScalingPreset& r) {
        const std::size_t n = r.result.compared ? r.result.comparisons.size() : r.result.fits.size();
        return "<ScalingResult: " + std::to_string(n) + (n == 1 ? " family" : " families") +
               (r.result.compared ? " compared" : "") + ">";
      });
  def_report_renderers(result);
  const ScalingReportOptions d;
  const ScalingOptions& s = d.scaling;
  m.def(
      "scaling",
      [](const py::object& dataset, const py::object& baseline, const std::optional<std::string>& head,
         std::string name_column, std::string size_column, std::size_t size_argument, std::size_t min_sizes,
         std::string pair_column, double confidence, double exponent_threshold, std::optional<double> at,
         double far_factor, std::string title) {
        ScalingReportOptions o;
        ScalingOptions& s = o.scaling;
        o.title = std::move(title);
        s.families.name_column = std::move(name_column);
        s.families.size_column = std::move(size_column);
        s.families.size_argument = size_argument;
        s.families.min_sizes = min_sizes;
        set_baseline(s, baseline);
        s.head_value = head.value_or("");
        s.pair_column = std::move(pair_column);
        s.fit.confidence = s.change.confidence = confidence;
        s.change.exponent_threshold = exponent_threshold;
        s.change.at = at;
        s.change.far_factor = far_factor;
        const Dataset& data = native_dataset(dataset);
        py::gil_scoped_release release;
        return scaling_preset(data, o);
      },
      py::arg("dataset"), py::kw_only(), py::arg("baseline") = py::none(), py::arg("head") = py::none(),
      py::arg("name_column") = s.families.name_column, py::arg("size_column") = s.families.size_column,
      py::arg("size_argument") = s.families.size_argument, py::arg("min_sizes") = s.families.min_sizes,
      py::arg("pair_column") = s.pair_column, py::arg("confidence") = s.fit.confidence,
      py::arg("exponent_threshold") = s.change.exponent_threshold, py::arg("at") = py::none(),
      py::arg("far_factor") = s.change.far_factor, py::arg("title") = d.title,
      R"doc(Fit every size family of ``dataset`` (a Dataset, or files/globs read by br.load; ``BM_x/1024``,
``test_x[1024]``, a hyperfine parameter or the label ``size_column``) against 1, log n, n, n log n, n², n³, a
power law a·nᵇ and the models with a fixed cost c + b·n, c + b·n log n and c + b·nᵏ. Each fit's
``lack_of_fit`` says when no model follows the sizes within the spread between processes (then
``fit.best`` is None and ``fit.closest`` names the nearest model).

With two sides (``baseline``, default ``{"revision": "base"}``, present with another value), base and
head fits are compared: the change of exponent Δb and of cost, a verdict when the growth changed
(interval of Δb excludes 0 and |Δb| ≥ ``exponent_threshold``), and the change extrapolated to
``at`` (a warning beyond ``far_factor`` × the largest size).)doc");
}

}  // namespace

void register_scaling(py::module_& m) {
  register_fit_classes(m);
  register_family_classes(m);
  std::vector<std::string> models;
  for (const GrowthModel g : kGrowthModels) models.push_back(model_name(g));
  m.attr("GROWTH_MODELS") = models;
  m.attr("SCALING_SCHEMA") = std::string(kScalingSchema);
  m.def(
      "fit_scaling",
      [](const std::vector<std::pair<double, std::vector<double>>>& levels, double confidence, double reference_size,
         double lack_of_fit_alpha) {
        std::vector<SizeLevel> in;
        for (const auto& [size, values] : levels) in.push_back({size, values});
        return fit_scaling(in, {confidence, reference_size, lack_of_fit_alpha});
      },
      py::arg("levels"), py::kw_only(), py::arg("confidence") = 0.95, py::arg("reference_size") = 0.0,
      py::arg("lack_of_fit_alpha") = 0.01,
      "Growth fits of [(size, per-process values), ...]; see docs/statistics-scaling.md.");
  m.def(
      "compare_growth",
      [](const ScalingFit& base, const ScalingFit& head, double confidence, double exponent_threshold,
         std::optional<double> at, double far_factor) {
        return compare_growth(base, head, {confidence, exponent_threshold, at, far_factor});
      },
      py::arg("base"), py::arg("head"), py::kw_only(), py::arg("confidence") = 0.95,
      py::arg("exponent_threshold") = 0.1, py::arg("at") = py::none(), py::arg("far_factor") = 10.0,
      "Base → head change of growth of two fits.");
  m.def(
      "split_size",
      [](const std::string& name, std::size_t argument) -> std::optional<std::pair<std::string, double>> {
        const auto s = split_size(name, argument);
        if (!s) return std::nullopt;
        return std::make_pair(s->family, s->size);
      },
      py::arg("name"), py::arg("argument") = 0, "(family, size) of a case name, or None.");
  bind_scaling_preset(m);
}

}  // namespace benchreport::python

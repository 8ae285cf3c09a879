// Bindings for stats/moderated_t.hpp in the submodule _core.compare: the variance
// prior of the empirical-Bayes moderated t, the moderated variance, the power of
// the verdict rule and the change it detects, and the timer resolution.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/moderated_t.hpp"
#include "benchreport/stats/robust_prior.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {

namespace {
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::span<const double> view1(const Array& a) {
  if (a.ndim() != 1) throw InputError("expected a one-dimensional array");
  return {a.data(), static_cast<std::size_t>(a.size())};
}
}  // namespace

void register_moderated(py::module_& m) {
  py::module_ c = m.attr("compare");
  py::class_<VariancePrior>(c, "VariancePrior")
      .def_readonly("d0", &VariancePrior::d0)
      .def_readonly("s0_squared", &VariancePrior::s0_squared)
      .def_readonly("pooled_df", &VariancePrior::pooled_df)
      .def_readonly("cases_used", &VariancePrior::cases_used)
      .def_property_readonly("fallback", [](const VariancePrior& p) { return std::string(to_string(p.fallback)); })
      .def_property_readonly(
          "case_d0",
          [](const VariancePrior& p) {
            return py::array_t<double>(static_cast<py::ssize_t>(p.case_d0.size()), p.case_d0.data());
          },
          "The robust prior's d0 per case (smaller for a likely outlier); empty: every case has d0.");
  c.def(
      "estimate_variance_prior",
      [](const Array& variances, const Array& dfs, double excess_z, std::size_t min_cases, double min_d0) {
        return estimate_variance_prior(view1(variances), view1(dfs), excess_z, min_cases, min_d0);
      },
      py::arg("variances"), py::arg("dfs"), py::arg("excess_z") = 0.0, py::arg("min_cases") = 3,
      py::arg("min_d0") = 0.5, "Empirical-Bayes prior (d0, s0^2) of per-case variances (Smyth 2004).");
  c.def(
      "estimate_robust_variance_prior",
      [](const Array& variances, const Array& dfs, double excess_z, std::size_t min_cases, double min_d0) {
        return estimate_robust_variance_prior(view1(variances), view1(dfs), excess_z, min_cases, min_d0);
      },
      py::arg("variances"), py::arg("dfs"), py::arg("excess_z") = 0.0, py::arg("min_cases") = 3,
      py::arg("min_d0") = 0.5,
      "Robust empirical-Bayes prior (winsorised moments, per-case d0 for outliers; Phipson et al. 2016).");
  c.def(
      "winsorised_log_f_moments",
      [](double d1, double d0, double low, double high) {
        const WinsorisedMoments w = winsorised_log_f_moments(d1, d0, low, high);
        return py::make_tuple(w.mean, w.variance);
      },
      py::arg("d1"), py::arg("d0"), py::arg("low") = kWinsorLow, py::arg("high") = kWinsorHigh,
      "(mean, variance) of log F(d1, d0) winsorised at its low and 1 - high quantiles.");
  c.def("trigamma_inverse", &trigamma_inverse, py::arg("x"));
  c.def(
      "moderate_variance",
      [](double variance, double df, const VariancePrior& prior, std::optional<std::size_t> case_index) {
        if (case_index && !prior.case_d0.empty() && *case_index >= prior.case_d0.size()) {
          throw InputError("moderate_variance: case_index is past the prior's cases");
        }
        const ModeratedVariance r =
            case_index ? moderate_variance(variance, df, prior, *case_index) : moderate_variance(variance, df, prior);
        return py::make_tuple(r.variance, r.df);
      },
      py::arg("variance"), py::arg("df"), py::arg("prior"), py::arg("case_index") = py::none(),
      "(moderated variance, degrees of freedom); case_index: with that case's own prior df (case_d0).");
  c.def("rule_power", &rule_power, py::arg("delta"), py::arg("se"), py::arg("df"), py::arg("q"), py::arg("tau"));
  c.def(
      "detectable_log_change",
      [](double se, double df, double confidence, double tau, double power) {
        return detectable_log_change(se, df, confidence, tau, power);
      },
      py::arg("se"), py::arg("df"), py::arg("confidence"), py::arg("tau"), py::arg("power") = 0.8);
  c.def(
      "timer_resolution", [](const Array& v) { return timer_resolution(view1(v)); }, py::arg("values"));
}

}  // namespace benchreport::python

// Bindings for compare.hpp, inference.hpp (rank tests, Hodges–Lehmann,
// bootstrap, p-value adjustment) and rollup.hpp. Everything lives in the
// submodule _core.compare so names never clash with other areas; enums cross
// the boundary as strings for the same reason.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/compare/batch.hpp"
#include "benchreport/compare/rollup.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Offsets = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

std::span<const double> view(const Array& a) {
  if (a.ndim() != 1) throw InputError("expected a one-dimensional array of samples");
  return {a.data(), static_cast<std::size_t>(a.size())};
}

std::span<const std::int64_t> view(const Offsets& a) {
  if (a.ndim() != 1) throw InputError("expected a one-dimensional array of offsets");
  return {a.data(), static_cast<std::size_t>(a.size())};
}

Direction parse_direction(const std::string& s) {
  if (s == "lower" || s == "lower_is_better") return Direction::lower_is_better;
  if (s == "higher" || s == "higher_is_better") return Direction::higher_is_better;
  throw InputError("direction must be \"lower\" or \"higher\", got \"" + s + "\"");
}

SideSamples side_of(const std::vector<Array>& processes) {
  SideSamples side;
  for (const auto& p : processes) side.processes.push_back(view(p));
  return side;
}

py::dict bounds_dict(const Bounds& b) {
  py::dict d;
  d["lower"] = b.lower;
  d["upper"] = b.upper;
  d["achieved_misrate"] = b.achieved_misrate;
  d["exact"] = b.exact;
  return d;
}

py::dict bootstrap_dict(const BootstrapInterval& b) {
  py::dict d;
  d["estimate"] = b.estimate;
  d["percentile"] = py::make_tuple(b.percentile_lower, b.percentile_upper);
  d["bca"] = py::make_tuple(b.bca_lower, b.bca_upper);
  d["standard_error"] = b.standard_error;
  d["hierarchical"] = b.hierarchical;
  d["paired_processes"] = b.paired_processes;
  d["resamples"] = b.resamples;
  return d;
}

py::dict mann_whitney_dict(const MannWhitneyResult& r) {
  py::dict d;
  d["statistic"] = r.u;
  d["pvalue"] = r.p_value;
  d["method"] = std::string(to_string(r.method));
  return d;
}

py::dict brunner_munzel_dict(const BrunnerMunzelResult& r) {
  py::dict d;
  d["statistic"] = r.statistic;
  d["df"] = r.df;
  d["pvalue"] = r.p_value;
  return d;
}

py::dict wilcoxon_dict(const WilcoxonResult& r) {
  py::dict d;
  d["statistic"] = r.statistic;
  d["r_plus"] = r.r_plus;
  d["pvalue"] = r.p_value;
  d["n_used"] = r.n_used;
  d["method"] = std::string(to_string(r.method));
  return d;
}

py::dict comparison_dict(const CaseComparison& c) {
  py::dict d;
  d["case"] = c.case_name;
  d["base_n"] = c.base_n;
  d["head_n"] = c.head_n;
  d["base_median"] = c.base_median;
  d["head_median"] = c.head_median;
  d["change"] = c.change;
  d["log_ratio"] = c.log_ratio;
  d["base_mad_pct"] = c.base_mad_pct;
  d["head_mad_pct"] = c.head_mad_pct;
  d["base_robust_cv"] = c.base_robust_cv;
  d["head_robust_cv"] = c.head_robust_cv;
  d["base_process_medians"] = c.base_process_medians;
  d["head_process_medians"] = c.head_process_medians;
  d["process_changes"] = c.process_changes;
  d["process_change_min"] = c.process_change_min;
  d["process_change_max"] = c.process_change_max;
  d["processes_disagree"] = c.processes_disagree;
  d["bootstrap"] = bootstrap_dict(c.bootstrap);
  d["change_ci"] = py::make_tuple(c.change_lower, c.change_upper);
  d["change_ci_method"] = c.change_interval_method;
  d["shift"] = c.shift;
  d["shift_bounds"] = bounds_dict(c.shift_bounds);
  d["ratio"] = c.ratio;
  d["ratio_bounds"] = bounds_dict(c.ratio_bounds);
  d["disparity"] = c.disparity;
  d["disparity_bounds"] = bounds_dict(c.disparity_bounds);
  d["mann_whitney"] = mann_whitney_dict(c.mann_whitney);
  d["brunner_munzel"] = c.brunner_munzel_available ? py::object(brunner_munzel_dict(c.brunner_munzel)) : py::none();
  d["wilcoxon"] = c.wilcoxon_available ? py::object(wilcoxon_dict(c.wilcoxon)) : py::none();
  d["wilcoxon_unavailable_reason"] = c.wilcoxon_unavailable_reason;
  d["prob_head_better"] = c.prob_head_better;
  d["min_detectable_effect"] = c.min_detectable_effect;
  d["min_samples_for_alpha"] = c.min_samples_for_alpha;
  d["too_noisy"] = c.too_noisy;
  d["too_few_samples"] = c.too_few_samples;
  d["warnings"] = c.warnings;
  d["verdict"] = std::string(to_string(c.verdict));
  return d;
}

CompareOptions options_from(double threshold, double alpha, double confidence, int resamples, std::uint64_t seed,
                            double misrate, const std::string& direction, bool exact_unit, double noise_limit) {
  CompareOptions o;
  o.threshold = threshold;
  o.alpha = alpha;
  o.confidence = confidence;
  o.resamples = resamples;
  o.seed = seed;
  o.misrate = misrate;
  o.direction = parse_direction(direction);
  o.exact_unit = exact_unit;
  o.noise_limit = noise_limit;
  return o;
}

void bind_comparison(py::module_& m) {
  py::class_<CaseComparison>(m, "CaseComparison", "Result of compare_case (opaque; see to_dict()).")
      .def_readonly("case_name", &CaseComparison::case_name)
      .def_readonly("change", &CaseComparison::change)
      .def("to_dict", &comparison_dict);

  m.def(
      "compare_case",
      [](const std::vector<Array>& base, const std::vector<Array>& head, const std::string& name, double threshold,
         double alpha, double confidence, int resamples, std::uint64_t seed, double misrate,
         const std::string& direction, bool exact_unit, double noise_limit) {
        const CompareOptions o =
            options_from(threshold, alpha, confidence, resamples, seed, misrate, direction, exact_unit, noise_limit);
        const SideSamples b = side_of(base), h = side_of(head);
        py::gil_scoped_release release;
        return compare_case(b, h, o, name);
      },
      py::arg("base"), py::arg("head"), py::arg("name") = "", py::arg("threshold") = 0.05, py::arg("alpha") = 0.05,
      py::arg("confidence") = 0.95, py::arg("resamples") = 10000, py::arg("seed") = 0, py::arg("misrate") = 1e-3,
      py::arg("direction") = "lower", py::arg("exact_unit") = false, py::arg("noise_limit") = 0.25,
      "Compare one case: base and head are lists of per-process sample arrays.");

  m.def(
      "compare_cases",
      [](const std::vector<std::string>& names, const std::vector<std::vector<Array>>& bases,
         const std::vector<std::vector<Array>>& heads, double threshold, double alpha, double confidence,
         int resamples, std::uint64_t seed, double misrate, const std::string& direction, bool exact_unit,
         double noise_limit, unsigned threads) {
        if (names.size() != bases.size() || names.size() != heads.size()) {
          throw InputError("compare_cases: names, bases and heads must have the same length");
        }
        const CompareOptions o =
            options_from(threshold, alpha, confidence, resamples, seed, misrate, direction, exact_unit, noise_limit);
        std::vector<CaseInput> cases;
        for (std::size_t i = 0; i < names.size(); ++i) cases.push_back({names[i], side_of(bases[i]), side_of(heads[i])});
        py::gil_scoped_release release;
        return compare_cases(cases, o, threads);
      },
      py::arg("names"), py::arg("bases"), py::arg("heads"), py::arg("threshold") = 0.05, py::arg("alpha") = 0.05,
      py::arg("confidence") = 0.95, py::arg("resamples") = 10000, py::arg("seed") = 0, py::arg("misrate") = 1e-3,
      py::arg("direction") = "lower", py::arg("exact_unit") = false, py::arg("noise_limit") = 0.25,
      py::arg("threads") = 0);
}

void bind_tests(py::module_& m) {
  m.def(
      "mann_whitney_u",
      [](const Array& x, const Array& y) {
        const auto xs = view(x), ys = view(y);
        MannWhitneyResult r;
        {
          py::gil_scoped_release release;
          r = mann_whitney_u(xs, ys);
        }
        return mann_whitney_dict(r);
      },
      py::arg("x"), py::arg("y"));
  m.def(
      "brunner_munzel",
      [](const Array& x, const Array& y) { return brunner_munzel_dict(brunner_munzel(view(x), view(y))); },
      py::arg("x"), py::arg("y"));
  m.def(
      "wilcoxon_signed_rank", [](const Array& d) { return wilcoxon_dict(wilcoxon_signed_rank(view(d))); },
      py::arg("d"));
  m.def(
      "mann_whitney_u_batch",
      [](const Array& xv, const Offsets& xo, const Array& yv, const Offsets& yo, unsigned threads) {
        std::vector<MannWhitneyResult> r;
        {
          const auto a = view(xv), c = view(yv);
          const auto b = view(xo), d = view(yo);
          py::gil_scoped_release release;
          r = mann_whitney_u_batch(a, b, c, d, threads);
        }
        py::array_t<double> u(static_cast<py::ssize_t>(r.size())), p(static_cast<py::ssize_t>(r.size()));
        auto uu = u.mutable_unchecked<1>();
        auto pp = p.mutable_unchecked<1>();
        for (std::size_t i = 0; i < r.size(); ++i) {
          uu(static_cast<py::ssize_t>(i)) = r[i].u;
          pp(static_cast<py::ssize_t>(i)) = r[i].p_value;
        }
        return py::make_tuple(u, p);
      },
      py::arg("x_values"), py::arg("x_offsets"), py::arg("y_values"), py::arg("y_offsets"), py::arg("threads") = 0);
  m.def("adjust_bh", [](const Array& p) { return py::array(py::cast(adjust_bh(view(p)))); }, py::arg("p"));
  m.def("adjust_holm", [](const Array& p) { return py::array(py::cast(adjust_holm(view(p)))); }, py::arg("p"));
}

void bind_estimators(py::module_& m) {
  m.def("hodges_lehmann_shift", [](const Array& x, const Array& y) { return hodges_lehmann_shift(view(x), view(y)); });
  m.def("shift_bounds", [](const Array& x, const Array& y, double misrate) {
    return bounds_dict(shift_bounds(view(x), view(y), misrate));
  });
  m.def("ratio", [](const Array& x, const Array& y) { return ratio(view(x), view(y)); });
  m.def("ratio_bounds", [](const Array& x, const Array& y, double misrate) {
    return bounds_dict(ratio_bounds(view(x), view(y), misrate));
  });
  m.def("disparity", [](const Array& x, const Array& y) { return disparity(view(x), view(y)); });
  m.def("center", [](const Array& x) { return center(view(x)); });
  m.def("center_bounds", [](const Array& x, double misrate) { return bounds_dict(center_bounds(view(x), misrate)); });
  m.def("spread", [](const Array& x) { return spread(view(x)); });
  m.def("spread_bounds", [](const Array& x, double misrate, std::uint64_t seed) {
    return bounds_dict(spread_bounds(view(x), misrate, seed));
  }, py::arg("x"), py::arg("misrate"), py::arg("seed") = 0);
  m.def("disparity_bounds", [](const Array& x, const Array& y, double misrate, std::uint64_t seed) {
    return bounds_dict(disparity_bounds(view(x), view(y), misrate, seed));
  }, py::arg("x"), py::arg("y"), py::arg("misrate"), py::arg("seed") = 0);
  m.def("sign_margin", [](std::size_t m, double misrate) {
    const Margin g = sign_margin(m, misrate);
    return py::make_tuple(g.k, g.achieved_misrate, g.exact);
  });
  m.def("kth_pairwise_difference", [](const Array& xs, const Array& ys, std::size_t k) {
    return kth_pairwise_difference(view(xs), view(ys), k);
  });
  m.def("shift_margin", [](std::size_t n, std::size_t m, double misrate) {
    const Margin g = shift_margin(n, m, misrate);
    return py::make_tuple(g.k, g.achieved_misrate, g.exact);
  });
  m.def("center_margin", [](std::size_t n, double misrate) {
    const Margin g = center_margin(n, misrate);
    return py::make_tuple(g.k, g.achieved_misrate, g.exact);
  });
}

// "resampling" (seeded bootstrap) or "exact" (the resampling-free bootstrap
// distribution of each median; flat samples only).
BootstrapOptions bootstrap_options(int resamples, double confidence, const std::string& method) {
  if (method == "resampling") return BootstrapOptions{resamples, confidence, BootstrapMethod::resampling};
  if (method == "exact") return BootstrapOptions{resamples, confidence, BootstrapMethod::exact};
  throw InputError("bootstrap method \"" + method + "\": expected \"resampling\" or \"exact\"");
}

void bind_bootstrap(py::module_& m) {
  m.def(
      "bootstrap_median_ratio_ci",
      [](const std::vector<Array>& base, const std::vector<Array>& head, int resamples, double confidence,
         std::uint64_t seed, std::uint64_t stream, const std::string& method) {
        const SideSamples b = side_of(base), h = side_of(head);
        const BootstrapOptions options = bootstrap_options(resamples, confidence, method);
        BootstrapInterval r;
        {
          py::gil_scoped_release release;
          Xoshiro256 rng = Xoshiro256::for_stream(seed, stream);
          r = bootstrap_median_ratio_ci(b, h, options, rng);
        }
        return bootstrap_dict(r);
      },
      py::arg("base"), py::arg("head"), py::arg("resamples") = 10000, py::arg("confidence") = 0.95,
      py::arg("seed") = 0, py::arg("stream") = 0, py::arg("method") = "resampling");
  m.def(
      "bootstrap_median_ratio_ci_batch",
      [](const Array& bv, const Offsets& bo, const Array& hv, const Offsets& ho, int resamples, double confidence,
         std::uint64_t seed, unsigned threads, const std::string& method) {
        const BootstrapOptions options = bootstrap_options(resamples, confidence, method);
        std::vector<BootstrapInterval> r;
        {
          const auto a = view(bv), c = view(hv);
          const auto b = view(bo), d = view(ho);
          py::gil_scoped_release release;
          r = bootstrap_median_ratio_ci_batch(a, b, c, d, options, seed, threads);
        }
        const auto n = static_cast<py::ssize_t>(r.size());
        py::array_t<double> out({n, py::ssize_t{5}});
        auto o = out.mutable_unchecked<2>();
        for (py::ssize_t i = 0; i < n; ++i) {
          const auto& x = r[static_cast<std::size_t>(i)];
          o(i, 0) = x.estimate;
          o(i, 1) = x.percentile_lower;
          o(i, 2) = x.percentile_upper;
          o(i, 3) = x.bca_lower;
          o(i, 4) = x.bca_upper;
        }
        return out;
      },
      py::arg("base_values"), py::arg("base_offsets"), py::arg("head_values"), py::arg("head_offsets"),
      py::arg("resamples") = 10000, py::arg("confidence") = 0.95, py::arg("seed") = 0, py::arg("threads") = 0,
      py::arg("method") = "resampling",
      "Per case: [estimate, percentile lower, upper, BCa lower, upper] of median(head)/median(base).");
}

py::dict rollup_dict(const Rollup& r) {
  py::dict d;
  d["cases"] = r.cases;
  d["median_abs_change"] = r.median_abs_change;
  d["cases_at_threshold"] = r.cases_at_threshold;
  d["largest_abs_change"] = r.largest_abs_change;
  d["largest_change"] = r.largest_change;
  d["largest_case"] = r.largest_case;
  d["geomean_ratio"] = r.geomean_ratio;
  d["geomean_ci"] = py::make_tuple(r.geomean_lower, r.geomean_upper);
  py::dict counts;
  for (Verdict v : {Verdict::faster, Verdict::slower, Verdict::inconclusive, Verdict::equivalent, Verdict::unchanged}) {
    counts[py::str(std::string(to_string(v)))] = r.verdict_counts[static_cast<std::size_t>(v)];
  }
  d["verdict_counts"] = counts;
  d["p_values"] = r.p_values;
  d["p_bh"] = r.p_bh;
  d["p_holm"] = r.p_holm;
  return d;
}

py::dict calibration_dict(const NoiseCalibration& c) {
  py::dict d;
  d["cases"] = c.cases;
  d["noise_floor"] = c.noise_floor;
  d["runs"] = c.runs;
  d["p95_abs_change"] = c.p95_abs_change;
  d["suggested_threshold"] = c.suggested_threshold;
  return d;
}

void bind_rollup(py::module_& m) {
  m.def(
      "rollup",
      [](const std::vector<CaseComparison>& cases, double threshold, double confidence, int resamples,
         std::uint64_t seed) {
        return rollup_dict(rollup(cases, RollupOptions{threshold, confidence, resamples, seed}));
      },
      py::arg("cases"), py::arg("threshold") = 0.05, py::arg("confidence") = 0.95, py::arg("resamples") = 10000,
      py::arg("seed") = 0);
  m.def(
      "calibrate_noise",
      [](const std::vector<std::string>& names, const Array& changes, double minimum_threshold, double factor) {
        return calibration_dict(calibrate_noise(names, view(changes), minimum_threshold, factor));
      },
      py::arg("case_names"), py::arg("changes"), py::arg("minimum_threshold") = 0.05, py::arg("factor") = 1.5);
}

}  // namespace

void register_compare(py::module_& m) {
  py::module_ sub = m.def_submodule("compare", "Comparison and inference (compare.hpp, inference.hpp, rollup.hpp)");
  bind_comparison(sub);
  bind_tests(sub);
  bind_estimators(sub);
  bind_bootstrap(sub);
  bind_rollup(sub);
}

}  // namespace benchreport::python

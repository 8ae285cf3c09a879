// The submodule _core.compare: compare/case.hpp (CaseComparison, compare_case),
// compare/batch.hpp, compare/process_interval.hpp, compare/rollup.hpp, the columnar
// view of case comparisons (report/case_fields.hpp), and the statistics the
// comparison is made of: stats/rank_tests.hpp, stats/hodges_lehmann.hpp,
// stats/bootstrap.hpp, stats/pvalues.hpp. Results are
// py::class_ bindings of the C++ structs with read-only properties. Verdicts
// and test methods cross as strings: the public Python API compares them with
// "slower", "exact", ... and a py::enum_ would not equal those strings.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "benchreport/data/direction.hpp"
#include "benchreport/compare/case.hpp"
#include "benchreport/compare/process_interval.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/compare/batch.hpp"
#include "benchreport/compare/rollup.hpp"
#include "benchreport/report/case_fields.hpp"
#include "benchreport/report/verdict_text.hpp"
#include "arrays.hpp"
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

SideSamples side_of(const std::vector<Array>& processes) {
  SideSamples side;
  for (const auto& p : processes) side.processes.push_back(view(p));
  return side;
}

// Equality of two results field by field; NaN equals NaN so that a seeded
// result compares equal to its rerun.
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::string num(double x) { return fmt::format("{:.6g}", x); }
std::string flag(bool b) { return b ? "True" : "False"; }
std::string interval(double lo, double hi) { return "(" + num(lo) + ", " + num(hi) + ")"; }
std::string percent(double x) { return fmt::format("{:+.4f}%", 100.0 * x); }

void bind_result_types(py::module_& m) {
  py::class_<Bounds>(m, "Bounds", "Distribution-free bounds of an estimator at a misrate.")
      .def_readonly("lower", &Bounds::lower)
      .def_readonly("upper", &Bounds::upper)
      .def_readonly("achieved_misrate", &Bounds::achieved_misrate,
                    "Probability that the true value lies outside [lower, upper] (≤ the request when reachable).")
      .def_readonly("exact", &Bounds::exact, "False when the margins come from the normal approximation.")
      .def(
          "__eq__",
          [](const Bounds& a, const Bounds& b) {
            return same(a.lower, b.lower) && same(a.upper, b.upper) && same(a.achieved_misrate, b.achieved_misrate) &&
                   a.exact == b.exact;
          },
          py::is_operator())
      .def("__repr__", [](const Bounds& b) {
        return fmt::format("Bounds(lower={}, upper={}, achieved_misrate={}, exact={})", num(b.lower), num(b.upper),
                           num(b.achieved_misrate), flag(b.exact));
      });

  py::class_<MannWhitneyResult>(m, "MannWhitneyResult", "Two-sided Mann–Whitney U test (as scipy.stats.mannwhitneyu).")
      .def_readonly("statistic", &MannWhitneyResult::u, "U of x: #(x_i > y_j) + 0.5 #(x_i == y_j).")
      .def_readonly("pvalue", &MannWhitneyResult::p_value)
      .def_property_readonly(
          "method", [](const MannWhitneyResult& r) { return std::string(to_string(r.method)); },
          "\"exact\" or \"asymptotic\".")
      .def("__repr__", [](const MannWhitneyResult& r) {
        return fmt::format("MannWhitneyResult(statistic={}, pvalue={}, method='{}')", num(r.u), num(r.p_value),
                           to_string(r.method));
      });

  py::class_<BrunnerMunzelResult>(m, "BrunnerMunzelResult", "Two-sided Brunner–Munzel test (Student t with df).")
      .def_readonly("statistic", &BrunnerMunzelResult::statistic)
      .def_readonly("df", &BrunnerMunzelResult::df)
      .def_readonly("pvalue", &BrunnerMunzelResult::p_value)
      .def("__repr__", [](const BrunnerMunzelResult& r) {
        return fmt::format("BrunnerMunzelResult(statistic={}, df={}, pvalue={})", num(r.statistic), num(r.df),
                           num(r.p_value));
      });

  py::class_<WilcoxonResult>(m, "WilcoxonResult", "Two-sided Wilcoxon signed-rank test of differences against 0.")
      .def_readonly("statistic", &WilcoxonResult::statistic, "min(R+, R-).")
      .def_readonly("r_plus", &WilcoxonResult::r_plus)
      .def_readonly("pvalue", &WilcoxonResult::p_value)
      .def_readonly("n_used", &WilcoxonResult::n_used, "Nonzero differences.")
      .def_property_readonly("method", [](const WilcoxonResult& r) { return std::string(to_string(r.method)); })
      .def("__repr__", [](const WilcoxonResult& r) {
        return fmt::format("WilcoxonResult(statistic={}, pvalue={}, n_used={}, method='{}')", num(r.statistic),
                           num(r.p_value), r.n_used, to_string(r.method));
      });

  py::class_<BootstrapInterval>(m, "BootstrapInterval", "Bootstrap interval of median(head) / median(base).")
      .def_readonly("estimate", &BootstrapInterval::estimate)
      .def_property_readonly(
          "percentile", [](const BootstrapInterval& b) { return std::pair(b.percentile_lower, b.percentile_upper); })
      .def_property_readonly(
          "bca", [](const BootstrapInterval& b) { return std::pair(b.bca_lower, b.bca_upper); },
          "BCa interval; NaN when degenerate.")
      .def_readonly("standard_error", &BootstrapInterval::standard_error)
      .def_readonly("hierarchical", &BootstrapInterval::hierarchical, "Processes resampled first.")
      .def_readonly("paired_processes", &BootstrapInterval::paired_processes)
      .def_readonly("resamples", &BootstrapInterval::resamples, "0 for the exact method.")
      .def_readonly("exact", &BootstrapInterval::exact, "From the exact bootstrap distribution, without resampling.")
      .def(
          "__eq__",
          [](const BootstrapInterval& a, const BootstrapInterval& b) {
            return same(a.estimate, b.estimate) && same(a.percentile_lower, b.percentile_lower) &&
                   same(a.percentile_upper, b.percentile_upper) && same(a.bca_lower, b.bca_lower) &&
                   same(a.bca_upper, b.bca_upper) && same(a.standard_error, b.standard_error) &&
                   a.hierarchical == b.hierarchical && a.paired_processes == b.paired_processes && a.exact == b.exact &&
                   a.resamples == b.resamples;
          },
          py::is_operator())
      .def("__repr__", [](const BootstrapInterval& b) {
        return fmt::format("BootstrapInterval(estimate={}, percentile={}, bca={}, resamples={})", num(b.estimate),
                           interval(b.percentile_lower, b.percentile_upper), interval(b.bca_lower, b.bca_upper),
                           b.resamples);
      });

  using C = CaseComparison;
  // dynamic_attr: benchreport._pickling keeps the call that made it, which pickle recomputes.
  py::class_<C>(m, "CaseComparison", py::dynamic_attr(),
                "One base → head comparison (compare_case). change = median(head)/median(base) − 1 over pooled "
                "samples; change_ci is the interval the verdict is read from.")
      .def_readonly("case", &C::case_name)
      .def_readonly("case_name", &C::case_name)
      .def_readonly("base_n", &C::base_n)
      .def_readonly("head_n", &C::head_n)
      .def_readonly("base_median", &C::base_median)
      .def_readonly("head_median", &C::head_median)
      .def_readonly("change", &C::change)
      .def_readonly("log_ratio", &C::log_ratio)
      .def_readonly("base_mad_pct", &C::base_mad_pct, "100 × MAD / median of the base samples.")
      .def_readonly("head_mad_pct", &C::head_mad_pct)
      .def_readonly("base_robust_cv", &C::base_robust_cv, "1.4826 × MAD / median.")
      .def_readonly("head_robust_cv", &C::head_robust_cv)
      .def_readonly("base_process_medians", &C::base_process_medians)
      .def_readonly("head_process_medians", &C::head_process_medians)
      .def_readonly("process_changes", &C::process_changes, "head_i / base_i − 1 for the paired processes.")
      .def_readonly("process_change_min", &C::process_change_min)
      .def_readonly("process_change_max", &C::process_change_max)
      .def_readonly("processes_disagree", &C::processes_disagree)
      .def_readonly("bootstrap", &C::bootstrap)
      .def_property_readonly(
          "change_ci", [](const C& c) { return std::pair(c.change_lower, c.change_upper); },
          "The interval the verdict is read from (unit: interval_unit).")
      .def_readonly("change_ci_method", &C::change_interval_method,
                    "\"paired_t\" or \"welch_t\" (>= 2 processes per side), else \"bca\" or \"percentile\".")
      .def_readonly("interval_unit", &C::interval_unit,
                    "\"process\" (per-process summaries) or \"sample\" (one process: within-process noise only).")
      .def_readonly("within_process_only", &C::within_process_only)
      .def_readonly("change_estimate", &C::change_estimate, "Point estimate of change_ci.")
      .def_readonly("interval_df", &C::interval_df, "Degrees of freedom of a t interval (NaN otherwise).")
      .def_readonly("base_processes", &C::base_processes)
      .def_readonly("head_processes", &C::head_processes)
      .def_readonly("p_value", &C::p_value, "Two-sided p-value of the test matching change_ci.")
      .def_readonly("p_adjusted", &C::p_adjusted, "Benjamini–Hochberg across the comparison's cases.")
      .def_readonly("between_process_variance", &C::between_process_variance)
      .def_readonly("within_process_variance", &C::within_process_variance)
      .def_readonly("between_process_share", &C::between_process_share)
      .def_readonly("between_process_dominates", &C::between_process_dominates)
      .def_readonly("detectable_change", &C::detectable_change,
                    "Smallest change the verdict rule calls with 80 % power (noncentral t, threshold included).")
      .def_readonly("timer_resolution", &C::timer_resolution,
                    "Smallest difference between distinct samples, when it floors the process variance (else NaN).")
      .def_readonly("launch_noise", &C::launch_noise,
                    "Where the launch noise came from (a branch's stored runs) or why none was used; \"\" without a "
                    "store.")
      .def_readonly("launch_noise_runs", &C::launch_noise_runs,
                    "Stored runs the interval's launch noise comes from (0: not used).")
      .def_readonly("launch_noise_sd", &C::launch_noise_sd,
                    "sd of one launch's log location from the store, moderated across cases (NaN: not used).")
      .def_readonly("prior_df", &C::prior_df,
                    "Prior degrees of freedom d0 of the moderated t (0: the case's own t; inf: one common variance).")
      .def_property_readonly("verdict_code", &verdict_code_text,
                             "Decision-table code; \"_within_process\" when one process is on a side under "
                             "assume_launches_identical.")
      .def_property_readonly("verdict_reason", &verdict_reason)
      .def_property_readonly(
          "inconclusive_cause", [](const C& c) { return std::string(to_string(c.inconclusive_cause)); },
          "\"noise\", \"few_processes\", \"drift\", \"multiple_comparisons\", \"one_launch\", "
          "\"contamination\" or \"\".")
      .def_property_readonly("contamination", &contamination_text,
                             "Contamination flags in words (waited, loaded, side-wide shift: side, figure, which way "
                             "they push head), \"; \"-separated; \"\" when none (a dataset comparison's cases only).")
      .def_readonly("within_process_drift", &C::within_process_drift,
                    "Within-process drift that stands out from noise (NaN: none measurable).")
      .def_readonly("shift", &C::shift)
      .def_readonly("shift_bounds", &C::shift_bounds)
      .def_readonly("ratio", &C::ratio)
      .def_readonly("ratio_bounds", &C::ratio_bounds)
      .def_readonly("disparity", &C::disparity)
      .def_readonly("disparity_bounds", &C::disparity_bounds)
      .def_readonly("mann_whitney", &C::mann_whitney,
                    "Pooled samples: assumes independent samples; never decides the verdict.")
      .def_property_readonly(
          "brunner_munzel",
          [](const C& c) { return c.brunner_munzel_available ? std::optional(c.brunner_munzel) : std::nullopt; },
          "None when a side has a single sample.")
      .def_property_readonly(
          "wilcoxon", [](const C& c) { return c.wilcoxon_available ? std::optional(c.wilcoxon) : std::nullopt; },
          "On log(head_i / base_i) of paired processes; None with wilcoxon_unavailable_reason otherwise.")
      .def_readonly("wilcoxon_unavailable_reason", &C::wilcoxon_unavailable_reason)
      .def_readonly("prob_head_better", &C::prob_head_better)
      .def_readonly("min_detectable_effect", &C::min_detectable_effect)
      .def_readonly("min_samples_for_alpha", &C::min_samples_for_alpha)
      .def_readonly("too_noisy", &C::too_noisy)
      .def_readonly("too_few_samples", &C::too_few_samples)
      .def_readonly("warnings", &C::warnings)
      .def_property_readonly(
          "verdict", [](const C& c) { return std::string(to_string(c.verdict)); },
          "\"faster\", \"slower\", \"inconclusive\", \"equivalent\" or \"unchanged\".")
      .def("__repr__", [](const C& c) {
        return fmt::format("CompareResult(case={}, change={}, ci=({}, {}), verdict='{}')",
                           py::repr(py::str(c.case_name)).cast<std::string>(), percent(c.change),
                           percent(c.change_lower), percent(c.change_upper), to_string(c.verdict));
      });

  m.def(
      "case_columns", [](const std::vector<const C*>& cases) { return columns_dict(case_columns(cases)); },
      py::arg("results"),
      "Columnar view of CompareResults: {field: numpy array}, one entry per result; the fields of a JSON case "
      "(report/case_fields.hpp) after `name`.");

  py::class_<Rollup>(m, "Rollup", "Run-level figures over matched cases.")
      .def_readonly("cases", &Rollup::cases)
      .def_readonly("median_abs_change", &Rollup::median_abs_change)
      .def_readonly("cases_at_threshold", &Rollup::cases_at_threshold)
      .def_readonly("largest_abs_change", &Rollup::largest_abs_change)
      .def_readonly("largest_change", &Rollup::largest_change)
      .def_readonly("largest_case", &Rollup::largest_case)
      .def_readonly("geomean_ratio", &Rollup::geomean_ratio)
      .def_property_readonly("geomean_ci", [](const Rollup& r) { return std::pair(r.geomean_lower, r.geomean_upper); })
      .def_property_readonly(
          "verdict_counts",
          [](const Rollup& r) {
            std::map<std::string, std::size_t> counts;
            for (std::size_t v = 0; v < r.verdict_counts.size(); ++v) {
              counts[std::string(to_string(static_cast<Verdict>(v)))] = r.verdict_counts[v];
            }
            return counts;
          },
          "Cases per verdict name.")
      .def_readonly("p_values", &Rollup::p_values, "Mann–Whitney two-sided, in case order.")
      .def_readonly("p_bh", &Rollup::p_bh)
      .def_readonly("p_holm", &Rollup::p_holm)
      .def(
          "__eq__",
          [](const Rollup& a, const Rollup& b) {
            auto same_all = [](const std::vector<double>& x, const std::vector<double>& y) {
              return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](double p, double q) { return same(p, q); });
            };
            return a.cases == b.cases && same(a.median_abs_change, b.median_abs_change) &&
                   a.cases_at_threshold == b.cases_at_threshold && same(a.largest_abs_change, b.largest_abs_change) &&
                   same(a.largest_change, b.largest_change) && a.largest_case == b.largest_case &&
                   same(a.geomean_ratio, b.geomean_ratio) && same(a.geomean_lower, b.geomean_lower) &&
                   same(a.geomean_upper, b.geomean_upper) && a.verdict_counts == b.verdict_counts &&
                   same_all(a.p_values, b.p_values) && same_all(a.p_bh, b.p_bh) && same_all(a.p_holm, b.p_holm);
          },
          py::is_operator())
      .def("__repr__", [](const Rollup& r) {
        return fmt::format(
            "Rollup(cases={}, median_abs_change={}, cases_at_threshold={}, largest_case={}, "
            "geomean_ratio={})",
            r.cases, num(r.median_abs_change), r.cases_at_threshold,
            py::repr(py::str(r.largest_case)).cast<std::string>(), num(r.geomean_ratio));
      });

  py::class_<NoiseCalibration>(m, "NoiseCalibration", "Noise floor per case from same-code (A/A) comparisons.")
      .def_readonly("cases", &NoiseCalibration::cases, "Distinct case names, first-seen order.")
      .def_readonly("noise_floor", &NoiseCalibration::noise_floor, "Per case: largest |change| over its A/A runs.")
      .def_readonly("runs", &NoiseCalibration::runs)
      .def_readonly("p95_abs_change", &NoiseCalibration::p95_abs_change)
      .def_readonly("suggested_threshold", &NoiseCalibration::suggested_threshold)
      .def("__repr__", [](const NoiseCalibration& c) {
        return fmt::format("NoiseCalibration(cases={}, p95_abs_change={}, suggested_threshold={})", c.cases.size(),
                           num(c.p95_abs_change), num(c.suggested_threshold));
      });
}

ProcessPairing parse_pairing(const std::string& s) {
  if (s == "auto") return ProcessPairing::automatic;
  if (s == "paired") return ProcessPairing::paired;
  if (s == "unpaired") return ProcessPairing::unpaired;
  throw InputError("pairing must be \"auto\", \"paired\" or \"unpaired\", got \"" + s + "\"");
}

CompareOptions options_from(double threshold, double alpha, double confidence, int resamples, std::uint64_t seed,
                            double misrate, const std::string& direction, bool exact_unit, double noise_limit,
                            bool assume_launches_identical) {
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
  o.assume_launches_identical = assume_launches_identical;
  return o;
}

// One side's samples split by process id: ids sorted stably, so measurement order is kept
// within a process; the i-th process of base is paired with the i-th of head.
std::vector<Array> grouped_by_id(const Array& values, const py::object& process, const std::string& which) {
  const auto ids = py::cast<Offsets>(process);
  const auto x = view(values);
  if (ids.ndim() != 1 || static_cast<std::size_t>(ids.size()) != x.size()) {
    throw InputError(fmt::format("{0}_process must have one id per {0} sample ({1} ids for {2} samples)", which,
                                 ids.ndim() ? ids.shape(0) : 0, x.size()));
  }
  const std::int64_t* id = ids.data();
  std::vector<std::size_t> order(x.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [id](std::size_t a, std::size_t b) { return id[a] < id[b]; });
  std::vector<Array> parts;
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first;
    while (last < order.size() && id[order[last]] == id[order[first]]) ++last;
    Array part(static_cast<py::ssize_t>(last - first));
    for (std::size_t i = first; i < last; ++i) part.mutable_data()[i - first] = x[order[i]];
    parts.push_back(std::move(part));
    first = last;
  }
  return parts;
}

// A side as Python passes it: a 1-D array (one process), a list of 1-D arrays (one per
// process), or a 1-D array with `process`, an id per sample.
std::vector<Array> processes_of(const py::object& side, const py::object& process, const std::string& which) {
  if (!process.is_none()) return grouped_by_id(py::cast<Array>(side), process, which);
  if (py::isinstance<py::array>(side) && side.attr("ndim").cast<int>() == 1) return {py::cast<Array>(side)};
  const py::list items(side);
  const auto ndim = py::module_::import("numpy").attr("ndim");
  const bool per_process = !items.empty() && std::all_of(items.begin(), items.end(), [&ndim](const py::handle& item) {
    return ndim(item).cast<int>() == 1;
  });
  if (!per_process) return {py::cast<Array>(items)};
  std::vector<Array> out;
  for (const auto& item : items) out.push_back(py::cast<Array>(item));
  return out;
}

void bind_comparison(py::module_& m) {
  using namespace pybind11::literals;
  const CompareOptions d;
  const auto compare_one = [](const py::object& base, const py::object& head, const std::string& name,
                              const py::object& base_process, const py::object& head_process, double threshold,
                              double alpha, double confidence, int resamples, std::uint64_t seed, double misrate,
                              const std::string& direction, bool exact_unit, double noise_limit,
                              const std::string& pairing, bool assume_launches_identical) {
    const CompareOptions o = options_from(threshold, alpha, confidence, resamples, seed, misrate, direction, exact_unit,
                                          noise_limit, assume_launches_identical);
    const ProcessPairing pp = parse_pairing(pairing);
    const auto base_arrays = processes_of(base, base_process, "base");
    const auto head_arrays = processes_of(head, head_process, "head");
    const SideSamples b = side_of(base_arrays), h = side_of(head_arrays);
    py::gil_scoped_release release;
    return compare_case(b, h, o, name, pp);
  };
  m.def("compare_samples", compare_one,
        R"doc(Compare head against base for one case.

``base``/``head``: a 1-D array of samples, or a list of 1-D arrays (one per process). ``base_process``/
``head_process``: alternatively an int process id per sample; processes are sorted by id and paired by position.
``direction`` is ``"lower"`` (times) or ``"higher"`` (rates). With >= 2 processes per side the change interval is
a t interval on log process medians: paired (``pairing="auto"`` with equal process counts, or ``"paired"``) or
Welch (``"unpaired"``); with one process it covers within-process noise only, and the verdict is ``inconclusive``
(``one_launch_per_side``) unless ``assume_launches_identical`` (every launch runs at the same speed). Raises
benchreport.InputError (a ValueError) on empty sides, NaN/inf or non-positive values, naming the case.)doc",
        "base"_a, "head"_a, "name"_a = "", py::kw_only(), "base_process"_a = py::none(), "head_process"_a = py::none(),
        "threshold"_a = d.threshold, "alpha"_a = d.alpha, "confidence"_a = d.confidence, "resamples"_a = d.resamples,
        "seed"_a = d.seed, "misrate"_a = d.misrate, "direction"_a = "lower", "exact_unit"_a = d.exact_unit,
        "noise_limit"_a = d.noise_limit, "pairing"_a = "auto",
        "assume_launches_identical"_a = d.assume_launches_identical);

  m.def(
      "compare_many",
      [](const py::object& cases, unsigned threads, double threshold, double alpha, double confidence, int resamples,
         std::uint64_t seed, double misrate, const std::string& direction, bool exact_unit, double noise_limit,
         const std::string& pairing, bool control_fdr, bool moderate, bool assume_launches_identical) {
        CompareOptions o = options_from(threshold, alpha, confidence, resamples, seed, misrate, direction, exact_unit,
                                        noise_limit, assume_launches_identical);
        o.control_fdr = control_fdr;
        o.moderate = moderate;
        const ProcessPairing pp = parse_pairing(pairing);
        std::vector<std::vector<Array>> arrays;  // owns the buffers the CaseInputs view
        std::vector<std::string> names;
        for (const auto& key : py::iter(cases)) {
          const py::sequence sides = cases[key];
          names.push_back(key.cast<std::string>());
          arrays.push_back(processes_of(sides[0], py::none(), "base"));
          arrays.push_back(processes_of(sides[1], py::none(), "head"));
        }
        std::vector<CaseInput> inputs;
        for (std::size_t i = 0; i < names.size(); ++i)
          inputs.push_back({names[i], side_of(arrays[2 * i]), side_of(arrays[2 * i + 1]), pp, std::nullopt});
        std::vector<CaseComparison> results;
        {
          py::gil_scoped_release release;
          results = compare_cases(inputs, o, threads);
        }
        // benchreport.compare_many wraps the list as a CaseComparisons (columnar view, notebook display).
        return py::typing::List<CaseComparison>(py::cast(std::move(results)));
      },
      R"doc(Compare many cases ``{name: (base, head)}`` on worker threads; a list in input order (``benchreport.compare_many``: a CaseComparisons).

Each case's bootstrap stream comes from its name, so results do not depend on ``threads``. ``control_fdr``:
Benjamini–Hochberg adjust the cases' ``p_value`` (``p_adjusted``) and demote slower/faster with an adjusted p >=
alpha to inconclusive. ``moderate``: the empirical-Bayes moderated t across the cases' process-level variances
(docs/statistics-comparison.md).)doc",
      "cases"_a, py::kw_only(), "threads"_a = 0, "threshold"_a = d.threshold, "alpha"_a = d.alpha,
      "confidence"_a = d.confidence, "resamples"_a = d.resamples, "seed"_a = d.seed, "misrate"_a = d.misrate,
      "direction"_a = "lower", "exact_unit"_a = d.exact_unit, "noise_limit"_a = d.noise_limit, "pairing"_a = "auto",
      "control_fdr"_a = d.control_fdr, "moderate"_a = d.moderate,
      "assume_launches_identical"_a = d.assume_launches_identical);
}

void bind_tests(py::module_& m) {
  m.def(
      "mann_whitney_u",
      [](const Array& x, const Array& y) {
        const auto xs = view(x), ys = view(y);
        py::gil_scoped_release release;
        return mann_whitney_u(xs, ys);
      },
      "Two-sided Mann–Whitney U test, as ``scipy.stats.mannwhitneyu(x, y)`` (method=\"auto\").", py::arg("x"),
      py::arg("y"));
  m.def(
      "brunner_munzel", [](const Array& x, const Array& y) { return brunner_munzel(view(x), view(y)); },
      "Two-sided Brunner–Munzel test (t distribution), as ``scipy.stats.brunnermunzel``.", py::arg("x"), py::arg("y"));
  m.def(
      "wilcoxon_signed_rank", [](const Array& d) { return wilcoxon_signed_rank(view(d)); },
      "Two-sided Wilcoxon signed-rank test of differences ``d``, as ``scipy.stats.wilcoxon(d)``.", py::arg("d"));
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
  m.def(
      "adjust_pvalues",
      [](const Array& p, const std::string& method) {
        if (method == "bh") return py::array(py::cast(adjust_bh(view(p))));
        if (method == "holm") return py::array(py::cast(adjust_holm(view(p))));
        throw InputError("method must be \"bh\" or \"holm\", got " + py::repr(py::str(method)).cast<std::string>());
      },
      "Adjusted p-values: ``\"bh\"`` (Benjamini–Hochberg) or ``\"holm\"``.", py::arg("p"), py::arg("method") = "bh");
}

void bind_t_intervals(py::module_& m) {
  py::class_<LogTInterval>(m, "LogTInterval", "Student t interval of a mean log ratio (process-level inference).")
      .def_readonly("method", &LogTInterval::method)
      .def_readonly("estimate", &LogTInterval::estimate)
      .def_readonly("standard_error", &LogTInterval::standard_error)
      .def_readonly("df", &LogTInterval::df)
      .def_readonly("statistic", &LogTInterval::statistic)
      .def_readonly("pvalue", &LogTInterval::p_value)
      .def_property_readonly("interval", [](const LogTInterval& t) { return std::pair(t.lower, t.upper); })
      .def("__repr__", [](const LogTInterval& t) {
        return fmt::format("LogTInterval(method='{}', estimate={}, df={}, interval={}, pvalue={})", t.method,
                           num(t.estimate), num(t.df), interval(t.lower, t.upper), num(t.p_value));
      });
  const double confidence = CompareOptions{}.confidence;
  m.def(
      "paired_t_interval",
      [](const Array& base_logs, const Array& head_logs, double confidence) {
        return paired_t_interval(view(base_logs), view(head_logs), confidence);
      },
      "Paired t interval of mean(head_logs − base_logs), as ``scipy.stats.ttest_rel``.", py::arg("base_logs"),
      py::arg("head_logs"), py::arg("confidence") = confidence);
  m.def(
      "welch_t_interval",
      [](const Array& base_logs, const Array& head_logs, double confidence) {
        return welch_t_interval(view(base_logs), view(head_logs), confidence);
      },
      "Welch t interval of mean(head_logs) − mean(base_logs), as ``scipy.stats.ttest_ind(equal_var=False)``.",
      py::arg("base_logs"), py::arg("head_logs"), py::arg("confidence") = confidence);
}

void bind_estimators(py::module_& m) {
  const double misrate = CompareOptions{}.misrate;
  m.def(
      "hodges_lehmann_shift", [](const Array& x, const Array& y) { return hodges_lehmann_shift(view(x), view(y)); },
      "Median of all pairwise differences ``y_j − x_i``.", py::arg("x"), py::arg("y"));
  m.def(
      "shift_bounds",
      [](const Array& x, const Array& y, double misrate) { return shift_bounds(view(x), view(y), misrate); },
      "Distribution-free bounds of the shift (exact Mann–Whitney margins when feasible).", py::arg("x"), py::arg("y"),
      py::arg("misrate") = misrate);
  m.def(
      "ratio", [](const Array& x, const Array& y) { return ratio(view(x), view(y)); },
      "``exp(shift(log x, log y))`` for positive data.", py::arg("x"), py::arg("y"));
  m.def(
      "ratio_bounds",
      [](const Array& x, const Array& y, double misrate) { return ratio_bounds(view(x), view(y), misrate); },
      "Bounds of ratio (exp of the shift bounds of the logs).", py::arg("x"), py::arg("y"),
      py::arg("misrate") = misrate);
  m.def(
      "disparity", [](const Array& x, const Array& y) { return disparity(view(x), view(y)); },
      "Shift over the average Shamos spread: a robust effect size.", py::arg("x"), py::arg("y"));
  m.def(
      "center", [](const Array& x) { return center(view(x)); },
      "Hodges–Lehmann pseudomedian: median of the Walsh averages.", py::arg("x"));
  m.def(
      "center_bounds", [](const Array& x, double misrate) { return center_bounds(view(x), misrate); },
      "Distribution-free bounds of center (signed-rank margins).", py::arg("x"), py::arg("misrate") = misrate);
  m.def(
      "spread", [](const Array& x) { return spread(view(x)); },
      "Shamos estimator: median of ``|x_i − x_j|`` over pairs (raw scale).", py::arg("x"));
  m.def(
      "spread_bounds",
      [](const Array& x, double misrate, std::uint64_t seed) { return spread_bounds(view(x), misrate, seed); },
      R"doc(Distribution-free bounds of the population Shamos spread.

A sign test on ``|x_a − x_b|`` over a random disjoint pairing of the samples (Fisher–Yates from a Xoshiro256 seeded
with ``seed``): exact for i.i.d. continuous data; the same seed gives the same bounds everywhere.)doc",
      py::arg("x"), py::arg("misrate") = misrate, py::kw_only(), py::arg("seed") = 0);
  m.def(
      "disparity_bounds",
      [](const Array& x, const Array& y, double misrate, std::uint64_t seed) {
        return disparity_bounds(view(x), view(y), misrate, seed);
      },
      R"doc(Bounds of disparity: shift bounds at ``misrate/2`` over the average of the two spread bounds at
``misrate/4`` each (Bonferroni; ±inf on a side the spread bounds cannot keep away from 0).)doc",
      py::arg("x"), py::arg("y"), py::arg("misrate") = misrate, py::kw_only(), py::arg("seed") = 0);
  // Margins stay (k, achieved_misrate, exact) tuples: callers unpack them.
  const auto margin = [](const Margin& g) { return std::tuple(g.k, g.achieved_misrate, g.exact); };
  m.def(
      "sign_margin", [margin](std::size_t m, double misrate) { return margin(sign_margin(m, misrate)); }, py::arg("m"),
      py::arg("misrate"));
  m.def(
      "kth_pairwise_difference",
      [](const Array& xs, const Array& ys, std::size_t k) { return kth_pairwise_difference(view(xs), view(ys), k); },
      py::arg("xs"), py::arg("ys"), py::arg("k"));
  m.def(
      "shift_margin",
      [margin](std::size_t n, std::size_t m, double misrate) { return margin(shift_margin(n, m, misrate)); },
      py::arg("n"), py::arg("m"), py::arg("misrate"));
  m.def(
      "center_margin", [margin](std::size_t n, double misrate) { return margin(center_margin(n, misrate)); },
      py::arg("n"), py::arg("misrate"));
}

// "resampling" (seeded bootstrap) or "exact" (the resampling-free bootstrap
// distribution of each median; flat samples only).
BootstrapOptions bootstrap_options(int resamples, double confidence, const std::string& method) {
  if (method == "resampling") return BootstrapOptions{resamples, confidence, BootstrapMethod::resampling};
  if (method == "exact") return BootstrapOptions{resamples, confidence, BootstrapMethod::exact};
  throw InputError("bootstrap method \"" + method + "\": expected \"resampling\" or \"exact\"");
}

void bind_bootstrap(py::module_& m) {
  const BootstrapOptions d;
  m.def(
      "bootstrap_median_ratio_ci",
      [](const py::object& base, const py::object& head, int resamples, double confidence, std::uint64_t seed,
         std::uint64_t stream, const std::string& method) {
        const auto base_arrays = processes_of(base, py::none(), "base");
        const auto head_arrays = processes_of(head, py::none(), "head");
        const SideSamples b = side_of(base_arrays), h = side_of(head_arrays);
        const BootstrapOptions options = bootstrap_options(resamples, confidence, method);
        py::gil_scoped_release release;
        Xoshiro256 rng = Xoshiro256::for_stream(seed, stream);
        return bootstrap_median_ratio_ci(b, h, options, rng);
      },
      R"doc(Bootstrap interval of ``median(head) / median(base)`` (percentile and BCa).

``base``/``head``: a 1-D array, or a list of 1-D arrays (one per process). ``method="resampling"``: sides given as
lists of arrays are resampled hierarchically (processes, then samples); same seed and ``stream`` → identical
result on every platform. ``method="exact"``: the resampling-free bootstrap distribution of each median (flat
samples only; ``resamples``, ``seed`` and ``stream`` are ignored).)doc",
      py::arg("base"), py::arg("head"), py::kw_only(), py::arg("resamples") = d.resamples,
      py::arg("confidence") = d.confidence, py::arg("seed") = 0, py::arg("stream") = 0,
      py::arg("method") = "resampling");
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

void bind_rollup(py::module_& m) {
  const RollupOptions d;
  m.def(
      "rollup",
      [](const py::iterable& results, double threshold, double confidence, int resamples, std::uint64_t seed) {
        std::vector<CaseComparison> cases;
        for (const auto& r : results) cases.push_back(r.cast<CaseComparison>());
        return rollup(cases, RollupOptions{threshold, confidence, resamples, seed});
      },
      R"doc(Run-level figures over matched cases: median |Δ|, cases ≥ threshold, largest |Δ|, geometric mean of
ratios with a t-interval over the cases' log ratios, verdict counts, BH/Holm adjustment of the cases' verdict
p-values.)doc",
      py::arg("results"), py::kw_only(), py::arg("threshold") = d.threshold, py::arg("confidence") = d.confidence,
      py::arg("resamples") = d.resamples, py::arg("seed") = d.seed);
  m.def(
      "calibrate_noise",
      [](const py::object& aa, double minimum_threshold, double factor) {
        std::vector<std::string> names;
        std::vector<double> changes;
        if (py::isinstance(aa, py::module_::import("collections.abc").attr("Mapping"))) {
          for (const auto& [name, values] : py::cast<py::dict>(py::dict(aa))) {
            const auto flat = py::cast<Array>(values);  // a number or an array of them
            names.insert(names.end(), static_cast<std::size_t>(flat.size()), py::str(name).cast<std::string>());
            changes.insert(changes.end(), flat.data(), flat.data() + flat.size());
          }
        } else {
          for (const auto& r : py::iter(aa)) {  // CaseComparisons, or objects with .case and .change
            names.push_back(r.attr("case").cast<std::string>());
            changes.push_back(r.attr("change").cast<double>());
          }
        }
        return calibrate_noise(names, changes, minimum_threshold, factor);
      },
      R"doc(Noise floor per case and a suggested threshold from same-code (A/A) comparisons.

``aa``: A/A CaseComparison objects (one per case and run), or a mapping ``{case: [change, ...]}``. Suggested
threshold = max(minimum_threshold, factor × p95 of |change|).)doc",
      py::arg("aa"), py::kw_only(), py::arg("minimum_threshold") = 0.05, py::arg("factor") = 1.5);
}

}  // namespace

void register_compare(py::module_& m) {
  py::module_ sub = m.def_submodule("compare", "Comparison and inference (compare.hpp, inference.hpp, rollup.hpp)");
  bind_result_types(sub);
  bind_comparison(sub);
  bind_tests(sub);
  bind_t_intervals(sub);
  bind_estimators(sub);
  bind_bootstrap(sub);
  bind_rollup(sub);
}

}  // namespace benchreport::python

// Bindings for stats/summary.hpp, stats/grouped.hpp, stats/quantile.hpp, stats/drift.hpp, stats/median_ci.hpp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <optional>
#include <string>
#include <vector>

#include "benchreport/stats/grouped.hpp"
#include "benchreport/stats/summary.hpp"
#include "arrays.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

NanPolicy parse_nan_policy(const std::string& name) {
  if (name == "raise") return NanPolicy::raise;
  if (name == "omit") return NanPolicy::omit;
  throw InputError(fmt::format("nan_policy is '{}': expected 'raise' or 'omit'", name));
}

MadScale parse_mad_scale(const std::string& name) {
  if (name == "raw") return MadScale::raw;
  if (name == "normal") return MadScale::normal;
  throw InputError(fmt::format("mad_scale is '{}': expected 'raw' or 'normal'", name));
}

SummaryOptions make_options(const std::vector<double>& quantiles, const std::string& method, int ddof, long long k,
                            double confidence, const std::string& mad_scale, const std::string& nan_policy,
                            const std::optional<std::vector<std::string>>& stats, long long theil_sen_max_n) {
  SummaryOptions o;
  o.quantiles = quantiles;
  o.method = parse_quantile_method(method);
  o.ddof = ddof;
  o.drift_k = non_negative(k, "k");
  o.confidence = confidence;
  o.mad_scale = parse_mad_scale(mad_scale);
  o.nan_policy = parse_nan_policy(nan_policy);
  o.theil_sen_max_n = non_negative(theil_sen_max_n, "theil_sen_max_n");
  if (stats) {
    StatSet chosen;
    for (const auto& name : *stats) chosen = parse_stat(name, chosen);
    o.stats = chosen;
  }
  check_options(o);
  return o;
}

// Moves a vector into a numpy array without copying its data.
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(shape, owned->data(), free_when_done);
}

template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v) {
  const auto n = static_cast<py::ssize_t>(v.size());
  return to_numpy(std::move(v), {n});
}

py::array to_bool_numpy(std::vector<std::uint8_t>&& v) { return to_numpy(std::move(v)).attr("astype")("bool"); }

// Reasons are mostly empty and repeat the same few sentences: fill an object
// array with "" in one numpy call, then set only the unavailable entries,
// reusing one Python string per distinct reason.
py::array to_object_numpy(const std::vector<std::string>& v) {
  py::array out = py::module_::import("numpy").attr("full")(v.size(), "", "dtype"_a = "object");
  py::object setitem = out.attr("__setitem__");
  std::string last;
  py::str last_py;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].empty()) continue;
    if (!last_py || v[i] != last) {
      last = v[i];
      last_py = py::str(last);
    }
    setitem(i, last_py);
  }
  return out;
}

py::object optional_reason(const Availability& a) {
  return a.ok ? py::object(py::none()) : py::object(py::str(a.reason));
}

// summarize_grouped's result stays a dict of numpy columns (the one hand-built dict of
// this file): it is a struct of arrays whose keys depend on `stats=`, consumed
// as columns (pandas.DataFrame(result), result["median"][i]) — the shape a
// column mapping already has, with no Python class copying its fields.
py::object grouped_columns(GroupedSummary&& g, StatSet s) {
  py::dict d;
  const auto put_availability = [&d](const std::string& prefix, std::vector<std::uint8_t>&& ok,
                                     const std::vector<std::string>& reason) {
    d[py::str(prefix + "_reason")] = to_object_numpy(reason);
    d[py::str(prefix + "_available")] = to_bool_numpy(std::move(ok));
  };
  const auto n_sets = static_cast<py::ssize_t>(g.n_sets);
  const auto n_probs = static_cast<py::ssize_t>(g.probabilities.size());
  d["n"] = to_numpy(std::move(g.n));
  d["n_omitted"] = to_numpy(std::move(g.n_omitted));
  d["min"] = to_numpy(std::move(g.min));
  d["max"] = to_numpy(std::move(g.max));
  if (s.has(Stat::moments)) {
    d["mean"] = to_numpy(std::move(g.mean));
    d["std"] = to_numpy(std::move(g.std_population));
    d["std_sample"] = to_numpy(std::move(g.std_sample));
    d["cv"] = to_numpy(std::move(g.cv));
  }
  if (s.has(Stat::median)) d["median"] = to_numpy(std::move(g.median));
  if (s.has(Stat::quantiles)) {
    d["probabilities"] = to_numpy(std::move(g.probabilities));
    d["quantiles"] = to_numpy(std::move(g.quantiles), {n_sets, n_probs});
  }
  if (s.has(Stat::iqr)) d["iqr"] = to_numpy(std::move(g.iqr));
  if (s.has(Stat::mad)) {
    d["mad"] = to_numpy(std::move(g.mad));
    d["mad_over_median_pct"] = to_numpy(std::move(g.mad_over_median_pct));
    d["robust_cv"] = to_numpy(std::move(g.robust_cv));
  }
  if (s.has(Stat::median_ci)) {
    d["median_ci_lower"] = to_numpy(std::move(g.ci_lower));
    d["median_ci_upper"] = to_numpy(std::move(g.ci_upper));
    d["median_ci_achieved"] = to_numpy(std::move(g.ci_achieved));
    d["median_ci_lower_rank"] = to_numpy(std::move(g.ci_lower_rank));
    d["median_ci_upper_rank"] = to_numpy(std::move(g.ci_upper_rank));
    put_availability("median_ci", std::move(g.ci_ok), g.ci_reason);
  }
  if (s.has(Stat::drift)) {
    d["drift"] = to_numpy(std::move(g.drift));
    put_availability("drift", std::move(g.drift_ok), g.drift_reason);
  }
  if (s.has(Stat::trend)) {
    d["theil_sen_slope"] = to_numpy(std::move(g.theil_sen_slope));
    d["theil_sen_relative"] = to_numpy(std::move(g.theil_sen_relative));
    put_availability("theil_sen", std::move(g.theil_sen_ok), g.theil_sen_reason);
    d["mann_kendall_s"] = to_numpy(std::move(g.mann_kendall_s));
    d["mann_kendall_z"] = to_numpy(std::move(g.mann_kendall_z));
    d["mann_kendall_p"] = to_numpy(std::move(g.mann_kendall_p));
    d["kendall_tau"] = to_numpy(std::move(g.kendall_tau));
    put_availability("mann_kendall", std::move(g.mann_kendall_ok), g.mann_kendall_reason);
  }
  if (s.has(Stat::outliers)) {
    d["tukey_mild"] = to_numpy(std::move(g.tukey_mild));
    d["tukey_severe"] = to_numpy(std::move(g.tukey_severe));
    d["modified_z_outliers"] = to_numpy(std::move(g.modified_z));
  }
  return d;
}

// Pickle state of the summary results: their fields in declaration order (an Availability
// as (ok, reason)), so that a Summary crosses processes (multiprocessing, Dask) unchanged.
py::tuple availability_state(const Availability& a) { return py::make_tuple(a.ok, a.reason); }
Availability availability_from(const py::handle& t) {
  const auto s = t.cast<py::tuple>();
  return Availability{s[0].cast<bool>(), s[1].cast<std::string>()};
}

py::tuple median_ci_state(const MedianCI& c) {
  return py::make_tuple(availability_state(c.availability), c.lower, c.upper, c.nominal, c.achieved, c.lower_rank,
                        c.upper_rank);
}
MedianCI median_ci_from(const py::tuple& t) {
  return MedianCI{availability_from(t[0]), t[1].cast<double>(),      t[2].cast<double>(),     t[3].cast<double>(),
                  t[4].cast<double>(),     t[5].cast<std::size_t>(), t[6].cast<std::size_t>()};
}

py::tuple drift_state(const Drift& d) {
  return py::make_tuple(availability_state(d.change_availability), d.change,
                        availability_state(d.theil_sen_availability), d.theil_sen_slope, d.theil_sen_relative,
                        availability_state(d.mann_kendall_availability), d.mann_kendall_s, d.mann_kendall_z,
                        d.mann_kendall_p, d.kendall_tau);
}
Drift drift_from(const py::tuple& t) {
  return Drift{availability_from(t[0]), t[1].cast<double>(),     availability_from(t[2]), t[3].cast<double>(),
               t[4].cast<double>(),     availability_from(t[5]), t[6].cast<double>(),     t[7].cast<double>(),
               t[8].cast<double>(),     t[9].cast<double>()};
}

py::tuple summary_state(const Summary& s) {
  return py::make_tuple(s.n, s.n_omitted, s.min, s.max, s.mean, s.std_population, s.std_sample, s.cv, s.median,
                        s.probabilities, s.quantiles, s.iqr, s.mad, s.mad_over_median_pct, s.robust_cv,
                        median_ci_state(s.median_ci), drift_state(s.drift),
                        py::make_tuple(s.outliers.tukey_mild, s.outliers.tukey_severe, s.outliers.modified_z));
}
Summary summary_from(const py::tuple& t) {
  Summary s;
  s.n = t[0].cast<std::size_t>();
  s.n_omitted = t[1].cast<std::size_t>();
  s.min = t[2].cast<double>();
  s.max = t[3].cast<double>();
  s.mean = t[4].cast<double>();
  s.std_population = t[5].cast<double>();
  s.std_sample = t[6].cast<double>();
  s.cv = t[7].cast<double>();
  s.median = t[8].cast<double>();
  s.probabilities = t[9].cast<std::vector<double>>();
  s.quantiles = t[10].cast<std::vector<double>>();
  s.iqr = t[11].cast<double>();
  s.mad = t[12].cast<double>();
  s.mad_over_median_pct = t[13].cast<double>();
  s.robust_cv = t[14].cast<double>();
  s.median_ci = median_ci_from(t[15].cast<py::tuple>());
  s.drift = drift_from(t[16].cast<py::tuple>());
  const auto o = t[17].cast<py::tuple>();
  s.outliers = OutlierCounts{o[0].cast<std::size_t>(), o[1].cast<std::size_t>(), o[2].cast<std::size_t>()};
  return s;
}

void bind_result_types(py::module_& m) {
  py::class_<MedianCI>(m, "MedianCI", "Distribution-free confidence interval for the median.")
      .def_property_readonly("available", [](const MedianCI& c) { return c.availability.ok; })
      .def_property_readonly("reason", [](const MedianCI& c) { return optional_reason(c.availability); })
      .def_readonly("lower", &MedianCI::lower)
      .def_readonly("upper", &MedianCI::upper)
      .def_readonly("nominal", &MedianCI::nominal)
      .def_readonly("achieved", &MedianCI::achieved)
      .def_readonly("lower_rank", &MedianCI::lower_rank)
      .def_readonly("upper_rank", &MedianCI::upper_rank)
      .def(py::pickle(&median_ci_state, &median_ci_from))
      .def("__repr__", [](const MedianCI& c) {
        if (!c.availability.ok) return fmt::format("MedianCI(available=False, reason='{}')", c.availability.reason);
        return fmt::format("MedianCI(lower={:.6g}, upper={:.6g}, achieved={:.4g}, ranks=({}, {}))", c.lower, c.upper,
                           c.achieved, c.lower_rank, c.upper_rank);
      });
  py::class_<Drift>(m, "Drift", "Drift of one ordered sample set: end-median ratio, Theil–Sen, Mann–Kendall.")
      .def_readonly("change", &Drift::change)
      .def_property_readonly("change_available", [](const Drift& d) { return d.change_availability.ok; })
      .def_property_readonly("change_reason", [](const Drift& d) { return optional_reason(d.change_availability); })
      .def_readonly("theil_sen_slope", &Drift::theil_sen_slope)
      .def_readonly("theil_sen_relative", &Drift::theil_sen_relative)
      .def_property_readonly("theil_sen_available", [](const Drift& d) { return d.theil_sen_availability.ok; })
      .def_property_readonly("theil_sen_reason",
                             [](const Drift& d) { return optional_reason(d.theil_sen_availability); })
      .def_readonly("mann_kendall_s", &Drift::mann_kendall_s)
      .def_readonly("mann_kendall_z", &Drift::mann_kendall_z)
      .def_readonly("mann_kendall_p", &Drift::mann_kendall_p)
      .def_readonly("kendall_tau", &Drift::kendall_tau)
      .def_property_readonly("mann_kendall_available", [](const Drift& d) { return d.mann_kendall_availability.ok; })
      .def_property_readonly("mann_kendall_reason",
                             [](const Drift& d) { return optional_reason(d.mann_kendall_availability); })
      .def(py::pickle(&drift_state, &drift_from))
      .def("__repr__", [](const Drift& d) {
        const auto value = [](bool ok, double x) { return ok ? fmt::format("{:.6g}", x) : std::string("n/a"); };
        return fmt::format("Drift(change={}, theil_sen_relative={}, mann_kendall_p={})",
                           value(d.change_availability.ok, d.change),
                           value(d.theil_sen_availability.ok, d.theil_sen_relative),
                           value(d.mann_kendall_availability.ok, d.mann_kendall_p));
      });
  py::class_<Summary>(m, "Summary", "Summary statistics of one sample set (see docs/statistics-summary.md).")
      .def(py::pickle(&summary_state, &summary_from))
      .def_readonly("n", &Summary::n)
      .def_readonly("n_omitted", &Summary::n_omitted)
      .def_readonly("min", &Summary::min)
      .def_readonly("max", &Summary::max)
      .def_readonly("mean", &Summary::mean)
      .def_readonly("std", &Summary::std_population)
      .def_readonly("std_sample", &Summary::std_sample)
      .def_readonly("cv", &Summary::cv)
      .def_readonly("median", &Summary::median)
      .def_property_readonly("probabilities", [](const Summary& s) { return DoubleArray(py::cast(s.probabilities)); })
      .def_property_readonly("quantiles", [](const Summary& s) { return DoubleArray(py::cast(s.quantiles)); })
      .def_readonly("iqr", &Summary::iqr)
      .def_readonly("mad", &Summary::mad)
      .def_readonly("mad_over_median_pct", &Summary::mad_over_median_pct)
      .def_readonly("robust_cv", &Summary::robust_cv)
      .def_readonly("median_ci", &Summary::median_ci)
      .def_readonly("drift", &Summary::drift)
      .def_property_readonly("tukey_mild", [](const Summary& s) { return s.outliers.tukey_mild; })
      .def_property_readonly("tukey_severe", [](const Summary& s) { return s.outliers.tukey_severe; })
      .def_property_readonly("modified_z_outliers", [](const Summary& s) { return s.outliers.modified_z; })
      .def("__repr__", [](const Summary& s) {
        return fmt::format("Summary(n={}, median={:.6g}, mad={:.6g}, min={:.6g}, max={:.6g})", s.n, s.median, s.mad,
                           s.min, s.max);
      });
}

}  // namespace

void register_summary(py::module_& m) {
  bind_result_types(m);
  // Facts Python must not restate: accepted names and option defaults.
  const SummaryOptions defaults;
  const auto methods = quantile_method_names();
  const auto statistics = stat_names();
  m.attr("QUANTILE_METHODS") = py::tuple(py::cast(std::vector<std::string>(methods.begin(), methods.end())));
  m.attr("STATISTICS") = py::tuple(py::cast(std::vector<std::string>(statistics.begin(), statistics.end())));
  m.attr("DEFAULT_QUANTILES") = py::tuple(py::cast(defaults.quantiles));
  m.attr("THEIL_SEN_MAX_N") = defaults.theil_sen_max_n;
  m.def(
      "summarize",
      [](const DoubleArray& values, const std::vector<double>& quantiles, const std::string& method, int ddof,
         long long k, double confidence, const std::string& mad_scale, const std::string& nan_policy,
         const std::optional<std::vector<std::string>>& stats, long long theil_sen_max_n) {
        const SummaryOptions options =
            make_options(quantiles, method, ddof, k, confidence, mad_scale, nan_policy, stats, theil_sen_max_n);
        const std::span<const double> x = one_dimensional(values, "values");
        if (x.size() < 4096) return summarize(x, options);  // releasing the GIL costs more than the work
        py::gil_scoped_release unlocked;
        return summarize(x, options);
      },
      R"doc(Summarise one ordered sample set in a single C++ call.

Returns a Summary with n, n_omitted, min, max, mean, std (ddof 0), std_sample (ddof 1), cv (std with ``ddof``
over the mean), median, the requested ``quantiles`` (``method``: numpy's names or "harrell-davis"), iqr, mad (raw
or ``mad_scale="normal"``), mad_over_median_pct, robust_cv, median_ci (distribution-free, achieved confidence
reported), drift (median of the last ``k`` over the first ``k`` minus 1, Theil–Sen, Mann–Kendall) and outlier
counts. Unavailable fields are NaN and carry a reason.

Raises benchreport.InputError (a ValueError) for an empty set, NaN/±inf (unless ``nan_policy="omit"``) or bad
options.)doc",
      "values"_a, py::kw_only(), "quantiles"_a = defaults.quantiles, "method"_a = "linear", "ddof"_a = defaults.ddof,
      "k"_a = defaults.drift_k, "confidence"_a = defaults.confidence, "mad_scale"_a = "raw", "nan_policy"_a = "raise",
      "stats"_a = py::none(), "theil_sen_max_n"_a = defaults.theil_sen_max_n);
  m.def(
      "summarize_grouped",
      [](const DoubleArray& values, const IndexArray& offsets, const std::vector<double>& quantiles,
         const std::string& method, int ddof, long long k, double confidence, const std::string& mad_scale,
         const std::string& nan_policy, const std::optional<std::vector<std::string>>& stats, long long theil_sen_max_n,
         std::optional<long long> threads) {
        const SummaryOptions options =
            make_options(quantiles, method, ddof, k, confidence, mad_scale, nan_policy, stats, theil_sen_max_n);
        const unsigned thread_count = static_cast<unsigned>(non_negative(threads.value_or(0), "threads"));
        const auto x = one_dimensional(values, "values");
        const auto o = one_dimensional(offsets, "offsets");
        GroupedSummary g;
        {
          py::gil_scoped_release unlocked;
          g = summarize_grouped(x, o, options, thread_count);
        }
        return grouped_columns(std::move(g), options.stats);
      },
      R"doc(Summarise many sample sets in CSR layout: set i is ``values[offsets[i]:offsets[i+1]]``.

Returns a dict of numpy arrays, one per statistic (struct of arrays): ``n``, ``median``, ``mad``, ... as the
Summary properties, the median CI as ``median_ci_<field>``, drift as ``drift`` and the trend as
``theil_sen_*``/``mann_kendall_*``/``kendall_tau``; ``quantiles`` is 2-D (n_sets × len(quantiles)).
Optional statistics come with ``<name>_available`` (bool) and ``<name>_reason`` (object: "" when available)
arrays. ``stats`` restricts the work to some groups (see ``STATISTICS``). ``threads=None`` uses every core;
results are identical for any thread count. Errors name the lowest bad set.)doc",
      "values"_a, "offsets"_a, py::kw_only(), "quantiles"_a = defaults.quantiles, "method"_a = "linear",
      "ddof"_a = defaults.ddof, "k"_a = defaults.drift_k, "confidence"_a = defaults.confidence, "mad_scale"_a = "raw",
      "nan_policy"_a = "raise", "stats"_a = py::none(), "theil_sen_max_n"_a = defaults.theil_sen_max_n,
      "threads"_a = py::none());
  m.def(
      "quantile",
      [](const DoubleArray& values, const DoubleArray& p, const std::string& method) -> py::object {
        const QuantileMethod m = parse_quantile_method(method);
        const auto x = one_dimensional(values, "values");
        const std::span<const double> probs(p.data(), static_cast<std::size_t>(p.size()));
        std::vector<double> out;
        {
          py::gil_scoped_release unlocked;
          out = quantiles(x, probs, m);
        }
        if (p.ndim() == 0) return py::float_(out.at(0));  // a scalar p gives a float
        return to_numpy(std::move(out), std::vector<py::ssize_t>(p.shape(), p.shape() + p.ndim()));
      },
      R"doc(Quantile(s) of ``values`` at probability ``p`` (scalar or array in [0, 1]).

``method`` takes numpy's names (Hyndman–Fan types 1–9, default "linear") or "harrell-davis". A scalar ``p``
gives a float, an array gives an array of its shape.)doc",
      "values"_a, "p"_a, "method"_a = "linear");
  m.def(
      "drift",
      [](const DoubleArray& values, long long k, long long theil_sen_max_n) {
        const DriftOptions options{non_negative(k, "k"), non_negative(theil_sen_max_n, "theil_sen_max_n")};
        const auto x = one_dimensional(values, "values");
        py::gil_scoped_release unlocked;
        return drift(x, options);
      },
      R"doc(Drift of one ordered sample set: median(last k) / median(first k) − 1, Theil–Sen slope (absolute and
relative to the median) and the Mann–Kendall trend test (tie-corrected, asymptotic p-value).)doc",
      "values"_a, "k"_a = defaults.drift_k, py::kw_only(), "theil_sen_max_n"_a = defaults.theil_sen_max_n);
  m.def(
      "median_ci",
      [](const DoubleArray& values, double confidence) {
        const auto x = one_dimensional(values, "values");
        py::gil_scoped_release unlocked;
        return median_ci(x, confidence);
      },
      R"doc(Distribution-free order-statistic confidence interval for the median, with the confidence actually
achieved and the 1-based ranks used.)doc",
      "values"_a, "confidence"_a = defaults.confidence);
}

}  // namespace benchreport::python

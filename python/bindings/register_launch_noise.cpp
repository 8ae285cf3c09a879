// Bindings for stats/launch_noise.hpp and compare/stored_runs.hpp in the submodule _core.compare:
// the launch noise of each case estimated from a branch's stored runs (passed to
// presets_comparison as launch_noise=).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/compare/stored_runs.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/stats/launch_noise.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {

namespace {

// A run's log locations; its medians must be positive and finite (the error names the commit).
std::vector<double> log_medians(const std::string& commit, const std::vector<double>& medians) {
  const bool valid = !medians.empty() &&
                     std::all_of(medians.begin(), medians.end(), [](double m) { return std::isfinite(m) && m > 0; });
  if (!valid) {
    throw InputError("launch noise: run of commit " + commit + ": process medians must be positive and finite, got " +
                     py::repr(py::cast(medians)).cast<std::string>());
  }
  std::vector<double> logs(medians.size());
  std::transform(medians.begin(), medians.end(), logs.begin(), [](double m) { return std::log(m); });
  return logs;
}

using RunsOfCase = std::vector<std::pair<std::string, std::vector<double>>>;

LaunchNoise estimate(const RunsOfCase& runs, const LaunchNoiseOptions& options) {
  std::vector<StoredRun> stored;
  for (const auto& [commit, medians] : runs) stored.push_back({commit, log_medians(commit, medians)});
  py::gil_scoped_release release;
  return estimate_launch_noise(stored, options);
}

// Each case's stored runs in a Dataset of a store's runs (python's benchreport.Dataset holds its _core.Dataset as _ds).
py::dict stored_runs_of(const py::object& history, const std::vector<std::string>& by,
                        const std::vector<std::string>& run_order) {
  const auto& ds = (py::hasattr(history, "_ds") ? history.attr("_ds") : history).cast<const Dataset&>();
  py::dict out;
  for (auto& c : stored_runs(ds, by, run_order)) out[py::str(c.name)] = py::cast(std::move(c.runs));
  return out;
}

py::dict estimate_all(const py::dict& runs, const LaunchNoiseOptions& options) {
  py::dict out;
  for (const auto& [name, case_runs] : runs) out[name] = estimate(case_runs.cast<RunsOfCase>(), options);
  return out;
}

}  // namespace

void register_launch_noise(py::module_& m) {
  py::module_ c = m.attr("compare");
  py::class_<LaunchNoise>(c, "LaunchNoise")
      .def_readonly("variance", &LaunchNoise::variance)
      .def_readonly("df", &LaunchNoise::df)
      .def_readonly("runs", &LaunchNoise::runs)
      .def_readonly("launches", &LaunchNoise::launches)
      .def_readonly("stored_runs", &LaunchNoise::stored_runs)
      .def_readonly("change_points", &LaunchNoise::change_points)
      .def_readonly("segments", &LaunchNoise::segments)
      .def_readonly("since_commit", &LaunchNoise::since_commit)
      .def_readonly("branch", &LaunchNoise::branch)
      .def_readonly("min_runs", &LaunchNoise::min_runs)
      .def_readonly("usable", &LaunchNoise::usable)
      .def_readonly("unshared_variance", &LaunchNoise::unshared_variance,
                    "Pooled within-run variance of the log locations (runs with >= 2 processes): the launch "
                    "noise a base/head pair on one host still sees.")
      .def_readonly("unshared_df", &LaunchNoise::unshared_df)
      .def_readonly("unshared_runs", &LaunchNoise::unshared_runs)
      .def_readonly("unshared_usable", &LaunchNoise::unshared_usable)
      .def(
          "describe", [](const LaunchNoise& n, bool paired) { return describe_launch_noise(n, paired); },
          py::arg("paired") = false, "The report's sentence; paired: for base and head processes on one host.")
      .def_property_readonly("description", [](const LaunchNoise& n) { return describe_launch_noise(n); })
      .def("__repr__", [](const LaunchNoise& n) { return "<LaunchNoise " + describe_launch_noise(n) + ">"; });
  const LaunchNoiseOptions defaults;
  c.attr("LAUNCH_NOISE_MIN_RUNS") = defaults.min_runs;
  c.attr("LAUNCH_NOISE_MAX_RUNS") = defaults.max_runs;
  c.def(
      "estimate_launch_noise",
      [](const RunsOfCase& runs, std::size_t min_runs, std::size_t max_runs, const std::string& branch) {
        return estimate(runs, {.min_runs = min_runs, .max_runs = max_runs, .branch = branch});
      },
      "Launch noise of one case from its runs, oldest first: ``(commit, process medians)`` per run.", py::arg("runs"),
      py::kw_only(), py::arg("min_runs") = defaults.min_runs, py::arg("max_runs") = defaults.max_runs,
      py::arg("branch") = defaults.branch);
  c.def(
      "estimate_launch_noise_all",
      [](const py::dict& runs, std::size_t min_runs, std::size_t max_runs, const std::string& branch) {
        return estimate_all(runs, {.min_runs = min_runs, .max_runs = max_runs, .branch = branch});
      },
      "``estimate_launch_noise`` of every case: ``runs`` maps a case name to its runs; a dict of the same names.",
      py::arg("runs"), py::kw_only(), py::arg("min_runs") = defaults.min_runs, py::arg("max_runs") = defaults.max_runs,
      py::arg("branch") = defaults.branch);
  c.def(
      "stored_runs", &stored_runs_of,
      "Per case of ``history`` (a Dataset) (its ``by`` values joined by \" / \", as the comparison names it): the runs "
      "of ``history`` in "
      "``run_order`` (values of its ``run`` label), each ``(commit, medians)`` with the median of every process "
      "(sets sharing a ``process`` or ``pair`` label are one process, as in a comparison; other sets one each). "
      "Empty when ``history`` lacks a ``by`` column, ``run`` or ``commit``.",
      py::arg("history"), py::arg("by"), py::arg("run_order"));
  c.def(
      "launch_noise_window",
      [](const std::vector<std::int64_t>& run_ids, std::size_t max_runs) {
        // Only the latest runs can be used; a few more than max_runs leave room for a change point's segment.
        // max_runs 0 keeps every run (as the Python slice runs[-0:] did).
        const std::size_t keep = max_runs == 0 ? run_ids.size() : std::min(run_ids.size(), 4 * max_runs);
        return std::vector<std::int64_t>(run_ids.end() - static_cast<std::ptrdiff_t>(keep), run_ids.end());
      },
      "The run ids (a branch's, in order) whose runs the launch noise is estimated from: the latest 4 × max_runs "
      "(every one when max_runs is 0).",
      py::arg("run_ids"), py::kw_only(), py::arg("max_runs") = defaults.max_runs);
  c.def(
      "estimate_stored_launch_noise",
      [](const py::object& history, const std::vector<std::string>& by, const std::vector<std::int64_t>& run_ids,
         std::size_t min_runs, std::size_t max_runs, const std::string& branch) {
        std::vector<std::string> run_order;
        for (std::int64_t id : run_ids) run_order.push_back(std::to_string(id));
        return estimate_all(stored_runs_of(history, by, run_order),
                            {.min_runs = min_runs, .max_runs = max_runs, .branch = branch});
      },
      "``estimate_launch_noise_all`` of ``stored_runs(history, by, run_ids)``: the launch noise of every case of "
      "``history`` (a Dataset of the runs ``run_ids``, in branch order).",
      py::arg("history"), py::arg("by"), py::arg("run_ids"), py::kw_only(), py::arg("min_runs") = defaults.min_runs,
      py::arg("max_runs") = defaults.max_runs, py::arg("branch") = defaults.branch);
}

}  // namespace benchreport::python

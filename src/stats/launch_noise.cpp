#include "benchreport/stats/launch_noise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/steps.hpp"

namespace benchreport {
namespace {

double mean_of(std::span<const double> v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

std::string short_commit(const std::string& sha) { return sha.substr(0, 7); }

// A variance of log locations below this (sd 1e-9, a 1e-7 % spread) is no spread at all.
constexpr double kNoSpread = 1e-18;

}  // namespace

WithinRunVariance pooled_within_run_variance(std::span<const StoredRun> runs) {
  WithinRunVariance out;
  double ss = 0;
  for (const StoredRun& run : runs) {
    if (run.log_locations.size() < 2) continue;
    const double m = mean_of(run.log_locations);
    for (double y : run.log_locations) ss += (y - m) * (y - m);
    out.df += static_cast<double>(run.log_locations.size() - 1);
    ++out.runs;
  }
  if (out.df > 0) out.variance = ss / out.df;
  return out;
}

LaunchNoise estimate_launch_noise(std::span<const StoredRun> runs, const LaunchNoiseOptions& options) {
  if (options.max_runs < 1) throw InputError("launch noise: max_runs must be at least 1");
  LaunchNoise out;
  out.branch = options.branch;
  out.min_runs = std::max<std::size_t>(options.min_runs, 2);
  out.stored_runs = runs.size();
  std::vector<double> series;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (runs[r].log_locations.empty())
      throw InputError(fmt::format("launch noise: run {} (commit {}) has no process", r, runs[r].commit));
    for (double y : runs[r].log_locations) {
      if (!std::isfinite(y))
        throw InputError(
            fmt::format("launch noise: run {} (commit {}) has a non-finite log location", r, runs[r].commit));
    }
    series.push_back(mean_of(runs[r].log_locations));
  }
  if (runs.empty()) return out;
  // Only level steps cut: the estimator pools within segments around each segment's mean, so a
  // cut at a change of spread alone would cost a degree of freedom and remove no bias.
  StepOptions step_options;
  step_options.spreads = false;
  const std::vector<StepChange> steps = detect_steps(series, step_options);
  out.change_points = steps.size();
  // The latest max_runs runs, cut at the change points among them: each segment keeps its own
  // mean, so a step never enters the noise, and runs before a recent step still count.
  const std::size_t first = runs.size() - std::min(runs.size(), options.max_runs);
  std::vector<std::size_t> cuts{first};
  for (const StepChange& step : steps) {
    if (step.index > first) cuts.push_back(step.index);
  }
  cuts.push_back(runs.size());
  double ss = 0;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    std::vector<double> ys;
    for (std::size_t r = cuts[k]; r < cuts[k + 1]; ++r)
      ys.insert(ys.end(), runs[r].log_locations.begin(), runs[r].log_locations.end());
    const double m = mean_of(ys);
    for (double y : ys) ss += (y - m) * (y - m);
    out.launches += ys.size();
  }
  out.segments = cuts.size() - 1;
  out.runs = runs.size() - first;
  out.since_commit = runs[first].commit;
  if (out.launches > out.segments && out.runs > out.segments) {
    out.variance = ss / static_cast<double>(out.launches - out.segments);
    out.df = static_cast<double>(std::min(out.runs, out.launches) - out.segments);
    // Launches at one value to rounding (the same file recorded under several commits) show no
    // launch noise; a variance of ~1e-30 would make every interval a point.
    if (out.variance < kNoSpread) out.variance = 0;
  }
  out.usable = out.runs >= out.min_runs && out.variance > 0 && out.df >= 1;
  const WithinRunVariance within = pooled_within_run_variance(runs.subspan(first));
  out.unshared_variance = within.variance;
  out.unshared_df = within.df;
  out.unshared_runs = within.runs;
  if (within.runs > 0 && within.variance < kNoSpread) out.unshared_variance = 0;
  out.unshared_usable = out.unshared_runs >= out.min_runs && out.unshared_variance > 0;
  return out;
}

std::string describe_launch_noise(const LaunchNoise& n, bool paired) {
  const std::string branch = n.branch.empty() ? std::string("the branch") : n.branch;
  if (paired && n.unshared_usable) {
    return fmt::format(
        "unshared launch noise from {} runs of {} with ≥ 2 processes since {} (unshared sd {:.2f}% per launch, {:g} "
        "df; "
        "base and head share a host)",
        n.unshared_runs, branch, short_commit(n.since_commit), 100 * std::sqrt(n.unshared_variance), n.unshared_df);
  }
  if (paired && n.usable) {
    return fmt::format(
        "{}; base and head share a host, but {} of these runs have ≥ 2 processes (fewer than {}), so the "
        "launch noise they share is not taken out: the interval is conservative",
        describe_launch_noise(n), n.unshared_runs, n.min_runs);
  }
  if (n.usable) {
    return fmt::format("launch noise from {} runs of {} since {} (sd {:.2f}% per launch, {:g} df{})", n.runs, branch,
                       short_commit(n.since_commit), 100 * std::sqrt(n.variance), n.df,
                       n.segments > 1
                           ? fmt::format("; around the means of {} segments between change points", n.segments)
                           : std::string());
  }
  if (n.stored_runs == 0) return fmt::format("no stored runs of {} for this case: within-process noise only", branch);
  if (n.runs >= n.min_runs && n.variance == 0) {
    return fmt::format(
        "{} runs of {} for this case all at one value (the same results recorded again?): launch "
        "noise not used",
        n.runs, branch);
  }
  return fmt::format("{} usable runs of {} for this case (fewer than {}{}): launch noise not used", n.runs, branch,
                     n.min_runs, n.segments > 1 ? fmt::format(", or too few within its {} segments", n.segments) : "");
}

}  // namespace benchreport

#pragma once
// Launch noise learned from a branch's stored runs (docs/statistics-comparison.md, "Launch
// noise from the store"). The independent unit is a launch: one process of one benchmark run,
// started afresh, whose location (log of its sample median) moves by host, frequency, layout
// and the within-process noise of its median. A branch's recent runs of one case are repeated
// launches of (nearly) the same code, so the spread of their log locations is the variance of
// one launch, the quantity a single base/head process pair lacks.
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace benchreport {

// One stored run of one case: its commit and the log location of each of its processes.
struct StoredRun {
  std::string commit;
  std::vector<double> log_locations;
};

struct LaunchNoiseOptions {
  std::size_t min_runs = 10;  // fewer usable runs: no estimate (the comparison falls back)
  std::size_t max_runs = 30;  // the most recent runs of the current segment used
  std::string branch;         // named in the report ("launch noise from 30 runs of main since ...")
};

struct LaunchNoise {
  double variance = std::numeric_limits<double>::quiet_NaN();  // of one launch's log location
  double df = 0;                                               // runs - segments (runs are the independent units)
  std::size_t runs = 0;                                        // runs used: the latest max_runs
  std::size_t segments = 0;       // segments of those runs between change points (each its own mean)
  std::size_t launches = 0;       // processes in those runs
  std::size_t stored_runs = 0;    // runs given (all segments)
  std::size_t change_points = 0;  // steps found in the series of run locations
  std::string since_commit;       // commit of the first run used
  std::string branch;
  std::size_t min_runs = 0;  // the options' min_runs (the report says why a case fell back)
  bool usable = false;       // runs >= min_runs and variance > 0
  // The unshared part (pooled_within_run_variance over the same runs): what a base/head pair on one
  // host still sees. usable when >= min_runs of those runs have >= 2 processes and the variance > 0.
  double unshared_variance = std::numeric_limits<double>::quiet_NaN();
  double unshared_df = 0;         // sum over those runs of (processes - 1)
  std::size_t unshared_runs = 0;  // runs with >= 2 processes
  bool unshared_usable = false;
};

// The variance of process locations within a run, pooled over the runs with >= 2 processes:
// sum_r sum_i (y_ri - ybar_r)^2 / sum_r (K_r - 1). The processes of one run (one CI job) share a
// host and a time, so this is the unshared part of the launch variance (plus each location's own
// noise), the part left in a difference of two processes on one host; a step between runs never
// enters it. Runs with one process add nothing. NaN variance, df 0 when no run has two.
struct WithinRunVariance {
  double variance = std::numeric_limits<double>::quiet_NaN();
  double df = 0;
  std::size_t runs = 0;  // runs with >= 2 processes
};
WithinRunVariance pooled_within_run_variance(std::span<const StoredRun> runs);

// Runs in branch order (oldest first). The series of run locations (mean of each run's
// log locations) is segmented by detect_steps (stats/steps.hpp, default options). Of the
// latest max_runs runs, cut into k segments at the change points among them, variance =
// sum over segments and their launches of (y - ȳ_segment)^2 / (launches - k): each segment
// keeps its own mean, so a change point never enters the noise, and the runs before a recent
// step still count. df = runs - k (launches of one run may share a host: counting runs, not
// launches, keeps the df honest). The unshared fields come from pooled_within_run_variance over
// the same latest max_runs runs. Throws InputError for a run without locations or a non-finite
// location.
LaunchNoise estimate_launch_noise(std::span<const StoredRun> runs, const LaunchNoiseOptions& options = {});

// "launch noise from 30 runs of main since abc1234" / the reason it is not used. paired (base and
// head processes share a host): "unshared launch noise from 30 runs of main with >= 2 processes ...",
// or the unpaired sentence and why the unshared part could not be used.
std::string describe_launch_noise(const LaunchNoise& noise, bool paired = false);

}  // namespace benchreport

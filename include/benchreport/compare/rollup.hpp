#pragma once
// Run-level figures across cases, multiple-comparison control and noise
// calibration from same-code (A/A) comparisons.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/stats/pvalues.hpp"

namespace benchreport {

struct RollupOptions {
  double threshold = 0.05;
  double confidence = 0.95;  // geometric-mean t-interval
  int resamples = 10000;     // unused since the t-interval replaced the bootstrap (kept for callers)
  std::uint64_t seed = 0;    // unused (kept for callers)
};

struct Rollup {
  std::size_t cases = 0;
  double median_abs_change = 0;        // median over cases of |change|
  std::size_t cases_at_threshold = 0;  // cases with |change| >= threshold
  double largest_abs_change = 0;
  double largest_change = 0;  // signed change of that case
  std::string largest_case;
  double geomean_ratio = 1;  // exp(mean(log(head/base))) over the cases
  // t-interval over the cases' log ratios: exp(mean ± t_{n-1} sd / sqrt(n)); NaN with one case.
  double geomean_lower = 1, geomean_upper = 1;
  std::array<std::size_t, 5> verdict_counts{};  // indexed by static_cast<size_t>(Verdict); matched verdicts only
  std::vector<double> p_values;                 // the cases' verdict p-values (CaseComparison::p_value), in case order
  std::vector<double> p_bh, p_holm;             // adjusted p-values
};

// Requires at least one case. The geometric mean is over the given (matched)
// cases, with a Student t interval over their log ratios.
Rollup rollup(std::span<const CaseComparison> cases, const RollupOptions& options = {});
// The same over cases held elsewhere (a report's sections), without copying them.
Rollup rollup(std::span<const CaseComparison* const> cases, const RollupOptions& options = {});

struct NoiseCalibration {
  std::vector<std::string> cases;   // distinct case names, first-seen order
  std::vector<double> noise_floor;  // per case: largest |change| over the A/A comparisons
  std::vector<std::size_t> runs;    // per case: how many A/A comparisons it had
  double p95_abs_change = 0;        // type-7 95th percentile of every |change|
  double suggested_threshold = 0;   // max(minimum_threshold, factor * p95)
};

// From A/A changes (one entry per case and run; names repeat across runs).
NoiseCalibration calibrate_noise(std::span<const std::string> case_names, std::span<const double> changes,
                                 double minimum_threshold = 0.05, double factor = 1.5);
NoiseCalibration calibrate_noise(std::span<const CaseComparison> aa_comparisons, double minimum_threshold = 0.05,
                                 double factor = 1.5);
NoiseCalibration calibrate_noise(std::span<const CaseComparison* const> aa_comparisons, double minimum_threshold = 0.05,
                                 double factor = 1.5);

}  // namespace benchreport

#pragma once
// Base → head comparison of one benchmark case: the change in medians with a
// bootstrap confidence interval, robust Hodges–Lehmann estimators with exact
// bounds, rank tests, and a direction-aware verdict (DESIGN.md, "Comparison
// of base and head"; docs/statistics-comparison.md for formulas).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/stats/bootstrap.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/stats/hodges_lehmann.hpp"
#include "benchreport/stats/rank_tests.hpp"

namespace benchreport {

enum class Verdict { faster, slower, inconclusive, equivalent, unchanged };
std::string_view to_string(Direction d) noexcept;
std::string_view to_string(Verdict v) noexcept;

struct CompareOptions {
  double threshold = 0.05;   // t: smallest relative change that matters
  double alpha = 0.05;       // significance level for "enough samples" and the MDE
  double confidence = 0.95;  // bootstrap interval level
  int resamples = 10000;     // bootstrap resamples
  std::uint64_t seed = 0;    // bootstrap seed
  double misrate = 1e-3;     // Hodges–Lehmann bounds misrate
  Direction direction = Direction::lower_is_better;
  bool exact_unit = false;   // deterministic counts: any difference is a change
  double noise_limit = 0.25; // robust CV (1.4826 MAD / median) above which a side is too noisy
  std::uint64_t stream = 0;  // bootstrap stream (hash of the case name in batched comparisons)
};

struct CaseComparison {
  std::string case_name;
  std::size_t base_n = 0, head_n = 0;
  double base_median = 0, head_median = 0;
  double change = 0;     // head_median / base_median - 1 (pooled samples)
  double log_ratio = 0;  // log(head_median / base_median)
  double base_mad_pct = 0, head_mad_pct = 0;      // 100 * MAD / median
  double base_robust_cv = 0, head_robust_cv = 0;  // 1.4826 * MAD / median

  // Process structure (one entry per process; pairs = min of the two counts).
  std::vector<double> base_process_medians, head_process_medians;
  std::vector<double> process_changes;  // head_i / base_i - 1 for the paired processes
  double process_change_min = 0, process_change_max = 0;
  bool processes_disagree = false;  // min <= -t and max >= +t

  // Bootstrap of the ratio of medians, and the interval of the change used by the verdict.
  BootstrapInterval bootstrap;
  double change_lower = 0, change_upper = 0;
  std::string change_interval_method;  // "bca" or "percentile" (when BCa is degenerate)

  // Hodges–Lehmann estimators (head relative to base) with bounds at `misrate`.
  double shift = 0;
  Bounds shift_bounds;
  double ratio = 0;
  Bounds ratio_bounds;
  double disparity = 0;  // NaN when a side has fewer than 2 samples
  Bounds disparity_bounds;  // NaN bounds when a side has fewer than 2 samples

  MannWhitneyResult mann_whitney;  // x = base, y = head
  bool brunner_munzel_available = false;
  BrunnerMunzelResult brunner_munzel;
  bool wilcoxon_available = false;  // on log(head_i / base_i) of paired processes
  WilcoxonResult wilcoxon;
  std::string wilcoxon_unavailable_reason;

  double prob_head_better = 0.5;   // P(head better than base) + half the ties, direction-aware
  double min_detectable_effect = 0;  // relative change detectable at alpha with 80 % power
  std::size_t min_samples_for_alpha = 0;  // per side, equal counts, for the exact U test
  bool too_noisy = false;
  bool too_few_samples = false;
  std::vector<std::string> warnings;
  Verdict verdict = Verdict::unchanged;
};

// Throws InputError naming the case for an empty side or process, NaN/inf, or a
// non-positive value (ratios need positive values). Unequal counts are fine.
CaseComparison compare_case(const SideSamples& base, const SideSamples& head, const CompareOptions& options,
                            std::string_view case_name = "");

struct CaseInput {
  std::string name;
  SideSamples base, head;
};

// Many cases on `threads` worker threads (0 = hardware concurrency). Each case
// uses a bootstrap stream derived from its name (its index when unnamed), so
// results depend neither on the thread count nor on the input order. The
// first failing case (by index) is rethrown.
std::vector<CaseComparison> compare_cases(std::span<const CaseInput> cases, const CompareOptions& options,
                                          unsigned threads = 0);

// The verdict rule alone (exposed for tests and for callers with their own CI):
// see docs/statistics-comparison.md.
Verdict decide_verdict(double change, double change_lower, double change_upper, bool gated,
                       const CompareOptions& options);

// Smallest equal per-side sample count whose best exact two-sided U-test
// p-value, 2 / C(2n, n), is <= alpha.
std::size_t min_samples_per_side(double alpha);

}  // namespace benchreport

#pragma once
// Base → head comparison of one benchmark case: the change in medians with a
// bootstrap confidence interval, robust Hodges–Lehmann estimators with exact
// bounds, rank tests, and a direction-aware verdict (docs/statistics-comparison.md:
// formulas, the verdict rule and its decision table).
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/compare/contamination.hpp"
#include "benchreport/compare/process_interval.hpp"
#include "benchreport/stats/bootstrap.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/stats/hodges_lehmann.hpp"
#include "benchreport/stats/launch_noise.hpp"
#include "benchreport/stats/rank_tests.hpp"

namespace benchreport {

// added / removed: a case measured on one side only (head only / base only). compare_case never
// gives them; the comparison report's rows of unmatched cases carry them, and a rollup refuses them.
enum class Verdict { faster, slower, inconclusive, equivalent, unchanged, added, removed };

// Why the verdict is what it is: the row of the decision table that held
// (docs/statistics-comparison.md). Names (to_string) are the machine-readable codes;
// the sentences for people are written in report/verdict_text.hpp.
enum class VerdictCode : std::uint8_t {
  within_threshold,     // equivalent: the whole interval within ±t
  beyond_threshold,     // slower/faster: the interval excludes 0 and the estimate is beyond ±t
  below_threshold,      // inconclusive: excludes 0, the estimate is within ±t, the interval is not
  straddles_zero,       // inconclusive: includes 0 and is not within ±t
  too_noisy,            // inconclusive: a side's robust CV is above noise_limit
  too_few_samples,      // inconclusive: the exact U test cannot reach alpha (one process on a side)
  no_interval,          // inconclusive: no finite interval
  fdr_adjusted,         // inconclusive: demoted by Benjamini–Hochberg across the measurements
  one_launch_per_side,  // inconclusive: one process on a side (launch noise unknown), not assume_launches_identical
  exact_equal,          // exact unit: equal values (unchanged)
  exact_differs,        // exact unit: the values differ (slower/faster)
  contaminated,         // inconclusive: a contamination flag alone could explain the change (compare/contamination.hpp)
};

// For an inconclusive verdict, what would make the comparison decide.
enum class InconclusiveCause : std::uint8_t {
  none,
  noise,
  few_processes,
  drift,
  multiple_comparisons,
  one_launch,
  contamination
};

// How the processes of base and head relate. automatic: paired when both sides
// have the same number (>= 2) of processes (process i with process i);
// paired: the caller knows they are paired (equal pair labels; falls back to
// unpaired when the counts differ); unpaired: independent processes (Welch).
enum class ProcessPairing { automatic, paired, unpaired };
std::string_view to_string(Direction d) noexcept;
std::string_view to_string(Verdict v) noexcept;
std::string_view to_string(VerdictCode code) noexcept;
std::string_view to_string(InconclusiveCause cause) noexcept;  // "" for none
inline bool is_one_sided(Verdict v) noexcept { return v == Verdict::added || v == Verdict::removed; }
inline bool is_exact(VerdictCode code) noexcept {
  return code == VerdictCode::exact_equal || code == VerdictCode::exact_differs;
}

struct CompareOptions {
  double threshold = 0.05;   // t: smallest relative change that matters
  double alpha = 0.05;       // significance level for "enough samples" and the MDE
  double confidence = 0.95;  // bootstrap interval level
  int resamples = 10000;     // bootstrap resamples
  std::uint64_t seed = 0;    // bootstrap seed
  double misrate = 1e-3;     // Hodges–Lehmann bounds misrate
  Direction direction = Direction::lower_is_better;
  bool exact_unit = false;    // deterministic counts: any difference is a change
  double noise_limit = 0.25;  // robust CV (1.4826 MAD / median) above which a side is too noisy
  std::uint64_t stream = 0;   // bootstrap stream (hash of the case name in batched comparisons)
  // Across the cases of one batched / dataset comparison: Benjamini–Hochberg
  // adjust the verdict p-values and demote slower/faster to inconclusive when
  // the adjusted p >= alpha.
  bool control_fdr = true;
  // Between-process share of variance above which `between_process_dominates`.
  double between_share_limit = 0.5;
  // Across the cases of one batched / dataset comparison: the empirical-Bayes moderated t
  // (moderate_cases; docs/statistics-comparison.md, "Moderated t"); prior_excess_z is the
  // z of the upper bound of the excess log-variance the prior's d0 is read from (0 = Smyth's estimate;
  // at least kOneDfExcessZ = 2.5 when a case has one df, stats/moderated_t.hpp prior_excess_z_for).
  bool moderate = true;
  double prior_excess_z = 1.645;
  // One process on a side: by default no slower/faster/equivalent claim (the interval covers
  // within-process noise only; verdict_code "one_launch_per_side"). true: the old behaviour,
  // which assumes every launch of a benchmark runs at the same speed.
  bool assume_launches_identical = false;
  // Leave detectable_change of process-level cases to moderate_cases (compare_cases sets it:
  // the case's interval may still be replaced, and the figure costs ~0.05 ms).
  bool defer_detectable = false;
};

// Above this many samples on a side the pooled Hodges–Lehmann figures (shift, ratio,
// disparity and their bounds) are NaN with a warning: extra figures, never the verdict.
inline constexpr std::size_t kMaxPooledEstimatorSamples = 20000;
// Above this many samples on a side (one process on a side, so the interval is over
// samples), the interval is the bootstrap's large-sample limit, a normal interval of the
// log ratio of medians from each side's median interval (method "median_normal"),
// instead of resampling every sample `resamples` times.
inline constexpr std::size_t kMaxResampledSamples = 20000;
// Up to this many samples on each side of a flat comparison (one process per
// side), the bootstrap interval comes from the exact bootstrap distribution of
// each median (method exact: the limit of infinitely many resamples, no Monte
// Carlo error, `resamples` and `seed` unused): at 10 + 10 samples 0.04 ms
// against 0.43 ms for 10 000 resamples; the exact even-n distribution grows as
// n^2 and is the slower one from about 50 samples (bench/RESULTS-scale.md).
inline constexpr std::size_t kMaxExactBootstrapSamples = 40;

struct CaseComparison {
  std::string case_name;
  std::size_t base_n = 0, head_n = 0;
  double base_median = 0, head_median = 0;
  double change = 0;                              // head_median / base_median - 1 (pooled samples)
  double log_ratio = 0;                           // log(head_median / base_median)
  double base_mad_pct = 0, head_mad_pct = 0;      // 100 * MAD / median
  double base_robust_cv = 0, head_robust_cv = 0;  // 1.4826 * MAD / median

  // Process structure (one entry per process; pairs = min of the two counts).
  std::vector<double> base_process_medians, head_process_medians;
  std::vector<double> process_changes;  // head_i / base_i - 1 for the paired processes
  double process_change_min = 0, process_change_max = 0;
  bool processes_disagree = false;  // min <= -t and max >= +t

  // Bootstrap of the ratio of medians over samples, computed only when a side has one
  // process (it is then the interval); with >= 2 processes per side the interval is
  // process-level and this holds the estimate with NaN ends (resamples = 0).
  BootstrapInterval bootstrap;

  // The interval of the change the verdict is read from (docs/statistics-comparison.md):
  //  >= 2 processes per side: unit "process", method "paired_t" (log ratios of paired
  //    process medians) or "welch_t" (log process medians, Welch–Satterthwaite df);
  //  otherwise: unit "sample", the bootstrap interval ("bca" or "percentile"; "median_normal"
  //    above kMaxResampledSamples), which covers within-process noise only (within_process_only = true).
  double change_lower = 0, change_upper = 0;
  std::string change_interval_method;
  std::string interval_unit;         // "process" or "sample"
  bool within_process_only = false;  // one process on a side: the interval ignores process-to-process noise
  double change_estimate = 0;        // the interval's point estimate (exp of the mean log ratio - 1 for t)
  double interval_df = std::numeric_limits<double>::quiet_NaN();  // t intervals
  std::size_t base_processes = 0, head_processes = 0;
  double p_value = std::numeric_limits<double>::quiet_NaN();     // two-sided test matching the interval
  double p_adjusted = std::numeric_limits<double>::quiet_NaN();  // BH across the comparison's cases (= p alone)
  // Between-process variance of the log process medians (processes >= 2 per side):
  // share = (B - W) / B clamped to [0, 1], B = var of log process medians, W = mean
  // (pi/2) var(log samples) / n_i; NaN when unknown.
  double between_process_variance = std::numeric_limits<double>::quiet_NaN();
  double within_process_variance = std::numeric_limits<double>::quiet_NaN();
  double between_process_share = std::numeric_limits<double>::quiet_NaN();
  bool between_process_dominates = false;
  // Smallest change the interval's width lets this design detect with 80 % power:
  // exp(h (q_{1-a/2} + q_{0.8}) / q_{1-a/2}) - 1, h = half-width of the log interval.
  double detectable_change = std::numeric_limits<double>::quiet_NaN();
  // Timer resolution (smallest difference between distinct samples) when it can floor the
  // process variance, else NaN; the within-process drift the cause "drift" reads (NaN: none
  // measurable: compare/process_drift.hpp's median window change with k = 5, the larger side, when it
  // reaches threshold / 2 and stands out from noise; the cause is drift then); the prior df d0 of the moderated t (0:
  // the case's own t; +inf: one common variance).
  double timer_resolution = std::numeric_limits<double>::quiet_NaN();
  double within_process_drift = std::numeric_limits<double>::quiet_NaN();
  double prior_df = 0;
  // Launch noise from a branch's stored runs (compare/launch_noise.hpp): `launch_noise` says where it
  // came from, or why it was not used ("" when no store was given); launch_noise_runs > 0 when the
  // interval uses it, launch_noise_sd = the moderated sd of one launch's log location.
  std::string launch_noise;
  std::size_t launch_noise_runs = 0;
  double launch_noise_sd = std::numeric_limits<double>::quiet_NaN();
  // Contamination flags of a dataset comparison (compare/contamination.hpp; empty: none seen).
  std::vector<Contamination> contamination;

  // Hodges–Lehmann estimators (head relative to base) with bounds at `misrate`.
  double shift = 0;
  Bounds shift_bounds;
  double ratio = 0;
  Bounds ratio_bounds;
  double disparity = 0;     // NaN when a side has fewer than 2 samples
  Bounds disparity_bounds;  // NaN bounds when a side has fewer than 2 samples

  // Pooled-sample tests and estimators: they assume independent samples and never
  // decide the verdict (extra figures).
  MannWhitneyResult mann_whitney;  // x = base, y = head
  bool brunner_munzel_available = false;
  BrunnerMunzelResult brunner_munzel;
  bool wilcoxon_available = false;  // on log(head_i / base_i) of paired processes
  WilcoxonResult wilcoxon;
  std::string wilcoxon_unavailable_reason;

  double prob_head_better = 0.5;          // P(head better than base) + half the ties, direction-aware
  double min_detectable_effect = 0;       // relative change detectable at alpha with 80 % power
  std::size_t min_samples_for_alpha = 0;  // per side, equal counts, for the exact U test
  bool too_noisy = false;
  bool too_few_samples = false;
  std::vector<std::string> warnings;
  Verdict verdict = Verdict::unchanged;
  VerdictCode verdict_code = VerdictCode::exact_equal;  // the decision table's row (the reason in words:
                                                        // report/verdict_text.hpp)
  InconclusiveCause inconclusive_cause = InconclusiveCause::none;
  // What the verdict was judged against (its reason and table cells quote them).
  double threshold = 0;
  double alpha = 0;
  double confidence = 0;
  Direction direction = Direction::lower_is_better;
  std::size_t fdr_cases = 0;  // cases in the Benjamini–Hochberg family (0: not adjusted)
};

// Throws InputError naming the case for an empty side or process, NaN/inf, or a
// non-positive value (ratios need positive values). Unequal counts are fine.
CaseComparison compare_case(const SideSamples& base, const SideSamples& head, const CompareOptions& options,
                            std::string_view case_name = "", ProcessPairing pairing = ProcessPairing::automatic);

struct CaseInput {
  std::string name;
  SideSamples base, head;
  ProcessPairing pairing = ProcessPairing::automatic;
  std::optional<LaunchNoise> launch_noise{};  // from a branch's stored runs (compare/launch_noise.hpp)
};

// Many cases on `threads` worker threads (0 = one per usable CPU). Each case
// uses a bootstrap stream derived from its name (its index when unnamed), so
// results depend neither on the thread count nor on the input order. The
// first failing case (by index) is rethrown.
std::vector<CaseComparison> compare_cases(std::span<const CaseInput> cases, const CompareOptions& options,
                                          unsigned threads = 0);

// The verdict rule alone (exposed for tests and for callers with their own CI):
// see the decision table in docs/statistics-comparison.md. `estimate` is the
// interval's point estimate; `gate` is empty or why no confident verdict may be
// given (too_noisy, too_few_samples).
struct VerdictDecision {
  Verdict verdict = Verdict::inconclusive;
  VerdictCode code = VerdictCode::no_interval;
};
VerdictDecision explain_verdict(double estimate, double change_lower, double change_upper,
                                std::optional<VerdictCode> gate, const CompareOptions& options);
Verdict decide_verdict(double estimate, double change_lower, double change_upper, bool gated,
                       const CompareOptions& options);

// The case's change interval from a t interval on the log ratio: method, estimate, bounds
// (as changes, exp - 1), df and p-value. The interval's unit and detectable change are the caller's.
void set_change_interval(CaseComparison& c, const LogTInterval& t);

// The verdict of a case from its interval fields (change_estimate, change_lower/upper,
// interval_unit, too_noisy, too_few_samples, within_process_drift): verdict, code, reason and
// inconclusive cause. compare_case calls it; moderate_cases calls it again after moderation.
void decide_case(CaseComparison& c, const CompareOptions& options);

// Benjamini–Hochberg over the cases' p_value (exact-unit cases and NaN p-values
// excluded): sets p_adjusted and, when options.control_fdr, demotes slower/faster
// with p_adjusted >= alpha to inconclusive (VerdictCode::fdr_adjusted).
void control_false_discoveries(std::span<CaseComparison> cases, const CompareOptions& options);

// Pointers to each of `cases`, in order: the overloads on spans of values forward
// through it to the ones that read cases held elsewhere.
template <class Case>
std::vector<Case*> pointers_to(std::span<Case> cases) {
  std::vector<Case*> pointers;
  pointers.reserve(cases.size());
  for (Case& c : cases) pointers.push_back(&c);
  return pointers;
}
// The same over cases held elsewhere (a dataset comparison's matched cases), in the given order.
void control_false_discoveries(std::span<CaseComparison* const> cases, const CompareOptions& options);
// The family is the measurements, not the metric columns: primary_of[i] is the index of the
// case whose measurement case i is a metric of (i itself for a primary). Only primaries enter
// BH; a derived metric gets p_adjusted = max(its p, its primary's p_adjusted) (a gatekeeping
// step: a discovery only when its primary is one) and is demoted the same way.
void control_false_discoveries(std::span<CaseComparison* const> cases, std::span<const std::size_t> primary_of,
                               const CompareOptions& options);

// Smallest equal per-side sample count whose best exact two-sided U-test
// p-value, 2 / C(2n, n), is <= alpha.
std::size_t min_samples_per_side(double alpha);

}  // namespace benchreport

#pragma once
// Borrowing strength across the cases of one comparison (docs/statistics-comparison.md,
// "Moderated t" and "One process per side"): the empirical-Bayes moderated t of the
// process-level intervals, and for cases with one launch per side the change that would
// stand out from the other cases' spread.
#include <span>

#include "benchreport/compare/case.hpp"
#include "benchreport/compare/process_interval.hpp"

namespace benchreport {

// A process-level case's own variance as the moderated t reads it (its log process medians, paired as its
// interval was, floored at its timer resolution).
ProcessVariance case_process_variance(const CaseComparison& c);

// Before control_false_discoveries, over the cases of one comparison (exact-unit cases are
// left alone). When options.moderate, the process-level cases of each design (paired /
// unpaired) share a variance prior (estimate_robust_variance_prior over their process variances, floored at
// the timer resolution, excess_z = prior_excess_z_for(their dfs, options.prior_excess_z): at least 2.5 when a
// case has one df, 2 paired processes; paired, each case's prior df is also
// limited by the outlier shares of its sides' pooled variance, stats/robust_prior.hpp); when the prior is usable
// (d0 > 0) each case's interval, p-value, df, detectable change and verdict are recomputed
// from the moderated t (change_interval_method "moderated_paired_t" / "moderated_pooled_t",
// prior_df = the case's own d0, smaller for a likely outlier). Process-level cases that keep their own t get the
// detectable change of that t when compare_case deferred it (CompareOptions::defer_detectable). Cases with one launch
// per side get detectable_change from the spread of the log changes of all such cases
// (1.4826 MAD, >= 3 cases): the change that would stand out from them. The per-case work runs
// on `threads` workers (0 = one per usable CPU); results do not depend on the count.
void moderate_cases(std::span<CaseComparison* const> cases, const CompareOptions& options, unsigned threads = 1);

}  // namespace benchreport

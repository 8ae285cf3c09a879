#pragma once
// Base → head intervals that use the launch noise learned from a branch's stored runs
// (stats/launch_noise.hpp; docs/statistics-comparison.md, "Launch noise from the store").
#include <span>

#include "benchreport/compare/case.hpp"
#include "benchreport/stats/launch_noise.hpp"

namespace benchreport {

// Over the cases of one comparison, before moderate_cases (which then leaves the cases used here
// alone). noise[i] is case i's estimate (nullptr: no store given; the case is left as it is);
// pairing[i] its input's pairing. A case is paired when its processes pair one to one (>= 2 a side:
// as its paired_t; one a side: pairing[i] == paired, equal pair labels). Paired cases whose estimate
// has a usable unshared part (pooled within-run variance of runs with >= 2 processes) use it as s_g^2
// on its df; the others use the whole launch variance. The estimates of each kind (s_g^2 on d_g df)
// are first moderated across the cases (estimate_variance_prior with options.prior_excess_z,
// moderate_variance): s~_g^2 on d~_g df. Then, per non-exact case:
//  - >= 2 processes per side: the case's own process variance (paired: var of the log differences,
//    prior variance 2 s~^2; unpaired: pooled variance of one log process median, prior s~^2) is
//    combined with that prior at d0 = d~_g (Smyth's posterior): method "store_moderated_paired_t" /
//    "store_moderated_pooled_t", df = d + d~_g;
//  - one process on a side: estimate mean(log head) - mean(log base), se^2 = s~^2 (1/k_b + 1/k_h),
//    df = d~_g: method "store_launch_t" ("store_paired_launch_t" on the unshared variance: the pair's
//    difference has variance 2 s~^2).
// Each gets interval_unit "process", launch_noise_runs, launch_noise_sd = s~_g, prior_df = d~_g, its
// detectable change and verdict (decide_case). Cases whose estimate is not usable keep today's
// interval and carry the reason in `launch_noise` (paired cases on the whole launch variance say why).
void apply_launch_noise(std::span<CaseComparison* const> cases, std::span<const LaunchNoise* const> noise,
                        std::span<const ProcessPairing> pairing, const CompareOptions& options, unsigned threads = 1);

}  // namespace benchreport

#pragma once
// Bootstrap confidence interval for the ratio of medians median(head) /
// median(base), percentile and BCa (Efron & Tibshirani 1993, ch. 14), with the
// conventions of scipy.stats.bootstrap (independent resampling of each side,
// type-7 quantiles of the bootstrap distribution, jackknife acceleration summed
// over the samples). Hierarchical when a side has several processes: draw
// processes with replacement, then samples within each drawn process.
#include <cstdint>
#include <span>
#include <vector>

#include "benchreport/core/rng.hpp"

namespace benchreport {

// One side of a comparison: one or more processes (launches), each a span of
// samples in measurement order. A single span means "no process structure".
struct SideSamples {
  std::vector<std::span<const double>> processes;

  std::size_t total_samples() const noexcept;
  std::vector<double> pooled() const;
};

// How the bootstrap distribution of the ratio is obtained.
//  resampling: `resamples` Monte Carlo resamples (any process structure);
//  exact: the complete bootstrap distribution of each side's median in closed
//         form (binomial tails over order statistics), combined exactly; no
//         resampling, no Monte Carlo error. Flat sides only (one process each),
//         at most kMaxExactSamples samples per side (InputError otherwise).
enum class BootstrapMethod { resampling, exact };

struct BootstrapOptions {
  int resamples = 10000;
  double confidence = 0.95;
  BootstrapMethod method = BootstrapMethod::resampling;
};

struct BootstrapInterval {
  double estimate = 0;          // median(head) / median(base) on the pooled samples
  double percentile_lower = 0;  // percentile interval of the ratio
  double percentile_upper = 0;
  double bca_lower = 0;  // BCa interval of the ratio; NaN when degenerate
  double bca_upper = 0;
  double standard_error = 0;      // sd (ddof 1) of the bootstrap ratios; exact: sd of the distribution
  bool hierarchical = false;      // processes resampled first
  bool paired_processes = false;  // base/head process i drawn together
  int resamples = 0;              // 0 for the exact method
  bool exact = false;             // from the exact bootstrap distribution (no resampling)
};

// Largest sample the exact method accepts (even n has n(n + 1)/2 support pairs).
inline constexpr std::size_t kMaxExactSamples = 2000;

// The exact bootstrap distribution of the median of one sample of size n
// (each resample: n draws with replacement): distinct median values in
// ascending order with their probabilities (summing to 1). O(n^2) points for
// even n (midpoints of two order statistics), n for odd n. InputError when
// empty or larger than kMaxExactSamples.
struct MedianDistribution {
  std::vector<double> values;
  std::vector<double> probabilities;
};
MedianDistribution exact_bootstrap_median_distribution(std::span<const double> sample);

// Requires non-empty sides with positive medians (InputError otherwise).
// The resampling method takes 32-bit draws from `rng` exactly as consecutive
// Xoshiro256::below32 calls would (for a generator with no pending half word).
// The exact method ignores `rng` and `resamples`; its interval ends are the
// smallest support points r of the ratio distribution with P(R <= r) >= q.
// When both sides have the same number (>1) of processes, process pairs are
// drawn together (they share an interleaving block); otherwise each side's
// processes are drawn independently.
BootstrapInterval bootstrap_median_ratio_ci(const SideSamples& base, const SideSamples& head,
                                            const BootstrapOptions& options, Xoshiro256& rng);

// Convenience for flat samples.
BootstrapInterval bootstrap_median_ratio_ci(std::span<const double> base, std::span<const double> head,
                                            const BootstrapOptions& options, std::uint64_t seed);

// Type-7 (linear interpolation) quantile of already sorted values, p in [0, 1].
double sorted_quantile(std::span<const double> sorted, double p);

}  // namespace benchreport

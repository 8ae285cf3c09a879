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

#include "benchreport/rng.hpp"

namespace benchreport {

// One side of a comparison: one or more processes (launches), each a span of
// samples in measurement order. A single span means "no process structure".
struct SideSamples {
  std::vector<std::span<const double>> processes;

  std::size_t total_samples() const noexcept;
  std::vector<double> pooled() const;
};

struct BootstrapOptions {
  int resamples = 10000;
  double confidence = 0.95;
};

struct BootstrapInterval {
  double estimate = 0;          // median(head) / median(base) on the pooled samples
  double percentile_lower = 0;  // percentile interval of the ratio
  double percentile_upper = 0;
  double bca_lower = 0;         // BCa interval of the ratio; NaN when degenerate
  double bca_upper = 0;
  double standard_error = 0;    // sd (ddof 1) of the bootstrap ratios
  bool hierarchical = false;    // processes resampled first
  bool paired_processes = false;  // base/head process i drawn together
  int resamples = 0;
};

// Requires non-empty sides with positive medians (InputError otherwise).
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

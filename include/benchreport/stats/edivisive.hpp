#pragma once
// E-divisive means change-point detection (Matteson & James 2014) on one
// ordered series, as Otava and MongoDB's signal-processing-algorithms apply it
// to performance data: the q-statistic with alpha = 1 for every split of a
// segment, recursive bisection of the segment holding the largest q, and a
// permutation test for its significance, skipped for splits that a
// Bonferroni-adjusted Welch t-test already shows to be far beyond it. The formulas are in
// docs/statistics-history.md. A q scan is O(n log n) (Fenwick sums of
// |x_i - x_j|) with Y running to the segment's end, O(n^2) with incremental
// column sums when Y's end is searched too.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace benchreport {

// How the within-segment mean distance is normalised: over the n(n-1)/2
// distinct pairs (Matteson & James 2014, Otava), or over all n^2 ordered pairs
// including the zero diagonal (signal-processing-algorithms 2.x).
enum class WithinMean { pairs, squares };

struct EDivisiveOptions {
  double max_p_value = 0.05;       // a split is kept while its permutation p-value is <= this
  std::size_t permutations = 199;  // p-value resolution 1 / (permutations + 1)
  std::size_t min_segment = 2;     // fewest points on each side of a split (>= 2 with WithinMean::pairs, else >= 1)
  std::uint64_t seed = 0;          // permutation stream; same seed + series => same result
  WithinMean within = WithinMean::pairs;
  // true: Y = x[tau, kappa) for the best kappa up to the segment's end, as
  // Matteson & James (2014) and Otava do, O(n^2) per scan (finds a slowdown
  // later fixed inside one segment); false: Y runs to the segment's end, as
  // signal-processing-algorithms does, O(n log n) per scan.
  bool search_end = true;
  // A split whose Welch t-test between X = x[begin, index) and Y = x[index, end),
  // times the number of (index, end) pairs the scan compared (Bonferroni), is
  // at most min(this, max_p_value) is kept without drawing permutations: its
  // permutation p-value would sit at the floor 1 / (permutations + 1).
  // 0 = always permute.
  double screen_p_value = 5e-4;
  // Most (index, end) pairs the permutation scans of one series may compare.
  // With recursive bisection peeling one step at a time off a long segment,
  // exact permutation tests cost permutations * sum(segment length^2 / 2), cubic
  // in the series' length; a test whose scans would take the count past this is
  // decided by the Welch screen at max_p_value instead (kept with permuted
  // false, or ending the search). About a second of scans; +inf = no limit.
  double max_permutation_pairs = 2e9;
};

// What e_divisive spent: permutation scans and the (index, end) pairs they
// compared (a scan stopped early counts in full), and the tests decided by the
// screen because max_permutation_pairs would have been exceeded.
struct EDivisiveWork {
  std::size_t permutation_scans = 0;
  double permutation_pairs = 0;
  std::size_t tests_over_budget = 0;
};

struct EDivisiveSplit {
  std::size_t index = 0;  // first point of the segment after the change
  double q = 0;           // q-statistic of the split in the segment it was found in
  double p_value = 1;     // (1 + #permutations with max q >= q) / (1 + permutations), or the screen's bound
  bool permuted = true;   // false: kept by the Welch screen, p_value is its Bonferroni bound
  std::size_t end = 0;    // where Y = x[index, end) ends (the segment's end without search_end)
};

// Best split of x into x[0, tau) and x[tau, n) by the q-statistic
// q(tau) = m n / (m + n) * (2/(m n) sum|x_i - y_j| - 2/(m(m-1)) sum_{i<k}|x_i - x_k| - 2/(n(n-1)) sum_{j<l}|y_j -
// y_l|), over min_segment <= tau <= n - min_segment (with search_end, y = x[tau, kappa) for the best kappa); index 0
// (and q 0) when no split is allowed. WithinMean::squares divides the within sums by m^2 and n^2 instead.
EDivisiveSplit best_q_split(std::span<const double> x, const EDivisiveOptions& options = {});

// Significant splits in ascending index order. With search_end, once all are
// found each index is located again as the best split (Y to the end) of the
// points between its neighbours; q and p_value stay those of the test that
// kept it (docs/statistics-history.md). `stream` separates the
// permutation streams of many series under one seed (e.g. the case index).
// Throws InputError on a non-finite value or bad options.
std::vector<EDivisiveSplit> e_divisive(std::span<const double> x, const EDivisiveOptions& options = {},
                                       std::uint64_t stream = 0, EDivisiveWork* work = nullptr);

}  // namespace benchreport

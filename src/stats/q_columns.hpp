#pragma once
// The searched-end q scan of E-divisive means (Y = x[tau, kappa) for every
// kappa), column by column: in doubles, the exact scan every result comes from;
// in floats, bounds of a permutation's best q that settle most permutation tests
// without the double scan. docs/statistics-history.md has the formulas.
#include <cmath>
#include <cstddef>
#include <vector>

#include "benchreport/stats/edivisive.hpp"

namespace benchreport::q_columns {

// One scan of v[0, n): its buffers (tail zeroed, n + 1 long; scaled_left n
// long), the table inv[k] = 1 / d(k) for k < n_inv (d(k) = k - 1 with pairs,
// k with squares), inv_reversed[j] = inv[n_inv - 1 - j].
template <class T>
struct Buffers {
  const T* v;
  std::size_t n;
  T* tail;
  T* scaled_left;
  const T* inv;
  const T* inv_reversed;
  std::size_t n_inv;
  std::size_t min_segment;
  bool pairs;
};

// Best split in doubles. Stops at the first q >= stop_at (then *stopped; q is
// then a lower bound of the best); with locate false, min_segment stands in
// for the split index.
using ExactScan = EDivisiveSplit (*)(const Buffers<double>& in, double stop_at, bool locate, bool* stopped);

// What a float scan of values scaled into [-1, 1] tells of the best q the
// double scan of the same values (unscaled, times the scale) would compute.
struct Bounds {
  double lower = -INFINITY;  // lower <= that q
  double upper = -INFINITY;  // that q <= upper (+inf once lower reached stop_at)
  bool settled = true;       // false: a column's bounds straddle stop_at, so only the double scan can tell
};

// Per kappa, the terms of the float scan's bounds: q = two_over_k (P - c g)
// from the column's float sums is within two_over_k (relative (P + c g)) +
// absolute of the q the double scan computes (derivation in the .cpp).
struct BoundTerms {
  double two_over_k, relative, absolute;
};
std::vector<BoundTerms> bound_terms(std::size_t n, bool pairs);  // kappa = 0..n

// Bounds of the best q, in scaled units, with terms = bound_terms(>= n,
// in.pairs); stops once a column's lower bound exceeds stop_at (then lower =
// stop_at, upper = +inf), or when a column's bounds straddle it (settled false).
using BoundScan = Bounds (*)(const Buffers<float>& in, const BoundTerms* terms, double stop_at);

// This machine's scans: AVX2 vectors where the processor has them, unless
// BENCHREPORT_SIMD=baseline (both give the same bits in doubles).
ExactScan exact_scan_of_this_machine();
BoundScan bound_scan_of_this_machine();

// Power of two s with max|v| * s in [0.5, 1), or 0 where the float scan's
// bounds do not hold (max|v| zero, not finite, or beyond 2^-100..2^100).
double float_scale(const double* v, std::size_t n);

}  // namespace benchreport::q_columns

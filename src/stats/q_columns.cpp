// The searched-end q scan, column by column, in doubles (exact) and in floats
// (bounds), with vectors of this machine's width (src/stats/q_columns.hpp).
#include "stats/q_columns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <type_traits>

namespace benchreport::q_columns {
namespace {

// GCC vector types (vector_size does not take a template argument) of 2 and
// 4 doubles and of 4 and 8 floats, aligned as their element and allowed to
// alias it: read and written in place as unaligned vectors, one instruction
// each, where a memcpy of 32 bytes is split into two 16-byte moves.
using Double2 = double __attribute__((vector_size(16), aligned(8), may_alias));
using Double4 = double __attribute__((vector_size(32), aligned(8), may_alias));
using Bits2 = std::uint64_t __attribute__((vector_size(16)));
using Bits4 = std::uint64_t __attribute__((vector_size(32)));
using Float4 = float __attribute__((vector_size(16), aligned(4), may_alias));
using Float8 = float __attribute__((vector_size(32), aligned(4), may_alias));
using Bits4f = std::uint32_t __attribute__((vector_size(16)));
using Bits8f = std::uint32_t __attribute__((vector_size(32)));

template <class Vec>
using LaneOf = std::remove_cvref_t<decltype(Vec{}[0])>;

// One column of the q scan, in one pass from right to left: tail[t] += sum of
// |v[i] - x| for i in [t, end), x = v[end], for every t < end; returns the
// minimum over t in [lo, min(hi, end)] (empty when hi < lo) of the updated
// g(t) = scaled_left[t] + tail[t] inv_r[t]. Blocks of kBlock points (one
// vector, or two vectors of two doubles for a block of four) get their own
// suffix sums first, so the running carry (the serial dependency) advances a
// block per addition, then tail and g lane-wise with a minimum per lane (g is
// finite and >= +0, so the minimum does not depend on the order). In doubles
// each point gets the same operations for either vector width, so every build
// gives the same bits.
template <class Vec, class Bits>
[[gnu::always_inline]] inline LaneOf<Vec> add_column_min_g(const LaneOf<Vec>* v, std::size_t end, LaneOf<Vec>* tail,
                                                           const LaneOf<Vec>* scaled_left, const LaneOf<Vec>* inv_r,
                                                           std::size_t lo, std::size_t hi) {
  using T = LaneOf<Vec>;
  constexpr std::size_t kLanes = sizeof(Vec) / sizeof(T), kBlock = kLanes == 2 ? 4 : kLanes, kVecs = kBlock / kLanes;
  const T x = v[end];
  const Bits magnitude = ~Bits{} >> 1;  // every bit but the sign
  Vec lanes[kVecs];
  for (Vec& m : lanes) m = Vec{} + INFINITY;
  T carry = 0, rest = INFINITY;
  // tail[b, b + kBlock) += carry + the block's own suffix sums; carry += their total.
  const auto add_block = [&](std::size_t b) {
    const Vec* const values = reinterpret_cast<const Vec*>(v + b);
    Vec* const sums = reinterpret_cast<Vec*>(tail + b);
    Vec d[kVecs], suffix[kVecs];
    for (std::size_t k = 0; k < kVecs; ++k)
      d[k] = reinterpret_cast<Vec>(reinterpret_cast<Bits>(values[k] - x) & magnitude);
    // The suffix sums in halving steps: for four points (d0 + d1) + (d2 + d3),
    // (d1 + d2) + d3, d2 + d3, d3, with two shuffles in a 4-lane register and
    // the same sums lane by lane in 2-lane ones; eight points take a third step.
    T total;
    // (Shuffles written out: a helper returning a 256-bit vector would change
    // the ABI of a function compiled without AVX.)
    if constexpr (kLanes == 4) {
      const Vec y = d[0] + __builtin_shufflevector(d[0], Vec{}, 1, 2, 3, 4);
      suffix[0] = y + __builtin_shufflevector(y, Vec{}, 2, 3, 4, 5);
      total = suffix[0][0];
    } else if constexpr (kLanes == 8) {
      Vec y = d[0] + __builtin_shufflevector(d[0], Vec{}, 1, 2, 3, 4, 5, 6, 7, 8);
      y += __builtin_shufflevector(y, Vec{}, 2, 3, 4, 5, 6, 7, 8, 9);
      suffix[0] = y + __builtin_shufflevector(y, Vec{}, 4, 5, 6, 7, 8, 9, 10, 11);
      total = suffix[0][0];
    } else {
      const T d01 = d[0][0] + d[0][1], d12 = d[0][1] + d[1][0], d23 = d[1][0] + d[1][1];
      total = d01 + d23;
      suffix[0] = Vec{total, d12 + d[1][1]};
      suffix[1] = Vec{d23, d[1][1]};
    }
    for (std::size_t k = 0; k < kVecs; ++k) sums[k] += carry + suffix[k];
    carry += total;
  };
  const auto min_g_points = [&](std::size_t b, std::size_t e) {
    for (std::size_t i = std::max(b, lo); i < e && i <= hi; ++i)
      rest = std::min(rest, scaled_left[i] + tail[i] * inv_r[i]);
  };
  // t = end: Y is the column's own point alone (min_segment 1); its tail is 0.
  min_g_points(end, end + 1);
  // Blocks from the right: those reaching past hi, then those inside [lo, hi]
  // (g as vectors, no bounds checks), then those reaching below lo.
  std::size_t t = end;
  for (; t >= kBlock && t - 1 > hi; t -= kBlock) {
    add_block(t - kBlock);
    min_g_points(t - kBlock, t);
  }
  for (; t >= kBlock && t - kBlock >= lo; t -= kBlock) {
    add_block(t - kBlock);
    const Vec* const sums = reinterpret_cast<const Vec*>(tail + t - kBlock);
    const Vec* const left = reinterpret_cast<const Vec*>(scaled_left + t - kBlock);
    const Vec* const inv = reinterpret_cast<const Vec*>(inv_r + t - kBlock);
    for (std::size_t k = 0; k < kVecs; ++k) {
      const Vec g = left[k] + sums[k] * inv[k];
      lanes[k] = g < lanes[k] ? g : lanes[k];
    }
  }
  for (; t >= kBlock; t -= kBlock) {
    add_block(t - kBlock);
    min_g_points(t - kBlock, t);
  }
  for (; t > 0; --t) {
    carry += std::abs(v[t - 1] - x);
    tail[t - 1] += carry;
    min_g_points(t - 1, t);
  }
  // The lanes' minimum by halving (a chain of one minimum per lane would
  // hold up the next column).
  Vec m = lanes[0];
  if constexpr (kVecs == 2) m = lanes[1] < m ? lanes[1] : m;
  if constexpr (kLanes == 8) {
    const Vec h = __builtin_shufflevector(m, m, 4, 5, 6, 7, 4, 5, 6, 7);
    m = h < m ? h : m;
  }
  if constexpr (kLanes == 8) {
    const Vec h = __builtin_shufflevector(m, m, 2, 3, 2, 3, 2, 3, 2, 3);
    m = h < m ? h : m;
  } else if constexpr (kLanes == 4) {
    const Vec h = __builtin_shufflevector(m, m, 2, 3, 2, 3);
    m = h < m ? h : m;
  }
  return std::min({rest, m[0], m[1]});
}

// The first t in [lo, hi] whose g is g_min (the scan's minimum). Should the
// compiler have evaluated the scan's g differently (a fused multiply-add), the
// first smallest g as computed here.
inline std::size_t first_min_g(const double* scaled_left, const double* tail, const double* inv_r, std::size_t lo,
                               std::size_t hi, double g_min) {
  std::size_t best = lo;
  double smallest = INFINITY;
  for (std::size_t t = lo; t <= hi; ++t) {
    const double g = scaled_left[t] + tail[t] * inv_r[t];
    if (g == g_min) return t;
    if (g < smallest) smallest = g, best = t;
  }
  return best;
}

// Runs the column passes of a scan of v[0, n) (Matteson & James 2014: Y =
// [tau, kappa) for every kappa; O(n^2) time, O(n) memory). tail[tau] holds the
// within sum of [tau, kappa) and grows by one column per kappa. For a fixed
// kappa = m + r the q of a split is an affine, decreasing function of
// g(tau) = W_left / d(m) + W_right / d(r), so each kappa needs one minimum and
// no division; W_left / d(m) is fixed once the prefix [0, tau) is complete, so
// it is kept scaled. For each kappa with a split to score, on_column(kappa,
// prefix, g_min, inv_r, lo, hi) sees the within sum of [0, kappa) and the
// minimum g over tau in [lo, hi]; it returns false to stop. The loop is
// compiled with the pass for each vector width, so the pass inlines into it.
template <class Vec, class Bits, class OnColumn>
[[gnu::always_inline]] inline void for_each_column(const Buffers<LaneOf<Vec>>& in, OnColumn&& on_column) {
  using T = LaneOf<Vec>;
  in.scaled_left[0] = 0;
  for (std::size_t kappa = 1; kappa <= in.n; ++kappa) {
    const bool scored = in.min_segment + in.min_segment <= kappa;
    const std::size_t lo = in.min_segment, hi = scored ? kappa - in.min_segment : 0;  // tau in [lo, hi]
    const T* inv_r = in.inv_reversed + (in.n_inv - 1 - kappa);                        // inv_r[tau] = inv[kappa - tau]
    const T g_min = add_column_min_g<Vec, Bits>(in.v, kappa - 1, in.tail, in.scaled_left, inv_r, lo, hi);
    const T prefix = in.tail[0];
    if (kappa < in.n) in.scaled_left[kappa] = prefix * in.inv[kappa];
    if (scored && !on_column(kappa, prefix, g_min, inv_r, lo, hi)) return;
  }
}

// q = m r / K (2 C / (m r) - 2 W_l / d(m) m - 2 W_r / d(r) r) with C = prefix - W_l - W_r
//   = 2 / K (prefix - c_K g), c_K = K - 1 (pairs: d(k) = k - 1) or K (squares: d(k) = k).
inline double c_of(double k, bool pairs) { return pairs ? k - 1.0 : k; }

template <class Vec, class Bits>
[[gnu::always_inline]] inline EDivisiveSplit exact_scan(const Buffers<double>& in, double stop_at, bool locate,
                                                        bool* stopped) {
  EDivisiveSplit out;
  for_each_column<Vec, Bits>(
      in, [&](std::size_t kappa, double prefix, double g_min, const double* inv_r, std::size_t lo, std::size_t hi) {
        const double k = static_cast<double>(kappa);
        const double q = 2.0 / k * (prefix - c_of(k, in.pairs) * g_min);
        if (out.index != 0 && !(q > out.q)) return true;
        const std::size_t tau = locate ? first_min_g(in.scaled_left, in.tail, inv_r, lo, hi, g_min) : lo;
        out = {tau, q, 1.0, true, kappa};
        if (q < stop_at) return true;
        *stopped = true;
        return false;
      });
  return out;
}

template <class Vec, class Bits>
[[gnu::always_inline]] inline Bounds bound_scan(const Buffers<float>& in, const BoundTerms* terms, double stop_at) {
  // Margins for stop_at itself having been rounded when scaled.
  const double margin = std::isfinite(stop_at) ? std::abs(stop_at) * 0x1p-40 + 0x1p-1000 : 0.0;
  const double stop_high = stop_at + margin, stop_low = stop_at - margin;
  Bounds out;
  // Columns are judged in batches, after their passes: the next pass then
  // need not wait on one column's minimum and bounds (a stop comes at most
  // one batch late, with the same result).
  constexpr std::size_t kBatch = 16;
  struct Column {
    std::size_t kappa;
    float prefix, g_min;
  };
  Column batch[kBatch];
  std::size_t pending = 0;
  const auto judge = [&] {
    for (std::size_t i = 0; i < pending; ++i) {
      const BoundTerms& t = terms[batch[i].kappa];
      const double prefix = batch[i].prefix;
      const double cg = c_of(static_cast<double>(batch[i].kappa), in.pairs) * batch[i].g_min;
      const double q = t.two_over_k * (prefix - cg), slack = t.relative * (prefix + cg) + t.absolute;
      if (q - slack > stop_high) {
        out.lower = stop_at;
        out.upper = INFINITY;
        return false;
      }
      if (q + slack >= stop_low) {
        out.settled = false;
        return false;
      }
      out.lower = std::max(out.lower, q - slack);
      out.upper = std::max(out.upper, q + slack);
    }
    pending = 0;
    return true;
  };
  bool stopped = false;
  for_each_column<Vec, Bits>(in,
                             [&](std::size_t kappa, float prefix, float g_min, const float*, std::size_t, std::size_t) {
                               batch[pending++] = {kappa, prefix, g_min};
                               stopped = pending == kBatch && !judge();
                               return !stopped;
                             });
  if (!stopped) judge();
  return out;
}

#if defined(__x86_64__) && defined(__GNUC__)
// With 256-bit vectors where the processor has AVX2 (not FMA: in doubles the
// products and sums stay separately rounded, as in the baseline build).
__attribute__((target("avx2"))) EDivisiveSplit exact_scan_avx2(const Buffers<double>& in, double stop_at, bool locate,
                                                               bool* stopped) {
  return exact_scan<Double4, Bits4>(in, stop_at, locate, stopped);
}
__attribute__((target("avx2,fma"))) Bounds bound_scan_avx2(const Buffers<float>& in, const BoundTerms* terms,
                                                           double stop_at) {
  return bound_scan<Float8, Bits8f>(in, terms, stop_at);
}
#endif

EDivisiveSplit exact_scan_sse2(const Buffers<double>& in, double stop_at, bool locate, bool* stopped) {
  return exact_scan<Double2, Bits2>(in, stop_at, locate, stopped);
}
Bounds bound_scan_sse2(const Buffers<float>& in, const BoundTerms* terms, double stop_at) {
  return bound_scan<Float4, Bits4f>(in, terms, stop_at);
}

bool avx2_allowed() {
#if defined(__x86_64__) && defined(__GNUC__)
  const char* simd = std::getenv("BENCHREPORT_SIMD");
  const bool baseline = simd != nullptr && std::string_view(simd) == "baseline";
  return !baseline && __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace

ExactScan exact_scan_of_this_machine() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const ExactScan chosen = avx2_allowed() ? exact_scan_avx2 : exact_scan_sse2;
#else
  static const ExactScan chosen = exact_scan_sse2;
#endif
  return chosen;
}

BoundScan bound_scan_of_this_machine() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const BoundScan chosen = avx2_allowed() && __builtin_cpu_supports("fma") ? bound_scan_avx2 : bound_scan_sse2;
#else
  static const BoundScan chosen = bound_scan_sse2;
#endif
  return chosen;
}

// The float scan's rounding, values in [-1, 1], at kappa = K. Every sum adds
// non-negative terms, each through at most h additions (K columns, K / 4
// carries for blocks of four or more, a block's own suffix sums and the scalar
// rest), so it is within gamma_h = h u / (1 - h u) of the sum of the computed
// distances (Higham, Accuracy and Stability of Numerical Algorithms, 4.2); a
// computed distance is within u d + 2.5 u of the exact d (two conversions and
// a subtraction). With u = 2^-24, eps = 2 (h + 8) u covers gamma_h and the
// roundings of 1 / d and of g's product and sum, so the exact P and g_min lie
// in [P^ (1 - eps) - a_P, (P^ + a_P)(1 + eps)] and likewise with a_g, where
// a_P = 2.5 u K (K - 1) / 2 (one per distance) and a_g = 2.5 u K / 2 (g divides
// each side's sum by d(m) ~ m / 2 pairs per point). The double scan's q is
// within 2 / K eps_d (P + c g) of the exact q (eps_d the same with u = 2^-53,
// which also covers the rounding of these bounds). Together:
// |q_double - 2 / K (P^ - c g^)| <= 2 / K ((eps + 2 eps_d)(P^ + c g^) + 1.001 (a_P + c a_g)).
std::vector<BoundTerms> bound_terms(std::size_t n, bool pairs) {
  constexpr double u = 0x1p-24, u_double = 0x1p-53, per_distance = 2.5 * u * 1.01;
  std::vector<BoundTerms> out(n + 1, BoundTerms{0, 0, 0});
  for (std::size_t kappa = 1; kappa <= n; ++kappa) {
    const double k = static_cast<double>(kappa), two_over_k = 2.0 / k;
    const double h = k + std::ceil(k / 4.0) + 8.0 + 16.0;
    const double relative = 2.0 * (h + 8.0) * u + 4.0 * (h + 8.0) * u_double;
    const double absolute = 1.001 * per_distance * (k * (k - 1.0) / 2.0 + c_of(k, pairs) * k / 2.0);
    out[kappa] = {two_over_k, two_over_k * relative, two_over_k * absolute};
  }
  return out;
}

double float_scale(const double* v, std::size_t n) {
  double largest = 0;
  for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, std::abs(v[i]));
  if (!(largest > 0x1p-100 && largest < 0x1p100)) return 0;
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest = f 2^exponent, f in [0.5, 1)
  return std::ldexp(1.0, -exponent);
}

}  // namespace benchreport::q_columns

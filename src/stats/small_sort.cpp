#include "stats/small_sort.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

namespace benchreport {
namespace {

constexpr std::size_t L = kNetworkLanes;
constexpr std::size_t kWidth = sizeof(LaneVector) / sizeof(double);

typedef std::int64_t LaneBits __attribute__((vector_size(sizeof(LaneVector))));

// Vector h (of kLaneVectors) of row w.
const double* at(const double* rows, std::size_t w, std::size_t h) { return rows + w * L + h * kWidth; }
void load(LaneVector& v, const double* from) { std::memcpy(&v, from, sizeof v); }
void store(const LaneVector& v, double* to) { std::memcpy(to, &v, sizeof v); }

void midpoint_into(const LaneVector& lower, const LaneVector& upper, double* out) {
  store(lower + (upper - lower) / 2.0, out);  // midpoint() of order_stats, lane by lane
}

// Per-lane sum over rows with summarize()'s accumulator order (see scan_lanes):
// rows in groups of four go to accumulators 0..3, the remaining rows to 0.
// term(w, x) sets x to the term of row w (an out-parameter: a vector return
// value would have an ISA-dependent ABI).
template <class Term>
[[gnu::always_inline]] inline void sum4_into(std::size_t n, Term term, double* out) {
  LaneVector a0 = {}, a1 = {}, a2 = {}, a3 = {}, x;
  std::size_t w = 0;
  for (; w + 4 <= n; w += 4) {
    term(w, x);
    a0 += x;
    term(w + 1, x);
    a1 += x;
    term(w + 2, x);
    a2 += x;
    term(w + 3, x);
    a3 += x;
  }
  for (; w < n; ++w) {
    term(w, x);
    a0 += x;
  }
  store((a0 + a1) + (a2 + a3), out);
}

// Deviation of rank j (0-based) of vector h, as the window minimum of mad_of_sorted_lanes.
void deviation_of_rank(const double* deviations, std::size_t n, std::size_t j, std::size_t h, LaneVector& out) {
  LaneVector a, b;
  load(a, at(deviations, 0, h));
  load(b, at(deviations, j, h));
  out = a < b ? b : a;
  for (std::size_t i = 1; i + j < n; ++i) {
    load(a, at(deviations, i, h));
    load(b, at(deviations, i + j, h));
    const LaneVector wider = a < b ? b : a;
    out = wider < out ? wider : out;
  }
}

}  // namespace

void LaneBuffer::resize(std::size_t n_values) {
  constexpr std::size_t kLine = 64;
  storage_.resize(n_values + kLine / sizeof(double));
  const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
  data_ = storage_.data() + (kLine - address % kLine) % kLine / sizeof(double);
}

void interleave(std::span<const std::span<const double>> sets, double* lanes) {
  const std::size_t n = sets[0].size();
  for (std::size_t l = 0; l < L; ++l) {
    const double* set = sets[l].data();
    for (std::size_t w = 0; w < n; ++w) lanes[w * L + l] = set[w];
  }
}

BENCHREPORT_SIMD_CLONES
bool all_finite_lanes(const double* lanes, std::size_t n) {
  // Finite <=> the exponent bits are not all ones.
  constexpr std::int64_t kExponent = 0x7ff0000000000000;
  LaneBits non_finite = {};
  LaneVector x;
  for (std::size_t w = 0; w < n * kLaneVectors; ++w) {
    load(x, lanes + w * kWidth);
    non_finite |= ((LaneBits)x & kExponent) == kExponent;
  }
  std::int64_t any = 0;
  for (std::size_t k = 0; k < kWidth; ++k) any |= non_finite[k];
  return any == 0;
}

// Vector clones: no FMA in any of them, which would round differently from summarize().
BENCHREPORT_SIMD_CLONES
LaneScan scan_lanes(const double* lanes, std::size_t n) {
  LaneScan s;
  for (std::size_t h = 0; h < kLaneVectors; ++h) {
    const auto row = [&](std::size_t w, LaneVector& x) { load(x, at(lanes, w, h)); };
    LaneVector lo, hi, x;
    row(0, lo);
    hi = lo;
    for (std::size_t w = 0; w < n; ++w) {
      row(w, x);
      lo = x < lo ? x : lo;  // std::min(lo, x)
      hi = hi < x ? x : hi;  // std::max(hi, x)
    }
    store(lo, s.min.data() + h * kWidth);
    store(hi, s.max.data() + h * kWidth);
    sum4_into(n, row, s.sum.data() + h * kWidth);
  }
  return s;
}

BENCHREPORT_SIMD_CLONES
LaneValues squared_deviations_lanes(const double* lanes, std::size_t n, const LaneValues& center) {
  LaneValues total;
  for (std::size_t h = 0; h < kLaneVectors; ++h) {
    LaneVector c;
    load(c, center.data() + h * kWidth);
    const auto term = [&](std::size_t w, LaneVector& d2) {
      load(d2, at(lanes, w, h));
      d2 = (d2 - c) * (d2 - c);
    };
    sum4_into(n, term, total.data() + h * kWidth);
  }
  return total;
}

LaneValues median_of_sorted_lanes(const double* sorted, std::size_t n) {
  LaneValues m;
  for (std::size_t h = 0; h < kLaneVectors; ++h) {
    LaneVector lower, upper;
    load(upper, at(sorted, n / 2, h));
    if (n % 2 == 1) {
      store(upper, m.data() + h * kWidth);
      continue;
    }
    load(lower, at(sorted, n / 2 - 1, h));
    midpoint_into(lower, upper, m.data() + h * kWidth);
  }
  return m;
}

BENCHREPORT_SIMD_CLONES
LaneValues mad_of_sorted_lanes(const double* sorted, std::size_t n, const LaneValues& median, double* deviations) {
  LaneValues mad;
  for (std::size_t h = 0; h < kLaneVectors; ++h) {
    LaneVector m, x;
    load(m, median.data() + h * kWidth);
    for (std::size_t w = 0; w < n; ++w) {
      load(x, at(sorted, w, h));
      // std::fabs lane by lane: clear the sign bit (so -0.0 becomes +0.0 too).
      const LaneVector d = (LaneVector)((LaneBits)(x - m) & std::numeric_limits<std::int64_t>::max());
      store(d, deviations + w * L + h * kWidth);
    }
    LaneVector lower, upper;
    deviation_of_rank(deviations, n, n / 2, h, upper);
    if (n % 2 == 1) {
      store(upper, mad.data() + h * kWidth);
      continue;
    }
    deviation_of_rank(deviations, n, n / 2 - 1, h, lower);
    midpoint_into(lower, upper, mad.data() + h * kWidth);
  }
  return mad;
}

}  // namespace benchreport

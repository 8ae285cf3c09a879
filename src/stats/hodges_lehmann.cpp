#include "benchreport/stats/hodges_lehmann.hpp"
#include "benchreport/stats/order_stats.hpp"

#include <algorithm>
#include <array>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <iterator>
#include <limits>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/rank_tests.hpp"
#include "benchreport/core/rng.hpp"

namespace benchreport {

namespace {

// Below this many pairwise values, enumerate them all (cheap and simple).
constexpr std::size_t kBruteForceLimit = 4096;
// Exact null tables are used while their cost (operations) stays below this.
constexpr double kExactMarginBudget = 5e7;

// The rows of an implicitly sorted matrix: row i holds columns [lo[i], hi[i]),
// and value(i, j) is nondecreasing in j.
struct RowWindows {
  std::vector<std::size_t> lo;
  std::vector<std::size_t> hi;
  std::size_t active() const {
    std::size_t total = 0;
    for (std::size_t i = 0; i < lo.size(); ++i) total += hi[i] - lo[i];
    return total;
  }
};

// Weighted median of the middle element of each non-empty row, weighted by
// row length: at least a quarter of the active values lie on each side of it.
template <class Value>
double weighted_row_median(const RowWindows& w, const Value& value, std::size_t active) {
  std::vector<std::pair<double, std::size_t>> mids;
  mids.reserve(w.lo.size());
  for (std::size_t i = 0; i < w.lo.size(); ++i) {
    if (w.hi[i] > w.lo[i]) mids.emplace_back(value(i, w.lo[i] + (w.hi[i] - w.lo[i]) / 2), w.hi[i] - w.lo[i]);
  }
  std::sort(mids.begin(), mids.end());
  std::size_t cumulative = 0;
  for (const auto& [v, weight] : mids) {
    cumulative += weight;
    if (2 * cumulative >= active) return v;
  }
  return mids.back().first;
}

// k-th smallest (0-based) value inside the windows.
template <class Value>
double select_in_matrix(RowWindows w, const Value& value, std::size_t k) {
  const std::size_t rows = w.lo.size();
  const std::size_t gather_limit = std::max<std::size_t>(kBruteForceLimit, 2 * rows);
  std::vector<std::size_t> lt(rows), le(rows);
  for (;;) {
    const std::size_t active = w.active();
    if (active <= gather_limit) {
      std::vector<double> rest;
      rest.reserve(active);
      for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = w.lo[i]; j < w.hi[i]; ++j) rest.push_back(value(i, j));
      }
      std::nth_element(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(k), rest.end());
      return rest[k];
    }
    const double pivot = weighted_row_median(w, value, active);
    std::size_t count_lt = 0, count_le = 0;
    for (std::size_t i = 0; i < rows; ++i) {
      std::size_t a = w.lo[i], b = w.hi[i];
      // Binary searches for the first column >= pivot and the first > pivot.
      std::size_t first_ge = a, last = b;
      while (first_ge < last) {
        const std::size_t mid = first_ge + (last - first_ge) / 2;
        if (value(i, mid) < pivot)
          first_ge = mid + 1;
        else
          last = mid;
      }
      std::size_t first_gt = first_ge;
      last = b;
      while (first_gt < last) {
        const std::size_t mid = first_gt + (last - first_gt) / 2;
        if (value(i, mid) <= pivot)
          first_gt = mid + 1;
        else
          last = mid;
      }
      lt[i] = first_ge - a;
      le[i] = first_gt - a;
      count_lt += lt[i];
      count_le += le[i];
    }
    if (k < count_lt) {
      for (std::size_t i = 0; i < rows; ++i) w.hi[i] = w.lo[i] + lt[i];
    } else if (k < count_le) {
      return pivot;
    } else {
      k -= count_le;
      for (std::size_t i = 0; i < rows; ++i) w.lo[i] += le[i];
    }
  }
}

// Median (mean of the middle two for an even count) of the values in the windows.
template <class Value>
double median_in_matrix(const RowWindows& w, const Value& value) {
  const std::size_t total = w.active();
  const double upper = select_in_matrix(w, value, total / 2);
  if (total % 2 == 1) return upper;
  const double lower = select_in_matrix(w, value, total / 2 - 1);
  return midpoint(lower, upper);
}

std::vector<double> sorted_copy(std::span<const double> v) {
  std::vector<double> s(v.begin(), v.end());
  std::sort(s.begin(), s.end());
  return s;
}

void require_usable(std::span<const double> v, std::size_t min_size, std::string_view what) {
  if (v.size() < min_size) {
    throw InputError(std::string(what) + ": expected at least " + std::to_string(min_size) + " samples, got " +
                     std::to_string(v.size()));
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i]))
      throw InputError(std::string(what) + ": value at index " + std::to_string(i) + " is not finite");
  }
}

std::vector<double> logs_of_positive(std::span<const double> v, std::string_view what) {
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!(v[i] > 0)) {
      throw InputError(std::string(what) + ": value at index " + std::to_string(i) +
                       " must be positive for a ratio, got " + std::to_string(v[i]));
    }
    out[i] = std::log(v[i]);
  }
  return out;
}

void require_misrate(double misrate) {
  if (!(misrate > 0 && misrate < 1)) throw InputError("misrate must be in (0, 1), got " + std::to_string(misrate));
}

// Shared rule: largest k with 2 * tail(k-1) <= misrate, at least 1, at most ceil(N/2).
template <class Tail>
Margin margin_from_tail(std::size_t total_values, double misrate, const Tail& tail_at, std::size_t search_max,
                        bool exact) {
  Margin margin;
  margin.exact = exact;
  std::size_t k = 1;
  while (k < search_max && 2 * tail_at(k) <= misrate) ++k;  // tail_at(k) = P(stat <= k)
  margin.k = std::min(k, (total_values + 1) / 2);
  margin.achieved_misrate = std::min(1.0, 2 * tail_at(margin.k - 1));
  return margin;
}

double normal_cdf(double z) { return boost::math::cdf(boost::math::normal_distribution<double>(), z); }

// Margin from an approximately normal, continuity-corrected rank statistic.
Margin normal_margin(std::size_t total_values, double misrate, double mean, double sd) {
  auto tail = [&](std::size_t u) { return normal_cdf((static_cast<double>(u) + 0.5 - mean) / sd); };
  const double z = boost::math::quantile(boost::math::normal_distribution<double>(), misrate / 2);
  const double u = std::floor(mean - 0.5 + sd * z);
  Margin margin;
  margin.exact = false;
  margin.k = u < 0 ? 1 : std::min(static_cast<std::size_t>(u) + 1, (total_values + 1) / 2);
  margin.achieved_misrate = std::min(1.0, 2 * tail(margin.k - 1));
  return margin;
}

template <class Counts>
Margin exact_margin(const Counts& counts, double total_arrangements, std::size_t total_values, double misrate) {
  std::vector<double> cumulative(counts.size());
  std::partial_sum(counts.begin(), counts.end(), cumulative.begin());
  auto tail = [&](std::size_t u) { return cumulative[std::min(u, cumulative.size() - 1)] / total_arrangements; };
  return margin_from_tail(total_values, misrate, tail, cumulative.size(), true);
}

Bounds bounds_at(const RowWindows& w, const auto& value, std::size_t total_values, const Margin& margin) {
  Bounds b;
  b.lower = select_in_matrix(w, value, margin.k - 1);
  b.upper = select_in_matrix(w, value, total_values - margin.k);
  b.achieved_misrate = margin.achieved_misrate;
  b.exact = margin.exact;
  return b;
}

RowWindows full_rows(std::size_t rows, std::size_t cols) {
  return RowWindows{std::vector<std::size_t>(rows, 0), std::vector<std::size_t>(rows, cols)};
}

// Rows i with columns [i + offset, n): Walsh averages (offset 0) or pairs i < j (offset 1).
RowWindows upper_triangle(std::size_t n, std::size_t offset) {
  RowWindows w{std::vector<std::size_t>(n), std::vector<std::size_t>(n, n)};
  for (std::size_t i = 0; i < n; ++i) w.lo[i] = std::min(n, i + offset);
  return w;
}

// A margin depends on (sizes, misrate) alone, and a batch of cases asks for the same few
// again and again (the exact null counts of 10 + 10 samples were ~5 % of a 100 000-case
// comparison's CPU samples): the process keeps the last few computed. Shared under a
// mutex, not thread_local: a dlopen'd module's TLS block is allocated on a thread's first
// access, and glibc aborts the process when that fails under a memory limit.
enum class MarginKind { shift, center };

template <class Compute>
Margin remembered_margin(MarginKind kind, std::size_t n, std::size_t m, double misrate, Compute compute) {
  struct Entry {
    bool used = false;
    MarginKind kind = MarginKind::shift;
    std::size_t n = 0, m = 0;
    double misrate = 0;
    Margin margin;
  };
  static std::mutex mutex;
  static std::array<Entry, 16> entries{};
  static std::size_t next = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (const Entry& e : entries) {
      if (e.used && e.kind == kind && e.n == n && e.m == m && e.misrate == misrate) return e.margin;
    }
  }
  const Margin margin = compute();  // outside the lock: it may take long, or throw
  const std::lock_guard<std::mutex> lock(mutex);
  entries[next] = Entry{true, kind, n, m, misrate, margin};
  next = (next + 1) % entries.size();
  return margin;
}

Margin compute_shift_margin(std::size_t n, std::size_t m, double misrate) {
  const std::size_t total = n * m;
  const double nd = static_cast<double>(n), md = static_cast<double>(m);
  const double cost = std::min(nd, md) * std::max(nd, md) * (nd * md / 2 + 1);
  if (cost <= kExactMarginBudget && n + m <= 1000) {
    const std::vector<double> counts = mann_whitney_counts(n, m, total / 2);
    return exact_margin(counts, binomial_coefficient(n + m, n), total, misrate);
  }
  return normal_margin(total, misrate, nd * md / 2, std::sqrt(nd * md * (nd + md + 1) / 12));
}

Margin compute_center_margin(std::size_t n, double misrate) {
  const std::size_t total = n * (n + 1) / 2;
  const double nd = static_cast<double>(n);
  if (n <= 400) {
    const std::vector<double> counts = signed_rank_counts(n);
    return exact_margin(counts, std::ldexp(1.0, static_cast<int>(n)), total, misrate);
  }
  return normal_margin(total, misrate, nd * (nd + 1) / 4, std::sqrt(nd * (nd + 1) * (2 * nd + 1) / 24));
}

}  // namespace

Margin shift_margin(std::size_t n, std::size_t m, double misrate) {
  require_misrate(misrate);
  return remembered_margin(MarginKind::shift, n, m, misrate, [&] { return compute_shift_margin(n, m, misrate); });
}

Margin center_margin(std::size_t n, double misrate) {
  require_misrate(misrate);
  return remembered_margin(MarginKind::center, n, 0, misrate, [&] { return compute_center_margin(n, misrate); });
}

double kth_pairwise_difference(std::span<const double> xs, std::span<const double> ys, std::size_t k) {
  auto diff = [&](std::size_t i, std::size_t j) { return ys[j] - xs[i]; };
  return select_in_matrix(full_rows(xs.size(), ys.size()), diff, k);
}

Margin sign_margin(std::size_t m, double misrate) {
  require_misrate(misrate);
  if (m == 0) throw InputError("sign_margin: expected at least one pair");
  const boost::math::binomial_distribution<double> null(static_cast<double>(m), 0.5);
  auto misses = [&](std::size_t k) { return std::min(1.0, 2 * boost::math::cdf(null, static_cast<double>(k - 1))); };
  // misses(k) grows with k: binary search for the largest k in [1, ceil(m/2)] within the misrate.
  std::size_t good = 1, bad = (m + 1) / 2 + 1;
  if (misses(1) <= misrate) {
    while (bad - good > 1) {
      const std::size_t mid = good + (bad - good) / 2;
      if (misses(mid) <= misrate)
        good = mid;
      else
        bad = mid;
    }
  }
  return Margin{good, misses(good), true};
}

double hodges_lehmann_shift(std::span<const double> x, std::span<const double> y) {
  require_usable(x, 1, "shift: x");
  require_usable(y, 1, "shift: y");
  const std::vector<double> xs = sorted_copy(x), ys = sorted_copy(y);
  auto diff = [&](std::size_t i, std::size_t j) { return ys[j] - xs[i]; };
  return median_in_matrix(full_rows(xs.size(), ys.size()), diff);
}

Bounds shift_bounds(std::span<const double> x, std::span<const double> y, double misrate) {
  require_usable(x, 1, "shift_bounds: x");
  require_usable(y, 1, "shift_bounds: y");
  const Margin margin = shift_margin(x.size(), y.size(), misrate);
  const std::vector<double> xs = sorted_copy(x), ys = sorted_copy(y);
  auto diff = [&](std::size_t i, std::size_t j) { return ys[j] - xs[i]; };
  return bounds_at(full_rows(xs.size(), ys.size()), diff, xs.size() * ys.size(), margin);
}

double ratio(std::span<const double> x, std::span<const double> y) {
  require_usable(x, 1, "ratio: x");
  require_usable(y, 1, "ratio: y");
  return std::exp(hodges_lehmann_shift(logs_of_positive(x, "ratio: x"), logs_of_positive(y, "ratio: y")));
}

Bounds ratio_bounds(std::span<const double> x, std::span<const double> y, double misrate) {
  require_usable(x, 1, "ratio_bounds: x");
  require_usable(y, 1, "ratio_bounds: y");
  Bounds b = shift_bounds(logs_of_positive(x, "ratio_bounds: x"), logs_of_positive(y, "ratio_bounds: y"), misrate);
  b.lower = std::exp(b.lower);
  b.upper = std::exp(b.upper);
  return b;
}

double center(std::span<const double> x) {
  require_usable(x, 1, "center");
  const std::vector<double> xs = sorted_copy(x);
  auto walsh = [&](std::size_t i, std::size_t j) { return walsh_average(xs[i], xs[j]); };
  return median_in_matrix(upper_triangle(xs.size(), 0), walsh);
}

Bounds center_bounds(std::span<const double> x, double misrate) {
  require_usable(x, 1, "center_bounds");
  const Margin margin = center_margin(x.size(), misrate);
  const std::vector<double> xs = sorted_copy(x);
  auto walsh = [&](std::size_t i, std::size_t j) { return walsh_average(xs[i], xs[j]); };
  return bounds_at(upper_triangle(xs.size(), 0), walsh, xs.size() * (xs.size() + 1) / 2, margin);
}

double spread(std::span<const double> x) {
  require_usable(x, 2, "spread");
  const std::vector<double> xs = sorted_copy(x);
  auto gap = [&](std::size_t i, std::size_t j) { return xs[j] - xs[i]; };
  return median_in_matrix(upper_triangle(xs.size(), 1), gap);
}

Bounds spread_bounds(std::span<const double> x, double misrate, std::uint64_t seed) {
  require_usable(x, 2, "spread_bounds");
  const std::size_t m = x.size() / 2;
  const Margin margin = sign_margin(m, misrate);
  // A value-independent random disjoint pairing: Fisher–Yates, then consecutive positions.
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  Xoshiro256 rng(seed);
  for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
  std::vector<double> gaps(m);
  for (std::size_t i = 0; i < m; ++i) gaps[i] = std::abs(x[order[2 * i]] - x[order[2 * i + 1]]);
  std::sort(gaps.begin(), gaps.end());
  return Bounds{gaps[margin.k - 1], gaps[m - margin.k], margin.achieved_misrate, true};
}

namespace {

// Bounds of s / a for s in [shift.lower, shift.upper] and a in [spread.lower, spread.upper], a >= 0.
// Dividing by an interval that reaches 0 is unbounded on the side(s) the sign of s allows.
std::pair<double, double> divide_by_spread(const Bounds& shift, const Bounds& spread) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (spread.lower > 0) {
    const double q[] = {shift.lower / spread.lower, shift.lower / spread.upper, shift.upper / spread.lower,
                        shift.upper / spread.upper};
    return {*std::min_element(std::begin(q), std::end(q)), *std::max_element(std::begin(q), std::end(q))};
  }
  if (spread.upper == 0) {  // every pair difference in the bounds is 0: only the sign of s is known
    return {shift.lower > 0 ? kInf : -kInf, shift.upper < 0 ? -kInf : kInf};
  }
  return {shift.lower >= 0 ? shift.lower / spread.upper : -kInf, shift.upper <= 0 ? shift.upper / spread.upper : kInf};
}

}  // namespace

Bounds disparity_bounds(std::span<const double> x, std::span<const double> y, double misrate, std::uint64_t seed) {
  require_usable(x, 2, "disparity_bounds: x");
  require_usable(y, 2, "disparity_bounds: y");
  require_misrate(misrate);
  const Bounds shift = shift_bounds(x, y, misrate / 2);
  const Bounds spread_x = spread_bounds(x, misrate / 4, seed);
  const Bounds spread_y = spread_bounds(y, misrate / 4, seed + 1);
  // Average spread weighted by sample size, (n Spread(x) + m Spread(y)) / (n + m) as in pragmastat.
  const double wx = static_cast<double>(x.size()) / static_cast<double>(x.size() + y.size());
  const double wy = 1 - wx;
  const Bounds average{wx * spread_x.lower + wy * spread_y.lower, wx * spread_x.upper + wy * spread_y.upper, 0, true};
  const auto [lower, upper] = divide_by_spread(shift, average);
  const double achieved = std::min(1.0, shift.achieved_misrate + spread_x.achieved_misrate + spread_y.achieved_misrate);
  return Bounds{lower, upper, achieved, shift.exact};
}

double disparity(std::span<const double> x, std::span<const double> y) {
  require_usable(x, 2, "disparity: x");
  require_usable(y, 2, "disparity: y");
  return disparity(hodges_lehmann_shift(x, y), x, y);
}

double disparity(double shift, std::span<const double> x, std::span<const double> y) {
  // (n Spread(x) + m Spread(y)) / (n + m), as pragmastat; spread checks n >= 2 and finiteness.
  const double wx = static_cast<double>(x.size()) / static_cast<double>(x.size() + y.size());
  const double average_spread = wx * spread(x) + (1 - wx) * spread(y);
  return shift / average_spread;  // +-inf or NaN when both spreads are 0
}

}  // namespace benchreport

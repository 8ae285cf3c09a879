// E-divisive means: q-statistic scans with Fenwick-tree sums of distances,
// recursive bisection and a permutation test (docs/statistics-history.md).
#include "benchreport/stats/edivisive.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/core/rng.hpp"
#include "benchreport/stats/welch.hpp"
#include "stats/q_columns.hpp"

namespace benchreport {
namespace {

// Counts and sums of the values inserted so far, indexed by rank.
class RankSums {
 public:
  explicit RankSums(std::size_t n) : count_(n + 1, 0), sum_(n + 1, 0.0) {}
  void clear() {
    std::fill(count_.begin(), count_.end(), 0);
    std::fill(sum_.begin(), sum_.end(), 0.0);
    total_count_ = 0;
    total_sum_ = 0;
  }
  void insert(std::size_t rank, double x) {
    for (std::size_t i = rank + 1; i < count_.size(); i += i & (~i + 1)) {
      count_[i] += 1;
      sum_[i] += x;
    }
    ++total_count_;
    total_sum_ += x;
  }
  // sum over inserted values v of |v - x|, x having rank `rank` (not inserted).
  double distance_sum(std::size_t rank, double x) const {
    std::size_t below = 0;
    double below_sum = 0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) {
      below += count_[i];
      below_sum += sum_[i];
    }
    const std::size_t above = total_count_ - below;
    return (x * static_cast<double>(below) - below_sum) + ((total_sum_ - below_sum) - x * static_cast<double>(above));
  }

 private:
  std::vector<std::size_t> count_;
  std::vector<double> sum_;
  std::size_t total_count_ = 0;
  double total_sum_ = 0;
};

// One segment's values (centred, so the sums cancel less) and their ranks
// (only the Fenwick scan with Y to the segment's end uses them).
struct Segment {
  std::vector<double> values;
  std::vector<std::size_t> ranks;
  double float_scale = 0;     // search_end: q_columns::float_scale of the values (0: no float bounds)
  std::vector<float> scaled;  // the values times float_scale, as floats (when float_scale > 0)
};

Segment make_segment(std::span<const double> x, const EDivisiveOptions& options) {
  Segment s;
  const double mean = x.empty() ? 0.0 : std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  s.values.reserve(x.size());
  for (const double v : x) s.values.push_back(v - mean);
  if (options.search_end) {
    s.float_scale = q_columns::float_scale(s.values.data(), s.values.size());
    if (s.float_scale > 0) {
      for (const double v : s.values) s.scaled.push_back(static_cast<float>(v * s.float_scale));
    }
    return s;
  }
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  s.ranks.resize(x.size());
  for (std::size_t r = 0; r < order.size(); ++r) s.ranks[order[r]] = r;
  return s;
}

// q of X = m points, Y = r points from the distance sums across and within them.
double q_value(double m, double r, double cross, double within_left, double within_right, WithinMean within) {
  const double pairs_left = within == WithinMean::pairs ? m * (m - 1) : m * m;
  const double pairs_right = within == WithinMean::pairs ? r * (r - 1) : r * r;
  return m * r / (m + r) * (2.0 * cross / (m * r) - 2.0 * within_left / pairs_left - 2.0 * within_right / pairs_right);
}

// A Fisher–Yates shuffle of a in place, from rng. Shuffling the values gives
// values[order[k]] for the order the same draws make of 0..n-1, so a scan
// needs no gather through an index order.
template <class T>
void shuffle_in_place(Xoshiro256& rng, std::span<T> a) {
  for (std::size_t i = a.size(); i > 1; --i) std::swap(a[i - 1], a[rng.below(i)]);
}

// Advances rng past the draws of a shuffle of n items, without shuffling.
void skip_shuffle(Xoshiro256& rng, std::size_t n) {
  for (std::size_t i = n; i > 1; --i) rng.below(i);
}

// The best q of a permutation, or bounds of it: lower <= q <= upper.
struct QRange {
  double lower, upper;
};

// x moved outwards by a hair (2^-40 of it, and 2^-1000), past any rounding of
// dividing it by a power of two.
double widened_down(double x) { return std::isfinite(x) ? x - std::abs(x) * 0x1p-40 - 0x1p-1000 : x; }
double widened_up(double x) { return std::isfinite(x) ? x + std::abs(x) * 0x1p-40 + 0x1p-1000 : x; }

// Whether permutation scans take the float bounds first (docs/statistics-history.md);
// BENCHREPORT_FLOAT_BOUNDS=off always runs the double scan, to check that
// both give the same results (tests/python/test_history.py).
bool float_bounds_enabled() {
  static const bool enabled = [] {
    const char* setting = std::getenv("BENCHREPORT_FLOAT_BOUNDS");
    return setting == nullptr || std::string_view(setting) != "off";
  }();
  return enabled;
}

// Reusable buffers of the q scans of one series.
struct Scanner {
  RankSums sums;
  std::vector<double> left, right;           // per point: distance sum to the points before / after it
  std::vector<double> tail;                  // search_end: per tau, sum of distances within [tau, kappa)
  std::vector<double> v, inv, inv_reversed;  // search_end: values in scan order; 1 / d(k), and reversed
  std::vector<float> v_float, tail_float, left_float, inv_float, inv_reversed_float;  // the same, for the float bounds
  std::vector<q_columns::BoundTerms> bound_terms;
  std::vector<std::size_t> order;  // a shuffled order, for the scan with Y to the end
  const q_columns::ExactScan exact_scan = q_columns::exact_scan_of_this_machine();
  const q_columns::BoundScan bound_scan = q_columns::bound_scan_of_this_machine();
  bool stopped = false;  // the last scan stopped early at a q >= its stop_at: its q is a lower bound
  Scanner(std::size_t n, WithinMean within)
      : sums(n), left(n), right(n), tail(n + 1), v_float(n), tail_float(n + 1), left_float(n) {
    prepare_inverse(n, within);
  }

  // Best split of the points values[order[k]] (k = 0..n-1) in that order. A
  // permutation test only asks whether the best q reaches the observed one, so
  // the searched-end scan may stop at the first q >= stop_at (sets `stopped`),
  // and needs no split index (Locate::q_only: the searched-end scan then gives
  // min_segment as the index, and saves a pass over the splits per better q).
  enum class Locate { split, q_only };
  EDivisiveSplit best(const Segment& s, std::span<const std::size_t> order, const EDivisiveOptions& o,
                      double stop_at = INFINITY, Locate locate = Locate::split) {
    stopped = false;
    if (order.size() < 2 * o.min_segment) return {};
    return o.search_end ? best_any_end(s, order, o, stop_at, locate) : best_at_end(s, order, o);
  }

  // For a permutation test: the best q of a shuffle of the segment drawn from
  // rng (advanced past its draws), or bounds of it that tell whether it
  // reaches stop_at (then lower >= stop_at), the same answer the scan in
  // doubles gives. With a searched end the float scan's bounds come first; the
  // scan in doubles runs only when they straddle stop_at, and may stop at the
  // first q >= stop_at (then upper is +inf).
  QRange q_of_shuffle(const Segment& s, Xoshiro256& rng, const EDivisiveOptions& o, double stop_at) {
    const std::size_t n = s.values.size();
    stopped = false;
    if (n < 2 * o.min_segment) {  // no split to score: only the draws are made
      skip_shuffle(rng, n);
      return {-INFINITY, -INFINITY};
    }
    if (!o.search_end) {
      order.resize(n);
      std::iota(order.begin(), order.end(), std::size_t{0});
      shuffle_in_place(rng, std::span(order));
      const double q = best_at_end(s, order, o).q;
      return {q, q};
    }
    if (s.float_scale > 0 && float_bounds_enabled()) {
      // The floats are shuffled; the doubles, only if needed, by the same draws.
      Xoshiro256 draws = rng;
      std::copy(s.scaled.begin(), s.scaled.end(), v_float.begin());
      shuffle_in_place(rng, std::span(v_float.data(), n));
      const q_columns::Bounds b = bound_values(n, s.float_scale, o, stop_at);
      if (b.upper == INFINITY) return {stop_at, INFINITY};
      if (b.settled) return {widened_down(b.lower / s.float_scale), widened_up(b.upper / s.float_scale)};
      v.assign(s.values.begin(), s.values.end());
      shuffle_in_place(draws, std::span(v));
    } else {
      v.assign(s.values.begin(), s.values.end());
      shuffle_in_place(rng, std::span(v));
    }
    const double q = scan_values(n, o, stop_at, Locate::q_only).q;
    return {q, stopped ? INFINITY : q};
  }

  // Y runs to the segment's end: O(n log n) with Fenwick sums.
  EDivisiveSplit best_at_end(const Segment& s, std::span<const std::size_t> order, const EDivisiveOptions& o) {
    const std::size_t n = order.size();
    EDivisiveSplit out;
    sums.clear();
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t p = order[k];
      left[k] = sums.distance_sum(s.ranks[p], s.values[p]);
      sums.insert(s.ranks[p], s.values[p]);
    }
    sums.clear();
    for (std::size_t k = n; k-- > 0;) {
      const std::size_t p = order[k];
      right[k] = sums.distance_sum(s.ranks[p], s.values[p]);
      sums.insert(s.ranks[p], s.values[p]);
    }
    double within_left = 0, within_right = 0;
    for (std::size_t k = 0; k < n; ++k) within_right += right[k];
    const double total = within_right;
    for (std::size_t tau = 1; tau < n; ++tau) {
      within_left += left[tau - 1];
      within_right -= right[tau - 1];
      if (tau < o.min_segment || n - tau < o.min_segment) continue;
      const double q = q_value(static_cast<double>(tau), static_cast<double>(n - tau),
                               total - within_left - within_right, within_left, within_right, o.within);
      if (out.index == 0 || q > out.q) out = {tau, q, 1.0, true, n};
    }
    return out;
  }

  // Y = [tau, kappa) for every kappa: exact_scan, for this machine's vectors.
  EDivisiveSplit best_any_end(const Segment& s, std::span<const std::size_t> order, const EDivisiveOptions& o,
                              double stop_at, Locate locate) {
    gather(s, order);
    return scan_values(order.size(), o, stop_at, locate);
  }

  // The searched-end scan of v[0, n).
  EDivisiveSplit scan_values(std::size_t n, const EDivisiveOptions& o, double stop_at, Locate locate) {
    std::fill(tail.begin(), tail.begin() + static_cast<std::ptrdiff_t>(n + 1), 0.0);
    const q_columns::Buffers<double> in{v.data(),
                                        n,
                                        tail.data(),
                                        left.data(),
                                        inv.data(),
                                        inv_reversed.data(),
                                        inv.size(),
                                        o.min_segment,
                                        o.within == WithinMean::pairs};
    return exact_scan(in, stop_at, locate == Locate::split, &stopped);
  }

  // Bounds of the best q of v[0, n), from the float scan of v_float[0, n) = v * scale.
  q_columns::Bounds bound_values(std::size_t n, double scale, const EDivisiveOptions& o, double stop_at) {
    std::fill(tail_float.begin(), tail_float.begin() + static_cast<std::ptrdiff_t>(n + 1), 0.0f);
    const q_columns::Buffers<float> in{v_float.data(),
                                       n,
                                       tail_float.data(),
                                       left_float.data(),
                                       inv_float.data(),
                                       inv_reversed_float.data(),
                                       inv_float.size(),
                                       o.min_segment,
                                       o.within == WithinMean::pairs};
    return bound_scan(in, bound_terms.data(), stop_at * scale);
  }

  // v = the segment's values in scan order; inv[k] = 1 / d(k) for the within normalisation.
  void gather(const Segment& s, std::span<const std::size_t> order) {
    v.resize(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) v[k] = s.values[order[k]];
  }

  void prepare_inverse(std::size_t n, WithinMean within) {
    inv.assign(n + 1, 0.0);
    const std::size_t off = within == WithinMean::pairs ? 1 : 0;
    for (std::size_t k = off + 1; k <= n; ++k) inv[k] = 1.0 / static_cast<double>(k - off);
    inv_reversed.assign(inv.rbegin(), inv.rend());  // inv_reversed[j] = inv[n - j]
    inv_float.assign(inv.begin(), inv.end());
    bound_terms = q_columns::bound_terms(n, within == WithinMean::pairs);
    inv_reversed_float.assign(inv_reversed.begin(), inv_reversed.end());
  }
};

void check_min_segment(std::size_t min_segment, WithinMean within) {
  const std::size_t least = within == WithinMean::pairs ? 2 : 1;
  if (min_segment < least) throw InputError(fmt::format("e-divisive: min_segment must be at least {}", least));
}

void check_input(std::span<const double> x, const EDivisiveOptions& options) {
  check_min_segment(options.min_segment, options.within);
  if (!(options.max_p_value > 0 && options.max_p_value <= 1)) {
    throw InputError(fmt::format("e-divisive: max_p_value must be in (0, 1], got {}", options.max_p_value));
  }
  if (options.permutations == 0) throw InputError("e-divisive: permutations must be at least 1");
  if (!(options.max_permutation_pairs >= 0)) {
    throw InputError(
        fmt::format("e-divisive: max_permutation_pairs must be >= 0, got {}", options.max_permutation_pairs));
  }
  if (!(options.screen_p_value >= 0 && options.screen_p_value <= 1)) {
    throw InputError(fmt::format("e-divisive: screen_p_value must be in [0, 1], got {}", options.screen_p_value));
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]))
      throw InputError(fmt::format("e-divisive: value {} at position {} is not finite", x[i], i));
  }
}

// Pairs (index, end) a scan of n points compares: every split with Y to the
// end, or every split with every end of Y (search_end).
double compared_splits(std::size_t n, const EDivisiveOptions& o) {
  if (n < 2 * o.min_segment) return 0;
  const double splits = static_cast<double>(n - 2 * o.min_segment + 1);
  return o.search_end ? splits * (splits + 1) / 2 : splits;
}

// Fewest points on each side for the Welch screen: with fewer, a chance run
// of close values makes the variance estimate, and so p, far too small.
constexpr std::size_t kMinScreenSide = 8;

// Bonferroni bound of the Welch t-test between X and Y of a window's best split
// (positions relative to the window at `begin` of `n` points); 1 when a side has
// fewer than kMinScreenSide points.
double screen_bound(std::span<const double> x, std::size_t begin, std::size_t n, const EDivisiveSplit& best,
                    const EDivisiveOptions& o) {
  if (best.index < kMinScreenSide || best.end - best.index < kMinScreenSide) return 1.0;
  const double p =
      welch_test(x.subspan(begin, best.index), x.subspan(begin + best.index, best.end - best.index)).p_value;
  return std::min(1.0, p * compared_splits(n, o));
}

// One permutation of a window: the generator state it is drawn from and what
// its scans found of its best q: lower <= q <= upper (NaN: not scanned yet).
struct Permutation {
  Xoshiro256 start;
  double lower = NAN, upper = NAN;
};

// With a searched end a split is located in the segment it was found in, where
// Y may stop short of the next change and the location drift into a run of
// intermediate values. Once all splits are known, each (left to right) is
// located again as the best split, Y to the end, of the points between its
// neighbours: the left one as already located again, the right one as found.
// Each stays strictly between them, with min_segment points on either side.
void locate_between_neighbours(std::span<const double> x, const EDivisiveOptions& options,
                               std::vector<EDivisiveSplit>& found, Scanner& scanner) {
  EDivisiveOptions to_end = options;
  to_end.search_end = false;
  std::vector<std::size_t> order;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::size_t end = i + 1 < found.size() ? found[i + 1].index : x.size();
    const Segment segment = make_segment(x.subspan(begin, end - begin), to_end);
    order.resize(end - begin);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const EDivisiveSplit best = scanner.best(segment, order, to_end);
    if (best.index != 0) found[i].index = begin + best.index;
    begin = found[i].index;
  }
}

}  // namespace

EDivisiveSplit best_q_split(std::span<const double> x, const EDivisiveOptions& options) {
  check_min_segment(options.min_segment, options.within);
  const Segment s = make_segment(x, options);
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  Scanner scanner(x.size(), options.within);
  return scanner.best(s, order, options);
}

std::vector<EDivisiveSplit> e_divisive(std::span<const double> x, const EDivisiveOptions& options, std::uint64_t stream,
                                       EDivisiveWork* work) {
  check_input(x, options);
  EDivisiveWork spent;
  Scanner scanner(x.size(), options.within);
  std::vector<EDivisiveSplit> found;
  // A segment between the splits found so far: its best split and the best q of
  // each of its permutations, both computed once and kept while the segment is.
  // Each segment draws its permutations from its own stream (seed, series, bounds),
  // so results do not depend on the order segments are visited in.
  struct Window {
    std::size_t begin, end;
    Segment segment;
    EDivisiveSplit best;
    Xoshiro256 rng;  // state after the permutations drawn so far
    std::vector<Permutation> permuted;
  };
  std::uint64_t series_key = stream;
  series_key = splitmix64(series_key);
  std::vector<Window> windows;
  auto make_window = [&](std::size_t begin, std::size_t end) {
    const std::uint64_t bounds = (static_cast<std::uint64_t>(begin) << 32) ^ static_cast<std::uint64_t>(end);
    Window w{begin,
             end,
             make_segment(x.subspan(begin, end - begin), options),
             {},
             Xoshiro256::for_stream(options.seed ^ series_key, bounds),
             {}};
    std::vector<std::size_t> order(end - begin);
    std::iota(order.begin(), order.end(), std::size_t{0});
    w.best = scanner.best(w.segment, order, options);
    return w;
  };
  // Scans permutation d of window w, drawn from rng (advanced past its draws).
  auto scan = [&](Window& w, Permutation& d, Xoshiro256& rng, double observed) {
    const QRange q = scanner.q_of_shuffle(w.segment, rng, options, observed);
    ++spent.permutation_scans;
    spent.permutation_pairs += compared_splits(w.end - w.begin, options);
    d.lower = q.lower;
    d.upper = q.upper;
    return d.lower;
  };
  // Permutation p of a window: drawn in stream order (so the same for any test
  // that asks), scanned only when a test needs it. A lower bound of its best q
  // that reaches `observed` exactly when the best q does.
  auto permuted_q = [&](Window& w, std::size_t p, double observed) {
    while (w.permuted.size() < p) {  // drawn but not needed by the tests that skipped them
      w.permuted.push_back({w.rng});
      skip_shuffle(w.rng, w.end - w.begin);
    }
    if (w.permuted.size() == p) {
      Permutation& d = w.permuted.emplace_back(Permutation{w.rng});
      return scan(w, d, w.rng, observed);
    }
    Permutation& d = w.permuted[p];
    if (d.lower >= observed || d.upper < observed) return d.lower;
    Xoshiro256 rng = d.start;
    return scan(w, d, rng, observed);
  };
  // Whether permutation p's largest q over windows reaches `observed`: the q
  // already known first, then scans that stop at the first one that reaches it.
  auto reaches = [&](double observed, std::size_t p) {
    for (const Window& w : windows) {
      if (p < w.permuted.size() && w.permuted[p].lower >= observed) return true;
    }
    for (Window& w : windows) {
      if (permuted_q(w, p, observed) >= observed) return true;
    }
    return false;
  };
  // Pairs the scans of a test's permutations not drawn yet would compare
  // (rescans of permutations already drawn are not foreseen, only counted).
  const auto test_pairs = [&](const std::vector<Window>& ws) {
    double pairs = 0;
    for (const Window& w : ws) {
      const std::size_t drawn = std::min(w.permuted.size(), options.permutations);
      pairs += static_cast<double>(options.permutations - drawn) * compared_splits(w.end - w.begin, options);
    }
    return pairs;
  };
  windows.push_back(make_window(0, x.size()));
  // Stop counting once the p-value can no longer reach max_p_value.
  const auto max_exceed =
      static_cast<std::size_t>(std::floor(options.max_p_value * static_cast<double>(options.permutations + 1) + 1e-9));
  for (;;) {
    std::size_t pick = windows.size();
    for (std::size_t w = 0; w < windows.size(); ++w) {
      if (windows[w].best.index == 0) continue;
      if (pick == windows.size() || windows[w].best.q > windows[pick].best.q) pick = w;
    }
    if (pick == windows.size()) break;
    const double observed = windows[pick].best.q;
    const auto keep = [&](double p_value, bool permuted) {
      const Window chosen = std::move(windows[pick]);
      const std::size_t split = chosen.begin + chosen.best.index;
      found.push_back({split, observed, p_value, permuted});
      windows[pick] = make_window(chosen.begin, split);
      windows.insert(windows.begin() + static_cast<std::ptrdiff_t>(pick) + 1, make_window(split, chosen.end));
    };
    const Window& w = windows[pick];
    const double bound = screen_bound(x, w.begin, w.end - w.begin, w.best, options);
    if (bound <= std::min(options.screen_p_value, options.max_p_value)) {
      keep(bound, false);
      continue;
    }
    if (spent.permutation_pairs + test_pairs(windows) > options.max_permutation_pairs) {
      ++spent.tests_over_budget;
      if (bound > options.max_p_value) break;
      keep(bound, false);
      continue;
    }
    std::size_t exceed = 0;  // permutations whose largest q (over all segments) reaches the observed one
    for (std::size_t p = 0; p < options.permutations && exceed < max_exceed; ++p) {
      if (reaches(observed, p)) ++exceed;
    }
    const double p_value = static_cast<double>(exceed + 1) / static_cast<double>(options.permutations + 1);
    if (exceed >= max_exceed || p_value > options.max_p_value) break;
    keep(p_value, true);
  }
  if (work != nullptr) *work = spent;
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  if (options.search_end) locate_between_neighbours(x, options, found, scanner);
  return found;
}

}  // namespace benchreport

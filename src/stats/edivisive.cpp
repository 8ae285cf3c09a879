// E-divisive means: q-statistic scans with Fenwick-tree sums of distances,
// recursive bisection and a permutation test (docs/statistics-history.md).
#include "benchreport/stats/edivisive.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/core/rng.hpp"

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

// One segment's values (centred, so the sums cancel less) and their ranks.
struct Segment {
  std::vector<double> values;
  std::vector<std::size_t> ranks;
};

Segment make_segment(std::span<const double> x) {
  Segment s;
  const double mean = x.empty() ? 0.0 : std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  s.values.reserve(x.size());
  for (const double v : x) s.values.push_back(v - mean);
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

// Reusable buffers of the q scans of one series.
struct Scanner {
  RankSums sums;
  std::vector<double> left, right;  // per point: distance sum to the points before / after it
  std::vector<double> tail;         // search_end: per tau, sum of distances within [tau, kappa)
  explicit Scanner(std::size_t n) : sums(n), left(n), right(n), tail(n + 1) {}

  // Best split of the points values[order[k]] (k = 0..n-1) in that order.
  EDivisiveSplit best(const Segment& s, std::span<const std::size_t> order, const EDivisiveOptions& o) {
    if (order.size() < 2 * o.min_segment) return {};
    return o.search_end ? best_any_end(s, order, o) : best_at_end(s, order, o);
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
      const double q = q_value(static_cast<double>(tau), static_cast<double>(n - tau), total - within_left - within_right,
                               within_left, within_right, o.within);
      if (out.index == 0 || q > out.q) out = {tau, q, 1.0};
    }
    return out;
  }

  // Y = [tau, kappa) for every kappa (Matteson & James 2014): O(n^2) time, O(n) memory.
  // tail[tau] holds the within sum of [tau, kappa) and grows by one column per kappa.
  EDivisiveSplit best_any_end(const Segment& s, std::span<const std::size_t> order, const EDivisiveOptions& o) {
    const std::size_t n = order.size();
    EDivisiveSplit out;
    std::fill(tail.begin(), tail.begin() + static_cast<std::ptrdiff_t>(n + 1), 0.0);
    left[0] = 0;  // left[b] = within sum of [0, b) (prefix), once known
    for (std::size_t kappa = 1; kappa <= n; ++kappa) {
      const double xk = s.values[order[kappa - 1]];
      double column = 0;  // sum of |x_i - x_k| for i in [tau, kappa - 1)
      for (std::size_t tau = kappa - 1; tau-- > 0;) {
        column += std::abs(s.values[order[tau]] - xk);
        tail[tau] += column;
      }
      const double prefix = tail[0];
      if (kappa < n) left[kappa] = prefix;
      for (std::size_t tau = o.min_segment; tau + o.min_segment <= kappa; ++tau) {
        const double within_left = left[tau], within_right = tail[tau];
        const double q = q_value(static_cast<double>(tau), static_cast<double>(kappa - tau),
                                 prefix - within_left - within_right, within_left, within_right, o.within);
        if (out.index == 0 || q > out.q) out = {tau, q, 1.0};
      }
    }
    return out;
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
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) throw InputError(fmt::format("e-divisive: value {} at position {} is not finite", x[i], i));
  }
}

}  // namespace

EDivisiveSplit best_q_split(std::span<const double> x, const EDivisiveOptions& options) {
  check_min_segment(options.min_segment, options.within);
  const Segment s = make_segment(x);
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  Scanner scanner(x.size());
  return scanner.best(s, order, options);
}

std::vector<EDivisiveSplit> e_divisive(std::span<const double> x, const EDivisiveOptions& options,
                                       std::uint64_t stream) {
  check_input(x, options);
  Scanner scanner(x.size());
  std::vector<EDivisiveSplit> found;
  // A segment between the splits found so far: its best split and the best q of
  // each of its permutations, both computed once and kept while the segment is.
  // Each segment draws its permutations from its own stream (seed, series, bounds),
  // so results do not depend on the order segments are visited in.
  struct Window {
    std::size_t begin, end;
    Segment segment;
    EDivisiveSplit best;
    Xoshiro256 rng;
    std::vector<double> permuted;  // best q per permutation drawn so far (-inf: no split fits)
  };
  std::uint64_t series_key = stream;
  series_key = splitmix64(series_key);
  auto make_window = [&](std::size_t begin, std::size_t end) {
    const std::uint64_t bounds = (static_cast<std::uint64_t>(begin) << 32) ^ static_cast<std::uint64_t>(end);
    Window w{begin, end, make_segment(x.subspan(begin, end - begin)), {},
             Xoshiro256::for_stream(options.seed ^ series_key, bounds), {}};
    std::vector<std::size_t> order(end - begin);
    std::iota(order.begin(), order.end(), std::size_t{0});
    w.best = scanner.best(w.segment, order, options);
    return w;
  };
  std::vector<std::size_t> order;
  auto permuted_q = [&](Window& w, std::size_t p) {
    while (w.permuted.size() <= p) {
      const std::size_t n = w.end - w.begin;
      order.resize(n);
      std::iota(order.begin(), order.end(), std::size_t{0});
      for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[w.rng.below(i)]);  // Fisher–Yates
      const EDivisiveSplit s = scanner.best(w.segment, order, options);
      w.permuted.push_back(s.index != 0 ? s.q : -INFINITY);
    }
    return w.permuted[p];
  };
  std::vector<Window> windows;
  windows.push_back(make_window(0, x.size()));
  // Stop counting once the p-value can no longer reach max_p_value.
  const auto max_exceed = static_cast<std::size_t>(
      std::floor(options.max_p_value * static_cast<double>(options.permutations + 1) + 1e-9));
  for (;;) {
    std::size_t pick = windows.size();
    for (std::size_t w = 0; w < windows.size(); ++w) {
      if (windows[w].best.index == 0) continue;
      if (pick == windows.size() || windows[w].best.q > windows[pick].best.q) pick = w;
    }
    if (pick == windows.size()) break;
    const double observed = windows[pick].best.q;
    std::size_t exceed = 0;  // permutations whose largest q (over all segments) reaches the observed one
    for (std::size_t p = 0; p < options.permutations && exceed < max_exceed; ++p) {
      double largest = -INFINITY;
      for (Window& w : windows) largest = std::max(largest, permuted_q(w, p));
      if (largest >= observed) ++exceed;
    }
    const double p_value = static_cast<double>(exceed + 1) / static_cast<double>(options.permutations + 1);
    if (exceed >= max_exceed || p_value > options.max_p_value) break;
    const Window chosen = std::move(windows[pick]);
    const std::size_t split = chosen.begin + chosen.best.index;
    found.push_back({split, observed, p_value});
    windows[pick] = make_window(chosen.begin, split);
    windows.insert(windows.begin() + static_cast<std::ptrdiff_t>(pick) + 1, make_window(split, chosen.end));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  return found;
}

}  // namespace benchreport

#include "benchreport/stats/order_stats.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace benchreport {
namespace {

// Below this size a range is finished by insertion sort.
constexpr std::size_t kSmallRange = 16;

void insertion_sort(double* a, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i) {
    const double x = a[i];
    std::size_t j = i;
    for (; j > 0 && a[j - 1] > x; --j) a[j] = a[j - 1];
    a[j] = x;
  }
}

// Moves the elements of a[0, n) for which before(x) holds to the front and
// returns how many there are. Branch-free (Lomuto with an unconditional swap),
// which is what makes selection on small random sets fast.
template <class Before>
std::size_t partition_front(double* a, std::size_t n, Before before) {
  std::size_t i = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double x = a[j];
    const std::size_t moves = before(x) ? 1 : 0;
    a[j] = a[i];
    a[i] = x;
    i += moves;
  }
  return i;
}

double median_of_three(double a, double b, double c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// Quickselect for rank k in a[lo, hi): afterwards a[k] is in place, everything
// before it is <= a[k] and everything after is >= a[k].
void select_in(double* a, std::size_t lo, std::size_t hi, std::size_t k) {
  // An end rank (common: the neighbour of a rank just selected) is one linear scan.
  if (k == lo) {
    std::iter_swap(a + lo, std::min_element(a + lo, a + hi));
    return;
  }
  if (k + 1 == hi) {
    std::iter_swap(a + k, std::max_element(a + lo, a + hi));
    return;
  }
  int budget = 2 * static_cast<int>(std::bit_width(hi - lo)) + 8;
  while (hi - lo > kSmallRange) {
    if (budget-- == 0) {  // adversarial input: fall back to the library's introselect
      std::nth_element(a + lo, a + k, a + hi);
      return;
    }
    const std::size_t n = hi - lo;
    const double pivot = median_of_three(a[lo], a[lo + n / 2], a[hi - 1]);
    const std::size_t less = lo + partition_front(a + lo, n, [pivot](double x) { return x < pivot; });
    if (k < less) {
      hi = less;  // the pivot itself is on the right: the range shrinks
      continue;
    }
    if (less > lo) {
      lo = less;
      continue;
    }
    // Nothing below the pivot (it is the minimum, e.g. heavy ties): peel off its copies.
    const std::size_t equal = lo + partition_front(a + lo, n, [pivot](double x) { return x == pivot; });
    if (k < equal) return;
    lo = equal;
  }
  insertion_sort(a + lo, hi - lo);
}

// Selects ranks[...] inside v[begin, end); every rank lies in that range.
void select_many_in(std::span<double> v, std::size_t begin, std::size_t end, std::span<const std::size_t> ranks) {
  if (ranks.empty()) return;
  // Split at the rank nearest the middle of the range: both sides then shrink fastest.
  const std::size_t centre = begin + (end - begin) / 2;
  const std::size_t middle =
      static_cast<std::size_t>(std::lower_bound(ranks.begin(), ranks.end(), centre) - ranks.begin());
  const std::size_t pick = middle == ranks.size() || (middle > 0 && centre - ranks[middle - 1] < ranks[middle] - centre)
                               ? middle - 1
                               : middle;
  const std::size_t k = ranks[pick];
  select_in(v.data(), begin, end, k);
  // Everything left of k is <= v[k] and everything right is >= v[k]: recurse on each side.
  select_many_in(v, begin, k, ranks.first(pick));
  select_many_in(v, k + 1, end, ranks.subspan(pick + 1));
}

}  // namespace

double select_kth(std::span<double> v, std::size_t k) {
  select_in(v.data(), 0, v.size(), k);
  return v[k];
}

void select_many(std::span<double> v, std::span<const std::size_t> ranks) { select_many_in(v, 0, v.size(), ranks); }

double median_inplace(std::span<double> v) {
  const std::size_t n = v.size();
  const std::size_t hi = n / 2;
  const double upper = select_kth(v, hi);
  if (n % 2 == 1) return upper;
  // After nth_element every element left of `hi` is <= upper: the lower middle is their max.
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(hi));
  return midpoint(lower, upper);
}

double median(std::span<const double> v) {
  std::vector<double> work(v.begin(), v.end());
  return median_inplace(work);
}

double mad_inplace(std::span<double> v, double center) {
  for (double& x : v) x = std::fabs(x - center);
  return median_inplace(v);
}

}  // namespace benchreport

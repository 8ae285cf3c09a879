#include "benchreport/order_stats.hpp"

#include <algorithm>
#include <cmath>

namespace benchreport {

double select_kth(std::span<double> v, std::size_t k) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

namespace {

// Selects ranks[...] inside v[begin, end); every rank lies in that range.
void select_many_in(std::span<double> v, std::size_t begin, std::size_t end,
                    std::span<const std::size_t> ranks) {
  if (ranks.empty()) return;
  const std::size_t middle = ranks.size() / 2;
  const std::size_t k = ranks[middle];
  const auto first = v.begin();
  std::nth_element(first + static_cast<std::ptrdiff_t>(begin), first + static_cast<std::ptrdiff_t>(k),
                   first + static_cast<std::ptrdiff_t>(end));
  // Everything left of k is <= v[k] and everything right is >= v[k]: recurse on each side.
  select_many_in(v, begin, k, ranks.first(middle));
  select_many_in(v, k + 1, end, ranks.subspan(middle + 1));
}

}  // namespace

void select_many(std::span<double> v, std::span<const std::size_t> ranks) {
  select_many_in(v, 0, v.size(), ranks);
}

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

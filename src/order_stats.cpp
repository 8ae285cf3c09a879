#include "benchreport/order_stats.hpp"

#include <algorithm>
#include <cmath>

namespace benchreport {

double select_kth(std::span<double> v, std::size_t k) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

double median_inplace(std::span<double> v) {
  const std::size_t n = v.size();
  const std::size_t hi = n / 2;
  const double upper = select_kth(v, hi);
  if (n % 2 == 1) return upper;
  // After nth_element every element left of `hi` is <= upper: the lower middle is their max.
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(hi));
  return lower + (upper - lower) / 2.0;
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

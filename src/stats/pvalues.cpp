#include "benchreport/stats/pvalues.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "benchreport/core/error.hpp"

namespace benchreport {

namespace {

// Indices of p by ascending value (stable, so ties keep input order).
std::vector<std::size_t> ascending_order(std::span<const double> p) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!(p[i] >= 0 && p[i] <= 1)) {
      throw InputError("p-value at index " + std::to_string(i) + " must be in [0, 1], got " + std::to_string(p[i]));
    }
  }
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  return order;
}

}  // namespace

std::vector<double> adjust_bh(std::span<const double> p) {
  const std::vector<std::size_t> order = ascending_order(p);
  const double m = static_cast<double>(p.size());
  std::vector<double> adjusted(p.size());
  double running_min = 1.0;
  for (std::size_t r = p.size(); r-- > 0;) {
    running_min = std::min(running_min, p[order[r]] * m / static_cast<double>(r + 1));
    adjusted[order[r]] = running_min;
  }
  return adjusted;
}

std::vector<double> adjust_holm(std::span<const double> p) {
  const std::vector<std::size_t> order = ascending_order(p);
  const double m = static_cast<double>(p.size());
  std::vector<double> adjusted(p.size());
  double running_max = 0.0;
  for (std::size_t r = 0; r < p.size(); ++r) {
    running_max = std::max(running_max, std::min(1.0, p[order[r]] * (m - static_cast<double>(r))));
    adjusted[order[r]] = running_max;
  }
  return adjusted;
}

}  // namespace benchreport

#include "benchreport/stats/median_ci.hpp"

#include <array>
#include <boost/math/distributions/binomial.hpp>
#include <fmt/format.h>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/data/sample_check.hpp"

namespace benchreport {
namespace {

// Coverage of [x(l), x(n+1-l)]: 1 - 2 P(B <= l - 1), B ~ Binomial(n, 1/2).
double coverage(const boost::math::binomial_distribution<double>& b, std::size_t l) {
  return 1.0 - 2.0 * boost::math::cdf(b, static_cast<double>(l - 1));
}

void check_nominal(double nominal) {
  if (!(nominal > 0.0 && nominal < 1.0)) {
    throw InputError(fmt::format("median CI confidence is {}: expected a value in (0, 1)", nominal));
  }
}

}  // namespace

MedianCIPlan plan_median_ci(std::size_t n, double nominal) {
  check_nominal(nominal);
  const boost::math::binomial_distribution<double> b(static_cast<double>(n), 0.5);
  MedianCIPlan plan;
  plan.achieved = coverage(b, 1);
  if (plan.achieved < nominal) return plan;
  // Coverage falls as l grows; find the largest l in [1, (n+1)/2] that still reaches nominal.
  std::size_t good = 1;
  std::size_t bad = (n + 1) / 2 + 1;
  while (bad - good > 1) {
    const std::size_t mid = good + (bad - good) / 2;
    if (coverage(b, mid) >= nominal)
      good = mid;
    else
      bad = mid;
  }
  plan.ok = true;
  plan.lower_rank = good;
  plan.upper_rank = n + 1 - good;
  plan.achieved = coverage(b, good);
  return plan;
}

MedianCI median_ci_from(const MedianCIPlan& plan, std::span<const double> ordered, double nominal) {
  MedianCI ci;
  ci.nominal = nominal;
  ci.achieved = plan.achieved;
  if (!plan.ok) {
    ci.availability = Availability::unavailable(
        fmt::format("n = {} is too small: even [min, max] covers the median with only {:.1f}% confidence "
                    "(nominal {:.1f}%)",
                    ordered.size(), 100.0 * plan.achieved, 100.0 * nominal));
    return ci;
  }
  ci.availability = Availability::available();
  ci.lower_rank = plan.lower_rank;
  ci.upper_rank = plan.upper_rank;
  ci.lower = ordered[plan.lower_rank - 1];
  ci.upper = ordered[plan.upper_rank - 1];
  return ci;
}

MedianCI median_ci(std::span<const double> x, double nominal) {
  check_nominal(nominal);
  std::vector<double> work;
  load_finite(x, NanPolicy::raise, SetLabel{}, work);
  const MedianCIPlan plan = plan_median_ci(work.size(), nominal);
  if (plan.ok) {
    const std::array<std::size_t, 2> ranks{plan.lower_rank - 1, plan.upper_rank - 1};
    select_many(work, plan.lower_rank == plan.upper_rank ? std::span(ranks).first(1) : std::span(ranks));
  }
  return median_ci_from(plan, work, nominal);
}

}  // namespace benchreport

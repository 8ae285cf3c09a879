#include "benchreport/stats/welch.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <numeric>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

struct Moments {
  double n, mean, variance;  // variance with n - 1
};

Moments moments(std::span<const double> v) {
  const double n = static_cast<double>(v.size());
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  double ss = 0;
  for (const double x : v) ss += (x - mean) * (x - mean);
  return {n, mean, ss / (n - 1)};
}

}  // namespace

WelchTest welch_test(std::span<const double> a, std::span<const double> b) {
  if (a.size() < 2 || b.size() < 2) throw InputError("Welch t: needs >= 2 values per side");
  const Moments ma = moments(a), mb = moments(b);
  const double va = ma.variance / ma.n, vb = mb.variance / mb.n;
  WelchTest r;
  r.difference = mb.mean - ma.mean;
  r.standard_error = std::sqrt(va + vb);
  r.df = (va + vb) * (va + vb) / (va * va / (ma.n - 1) + vb * vb / (mb.n - 1));
  if (!(r.standard_error > 0)) {
    r.df = ma.n + mb.n - 2;
    r.p_value = r.difference == 0 ? 1 : 0;
    return r;
  }
  const boost::math::students_t_distribution<double> t(r.df);
  r.p_value =
      std::min(1.0, 2 * boost::math::cdf(boost::math::complement(t, std::fabs(r.difference / r.standard_error))));
  return r;
}

}  // namespace benchreport

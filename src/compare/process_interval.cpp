#include "benchreport/compare/process_interval.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/welch.hpp"

namespace benchreport {
namespace {

double mean_of(std::span<const double> v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double var_of(std::span<const double> v, double mean) {
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return ss / static_cast<double>(v.size() - 1);
}

void check_confidence(double confidence) {
  if (!(confidence > 0 && confidence < 1)) throw InputError("t interval: confidence must be in (0, 1)");
}

// Fills statistic, p-value and bounds from estimate, se and df.
LogTInterval finish(LogTInterval r, double confidence) {
  if (r.standard_error > 0 && std::isfinite(r.df) && r.df > 0) {
    const boost::math::students_t_distribution<double> t(r.df);
    r.statistic = r.estimate / r.standard_error;
    r.p_value = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(t, std::fabs(r.statistic))));
    const double q = boost::math::quantile(boost::math::complement(t, (1 - confidence) / 2));
    r.lower = r.estimate - q * r.standard_error;
    r.upper = r.estimate + q * r.standard_error;
  } else {
    // No spread at all: the interval is the point, p = 1 for no change, 0 otherwise.
    r.statistic = r.estimate == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), r.estimate);
    r.p_value = r.estimate == 0 ? 1 : 0;
    r.lower = r.upper = r.estimate;
  }
  return r;
}

}  // namespace

LogTInterval paired_t_interval(std::span<const double> base_logs, std::span<const double> head_logs,
                               double confidence) {
  check_confidence(confidence);
  if (base_logs.size() != head_logs.size() || base_logs.size() < 2) {
    throw InputError("paired t: needs two equal-length sides of >= 2 values");
  }
  std::vector<double> d(base_logs.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = head_logs[i] - base_logs[i];
  LogTInterval r;
  r.method = "paired_t";
  r.estimate = mean_of(d);
  const double k = static_cast<double>(d.size());
  r.standard_error = std::sqrt(var_of(d, r.estimate) / k);
  r.df = k - 1;
  return finish(r, confidence);
}

LogTInterval welch_t_interval(std::span<const double> base_logs, std::span<const double> head_logs,
                              double confidence) {
  check_confidence(confidence);
  const WelchTest w = welch_test(base_logs, head_logs);
  LogTInterval r;
  r.method = "welch_t";
  r.estimate = w.difference;
  r.standard_error = w.standard_error;
  r.df = w.df;
  return finish(r, confidence);
}

LogTInterval mean_t_interval(std::span<const double> values, double confidence) {
  check_confidence(confidence);
  if (values.size() < 2) throw InputError("t interval of a mean: needs >= 2 values");
  LogTInterval r;
  r.method = "one_sample_t";
  r.estimate = mean_of(values);
  const double k = static_cast<double>(values.size());
  r.standard_error = std::sqrt(var_of(values, r.estimate) / k);
  r.df = k - 1;
  return finish(r, confidence);
}

}  // namespace benchreport

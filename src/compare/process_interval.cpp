#include "benchreport/compare/process_interval.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

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

// Two-sided tail and the (1 + confidence)/2 quantile of t_df (the normal when df = inf).
template <class Dist>
void fill_from(LogTInterval& r, const Dist& dist, double confidence, double quantile) {
  r.statistic = r.estimate / r.standard_error;
  r.p_value = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.statistic))));
  const double q =
      std::isfinite(quantile) ? quantile : boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
  r.lower = r.estimate - q * r.standard_error;
  r.upper = r.estimate + q * r.standard_error;
}

// Fills statistic, p-value and bounds from estimate, se and df.
LogTInterval finish(LogTInterval r, double confidence, double quantile = std::numeric_limits<double>::quiet_NaN()) {
  if (r.standard_error > 0 && std::isinf(r.df) && r.df > 0) {
    fill_from(r, boost::math::normal_distribution<double>(), confidence, quantile);
  } else if (r.standard_error > 0 && std::isfinite(r.df) && r.df > 0) {
    fill_from(r, boost::math::students_t_distribution<double>(r.df), confidence, quantile);
  } else {
    // No spread at all: the interval is the point, p = 1 for no change, 0 otherwise.
    r.statistic = r.estimate == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), r.estimate);
    r.p_value = r.estimate == 0 ? 1 : 0;
    r.lower = r.upper = r.estimate;
  }
  return r;
}

}  // namespace

LogTInterval paired_t_interval(std::span<const double> base_logs, std::span<const double> head_logs, double confidence,
                               double variance_floor) {
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
  r.standard_error = std::sqrt(std::max(var_of(d, r.estimate), variance_floor) / k);
  r.df = k - 1;
  return finish(r, confidence);
}

LogTInterval welch_t_interval(std::span<const double> base_logs, std::span<const double> head_logs, double confidence,
                              double variance_floor) {
  check_confidence(confidence);
  const WelchTest w = welch_test(base_logs, head_logs);
  LogTInterval r;
  r.method = "welch_t";
  r.estimate = w.difference;
  r.standard_error = w.standard_error;
  r.df = w.df;
  const double sb = var_of(base_logs, mean_of(base_logs)), sh = var_of(head_logs, mean_of(head_logs));
  if (sb < variance_floor || sh < variance_floor) {  // the timer's grid hides the spread: floor it
    const double kb = static_cast<double>(base_logs.size()), kh = static_cast<double>(head_logs.size());
    const double vb = std::max(sb, variance_floor) / kb, vh = std::max(sh, variance_floor) / kh;
    r.standard_error = std::sqrt(vb + vh);
    r.df = (vb + vh) * (vb + vh) / (vb * vb / (kb - 1) + vh * vh / (kh - 1));
  }
  return finish(r, confidence);
}

ProcessVariance process_variance(std::span<const double> base_logs, std::span<const double> head_logs, bool paired,
                                 double log_median_floor) {
  if (base_logs.size() < 2 || head_logs.size() < 2 || (paired && base_logs.size() != head_logs.size())) {
    throw InputError("process variance: needs >= 2 processes per side (equal counts when paired)");
  }
  ProcessVariance v;
  v.paired = paired;
  const double kb = static_cast<double>(base_logs.size()), kh = static_cast<double>(head_logs.size());
  if (paired) {
    std::vector<double> d(base_logs.size());
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = head_logs[i] - base_logs[i];
    v.estimate = mean_of(d);
    v.variance = std::max(var_of(d, v.estimate), 2 * log_median_floor);
    v.df = kb - 1;
    v.factor = 1 / kb;
    return v;
  }
  const double mb = mean_of(base_logs), mh = mean_of(head_logs);
  v.estimate = mh - mb;
  v.variance =
      std::max(((kb - 1) * var_of(base_logs, mb) + (kh - 1) * var_of(head_logs, mh)) / (kb + kh - 2), log_median_floor);
  v.df = kb + kh - 2;
  v.factor = 1 / kb + 1 / kh;
  return v;
}

LogTInterval t_interval(std::string method, double estimate, double variance, double factor, double df,
                        double confidence, double quantile) {
  check_confidence(confidence);
  LogTInterval r;
  r.method = std::move(method);
  r.estimate = estimate;
  r.standard_error = std::sqrt(variance * factor);
  r.df = df;
  return finish(r, confidence, quantile);
}

double process_variance_floor(double resolution, double level) {
  if (!(resolution > 0) || !(level > 0)) return 0;
  const double rho = resolution / level;
  return rho * rho / 12;
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

#include "benchreport/compare/rollup.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_map>

#include "benchreport/stats/bootstrap.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/core/rng.hpp"

namespace benchreport {

namespace {

double mean_of(std::span<const double> v) { return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }

// Percentile bootstrap of the mean log-ratio, reported on the ratio scale.
void geomean_interval(Rollup& r, std::span<const double> log_ratios, const RollupOptions& o) {
  if (o.resamples < 2) throw InputError("rollup: resamples must be at least 2");
  if (!(o.confidence > 0 && o.confidence < 1)) throw InputError("rollup: confidence must be in (0, 1)");
  Xoshiro256 rng(o.seed);
  const std::size_t n = log_ratios.size();
  std::vector<double> means(static_cast<std::size_t>(o.resamples));
  for (double& m : means) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += log_ratios[rng.below(n)];
    m = sum / static_cast<double>(n);
  }
  std::sort(means.begin(), means.end());
  const double alpha = (1 - o.confidence) / 2;
  r.geomean_lower = std::exp(sorted_quantile(means, alpha));
  r.geomean_upper = std::exp(sorted_quantile(means, 1 - alpha));
}

}  // namespace

Rollup rollup(std::span<const CaseComparison> cases, const RollupOptions& options) {
  if (cases.empty()) throw InputError("rollup: expected at least one case");
  Rollup r;
  r.cases = cases.size();
  std::vector<double> abs_changes, log_ratios;
  for (const auto& c : cases) {
    const double a = std::fabs(c.change);
    abs_changes.push_back(a);
    log_ratios.push_back(c.log_ratio);
    r.cases_at_threshold += a >= options.threshold ? 1 : 0;
    if (a > r.largest_abs_change || r.largest_case.empty()) {
      r.largest_abs_change = a;
      r.largest_change = c.change;
      r.largest_case = c.case_name;
    }
    ++r.verdict_counts[static_cast<std::size_t>(c.verdict)];
    r.p_values.push_back(c.mann_whitney.p_value);
  }
  r.median_abs_change = median(abs_changes);
  r.geomean_ratio = std::exp(mean_of(log_ratios));
  geomean_interval(r, log_ratios, options);
  r.p_bh = adjust_bh(r.p_values);
  r.p_holm = adjust_holm(r.p_values);
  return r;
}

NoiseCalibration calibrate_noise(std::span<const std::string> case_names, std::span<const double> changes,
                                 double minimum_threshold, double factor) {
  if (case_names.size() != changes.size()) throw InputError("calibrate_noise: one case name per change expected");
  if (changes.empty()) throw InputError("calibrate_noise: expected at least one A/A change");
  NoiseCalibration cal;
  std::unordered_map<std::string, std::size_t> index;
  std::vector<double> abs_changes;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (!std::isfinite(changes[i])) {
      throw InputError("calibrate_noise: change of case '" + case_names[i] + "' is not finite");
    }
    const double a = std::fabs(changes[i]);
    abs_changes.push_back(a);
    auto [it, inserted] = index.emplace(case_names[i], cal.cases.size());
    if (inserted) {
      cal.cases.push_back(case_names[i]);
      cal.noise_floor.push_back(a);
      cal.runs.push_back(1);
    } else {
      cal.noise_floor[it->second] = std::max(cal.noise_floor[it->second], a);
      ++cal.runs[it->second];
    }
  }
  std::sort(abs_changes.begin(), abs_changes.end());
  cal.p95_abs_change = sorted_quantile(abs_changes, 0.95);
  cal.suggested_threshold = std::max(minimum_threshold, factor * cal.p95_abs_change);
  return cal;
}

NoiseCalibration calibrate_noise(std::span<const CaseComparison> aa_comparisons, double minimum_threshold,
                                 double factor) {
  std::vector<std::string> names;
  std::vector<double> changes;
  for (const auto& c : aa_comparisons) {
    names.push_back(c.case_name);
    changes.push_back(c.change);
  }
  return calibrate_noise(names, changes, minimum_threshold, factor);
}

}  // namespace benchreport

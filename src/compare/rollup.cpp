#include "benchreport/compare/rollup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_map>

#include "benchreport/compare/process_interval.hpp"
#include <limits>
#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/core/rng.hpp"

namespace benchreport {

namespace {

double mean_of(std::span<const double> v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// t-interval of the mean log ratio over cases, reported on the ratio scale.
void geomean_interval(Rollup& r, std::span<const double> log_ratios, const RollupOptions& o) {
  if (!(o.confidence > 0 && o.confidence < 1)) throw InputError("rollup: confidence must be in (0, 1)");
  if (log_ratios.size() < 2) {
    r.geomean_lower = r.geomean_upper = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const LogTInterval t = mean_t_interval(log_ratios, o.confidence);
  r.geomean_lower = std::exp(t.lower);
  r.geomean_upper = std::exp(t.upper);
}

}  // namespace

Rollup rollup(std::span<const CaseComparison> cases, const RollupOptions& options) {
  return rollup(pointers_to(cases), options);
}

Rollup rollup(std::span<const CaseComparison* const> cases, const RollupOptions& options) {
  if (cases.empty()) throw InputError("rollup: expected at least one case");
  Rollup r;
  r.cases = cases.size();
  std::vector<double> abs_changes, log_ratios;
  for (const CaseComparison* each : cases) {
    const CaseComparison& c = *each;
    if (is_one_sided(c.verdict)) {
      throw InputError(
          fmt::format("rollup: case \"{}\" was measured on one side only ({})", c.case_name, to_string(c.verdict)));
    }
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
    r.p_values.push_back(c.p_value);
  }
  r.median_abs_change = median(abs_changes);
  r.geomean_ratio = std::exp(mean_of(log_ratios));
  geomean_interval(r, log_ratios, options);
  // Adjust the finite p-values (exact-unit cases and hand-built results have NaN); NaN stays NaN.
  std::vector<double> finite;
  for (double p : r.p_values) {
    if (std::isfinite(p)) finite.push_back(p);
  }
  const std::vector<double> bh = adjust_bh(finite), holm = adjust_holm(finite);
  r.p_bh.assign(r.p_values.size(), std::numeric_limits<double>::quiet_NaN());
  r.p_holm = r.p_bh;
  for (std::size_t i = 0, j = 0; i < r.p_values.size(); ++i) {
    if (!std::isfinite(r.p_values[i])) continue;
    r.p_bh[i] = bh[j];
    r.p_holm[i] = holm[j++];
  }
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
  return calibrate_noise(pointers_to(aa_comparisons), minimum_threshold, factor);
}

NoiseCalibration calibrate_noise(std::span<const CaseComparison* const> aa_comparisons, double minimum_threshold,
                                 double factor) {
  std::vector<std::string> names;
  std::vector<double> changes;
  for (const CaseComparison* c : aa_comparisons) {
    names.push_back(c->case_name);
    changes.push_back(c->change);
  }
  return calibrate_noise(names, changes, minimum_threshold, factor);
}

}  // namespace benchreport

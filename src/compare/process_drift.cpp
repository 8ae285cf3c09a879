#include "benchreport/compare/process_drift.hpp"

#include <cmath>
#include <vector>

#include "benchreport/stats/drift.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

// A process's monotonic trend counts when Mann–Kendall is significant and points the way the window change does.
bool trend_agrees(const Drift& d, double side_change) {
  if (!d.mann_kendall_availability.ok || !(d.mann_kendall_p < kDriftTrendAlpha)) return false;
  return (d.mann_kendall_s > 0) == (side_change > 0);
}

}  // namespace

ProcessDrift process_drift(std::span<const std::span<const double>> processes, std::size_t k, double trend_limit) {
  std::vector<double> changes;
  std::vector<double> scratch;
  std::vector<std::span<const double>> available;
  for (const auto samples : processes) {
    Drift d;
    drift_change(samples, k, scratch, d);
    if (!d.change_availability.ok) continue;
    changes.push_back(d.change);
    available.push_back(samples);
  }
  ProcessDrift out;
  out.processes = changes.size();
  if (changes.empty()) return out;
  out.median_change = median_inplace(changes);
  if (std::abs(out.median_change) < trend_limit) return out;
  std::size_t agreeing = 0;
  for (const auto samples : available) {
    Drift d;
    mann_kendall(samples, scratch, d);
    agreeing += trend_agrees(d, out.median_change) ? 1 : 0;
  }
  out.trend_significant = 2 * agreeing > available.size();
  return out;
}

}  // namespace benchreport

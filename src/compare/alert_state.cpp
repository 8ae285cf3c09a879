// Alert states of a series' change points (docs/statistics-history.md, "Alert states").
#include "benchreport/compare/alert_state.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

// Median with the two middle values averaged as (a + b) / 2, numpy.median's
// rounding: the states stay those the store recorded before this was C++.
double segment_median(std::span<const double> values) {
  if (values.empty()) return std::nan("");  // compares as nearer neither level
  std::vector<double> work(values.begin(), values.end());
  const std::size_t hi = work.size() / 2;
  std::nth_element(work.begin(), work.begin() + static_cast<std::ptrdiff_t>(hi), work.end());
  if (work.size() % 2 == 1) return work[hi];
  return walsh_average(*std::max_element(work.begin(), work.begin() + static_cast<std::ptrdiff_t>(hi)), work[hi]);
}

bool nearer_old(double level, const ChangePoint& cp) {
  if (cp.relative) return std::fabs(std::log(level / cp.before)) < std::fabs(std::log(level / cp.after));
  return std::fabs(level - cp.before) < std::fabs(level - cp.after);
}

}  // namespace

std::string_view alert_state_name(AlertState state) {
  switch (state) {
    case AlertState::fresh: return "new";
    case AlertState::confirmed: return "confirmed";
    case AlertState::acknowledged: return "acknowledged";
    case AlertState::resolved: return "resolved";
  }
  return "new";
}

std::vector<AlertState> alert_states(std::span<const double> values, std::span<const ChangePoint> change_points,
                                     std::size_t confirm_after, const std::vector<bool>& acknowledged) {
  if (confirm_after == 0) throw InputError("confirm_after is 0: it must be at least 1");
  const std::size_t n = change_points.size();
  if (!acknowledged.empty() && acknowledged.size() != n) {
    throw InputError(
        fmt::format("alert states: {} acknowledgement flags for {} change points", acknowledged.size(), n));
  }
  // Segment s is [bounds[s], bounds[s + 1]); change point k starts segment k + 1.
  std::vector<std::size_t> bounds{0};
  for (const ChangePoint& cp : change_points) {
    if (cp.index < bounds.back() || cp.index > values.size()) {
      throw InputError(fmt::format("alert states: change point at {} is outside the series of {} values or before {}",
                                   cp.index, values.size(), bounds.back()));
    }
    bounds.push_back(cp.index);
  }
  bounds.push_back(values.size());
  std::vector<double> medians(n + 1);
  for (std::size_t s = 0; s <= n; ++s)
    medians[s] = segment_median(values.subspan(bounds[s], bounds[s + 1] - bounds[s]));
  std::vector<AlertState> states(n);
  for (std::size_t k = 0; k < n; ++k) {
    const bool resolved = std::any_of(medians.begin() + static_cast<std::ptrdiff_t>(k + 2), medians.end(),
                                      [&](double m) { return nearer_old(m, change_points[k]); });
    // Commits after the change point's own on its new level (none when its segment is empty; confirm_after >= 1).
    const std::size_t after = bounds[k + 2] > bounds[k + 1] ? bounds[k + 2] - bounds[k + 1] - 1 : 0;
    AlertState state = after >= confirm_after ? AlertState::confirmed : AlertState::fresh;
    if (resolved) {
      state = AlertState::resolved;
    } else if (!acknowledged.empty() && acknowledged[k]) {
      state = AlertState::acknowledged;
    }
    states[k] = state;
  }
  return states;
}

}  // namespace benchreport

// Optimal partitioning (squared-error cost, a penalty per change) with PELT pruning.
#include "benchreport/stats/pelt.hpp"

#include <limits>
#include <vector>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

// Sums of x and x^2 over prefixes, for the cost of any segment in O(1). The
// caller centres and scales x (steps.cpp), so plain doubles keep the cost accurate.
struct PrefixSums {
  std::vector<double> s, s2;
  explicit PrefixSums(std::span<const double> x) : s(x.size() + 1, 0.0), s2(x.size() + 1, 0.0) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      s[i + 1] = s[i] + x[i];
      s2[i + 1] = s2[i] + x[i] * x[i];
    }
  }
  // Sum of squared deviations from the mean of x[a, b); never negative.
  double cost(std::size_t a, std::size_t b) const {
    const double sum = s[b] - s[a];
    const double c = (s2[b] - s2[a]) - sum * sum / static_cast<double>(b - a);
    return c > 0 ? c : 0.0;
  }
};

}  // namespace

std::vector<std::size_t> pelt_mean_changes(std::span<const double> x, double penalty, std::size_t min_segment) {
  if (!(penalty >= 0) || min_segment < 1) throw InputError("pelt: penalty must be >= 0 and min_segment >= 1");
  const std::size_t n = x.size();
  if (n < 2 * min_segment) return {};
  const PrefixSums sums(x);
  // best[t]: least cost of x[0, t) plus penalty per segment (so best[0] = -penalty); last[t]: its last start.
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> last(n + 1, 0);
  best[0] = -penalty;
  // Admissible starts kept by the pruning, ascending, each with the time from which it is dropped:
  // a start s with best[s] + cost(s, t) > best[t] can never beat t as the last start of any T >= t +
  // min_segment (C(s, T) >= C(s, t) + C(t, T)); before then t is not yet admissible, so s stays.
  struct Start {
    std::size_t at, dropped_from;
  };
  constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();
  std::vector<Start> starts;
  std::vector<double> through;  // best[s] + cost(s, t) of each start
  for (std::size_t t = min_segment; t <= n; ++t) {
    if (t - min_segment == 0 || t - min_segment >= min_segment) starts.push_back({t - min_segment, kNever});
    std::erase_if(starts, [t](const Start& s) { return s.dropped_from <= t; });
    through.resize(starts.size());
    double least = std::numeric_limits<double>::infinity();
    std::size_t arg = 0;
    for (std::size_t k = 0; k < starts.size(); ++k) {
      through[k] = best[starts[k].at] + sums.cost(starts[k].at, t);
      if (through[k] + penalty < least) {  // strict: the earliest start wins a tie
        least = through[k] + penalty;
        arg = starts[k].at;
      }
    }
    best[t] = least;
    last[t] = arg;
    for (std::size_t k = 0; k < starts.size(); ++k) {
      if (through[k] > least && starts[k].dropped_from == kNever) starts[k].dropped_from = t + min_segment;
    }
  }
  std::vector<std::size_t> out;
  for (std::size_t t = last[n]; t > 0; t = last[t]) out.push_back(t);
  return {out.rbegin(), out.rend()};
}

}  // namespace benchreport

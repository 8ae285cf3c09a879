// Change points per series: significant E-divisive splits, filtered by
// magnitude, with segment medians and log-scale t intervals.
#include "benchreport/compare/history.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "benchreport/compare/process_interval.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

double segment_median(std::span<const double> values, std::size_t begin, std::size_t end) {
  return median(values.subspan(begin, end - begin));
}

bool worse(double change, Direction direction) {
  return direction == Direction::lower_is_better ? change > 0 : change < 0;
}

// Drops the smallest split below min_magnitude until none is left (segments merge).
void drop_small(std::span<const double> values, std::vector<EDivisiveSplit>& splits, double min_magnitude) {
  for (;;) {
    std::size_t smallest = splits.size();
    double smallest_size = min_magnitude;
    for (std::size_t i = 0; i < splits.size(); ++i) {
      const std::size_t begin = i == 0 ? 0 : splits[i - 1].index;
      const std::size_t end = i + 1 == splits.size() ? values.size() : splits[i + 1].index;
      const double size = std::abs(segment_median(values, splits[i].index, end) /
                                   segment_median(values, begin, splits[i].index) - 1.0);
      if (size < smallest_size) {
        smallest_size = size;
        smallest = i;
      }
    }
    if (smallest == splits.size()) return;
    splits.erase(splits.begin() + static_cast<std::ptrdiff_t>(smallest));
  }
}

std::vector<double> logs(std::span<const double> values, std::size_t begin, std::size_t end) {
  std::vector<double> out;
  out.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) out.push_back(std::log(values[i]));
  return out;
}

// Permutation stream of a case from its key (FNV-1a 64 of the joined key), so
// a case's result does not depend on which other cases are analysed with it.
std::uint64_t key_stream(const std::vector<std::string>& key) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : join_key(key)) h = (h ^ c) * 1099511628211ULL;
  return h;
}

}  // namespace

SeriesChanges series_changes(std::span<const double> values, Direction direction, const ChangePointOptions& options,
                             std::uint64_t stream) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!(values[i] > 0) || !std::isfinite(values[i])) {
      throw InputError(fmt::format("history: commit summary {} at position {} is not a positive finite number",
                                   values[i], i));
    }
  }
  std::vector<EDivisiveSplit> splits = e_divisive(values, options.detect, stream);
  drop_small(values, splits, options.min_magnitude);
  SeriesChanges out;
  std::vector<std::size_t> bounds{0};
  for (const auto& s : splits) bounds.push_back(s.index);
  bounds.push_back(values.size());
  for (std::size_t i = 0; i < splits.size(); ++i) {
    ChangePoint cp;
    cp.index = cp.commit = splits[i].index;
    cp.before = segment_median(values, bounds[i], bounds[i + 1]);
    cp.after = segment_median(values, bounds[i + 1], bounds[i + 2]);
    cp.change = cp.after / cp.before - 1.0;
    cp.lower = cp.upper = std::numeric_limits<double>::quiet_NaN();
    if (bounds[i + 1] - bounds[i] >= 2 && bounds[i + 2] - bounds[i + 1] >= 2) {
      const LogTInterval t = welch_t_interval(logs(values, bounds[i], bounds[i + 1]),
                                              logs(values, bounds[i + 1], bounds[i + 2]), options.confidence);
      cp.lower = std::expm1(t.lower);
      cp.upper = std::expm1(t.upper);
    }
    cp.p_value = splits[i].p_value;
    cp.permuted = splits[i].permuted;
    cp.q = splits[i].q;
    cp.regression = worse(cp.change, direction);
    out.change_points.push_back(cp);
  }
  if (values.empty()) return out;
  const double first = segment_median(values, bounds[0], bounds[1]);
  const std::size_t segments = bounds.size() - 1;
  out.latest_change = segment_median(values, bounds[segments - 1], bounds[segments]) / first - 1.0;
  // Walk back from the latest segment while each is worse than the first by more than the threshold.
  std::size_t since = segments;
  while (since > 1) {
    const double change = segment_median(values, bounds[since - 1], bounds[since]) / first - 1.0;
    if (!worse(change, direction) || std::abs(change) <= options.threshold) break;
    --since;
  }
  if (since < segments) out.regressed_since = bounds[since];
  return out;
}

HistoryAnalysis analyze_history(History history, const ChangePointOptions& options) {
  HistoryAnalysis out;
  out.options = options;
  out.changes.resize(history.series.size());
  run_indexed(history.series.size(), options.threads, [&](std::size_t i) {
    const Series& s = history.series[i];
    try {
      SeriesChanges c = series_changes(s.values, s.direction, options, key_stream(s.key));
      for (auto& cp : c.change_points) cp.commit = s.commits[cp.index];
      if (c.regressed_since) c.regressed_since = s.commits[*c.regressed_since];
      out.changes[i] = std::move(c);
    } catch (const InputError& e) {
      throw InputError(fmt::format("case {}: {}", join_key(s.key), e.what()));
    }
  });
  out.history = std::move(history);
  return out;
}

std::vector<CommitMoves> commits_moving_cases(const HistoryAnalysis& analysis) {
  std::vector<CommitMoves> per_commit(analysis.history.commits.size());
  for (std::size_t c = 0; c < per_commit.size(); ++c) per_commit[c].commit = c;
  for (const auto& changes : analysis.changes) {
    for (const auto& cp : changes.change_points) (cp.regression ? per_commit[cp.commit].regressions : per_commit[cp.commit].improvements) += 1;
  }
  std::vector<CommitMoves> out;
  for (const auto& m : per_commit) {
    if (m.regressions + m.improvements > 0) out.push_back(m);
  }
  std::stable_sort(out.begin(), out.end(), [](const CommitMoves& a, const CommitMoves& b) {
    return a.regressions + a.improvements > b.regressions + b.improvements;
  });
  return out;
}

}  // namespace benchreport

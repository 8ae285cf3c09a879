// Change points per series: steps (default) or significant E-divisive splits,
// filtered by magnitude, with segment medians and t intervals (log scale when
// every value is positive, else absolute).
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

// after / before - 1, or after - before when the series has a value <= 0.
double change_of(double before, double after, bool relative) {
  return relative ? after / before - 1.0 : after - before;
}

// Drops the smallest split below min_magnitude until none is left (segments merge).
void drop_small(std::span<const double> values, std::vector<EDivisiveSplit>& splits, double min_magnitude) {
  for (;;) {
    std::size_t smallest = splits.size();
    double smallest_size = min_magnitude;
    for (std::size_t i = 0; i < splits.size(); ++i) {
      const std::size_t begin = i == 0 ? 0 : splits[i - 1].index;
      const std::size_t end = i + 1 == splits.size() ? values.size() : splits[i + 1].index;
      const double size =
          std::abs(segment_median(values, splits[i].index, end) / segment_median(values, begin, splits[i].index) - 1.0);
      if (size < smallest_size) {
        smallest_size = size;
        smallest = i;
      }
    }
    if (smallest == splits.size()) return;
    splits.erase(splits.begin() + static_cast<std::ptrdiff_t>(smallest));
  }
}

// Logs (relative) or the values times 2^-exponent (absolute: no overflow in the t interval's squares).
std::vector<double> interval_input(std::span<const double> values, std::size_t begin, std::size_t end, bool relative,
                                   int exponent) {
  std::vector<double> out;
  out.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i)
    out.push_back(relative ? std::log(values[i]) : std::ldexp(values[i], -exponent));
  return out;
}

// The exponent e of 2^e >= max |x| (0 for an all-zero series).
int scale_exponent(std::span<const double> values) {
  double largest = 0;
  for (double v : values) largest = std::max(largest, std::abs(v));
  int e = 0;
  std::frexp(largest, &e);
  return e;
}

// The change points of the chosen method, as splits (index, p, permuted, q).
std::vector<EDivisiveSplit> find_splits(std::span<const double> values, const ChangePointOptions& options,
                                        std::uint64_t stream, int exponent, bool relative) {
  if (options.method == ChangeMethod::steps) {
    // A step's size is its fitted jump (on a trend the segment medians need not differ): kept when
    // |step| / median(segment before it) >= min_magnitude (relative series), left to right; a
    // change of spread alone (spread_ratio != 1) is kept as found.
    std::vector<EDivisiveSplit> out;
    for (const StepChange& c : detect_steps(values, options.steps)) {
      const std::size_t begin = out.empty() ? 0 : out.back().index;
      const bool small = std::abs(c.step) < options.min_magnitude * segment_median(values, begin, c.index);
      if (relative && c.spread_ratio == 1 && small) continue;  // a change of spread has no step to measure
      out.push_back({c.index, c.z, c.p_value, false});
    }
    return out;
  }
  // E-divisive on the values times a power of two (exact): its Welch screen squares variances.
  std::vector<double> scaled(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) scaled[i] = std::ldexp(values[i], -exponent);
  std::vector<EDivisiveSplit> out = e_divisive(scaled, options.detect, stream);
  for (auto& split : out) split.q = std::ldexp(split.q, exponent);  // q is linear in the values
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
  bool relative = true;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw InputError(fmt::format("history: commit summary {} at position {} is not a finite number", values[i], i));
    }
    relative = relative && values[i] > 0;
  }
  const int exponent = scale_exponent(values);
  std::vector<EDivisiveSplit> splits = find_splits(values, options, stream, exponent, relative);
  if (relative && options.method == ChangeMethod::e_divisive) drop_small(values, splits, options.min_magnitude);
  SeriesChanges out;
  out.relative = relative;
  std::vector<std::size_t> bounds{0};
  for (const auto& s : splits) bounds.push_back(s.index);
  bounds.push_back(values.size());
  for (std::size_t i = 0; i < splits.size(); ++i) {
    ChangePoint cp;
    cp.index = cp.commit = splits[i].index;
    cp.before = segment_median(values, bounds[i], bounds[i + 1]);
    cp.after = segment_median(values, bounds[i + 1], bounds[i + 2]);
    cp.relative = relative;
    cp.change = change_of(cp.before, cp.after, relative);
    cp.lower = cp.upper = std::numeric_limits<double>::quiet_NaN();
    if (bounds[i + 1] - bounds[i] >= 2 && bounds[i + 2] - bounds[i + 1] >= 2) {
      const LogTInterval t = welch_t_interval(interval_input(values, bounds[i], bounds[i + 1], relative, exponent),
                                              interval_input(values, bounds[i + 1], bounds[i + 2], relative, exponent),
                                              options.confidence);
      cp.lower = relative ? std::expm1(t.lower) : std::ldexp(t.lower, exponent);
      cp.upper = relative ? std::expm1(t.upper) : std::ldexp(t.upper, exponent);
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
  out.latest_change = change_of(first, segment_median(values, bounds[segments - 1], bounds[segments]), relative);
  // Walk back from the latest segment while each is worse than the first by more than the threshold
  // (relative), or at all (absolute: segments differ only at the change points found).
  const double threshold = relative ? options.threshold : 0.0;
  std::size_t since = segments;
  while (since > 1) {
    const double change = change_of(first, segment_median(values, bounds[since - 1], bounds[since]), relative);
    if (!worse(change, direction) || std::abs(change) <= threshold) break;
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
    for (const auto& cp : changes.change_points)
      (cp.regression ? per_commit[cp.commit].regressions : per_commit[cp.commit].improvements) += 1;
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

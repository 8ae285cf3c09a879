#pragma once
// Change points of every series of a History: by default the steps of the
// per-commit summaries (stats/steps.hpp: a step against a local trend), or
// E-divisive splits kept when significant (ChangeMethod::e_divisive); then
// those at least min_magnitude in size, each with its segment medians and a
// t-interval on the (log) summaries of the two adjacent segments;
// direction-aware; threads over cases (docs/statistics-history.md).
#include <cstddef>
#include <optional>
#include <vector>

#include "benchreport/compare/series.hpp"
#include "benchreport/stats/edivisive.hpp"
#include "benchreport/stats/steps.hpp"

namespace benchreport {

// How change points are found: steps against a local trend (the default), or
// E-divisive means with permutation tests (Matteson & James 2014; Otava's method).
enum class ChangeMethod { steps, e_divisive };

struct ChangePointOptions {
  ChangeMethod method = ChangeMethod::steps;
  StepOptions steps;
  // Splits are kept at p <= 0.02 (e_divisive's own default is 0.05): a long
  // history runs one test per split found, and at 0.02 bench/bench_history.py
  // finds the same shifts with fewer false ones (docs/statistics-history.md).
  EDivisiveOptions detect{.max_p_value = 0.02};
  // Changes whose |after / before - 1| (segment medians) is below this are
  // dropped, smallest first, merging the two segments (relative changes only:
  // a series with a value <= 0 has absolute changes, and no such floor).
  double min_magnitude = 0.01;
  double confidence = 0.95;  // of the interval of each change
  // "Still regressed": the latest segment worse than the first by more than this.
  double threshold = 0.05;
  unsigned threads = 0;  // over cases; 0 = one per usable CPU (same results)
};

struct ChangePoint {
  std::size_t index = 0;         // position in the series: first commit of the new segment
  std::size_t commit = 0;        // index into History::commits
  double before = 0, after = 0;  // medians of the adjacent segments' commit summaries
  // after / before - 1 when `relative`; after - before (base unit) otherwise
  double change = 0;
  // Relative: every summary of the series is > 0; otherwise (a zero or negative
  // value: counters, deltas, scores) the change and its interval are absolute.
  bool relative = true;
  // Relative: exp(Welch t interval of mean log after - mean log before) - 1;
  // absolute: Welch t interval of mean after - mean before. NaN when a segment
  // has a single commit.
  double lower = 0, upper = 0;
  // e_divisive: permutation p-value of the split, or the Welch screen's bound;
  // steps: the step test's Bonferroni-adjusted normal p (StepChange::p_value).
  double p_value = 1;
  bool permuted = true;     // false: kept without permutations (the Welch screen, or the steps method)
  double q = 0;             // e_divisive: q of the split; steps: the step's z
  bool regression = false;  // change in the worse direction for the series
};

struct SeriesChanges {
  std::vector<ChangePoint> change_points;
  // Set when the latest segment is worse than the first by more than the
  // threshold: the commit (History::commits index) since which every segment was.
  std::optional<std::size_t> regressed_since;
  double latest_change = 0;  // latest segment median / first segment median - 1 (relative), or their difference
  bool relative = true;      // false: the series has a value <= 0 and every change is a difference
};

struct HistoryAnalysis {
  History history;
  std::vector<SeriesChanges> changes;  // one per series
  ChangePointOptions options;
};

// Change points of one series of values (per-commit summaries, finite; any sign).
SeriesChanges series_changes(std::span<const double> values, Direction direction, const ChangePointOptions& options,
                             std::uint64_t stream = 0);

// Every series of `history`; a series' permutation stream comes from its case key, so its
// result does not depend on the other cases (or on how cases are split across workers).
HistoryAnalysis analyze_history(History history, const ChangePointOptions& options = {});

// Change points per commit across cases, for the roll-up.
struct CommitMoves {
  std::size_t commit = 0;  // index into History::commits
  std::size_t regressions = 0, improvements = 0;
};
// Commits with at least one change point, most cases moved first (then by commit).
std::vector<CommitMoves> commits_moving_cases(const HistoryAnalysis& analysis);

}  // namespace benchreport

#pragma once
// Change points of every series of a History: E-divisive splits of the
// per-commit summaries, kept when significant and at least min_magnitude in
// size, each with its segment medians and a t-interval on the log summaries of
// the two adjacent segments; direction-aware; threads over cases
// (docs/statistics-history.md).
#include <cstddef>
#include <optional>
#include <vector>

#include "benchreport/compare/series.hpp"
#include "benchreport/stats/edivisive.hpp"

namespace benchreport {

struct ChangePointOptions {
  // Splits are kept at p <= 0.02 (e_divisive's own default is 0.05): a long
  // history runs one test per split found, and at 0.02 bench/bench_history.py
  // finds the same shifts with fewer false ones (docs/statistics-history.md).
  EDivisiveOptions detect{.max_p_value = 0.02};
  // Splits whose |after / before - 1| (segment medians) is below this are
  // dropped, smallest first, merging the two segments.
  double min_magnitude = 0.01;
  double confidence = 0.95;  // of the interval of each change
  // "Still regressed": the latest segment worse than the first by more than this.
  double threshold = 0.05;
  unsigned threads = 0;  // over cases; 0 = one per usable CPU (same results)
};

struct ChangePoint {
  std::size_t index = 0;   // position in the series: first commit of the new segment
  std::size_t commit = 0;  // index into History::commits
  double before = 0, after = 0;  // medians of the adjacent segments' commit summaries
  double change = 0;             // after / before - 1
  // exp(Welch t interval of mean log after - mean log before) - 1; NaN when a
  // segment has a single commit.
  double lower = 0, upper = 0;
  double p_value = 1;  // permutation p-value of the split, or the Welch screen's bound
  bool permuted = true;  // false: kept by the Welch screen without permutations
  double q = 0;
  bool regression = false;  // change in the worse direction for the series
};

struct SeriesChanges {
  std::vector<ChangePoint> change_points;
  // Set when the latest segment is worse than the first by more than the
  // threshold: the commit (History::commits index) since which every segment was.
  std::optional<std::size_t> regressed_since;
  double latest_change = 0;  // latest segment median / first segment median - 1
};

struct HistoryAnalysis {
  History history;
  std::vector<SeriesChanges> changes;  // one per series
  ChangePointOptions options;
};

// Change points of one series of values (per-commit summaries, > 0).
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

#pragma once
// Within-process drift of one side of a comparison, aggregated over its processes:
// the per-process window change is stats/drift.hpp's drift_change; this is the one
// place that takes its median over processes and runs the Mann–Kendall trend test
// behind a drift warning (docs/statistics-comparison.md).
#include <cstddef>
#include <limits>
#include <span>

namespace benchreport {

// Mann–Kendall two-sided significance level for a process's trend.
inline constexpr double kDriftTrendAlpha = 0.05;

struct ProcessDrift {
  double median_change = std::numeric_limits<double>::quiet_NaN();  // median over processes of
                                                                    // median(last k) / median(first k) - 1
  std::size_t processes = 0;       // processes where the window change was available (n >= 2k)
  bool trend_significant = false;  // most of those processes have a significant Mann–Kendall trend
                                   // the same way (tested only when |median_change| >= trend_limit)
};

// `processes`: each process's samples in measurement order. Mann–Kendall runs only when
// |median_change| reaches `trend_limit` (infinity: never): below it the trend flags nothing,
// and on 10^6 samples it is an O(n log n) sort.
ProcessDrift process_drift(std::span<const std::span<const double>> processes, std::size_t k,
                           double trend_limit = std::numeric_limits<double>::infinity());

}  // namespace benchreport

#pragma once
// What a notebook shows for results that have no report of their own (Python's
// benchreport.notebook): one Summary's statistics, and a Dataset's summary table kept to the
// size pandas shows a DataFrame at.
#include <cstddef>
#include <optional>
#include <string>

#include "benchreport/data/dataset.hpp"
#include "benchreport/report/report.hpp"
#include "benchreport/stats/summary.hpp"

namespace benchreport {

// One table (id "summary") of Statistic | Value: n, median, mean, std (ddof 0), CV, MAD,
// MAD / p50 %, IQR, min, max, each quantile, the median CI with its achieved confidence when
// available, and drift (or why it is n/a). Numbers have 6 significant digits; each cell keeps
// the number behind it where there is one.
Report summary_statistics_report(const Summary& summary, std::string title = "Summary");

// A Dataset of more sets than this shows its first and last kDatasetEdgeRows sets only
// (pandas: display.max_rows 60, display.min_rows 10).
inline constexpr std::size_t kDatasetMaxRows = 60;
inline constexpr std::size_t kDatasetEdgeRows = 5;

// The summary preset's report of the dataset (presets/summary.hpp, default options) headed
// "Dataset: <n> sample sets" unless `title` is given; beyond kDatasetMaxRows sets, of its head
// and tail, with a paragraph saying which sets are shown and how to see the rest.
Report dataset_display_report(const Dataset& dataset, const std::optional<std::string>& title = std::nullopt);

}  // namespace benchreport

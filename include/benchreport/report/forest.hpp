#pragma once
// The rows of a forest plot (Python's benchreport.plot.plot_forest): one case's change with its
// interval and verdict, and which cases a plot of limited height shows, in the order drawn.
#include <cstddef>
#include <string>
#include <vector>

#include "benchreport/compare/case.hpp"

namespace benchreport {

struct ForestRow {
  std::string name;
  double change = 0, lower = 0, upper = 0;  // head / base - 1 and its interval
  std::string verdict;                      // "slower", ...; empty when the source has none
};

// A comparison's row: its pooled change, change interval and verdict.
ForestRow forest_row(std::string name, const CaseComparison& c);

// The rows a plot shows: the `max_cases` largest |change| (earlier rows first among equals), sorted
// by change, lowest at the bottom. A NaN change sorts last in both orders, so it is dropped first.
std::vector<ForestRow> forest_shown(std::vector<ForestRow> rows, std::size_t max_cases);

}  // namespace benchreport

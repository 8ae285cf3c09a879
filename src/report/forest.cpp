#include "benchreport/report/forest.hpp"

#include <algorithm>
#include <cmath>

namespace benchreport {
namespace {

// Strict weak order on `key` with NaN after every number (a plain < is not one with NaN).
template <class Key>
auto nan_last(Key key) {
  return [key](const ForestRow& a, const ForestRow& b) {
    const double x = key(a), y = key(b);
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
    return x < y;
  };
}

}  // namespace

ForestRow forest_row(std::string name, const CaseComparison& c) {
  return {std::move(name), c.change, c.change_lower, c.change_upper, std::string(to_string(c.verdict))};
}

std::vector<ForestRow> forest_shown(std::vector<ForestRow> rows, std::size_t max_cases) {
  std::stable_sort(rows.begin(), rows.end(), nan_last([](const ForestRow& r) { return -std::fabs(r.change); }));
  if (rows.size() > max_cases) rows.resize(max_cases);
  std::stable_sort(rows.begin(), rows.end(), nan_last([](const ForestRow& r) { return r.change; }));
  return rows;
}

}  // namespace benchreport

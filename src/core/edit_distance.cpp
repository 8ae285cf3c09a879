#include "benchreport/core/edit_distance.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace benchreport {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the Wagner–Fischer table at a time: memory O(|b|).
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

double normalized_edit_distance(std::string_view a, std::string_view b) {
  const std::size_t longest = std::max(a.size(), b.size());
  return longest == 0 ? 0.0 : static_cast<double>(edit_distance(a, b)) / static_cast<double>(longest);
}

}  // namespace benchreport

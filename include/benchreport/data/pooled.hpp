#pragma once
// Sample sets pooled by label columns (Dataset.summarize(by=...)): the sets
// of each group concatenated in set order, in the unit of the group's first
// set (a set in another unit is converted through base units, x * f / f0).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "benchreport/data/dataset.hpp"

namespace benchreport {

struct PooledSets {
  std::vector<double> values;                  // group after group, in CSR order
  std::vector<std::int64_t> offsets;           // n_groups + 1
  std::vector<std::size_t> first_set;          // whose unit each group is in
  std::vector<std::vector<std::string>> keys;  // one value per column ("" where absent)
};

// Groups in first-appearance order (Dataset::group_by).
PooledSets pool_by(const Dataset& ds, std::span<const std::string> columns);

}  // namespace benchreport

// Sets pooled by label columns in each group's first unit (data/pooled.hpp).
#include "benchreport/data/pooled.hpp"

namespace benchreport {

PooledSets pool_by(const Dataset& ds, std::span<const std::string> columns) {
  PooledSets out;
  out.offsets.push_back(0);
  for (Group& group : ds.group_by(columns)) {
    const std::size_t first = group.sets.front();
    const double f0 = ds.unit(first).to_base;
    for (std::size_t set : group.sets) {
      const double f = ds.unit(set).to_base;
      for (double x : ds.samples(set)) out.values.push_back(f == f0 ? x : x * f / f0);  // as read when units agree
    }
    out.offsets.push_back(static_cast<std::int64_t>(out.values.size()));
    out.first_set.push_back(first);
    out.keys.push_back(std::move(group.key));
  }
  return out;
}

}  // namespace benchreport

#include "benchreport/cli/load.hpp"

#include <set>

#include "benchreport/core/error.hpp"
#include "benchreport/data/dataset.hpp"

namespace benchreport::cli {

void load_sources(const std::vector<Source>& sources, InputBudget& budget, Progress& progress, const ReadSource& read) {
  try {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      progress.update(i, sources[i].name);
      const ReadLimits limits = budget.limits();
      budget.before(sources[i]);
      std::uint64_t samples = 0;
      try {
        samples = read(sources[i], limits);
      } catch (const InputError& error) {
        throw InputError(budget.explain(error.what()));
      }
      budget.after(sources[i], samples);
    }
    progress.update(sources.size());
  } catch (...) {
    progress.close();
    throw;
  }
  progress.close();
}

bool needs_file_column(const std::vector<const Dataset*>& parts) {
  if (parts.size() < 2) return false;
  std::set<Labels> seen;
  for (const Dataset* part : parts) {
    std::set<Labels> keys;
    for (std::size_t i = 0; i < part->n_sets(); ++i) {
      Labels labels = part->labels(i);
      std::sort(labels.begin(), labels.end());
      keys.insert(std::move(labels));
    }
    for (const Labels& key : keys)
      if (seen.contains(key)) return true;
    seen.insert(keys.begin(), keys.end());
  }
  return false;
}

}  // namespace benchreport::cli

#pragma once
// The stored runs of each case, read from a store's runs as one Dataset: what
// the launch noise of a case (stats/launch_noise.hpp) is estimated from.
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/data/dataset.hpp"

namespace benchreport {

// One case's runs in branch order: (commit, median of each process's samples).
struct CaseRuns {
  std::string name;  // the case's `by` values joined by " / ", as a comparison names it
  std::vector<std::pair<std::string, std::vector<double>>> runs;
};

// Per case of `history` (in order of first appearance), its runs among
// `run_order` (values of the "run" label; other runs are left out) in that
// order, each with its commit and the median (base units) of every process:
// sets sharing a "process" (else "pair") label are one process, as in a
// comparison; a set with neither is a process of its own. Empty when a `by`
// column, "run" or "commit" is not a label of `history`.
std::vector<CaseRuns> stored_runs(const Dataset& history, std::span<const std::string> by,
                                  std::span<const std::string> run_order);

}  // namespace benchreport

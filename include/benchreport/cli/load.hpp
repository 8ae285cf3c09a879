#pragma once
// Every input of a command read in the order given, under one InputBudget,
// with a progress bar; and how the datasets of several inputs are joined.
#include <cstdint>
#include <functional>
#include <vector>

#include "benchreport/cli/budget.hpp"
#include "benchreport/cli/inputs.hpp"
#include "benchreport/cli/progress.hpp"

namespace benchreport {
class Dataset;
}

namespace benchreport::cli {

// Reads one source within the limits and keeps the result; returns the
// number of samples it held. Throws InputError for bad input.
using ReadSource = std::function<std::uint64_t(const Source&, const ReadLimits&)>;

// Reads each source in order: the bar advances before each read, the budget
// checks bytes before and samples after; a reader's limit error is rethrown
// naming the option (InputBudget::explain). The bar is erased on every exit.
void load_sources(const std::vector<Source>& sources, InputBudget& budget, Progress& progress, const ReadSource& read);

// Whether the inputs' sets repeat one another's labels (base.json and
// head.json of one suite), so that a `file` label must tell their rows apart.
bool needs_file_column(const std::vector<const Dataset*>& parts);

}  // namespace benchreport::cli

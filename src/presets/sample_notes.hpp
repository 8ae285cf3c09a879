#pragma once
// Internal: what one sample is for each tool whose files a report shows, said
// once per report (a hyperfine sample is a whole command run, a Google
// Benchmark sample a repetition's per-iteration mean, ...). Not installed.
#include <string>

#include "benchreport/data/dataset.hpp"

namespace benchreport {

// "What one sample is — hyperfine: one whole run of the command; pyperf: ...",
// one clause per tool of the dataset's runs in first-seen order; "" when no
// run records its reader (canonical JSON/CSV inputs, datasets built in code).
std::string sample_footnote(const Dataset& dataset);

}  // namespace benchreport

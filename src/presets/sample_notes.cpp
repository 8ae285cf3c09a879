#include "sample_notes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

namespace benchreport {
namespace {

// Reader name → display name and what one of its samples is.
struct ToolSample {
  std::string_view format, tool, sample;
};

constexpr std::array<ToolSample, 9> kToolSamples{{
    {"google-benchmark", "Google Benchmark",
     "one repetition's mean time per iteration (--benchmark_repetitions=N gives N samples)"},
    {"hyperfine", "hyperfine", "one whole run of the command"},
    {"pyperf", "pyperf", "one value of a worker process (the mean of that value's loops)"},
    {"pytest-benchmark", "pytest-benchmark", "one round (the mean of that round's iterations)"},
    {"go", "Go", "one result line of go test -bench -count=N (ns/op averaged over b.N iterations)"},
    {"nitro", "Nitro", "one entry of samplesNsPerOp (a timed chunk's ns per operation)"},
    {"criterion", "criterion", "one measurement's time per iteration (a batch's time ÷ its iteration count)"},
    {"zfh", "ZFH", "one entry of samplesMs (one timed run)"},
    {"bmf", "Bencher Metric Format", "the one value a benchmark reports (no raw samples)"},
}};

}  // namespace

std::string sample_footnote(const Dataset& dataset) {
  std::vector<std::string_view> seen;
  std::vector<std::string> clauses;
  for (const Run& run : dataset.runs()) {
    if (std::find(seen.begin(), seen.end(), run.format) != seen.end()) continue;
    seen.push_back(run.format);
    const auto it = std::find_if(kToolSamples.begin(), kToolSamples.end(),
                                 [&](const ToolSample& t) { return t.format == run.format; });
    if (it != kToolSamples.end()) clauses.push_back(fmt::format("{}: {}", it->tool, it->sample));
  }
  if (clauses.empty()) return {};
  return fmt::format("What one sample is \u2014 {}.", fmt::join(clauses, "; "));
}

}  // namespace benchreport

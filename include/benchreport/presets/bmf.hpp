#pragma once
// Bencher Metric Format (BMF) JSON out (https://bencher.dev/docs/reference/bencher-metric-format/):
// per benchmark, one measure object per kind of figure, with value = the
// median of the pooled samples and lower_value / upper_value = its
// distribution-free confidence interval (docs/statistics-summary.md). The
// reader of the same format is io's "bmf" reader (benchreport/io/read.hpp).
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "benchreport/compare/dataset.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_roles.hpp"

namespace benchreport {

struct BmfOptions {
  // Label columns whose values, joined with " / ", name a benchmark; empty =
  // every label column except `exclude` and "metric". Sets with the same name
  // and measure are pooled (several processes of one case give one figure).
  std::vector<std::string> by;
  // Columns never part of a name: the side and per-process labels.
  std::vector<std::string> exclude = process_labels({kSideLabel});
  // Nominal confidence of lower_value / upper_value.
  double confidence = 0.95;
};

// Measure of a set: "latency" (times, value in ns), "throughput" (operations
// per second, ops/s); any other set is measured by its "metric" label (or its
// dimension name when it has none), in its base unit (docs/formats.md).
// When two metrics of one benchmark share a measure (Google Benchmark's
// real_time and cpu_time are both latencies), the metric joins the name.
//
// A set of one sample that carries lower_value / upper_value in its metadata
// (what the BMF reader makes) keeps those bounds, so BMF → Dataset → BMF
// gives back the same numbers. Bounds are omitted when the CI is unavailable
// (too few samples for the confidence).
//
// Throws InputError on an empty dataset or when `by` names a missing column.
Json bmf_json(const Dataset& dataset, const BmfOptions& options = {});

// bmf_json pretty-printed (2 spaces), with a final newline.
void write_bmf(const Dataset& dataset, std::ostream& out, const BmfOptions& options = {});

// One side of a base -> head comparison as BMF text: the sets whose `side_column` label is
// `side_value` and that carry `labels`, named by `by` less the columns of `labels` (each of those
// has one value there, so it names nothing); nullopt when no set matches.
std::optional<std::string> side_bmf(const Dataset& dataset, const std::string& side_column,
                                    const std::string& side_value, const Labels& labels,
                                    const std::vector<std::string>& by, double confidence);

struct BmfFile {
  std::string name, text;
};

// A comparison's BMF files as Nitro names them, per value of the `split` label in sorted order:
// bencher-<value>.json (head) and bencher-base-<value>.json (base); without that label
// bencher.json and bencher-base.json. In a file name each run of characters other than
// A-Z a-z 0-9 . _ - becomes "_", and the empty value is "empty" ("empty_", ... when a value
// "empty" exists too). A side with no sets for a value gets no file.
std::vector<BmfFile> comparison_bmf_files(const Dataset& dataset, const DatasetComparison& comparison,
                                          const std::string& split, double confidence);

}  // namespace benchreport

#pragma once
// The commands of the command line below argparse: each takes the options
// argparse parsed and the caller's I/O, checks the options, reads the inputs,
// runs its preset, writes the report (emit.hpp) and returns the exit code
// (kExitOk, or kExitGate when a --fail-on gate trips). Problems are thrown:
// UsageError, InputError, OutputError (the caller prints one line, exit 2).
// What only the caller can do comes in as callbacks: another way to compare
// (launch noise from a store), the Parquet/Arrow reader of history, the
// packaged example reports of demo.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/cli/command.hpp"
#include "benchreport/cli/gate.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport::cli {

// What compare writes of a comparison: its report, the cases its gate judges, and its BMF files.
struct ComparisonOutcome {
  std::shared_ptr<const Report> report;
  std::vector<GateCase> cases;
  std::function<std::vector<std::pair<std::string, std::string>>()> bmf_files;  // (file name, text)
};
using Compare = std::function<ComparisonOutcome(const Dataset&, const ComparisonReportOptions&)>;

// The comparison preset in this process (compare without --store).
ComparisonOutcome compare_here(const Dataset& dataset, const ComparisonReportOptions& options);

// The gate's view of the compared cases (verdict, key, display name).
std::vector<GateCase> gate_cases(const ComparisonView& view);

// Whether history reads a source with `read_table` (a Parquet or Arrow file) instead of the readers.
bool is_arrow_table(const Source& source);

// history reads Parquet/Arrow files through the caller (pyarrow).
using ReadTable = std::function<std::shared_ptr<const Dataset>(const Source&)>;

// demo's reports by name, made with this many resamples.
using NamedReports = std::vector<std::pair<std::string, std::shared_ptr<const Report>>>;
using DemoReports = std::function<NamedReports(long long resamples)>;

// The file extension of each output format (demo --output-dir).
std::string format_extension(const std::string& format);

int run_summary(const CommandOptions& options, const CommandIo& io);
int run_runners(const CommandOptions& options, const CommandIo& io);
int run_matrix(const CommandOptions& options, const CommandIo& io);
int run_scaling(const CommandOptions& options, const CommandIo& io);
int run_compare(const CommandOptions& options, const CommandIo& io, const Compare& compare = compare_here);
// history from input files (history --store is the store's command).
int run_history(const CommandOptions& options, const CommandIo& io, const ReadTable& read_table);
// One line per input: `ok <name>: ...` on stdout, or `INVALID <problem>` on
// stderr (exit 2) for an input whose read threw ReadProblem.
int run_validate(const CommandOptions& options, const CommandIo& io);
int run_demo(const CommandOptions& options, const CommandIo& io, const DemoReports& reports);

// An input that could not be read, as the one line validate shows for it.
class ReadProblem : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace benchreport::cli

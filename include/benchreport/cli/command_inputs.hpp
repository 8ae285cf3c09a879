#pragma once
// A command's inputs read into one Dataset: expanded (globs, `-`), read in
// order under one InputBudget with a progress bar, the readers' notes shown
// with --verbose, joined, and labelled (--label; --base/--head sides; a
// `file` label where inputs repeat one another's sets).
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchreport/cli/command.hpp"
#include "benchreport/data/dataset.hpp"

namespace benchreport::cli {

using Parts = std::vector<std::shared_ptr<const Dataset>>;

// The budget of --max-samples, --max-input-bytes and the memory limit.
InputBudget input_budget(const CommandOptions& options);

// Each source read (load_sources) with a bar on stderr when it is a terminal.
Parts read_sources(const std::vector<Source>& sources, const CommandOptions& options, const CommandIo& io,
                   InputBudget& budget);

// One part as it is, several appended into a new dataset.
Dataset joined(const Parts& parts);

// The dataset with --label's values set on every set.
Dataset labelled(Dataset dataset, const CommandOptions& options);

// The positional inputs, joined and labelled (runners, matrix, convert, scaling, record).
Dataset load_inputs(const CommandOptions& options, const CommandIo& io);

// As load_inputs, with a `file` label naming each input when their sets repeat one another's (summary).
Dataset load_with_file_column(const CommandOptions& options, const CommandIo& io);

// --base and --head inputs as processes of their side: base-1 pairs with head-1 (label_sides).
Dataset load_sides(const std::vector<std::string>& base, const std::vector<std::string>& head,
                   const std::pair<std::string, std::string>& baseline, const std::string& head_value,
                   const CommandOptions& options, const CommandIo& io, InputBudget& budget);

// What compare and scaling compare: --base/--head, or the positional inputs
// (compare: labelled by `column` already, or OLD NEW; scaling: as they are).
Dataset side_inputs(const CommandOptions& options, const CommandIo& io, std::string_view command);

// The columns of repeatable comma-separated options, after checking that the
// dataset has them and `extra` (a UsageError naming `option` otherwise).
std::vector<std::string> checked_columns(const Dataset& dataset, const std::vector<std::string>& values,
                                         std::string_view option, const std::vector<std::string>& extra = {});

}  // namespace benchreport::cli

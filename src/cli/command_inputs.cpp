#include "benchreport/cli/command_inputs.hpp"

#include <set>

#include "benchreport/cli/load.hpp"
#include "benchreport/cli/options.hpp"
#include "benchreport/cli/usage_error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/data/label_sides.hpp"

namespace benchreport::cli {
namespace {

std::vector<Source> expanded(const std::vector<std::string>& items, const CommandIo& io) {
  return expand_inputs(items, io.read_stdin);
}

std::vector<const Dataset*> pointers(const Parts& parts, std::size_t begin, std::size_t end) {
  std::vector<const Dataset*> out;
  for (std::size_t i = begin; i < end; ++i) out.push_back(parts[i].get());
  return out;
}

Dataset sides_of(const Parts& parts, std::size_t n_base, const std::pair<std::string, std::string>& baseline,
                 const std::string& head_value) {
  const auto base = pointers(parts, 0, n_base), head = pointers(parts, n_base, parts.size());
  return label_sides(base, head, SideNames{baseline.first, baseline.second, head_value});
}

// compare OLD NEW: inputs labelled with the baseline column already are joined as they are.
Dataset positional_sides(const CommandOptions& options, const CommandIo& io) {
  const auto baseline = parse_baseline(options.baseline);
  std::vector<std::size_t> per_item;
  std::vector<Source> sources;
  for (const std::string& item : options.inputs) {
    const std::vector<Source> found = expanded({item}, io);
    per_item.push_back(found.size());
    sources.insert(sources.end(), found.begin(), found.end());
  }
  InputBudget budget = input_budget(options);
  const Parts parts = read_sources(sources, options, io, budget);
  std::set<std::string> have;
  for (const auto& part : parts)
    for (const std::string& column : part->columns()) have.insert(column);
  if (have.contains(baseline.first)) return joined(parts);
  if (per_item.size() != 2) {
    std::string listed;
    for (const std::string& column : have) listed += (listed.empty() ? "" : ", ") + column;
    throw UsageError(std::to_string(per_item.size()) + " input(s) and none has a '" + baseline.first +
                     "' label (the inputs have " + (listed.empty() ? "no labels" : listed) +
                     "): give two inputs (benchreport compare OLD NEW), the sides as --base OLD... --head NEW..., "
                     "or an existing label with --baseline LABEL=VALUE");
  }
  return sides_of(parts, per_item[0], baseline, options.head_value.value_or("head"));
}

}  // namespace

InputBudget input_budget(const CommandOptions& options) {
  std::optional<MemoryBudget> memory;
  if (options.memory_limit) {
    memory = MemoryBudget{options.memory_limit->bytes, describe(*options.memory_limit),
                          [](std::uint64_t n) { return resident_bytes() + estimated_need(n); }};
  }
  return InputBudget(options.max_samples, options.max_input_bytes, std::move(memory));
}

Parts read_sources(const std::vector<Source>& sources, const CommandOptions& options, const CommandIo& io,
                   InputBudget& budget) {
  const bool drawn = !options.quiet && io.err_is_terminal;
  Progress progress(sources.size(), io.err, "reading", drawn ? input_bytes(sources) : 0, options.quiet,
                    io.err_is_terminal, options.progress);
  Parts parts;
  load_sources(sources, budget, progress, [&](const Source& source, const ReadLimits& limits) -> std::uint64_t {
    parts.push_back(io.read(source, limits));
    return parts.back()->n_values();
  });
  for (const auto& part : options.verbose ? parts : Parts{})
    for (const std::string& note : part->notes()) io.err("benchreport: note: " + neutralize_text(note) + "\n");
  return parts;
}

Dataset joined(const Parts& parts) {
  if (parts.size() == 1) return *parts.front();
  Dataset out;
  for (const auto& part : parts) out.append(*part);
  return out;
}

Dataset labelled(Dataset dataset, const CommandOptions& options) {
  const Labels labels = parse_labels(options.labels);
  if (!labels.empty()) dataset.label_all(labels);
  return dataset;
}

Dataset load_inputs(const CommandOptions& options, const CommandIo& io) {
  InputBudget budget = input_budget(options);
  return labelled(joined(read_sources(expanded(options.inputs, io), options, io, budget)), options);
}

Dataset load_with_file_column(const CommandOptions& options, const CommandIo& io) {
  const std::vector<Source> sources = expanded(options.inputs, io);
  InputBudget budget = input_budget(options);
  Parts parts = read_sources(sources, options, io, budget);
  if (needs_file_column(pointers(parts, 0, parts.size()))) {
    for (std::size_t i = 0; i < parts.size(); ++i) {
      auto named = std::make_shared<Dataset>(*parts[i]);
      named->label_all({{"file", sources[i].name}});
      parts[i] = std::move(named);
    }
  }
  return labelled(joined(parts), options);
}

Dataset load_sides(const std::vector<std::string>& base, const std::vector<std::string>& head,
                   const std::pair<std::string, std::string>& baseline, const std::string& head_value,
                   const CommandOptions& options, const CommandIo& io, InputBudget& budget) {
  std::vector<Source> sources = expanded(base, io);
  const std::size_t n_base = sources.size();
  const std::vector<Source> head_sources = expanded(head, io);
  sources.insert(sources.end(), head_sources.begin(), head_sources.end());
  return sides_of(read_sources(sources, options, io, budget), n_base, baseline, head_value);
}

Dataset side_inputs(const CommandOptions& options, const CommandIo& io, std::string_view command) {
  if (options.base.empty() != options.head.empty()) {
    throw UsageError(std::string("--base and --head go together: give both, or neither") +
                     (command == "compare" ? " and label the inputs" : ""));
  }
  if (options.base.empty() && options.inputs.empty())
    throw UsageError("no input files given (positional inputs, or --base and --head)");
  if (options.base.empty())
    return command == "compare" ? labelled(positional_sides(options, io), options) : load_inputs(options, io);
  if (!options.inputs.empty())
    throw UsageError(options.inputs.front() + ": give inputs either positionally or with --base/--head, not both");
  InputBudget budget = input_budget(options);
  return labelled(load_sides(options.base, options.head, parse_baseline(options.baseline),
                             options.head_value.value_or("head"), options, io, budget),
                  options);
}

std::vector<std::string> checked_columns(const Dataset& dataset, const std::vector<std::string>& values,
                                         std::string_view option, const std::vector<std::string>& extra) {
  std::vector<std::string> columns = split_columns(values), wanted = extra;
  wanted.insert(wanted.end(), columns.begin(), columns.end());
  check_columns(dataset.columns(), wanted, option);
  return columns;
}

}  // namespace benchreport::cli

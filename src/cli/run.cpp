#include "benchreport/cli/run.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include "benchreport/cli/command_inputs.hpp"
#include "benchreport/cli/emit.hpp"
#include "benchreport/cli/options.hpp"
#include "benchreport/cli/path_text.hpp"
#include "benchreport/cli/usage_error.hpp"
#include "benchreport/cli/validate.hpp"
#include "benchreport/compare/case.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/data/label_commits.hpp"
#include "benchreport/io/commit_entries.hpp"
#include "benchreport/presets/bmf.hpp"
#include "benchreport/presets/history.hpp"
#include "benchreport/presets/matrix.hpp"
#include "benchreport/presets/runners.hpp"
#include "benchreport/presets/scaling.hpp"
#include "benchreport/presets/summary.hpp"
#include "benchreport/render/render.hpp"

namespace benchreport::cli {
namespace {

void check_resamples(long long resamples) {
  if (resamples < 1) throw UsageError("--resamples " + std::to_string(resamples) + ": expected a positive count");
}

// The compare status line on stderr while `work` runs (a terminal only, when enabled), erased after.
template <class Work>
auto with_status_line(const std::string& text, bool enabled, const CommandIo& io, Work&& work) {
  const bool shown = enabled && io.err_is_terminal;
  if (shown) io.err(status_text(text));
  try {
    auto result = work();
    if (shown) io.err(std::string(kEraseLine));
    return result;
  } catch (...) {
    if (shown) io.err(std::string(kEraseLine));
    throw;
  }
}

ComparisonReportOptions comparison_options(const CommandOptions& options, std::vector<std::string> by) {
  ComparisonReportOptions o;
  std::tie(o.baseline_column, o.baseline_value) = parse_baseline(options.baseline);
  o.by = std::move(by);
  o.threshold = parse_threshold(options.threshold);
  o.alpha = check_fraction(options.alpha, "--alpha");
  o.confidence = check_fraction(options.confidence, "--confidence");
  o.seed = options.seed;
  o.resamples = static_cast<int>(options.resamples);
  o.gate = options.fail_on.has_value();
  if (options.head_value) o.head_value = *options.head_value;
  o.check_comparability = !options.no_check;
  o.assume_launches_identical = options.assume_launches_identical;
  return o;
}

HistoryReportOptions history_options(const CommandOptions& options, std::vector<std::string> by) {
  HistoryReportOptions o;
  if (options.order) {
    if (!options.order->empty()) o.series.order = *options.order;
    o.series.sort = true;
  }
  o.series.by = std::move(by);
  ChangePointOptions& c = o.changes;
  c.detect.max_p_value = options.max_p_value;
  c.detect.permutations = options.permutations;
  c.detect.seed = options.seed;
  c.detect.screen_p_value = options.screen_p_value;
  c.min_magnitude = parse_threshold(options.min_magnitude);
  c.threshold = parse_threshold(options.threshold);
  c.method = options.method == "steps" ? ChangeMethod::steps : ChangeMethod::e_divisive;
  return o;
}

// --order LABEL given (an empty one is absent, as argparse's "" was falsy to the Python CLI).
bool ordered(const CommandOptions& options) { return options.order && !options.order->empty(); }

// history's inputs: each one commit named by its file (default), or sets ordered by --order.
Dataset history_inputs(const CommandOptions& options, const CommandIo& io, const ReadTable& read_table) {
  const auto sources = expand_inputs(ordered(options) ? options.inputs : commit_entries(options.inputs), io.read_stdin);
  CommandOptions shown = options;  // each input alone: a bar for a large one, no budget
  shown.quiet = false;
  Parts parts;
  std::vector<std::string> names;
  for (const Source& source : sources) {
    InputBudget budget;
    parts.push_back(is_arrow_table(source) ? read_table(source) : read_sources({source}, shown, io, budget).front());
    names.push_back(path_name(source.name));
  }
  if (ordered(options)) return labelled(joined(parts), options);
  std::vector<const Dataset*> pointers;
  for (const auto& part : parts) pointers.push_back(part.get());
  return labelled(label_commits(pointers, names), options);
}

}  // namespace

ComparisonOutcome compare_here(const Dataset& dataset, const ComparisonReportOptions& options) {
  auto view = std::make_shared<const ComparisonView>(comparison_view(dataset, options));
  return {std::make_shared<const Report>(comparison_report(dataset, view, options)), gate_cases(*view),
          [&dataset, view] {
            std::vector<std::pair<std::string, std::string>> out;
            for (BmfFile& file : comparison_bmf_files(dataset, view->comparison, "platform", BmfOptions{}.confidence))
              out.emplace_back(std::move(file.name), std::move(file.text));
            return out;
          }};
}

std::vector<GateCase> gate_cases(const ComparisonView& view) {
  const DatasetComparison& c = view.comparison;
  std::vector<GateCase> out;
  for (std::size_t i = 0; i < c.cases.size(); ++i) {
    GateCase one{std::string(to_string(c.cases[i].comparison.verdict)), {}, view.names[i]};
    for (std::size_t j = 0; j < c.by.size(); ++j) one.key.emplace_back(c.by[j], c.cases[i].key[j]);
    out.push_back(std::move(one));
  }
  return out;
}

bool is_arrow_table(const Source& source) {
  constexpr std::array<std::string_view, 4> kSuffixes{".parquet", ".pq", ".arrow", ".feather"};
  return !source.is_stdin() &&
         std::any_of(kSuffixes.begin(), kSuffixes.end(), [&](std::string_view s) { return source.name.ends_with(s); });
}

std::string format_extension(const std::string& format) {
  if (format == "markdown") return "md";
  if (format == "text") return "txt";
  return format;
}

int run_summary(const CommandOptions& options, const CommandIo& io) {
  const Dataset dataset = load_with_file_column(options, io);
  SummaryReportOptions o;
  o.by = checked_columns(dataset, options.by, "--by");
  o.drift_k = options.k;
  emit(summary(dataset, o, false).report, options, io);
  return kExitOk;
}

int run_runners(const CommandOptions& options, const CommandIo& io) {
  emit(runners_preset(load_inputs(options, io), {}, false).report, options, io);
  return kExitOk;
}

int run_matrix(const CommandOptions& options, const CommandIo& io) {
  const Dataset dataset = load_inputs(options, io);
  MatrixReportOptions o;
  for (auto [field, values, option] :
       {std::tuple{&o.rows, &options.rows, "--rows"}, std::tuple{&o.cols, &options.cols, "--cols"},
        std::tuple{&o.tables, &options.tables, "--tables"}}) {
    std::vector<std::string> columns = checked_columns(dataset, *values, option);
    if (!columns.empty()) *field = std::move(columns);  // else the preset's default
  }
  o.stat = parse_matrix_stat(options.stat);
  emit(matrix_preset(dataset, o, false).report, options, io);
  return kExitOk;
}

int run_scaling(const CommandOptions& options, const CommandIo& io) {
  ScalingReportOptions o;
  ScalingOptions& s = o.scaling;
  std::tie(s.baseline_column, s.baseline_value) = parse_baseline(options.baseline);
  s.fit.confidence = s.change.confidence = check_fraction(options.confidence, "--confidence");
  const Dataset dataset = side_inputs(options, io, "scaling");
  const std::string size_label = options.size_label.value_or("");
  checked_columns(dataset, {}, "--size-label",
                  size_label.empty() ? std::vector<std::string>{} : std::vector{size_label});
  s.head_value = options.head_value.value_or("");
  s.families.size_column = size_label;
  s.families.size_argument = options.size_argument;
  s.change.exponent_threshold = options.exponent_threshold;
  if (options.at) s.change.at = parse_size(*options.at);
  emit(scaling_preset(dataset, o).report, options, io);
  return kExitOk;
}

int run_compare(const CommandOptions& options, const CommandIo& io, const Compare& compare) {
  const auto baseline = parse_baseline(options.baseline);
  ComparisonReportOptions o = comparison_options(options, {});
  check_resamples(options.resamples);
  const Dataset dataset = side_inputs(options, io, "compare");
  o.by = checked_columns(dataset, options.by, "--baseline/--by", {baseline.first});
  const std::string status = "comparing " + std::to_string(dataset.n_sets()) + " sample sets (" +
                             std::to_string(options.resamples) + " resamples)…";
  const ComparisonOutcome outcome = with_status_line(
      status, dataset.n_sets() >= options.status_min_sets && !options.quiet, io, [&] { return compare(dataset, o); });
  std::vector<std::pair<std::string, std::string>> bmf;
  std::vector<OutputFile> extra;
  if (options.bmf_dir) {
    bmf = outcome.bmf_files();
    for (const auto& [name, text] : bmf) extra.push_back(text_output(path_join(*options.bmf_dir, name), text, io));
    make_folders(*options.bmf_dir);
  }
  emit(*outcome.report, options, io, extra);
  const auto gate = options.fail_on == "slower" ? gate_message(outcome.cases) : std::nullopt;
  if (gate) io.err(*gate + "\n");
  return gate ? kExitGate : kExitOk;
}

int run_history(const CommandOptions& options, const CommandIo& io, const ReadTable& read_table) {
  if (options.fail_on && *options.fail_on != "regressed")
    throw UsageError("--fail-on " + *options.fail_on + " reads change point states, which need --store");
  if (options.inputs.empty()) throw UsageError("history: give input files, or --store PATH");
  const Dataset dataset = history_inputs(options, io, read_table);
  const auto extra = ordered(options) ? std::vector{*options.order} : std::vector<std::string>{};
  const HistoryResult result =
      history(dataset, history_options(options, checked_columns(dataset, options.by, "--by/--order", extra)));
  emit(result.report, options, io);
  const bool regressed = options.fail_on == "regressed" &&
                         std::any_of(result.analysis.changes.begin(), result.analysis.changes.end(),
                                     [](const SeriesChanges& c) { return c.regressed_since.has_value(); });
  return regressed ? kExitGate : kExitOk;
}

int run_validate(const CommandOptions& options, const CommandIo& io) {
  int status = kExitOk;
  for (const Source& source : expand_inputs(options.inputs, io.read_stdin)) {
    try {
      const auto dataset = io.read(source, {});
      io.out(validate_ok_lines(source.name, *dataset, options.verbose));
    } catch (const ReadProblem& problem) {
      io.err(validate_invalid_line(source.name, problem.what()) + "\n");
      status = kExitInput;
    }
  }
  return status;
}

int run_demo(const CommandOptions& options, const CommandIo& io, const DemoReports& reports) {
  check_resamples(options.resamples);
  RenderOptions render_options;
  render_options.markdown_budget = options.budget;
  std::string joined_pieces;
  for (const auto& [name, report] : reports(options.resamples)) {
    const std::string piece = with_newline(render(*report, format_from_name(options.format), render_options));
    if (!options.output_dir) {
      joined_pieces += (joined_pieces.empty() ? "" : "\n") + piece;
      continue;
    }
    make_folders(*options.output_dir);
    const std::string path = pure_path(path_join(*options.output_dir, name + "." + format_extension(options.format)));
    write_outputs({text_output(path, piece, io)});
    io.out(neutralize_text("wrote " + path) + "\n");
  }
  if (!joined_pieces.empty() && options.output)
    write_outputs({text_output(*options.output, joined_pieces, io)});
  else if (!joined_pieces.empty())
    io.out(joined_pieces);
  return kExitOk;
}

}  // namespace benchreport::cli

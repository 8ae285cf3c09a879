#include "benchreport/cli/commands.hpp"

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/render/render.hpp"

namespace benchreport::cli {
namespace {

using Entries = std::vector<Option>;

Option text(std::vector<std::string> flags, std::string help, std::optional<std::string> value = std::nullopt) {
  Option option;
  option.flags = std::move(flags);
  option.help = std::move(help);
  option.default_value = std::move(value);
  return option;
}
Option number(std::string type, std::vector<std::string> flags, std::optional<std::string> value, std::string help) {
  Option option = text(std::move(flags), std::move(help), std::move(value));
  option.type = std::move(type);
  return option;
}
Option with_action(std::string action, Option option) {
  option.action = std::move(action);
  return option;
}
Option flag(std::vector<std::string> flags, std::string help) {
  return with_action("store_true", text(std::move(flags), std::move(help)));
}
Option columns(std::string name, std::string help) {
  return with_action("append", text({std::move(name)}, std::move(help)));
}
Option with_metavar(Option option, std::string metavar, std::string nargs = "") {
  option.metavar = std::move(metavar);
  option.nargs = std::move(nargs);
  return option;
}
Option with_choices(Option option, std::vector<std::string> choices) {
  option.choices = std::move(choices);
  return option;
}

void add(Entries& entries, std::vector<Option> options) {
  for (Option& option : options) entries.push_back(std::move(option));
}
Option required(Option option) {
  option.required = true;
  return option;
}
Option store_path(std::string help) { return with_metavar(text({"--store"}, std::move(help)), "PATH"); }

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::vector<Option> output_options(const std::string& default_format) {
  std::vector<std::string> formats;
  for (const Format f : {Format::markdown, Format::html, Format::text, Format::csv, Format::json})
    formats.emplace_back(format_name(f));
  const std::string budget = std::to_string(RenderOptions{}.markdown_budget);
  return {
      with_choices(text({"--format", "-f"}, "output format (default " + default_format + ")", default_format), formats),
      text({"--output", "-o"}, "write to this file instead of stdout"),
      number("int", {"--budget"}, budget,
             "Markdown size budget in bytes (default " + budget + ", a GitHub comment; 0 = unlimited)")};
}

std::vector<Option> github_options() {
  return {flag({"--github"},
               "also append the Markdown report to $GITHUB_STEP_SUMMARY (when set) and write a PR "
               "comment body within the budget"),
          text({"--comment-file"}, "where --github writes the comment body (default benchreport-comment.md)")};
}

std::vector<Option> report_options() {
  std::vector<Option> out = output_options("markdown");
  for (Option& option : github_options()) out.push_back(std::move(option));
  return out;
}

Option sides(const std::string& name, std::string help) {
  return with_metavar(text({"--" + name}, std::move(help)), "INPUT", "+");
}

Entries compare_options() {
  Entries out;
  add(out, input_options(false));
  add(out, {sides("base", "baseline inputs, one process each: labelled with the --baseline value and pair=1, 2, ..."),
            sides("head", "head inputs, one process each: labelled with the head value and pair=1, 2, ..."),
            text({"--head-value"},
                 "value of the baseline label on the head side (default: the only other value; 'head' with "
                 "--base/--head)"),
            flag({"--no-check"}, "compare even when suite hashes, devices, toolchains or per-case iterations differ")});
  add(out, report_options());
  add(out,
      {text({"--baseline"}, "LABEL=VALUE selecting the baseline side", "revision=base"),
       columns("--by", "case columns (comma-separated; default: every other label)"),
       text({"--threshold"}, "notable change: a percentage (5%%) or a fraction below 1 (0.05); default 5%%", "5%"),
       number("float", {"--alpha"}, "0.05", "significance level (default 0.05)"),
       number("float", {"--confidence"}, "0.95",
              "level of the change intervals and the equivalence test (default 0.95)"),
       flag({"--assume-launches-identical"},
            "with one process per side, judge on within-process noise alone (assumes every launch runs at the same "
            "speed; by default such cases are inconclusive)"),
       number("int", {"--seed"}, "0", "bootstrap seed (default 0)"),
       number("int", {"--resamples"}, "10000", "bootstrap resamples (default 10000)"),
       with_choices(text({"--fail-on"}, "exit 1 when a case is slower (a CI gate)"), {"slower"}),
       text({"--bmf-dir"},
            "also write Bencher Metric Format files there: bencher-<platform>.json (head), "
            "bencher-base-<platform>.json"),
       with_metavar(text({"--store"},
                         "results store: each case's launch noise from --branch's recent runs (a real "
                         "interval with one process per side; cases with fewer than 10 runs fall back)"),
                    "PATH"),
       text({"--branch"}, "branch of the store whose runs give the launch noise (main)", "main")});
  return out;
}

Entries summary_options() {
  Entries out;
  add(out, input_options(true));
  add(out, report_options());
  add(out, {columns("--by", "pool sets by these label columns (comma-separated)"),
            number("int", {"-k"}, "5", "drift window: first and last k samples (default 5)")});
  return out;
}

Entries scaling_options() {
  Entries out;
  add(out, input_options(false));
  add(out, {sides("base", "baseline inputs, one process each"), sides("head", "head inputs, one process each"),
            text({"--head-value"}, "value of the baseline label on the head side (default: the only other value)"),
            text({"--baseline"}, "LABEL=VALUE selecting the baseline side", "revision=base"),
            text({"--size-label"},
                 "label holding the size (default: from names such as BM_x/1024 or test_x[1024], else "
                 "the only all-numeric label)"),
            number("int", {"--size-argument"}, "0",
                   "which numeric argument of a name is the size (BM_x/8/1024: 0 = 8, 1 = 1024; default 0)"),
            text({"--at"}, "also extrapolate the base → head change to this size, e.g. 1e6"),
            number("float", {"--exponent-threshold"}, "0.1",
                   "smallest change of the exponent b that counts as a change of growth (default 0.1)"),
            number("float", {"--confidence"}, "0.95", "interval confidence (default 0.95)")});
  add(out, report_options());
  return out;
}

// history --store and its options (docs/statistics-history.md), then --fail-on with the alert states.
std::vector<Option> history_store_options() {
  return {store_path("read the runs of --branch from this store instead of files; summarises only the runs "
                     "not seen before and remembers each change point's state (docs/statistics-history.md)"),
          text({"--branch"}, "with --store: the branch whose history to analyse (default main)", "main"),
          with_metavar(number("int", {"--confirm-after"}, "3",
                              "with --store: a change point is confirmed once N later commits are on its new level "
                              "(default 3)"),
                       "N"),
          flag({"--rebuild"}, "with --store: summarise every run again instead of using the store's summary cache"),
          with_choices(text({"--fail-on"},
                            "exit 1 when a case is still regressed (regressed), or, with --store, when a "
                            "regression change point is new or confirmed (open-regression) or confirmed "
                            "(confirmed-regression)"),
                       {"regressed", "open-regression", "confirmed-regression"})};
}

Entries history_options() {
  Entries out;
  add(out, input_options(false));
  add(out, report_options());
  add(out, {with_metavar(text({"--order"},
                              "label giving each set's commit or time, sorted (numerically when all are "
                              "numbers); default: each input is one commit, in the order given, named by "
                              "its file"),
                         "LABEL"),
            columns("--by", "case columns (comma-separated; default: every other label)"),
            text({"--threshold"},
                 "'still regressed' when the latest segment is worse than the first by more (default 5%%)", "5%"),
            text({"--min-magnitude"}, "smallest change point kept, |after/before - 1| of segment medians (default 1%%)",
                 "1%"),
            with_choices(text({"--method"},
                              "steps: the steps a person would mark, not the slopes or seasons between them (default); "
                              "e-divisive: E-divisive means with permutation tests, as Otava (the options below)",
                              "steps"),
                         {"steps", "e-divisive"}),
            number("float", {"--max-p-value"}, "0.02", "e-divisive: permutation test level (default 0.02)"),
            number("int", {"--permutations"}, "199", "e-divisive: permutations per test (default 199)"),
            number("int", {"--seed"}, "0", "e-divisive: permutation seed (default 0)"),
            number("float", {"--screen-p-value"}, "0.0005",
                   "e-divisive: keep a split without permutations when its Welch t-test, times the splits its segment "
                   "allows, is at most this (default 0.0005; 0 = always permute)")});
  add(out, history_store_options());
  return out;
}

Entries matrix_options() {
  Entries out;
  add(out, input_options(true));
  add(out, report_options());
  add(out, {columns("--rows", "row label columns (comma-separated; default algorithm)"),
            columns("--cols", "column label columns (comma-separated; default engine)"),
            columns("--tables", "one full matrix per combination of these labels (default platform,size)"),
            text({"--stat"}, "cell statistic (median, pooled_median, mean, min)", "median")});
  return out;
}

Entries convert_options() {
  Entries out;
  add(out, input_options(true));
  add(out, {with_choices(text({"--to"},
                              "target: json, csv or bmf (Bencher Metric Format) (default from --output "
                              "suffix, else json)"),
                         {"json", "csv", "bmf"}),
            text({"--output", "-o"}, "write to this file instead of stdout")});
  return out;
}

Entries demo_options() {
  Entries out;
  add(out, output_options("text"));
  add(out, {text({"--output-dir"}, "write one file per preset into this folder"),
            number("int", {"--resamples"}, "10000", "bootstrap resamples (default 10000)")});
  return out;
}

// record: the inputs of one run, and where and as what it is stored (docs/store.md).
Entries record_options() {
  Entries out;
  add(out, input_options(true));
  add(out, {required(store_path("the store file (created when missing)")),
            text({"--commit"},
                 "commit measured (default: from the files' metadata: Nitro commitSha, pyperf commit_id; required "
                 "when they name none)"),
            text({"--branch"},
                 "branch of the commit (default: from the files' metadata, pyperf commit_branch; required when "
                 "they name none)"),
            text({"--time"}, "when the run was measured, ISO-8601 (default now, UTC)"),
            with_metavar(with_action("append", text({"--env"},
                                                    "environment facts to record with the run (repeatable), e.g. "
                                                    "--env compiler=gcc-14",
                                                    "[]")),
                         "KEY=VALUE")});
  return out;
}

Entries ack_options() {
  return {with_metavar(text({"case"}, "the case: LABEL=VALUE[,LABEL=VALUE...] or one label's value"), "CASE"),
          with_metavar(text({"commit"}, "the change point's commit (full sha or a unique prefix)"), "COMMIT"),
          required(text({"--note"}, "why it is acknowledged (shown in the history report)")),
          required(store_path("the store file")),
          text({"--branch"}, "the branch (default: any branch, when the match is unique)")};
}

// store export PATH DIR, store import PATH DIR.
Entries store_action_options(bool is_export) {
  return {with_metavar(text({"store"}, is_export ? "the store file" : "the store file (created when missing)"), "PATH"),
          with_metavar(
              text({"directory"}, is_export ? "new or empty folder to write" : "a folder written by 'store export'"),
              "DIR")};
}

}  // namespace

std::vector<Option> input_options(bool required) {
  return {
      with_metavar(text({"inputs"}, "files, folders, globs, or - for stdin"), "", required ? "+" : "*"),
      text({"--input-format"}, "reader name (auto, " + joined(reader_names()) + ")", "auto"),
      with_metavar(with_action("append", text({"--label"},
                                              "set a label on every set read (repeatable), e.g. --label "
                                              "runner=ubuntu-24",
                                              "[]")),
                   "KEY=VALUE"),
      with_metavar(number("int", {"--max-samples"}, std::nullopt,
                          "refuse inputs holding more than N samples in all (exit 2; default: the readers' per-file "
                          "limit, 2^28)"),
                   "N"),
      with_metavar(number("int", {"--max-input-bytes"}, std::nullopt,
                          "refuse inputs of more than N bytes in all, after decompression (exit 2; default: the "
                          "readers' per-file limit, 1 GiB)"),
                   "N"),
      flag({"--quiet", "-q"}, "no progress on stderr (shown only on a terminal, for many or large inputs)"),
      flag({"--verbose", "-v"},
           "also print the readers' normal notes on stderr (aggregate rows kept apart, "
           "calibration runs skipped); warnings are in the report either way"),
  };
}

std::vector<Option> command_options(std::string_view command) {
  if (command == "compare") return compare_options();
  if (command == "summary") return summary_options();
  if (command == "scaling") return scaling_options();
  if (command == "history") return history_options();
  if (command == "matrix") return matrix_options();
  if (command == "convert") return convert_options();
  if (command == "demo") return demo_options();
  if (command == "record") return record_options();
  if (command == "ack") return ack_options();
  if (command == "store export" || command == "store import") return store_action_options(command == "store export");
  if (command == "runners" || command == "validate") {
    Entries out;
    add(out, input_options(true));
    if (command == "runners") add(out, report_options());
    return out;
  }
  throw InputError("no such command: " + std::string(command));
}

}  // namespace benchreport::cli

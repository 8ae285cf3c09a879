// The `comparison` preset: the PR performance report (base vs head per case).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/report/case_fields.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/report/verdict_text.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/compare/rollup.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/presets/scaling.hpp"
#include "sample_notes.hpp"

namespace benchreport {
namespace {

// Values in the unit of their set: times scale (ns/µs/ms), others keep the input unit (4 significant digits).
constexpr ValueStyle kCaseValue{.significant = true};

// Role of an observed change: its sign (direction-aware) once it reaches the threshold.
CellRole change_role(double change, double threshold, Direction direction) {
  if (std::abs(change) < threshold) return CellRole::none;
  const bool worse = direction == Direction::higher_is_better ? change < 0 : change > 0;
  return worse ? CellRole::slower : CellRole::faster;
}

// The change table of a comparison (the preset's sections and case_comparisons_report).
// The change table of a comparison; `metric`: a Metric column after the benchmark.
std::vector<Column> case_change_columns(double confidence, bool metric) {
  std::vector<Column> columns{{"Benchmark"}};
  if (metric) columns.emplace_back("Metric");
  for (Column c :
       {Column("Base p50", Align::right), Column("Head p50", Align::right),
        Column(fmt::format("Change ({:g}% CI)", confidence * 100), Align::right), Column("Verdict"), Column("Why")})
    columns.push_back(std::move(c));
  return columns;
}

std::string interval_text(double lower, double upper);

// The change the verdict judged, the interval's own estimate (the pooled-median change is `change`
// in JSON), with its interval: numbers for CSV in value and figures.
Cell change_cell(const CaseComparison& c) {
  if (is_one_sided(c.verdict)) return {};
  Cell cell(format_change_interval(c.change_estimate, c.change_lower, c.change_upper), c.change_estimate,
            change_role(c.change_estimate, c.threshold, c.direction));
  cell.with_figure("lower", c.change_lower).with_figure("upper", c.change_upper);
  return cell;
}

Cell verdict_cell(const CaseComparison& c) {
  Cell cell(verdict_label(c.verdict), verdict_role(c.verdict));
  if (is_one_sided(c.verdict)) return cell;
  cell.with_figure("p", c.p_value).with_figure("p adjusted", c.p_adjusted);
  return cell;
}

// A side's median; empty for the side a case added or removed has no samples on.
Cell median_cell(double median, const Unit& unit) {
  return std::isnan(median) ? Cell() : Cell(format_value(median, unit, kCaseValue), median);
}

std::vector<Cell> case_change_cells(std::string name, std::optional<std::string> metric, const CaseComparison& c,
                                    const Unit& unit) {
  std::vector<Cell> cells{std::move(name)};
  if (metric) cells.emplace_back(std::move(*metric));
  for (Cell cell : {median_cell(c.base_median, unit), median_cell(c.head_median, unit), change_cell(c), verdict_cell(c),
                    Cell(verdict_why(c), CellRole::muted)})
    cells.push_back(std::move(cell));
  return cells;
}

std::string interval_text(double lower, double upper) {
  return fmt::format("{} to {}", format_change_percent(lower), format_change_percent(upper));
}

// "five" for the drift window of the seed report; digits above ten.
std::string count_words(std::size_t n) {
  constexpr std::string_view kWords[] = {"zero", "one",   "two",   "three", "four", "five",
                                         "six",  "seven", "eight", "nine",  "ten"};
  return n <= 10 ? std::string(kWords[n]) : fmt::format("{}", n);
}

struct DriftFlag {
  std::size_t case_index;
  bool head;
  double change;
};

struct SectionFigures {
  std::vector<std::size_t> cases;      // every case of the section
  std::vector<std::size_t> primaries;  // one per measurement: what the tables, rollup and counts are about
  std::vector<std::size_t> derived;    // the other metrics of those measurements
  Rollup rollup;                       // median |Δ|, cases ≥ t, largest, geomean with CI, verdicts
  std::optional<std::size_t> largest;  // case index of rollup.largest_case
  double suggested_threshold = 0;      // A/A runs: max(t, 1.5 × p95 |Δ|)
  std::vector<DriftFlag> drift_flags;
  std::optional<DriftFlag> largest_drift;
};

// The first set of a case (a case added has no base sets).
std::size_t first_set(const CaseResult& r) { return r.base_sets.empty() ? r.head_sets.front() : r.base_sets.front(); }

// What a row shows beside its CaseResult: a matched case's from the view's arrays, a one-sided case's own.
struct RowFacts {
  const CaseResult& result;
  const std::string& name;
  const std::string& section;
  bool primary;
  const CaseDrift* drift;  // null for a case on one side only
};

RowFacts matched_row(const ComparisonView& view, std::size_t i) {
  return {view.comparison.cases[i], view.names[i], view.sections[i], view.primaries[i] == i, &view.drifts[i]};
}

RowFacts one_sided_row(const OneSidedCase& o) { return {o.result, o.name, o.section, o.primary, nullptr}; }

// One row of a comparison: the JSON case of `data` and a row of comparison_columns. `section`
// is the parent section's field in JSON; `key` a nested object there and one column per case
// column here. The case fields are report/case_fields.hpp's.
template <class Visitor>
void visit_comparison_row(std::string_view unit_base, const std::vector<std::string>& by, const RowFacts& row,
                          Visitor& v) {
  const auto& r = row.result;
  v.field("name", row.name);
  v.section(row.section);
  v.begin_group("key");
  for (std::size_t k = 0; k < by.size(); ++k) v.field(by[k].c_str(), r.key[k]);
  v.end_group();
  v.field("unit_base", std::string(unit_base));
  v.field("primary", row.primary);
  visit_case_fields(r.comparison, v);
  const double none = std::numeric_limits<double>::quiet_NaN();
  const double base_drift = row.drift != nullptr ? row.drift->base.median_change : none;
  const double head_drift = row.drift != nullptr ? row.drift->head.median_change : none;
  v.optional("base_drift", !std::isnan(base_drift), base_drift);
  v.optional("head_drift", !std::isnan(head_drift), head_drift);
  v.texts("warnings", r.comparison.warnings);
}

// The base unit a row's values are in ("s" for times).
std::string_view unit_base_of(const Dataset& dataset, const CaseResult& r) {
  return base_symbol(dataset.unit(first_set(r)).dimension);
}

// A section's `cases` in the JSON payload, written from the comparison view when the report
// is rendered: the view is shared with the result, so the payload costs a row index and a
// unit per case instead of a tree of about 45 members.
class SectionCases final : public JsonSource {
 public:
  // rows: a matched case's index, or -(k + 1) for the view's one_sided[k].
  SectionCases(std::shared_ptr<const ComparisonView> view, std::vector<std::ptrdiff_t> rows,
               std::vector<std::string_view> unit_bases)
      : view_(std::move(view)), rows_(std::move(rows)), unit_bases_(std::move(unit_bases)) {}

  void write(JsonStream& out) const override {
    out.begin_array();
    out.container_items(rows_.size(), [&](JsonStream& part, std::size_t k) {
      StreamFields fields(part);
      part.begin_object();
      visit(k, fields);
      part.end_object();
    });
    out.end_array();
  }

  Json tree() const override {
    Json cases = Json::array();
    for (std::size_t k = 0; k < rows_.size(); ++k) {
      JsonFields fields;
      visit(k, fields);
      cases.push_back(Json(fields.take()));
    }
    return cases;
  }

 private:
  template <class Visitor>
  void visit(std::size_t k, Visitor& v) const {
    const std::ptrdiff_t row = rows_[k];
    const RowFacts facts = row >= 0 ? matched_row(*view_, static_cast<std::size_t>(row))
                                    : one_sided_row(view_->one_sided[static_cast<std::size_t>(-row - 1)]);
    visit_comparison_row(unit_bases_[k], view_->comparison.by, facts, v);
  }

  std::shared_ptr<const ComparisonView> view_;
  std::vector<std::ptrdiff_t> rows_;
  std::vector<std::string_view> unit_bases_;  // base_symbol's static texts
};

class ComparisonBuilder {
 public:
  ComparisonBuilder(const Dataset& dataset, std::shared_ptr<const ComparisonView> view,
                    const ComparisonReportOptions& options)
      : shared_view_(std::move(view)),
        ds_(dataset),
        view_(*shared_view_),
        cmp_(view_.comparison),
        opt_(options),
        threshold_(options.threshold),
        drifts_(view_.drifts),
        has_metric_(std::any_of(view_.metrics.begin(), view_.metrics.end(), [](const auto& m) { return !m.empty(); })) {
    order_sections();
  }

  Report build() {
    Report report(opt_.title);
    for (const auto& section : sections_) figures_.push_back(figures_for(section));
    add_headline(report);
    add_how_to_read(report);
    add_mode_note(report);
    add_launch_note(report);
    if (cmp_.same_revision) add_aa_note(report);
    for (const auto& note : cmp_.notes) report.add_note(note);
    add_run_figures(report);
    Json sections = Json::array();
    for (std::size_t s = 0; s < sections_.size(); ++s) sections.push_back(add_section(report, s));
    add_one_side_reasons(report);
    add_revisions(report);
    if (const std::string samples = sample_footnote(ds_); !samples.empty()) report.add_footnote(samples);
    report.data = Json::object();
    report.data.set("preset", "comparison");
    report.data.set("method", method_json());
    report.data.set("same_revision", cmp_.same_revision);
    report.data.set("sections", std::move(sections));
    report.data.set("new_cases", keys_json(cmp_.new_cases));
    report.data.set("removed_cases", keys_json(cmp_.removed_cases));
    return report;
  }

 private:
  Direction direction_of(std::size_t i) const { return ds_.direction(cmp_.cases[i].base_sets.front()); }
  const Unit& unit_of(std::size_t i) const { return ds_.unit(cmp_.cases[i].base_sets.front()); }

  void order_sections() {
    std::vector<std::string> present;
    const auto add = [&](const std::string& s) {
      if (std::find(present.begin(), present.end(), s) == present.end()) present.push_back(s);
    };
    for (const auto& s : view_.sections) add(s);
    for (const auto& o : view_.one_sided) add(o.section);
    for (const auto& s : opt_.section_order) {
      if (std::find(present.begin(), present.end(), s) != present.end()) sections_.push_back(s);
    }
    for (const auto& s : present) {
      if (std::find(sections_.begin(), sections_.end(), s) == sections_.end()) sections_.push_back(s);
    }
  }

  std::string section_title(const std::string& section) const {
    const auto it = opt_.section_titles.find(section);
    return it != opt_.section_titles.end() ? it->second : section;
  }

  // "All cases" only for the one section of a report without sections: an empty section
  // value beside others (a label value "") is a section of its own, not all cases.
  std::string section_heading(const std::string& section) const {
    if (!section.empty() || opt_.section_titles.count(section) != 0) return section_title(section);
    return sections_.size() == 1 ? "All cases" : "(empty value)";
  }

  std::size_t process_pairs() const {
    std::size_t most = 0;
    for (const auto& c : cmp_.cases)
      most =
          std::max(most, std::min(c.comparison.base_process_medians.size(), c.comparison.head_process_medians.size()));
    return most;
  }

  // "AB, BA, BA, AB" from the order label of the base sets of the first case, when recorded.
  std::string interleaving() const {
    if (cmp_.cases.empty() || ds_.column("order") == nullptr) return {};
    std::vector<std::string> orders;
    for (const auto& pair : cmp_.cases.front().pairs) {
      for (const auto set : cmp_.cases.front().base_sets) {
        if (ds_.label(set, opt_.pair_column) == pair && ds_.has_label(set, "order")) {
          orders.emplace_back(ds_.label(set, "order"));
          break;
        }
      }
    }
    return fmt::format("{}", fmt::join(orders, ", "));
  }

  // With a store: how many cases took their launch noise from the branch's stored runs, from how many
  // runs since which commit, and how large it is (compare/launch_noise.hpp).
  void add_launch_note(Report& report) const {
    std::size_t given = 0;
    std::vector<double> runs, sds;
    std::size_t unshared = 0;  // cases on one host: their sd is the launch noise base and head do not share
    const CaseComparison* example = nullptr;
    for (const auto& r : cmp_.cases) {
      const CaseComparison& c = r.comparison;
      if (c.launch_noise.empty()) continue;
      ++given;
      if (c.launch_noise_runs == 0) continue;
      runs.push_back(static_cast<double>(c.launch_noise_runs));
      sds.push_back(c.launch_noise_sd);
      if (c.change_interval_method == "store_paired_launch_t") ++unshared;
      if (example == nullptr) example = &c;
    }
    if (given == 0) return;
    std::string text;
    if (runs.empty()) {
      text = fmt::format(
          " no case's stored runs give a usable launch noise (see each case's reason), so the intervals cover "
          "within-process noise "
          "only, as without a store ({} looked up).",
          format_count(given, "case", "cases"));
    } else {
      const std::size_t used = runs.size();
      text = fmt::format(
          " {} of {} cases use the variance between launches learned from the store (median {:g} runs per case, "
          "median launch sd {}{}; e.g. {}), so their intervals cover launch-to-launch noise{}.",
          used, cmp_.cases.size(), median_inplace(runs), format_percent(median_inplace(sds), 2),
          unshared == 0 ? std::string()
                        : fmt::format(", the unshared part for the {} whose base and head share a host",
                                      format_count(unshared, "case", "cases")),
          example->launch_noise,
          used < given
              ? fmt::format("; {} too few stored runs and {} today's interval",
                            format_count(given - used, "case has", "cases have"), given - used == 1 ? "keeps" : "keep")
              : std::string());
    }
    report.add_note(Spans{Span::bold("Launch noise:"), Span::plain(text)});
  }

  bool uses_store() const {
    return std::any_of(cmp_.cases.begin(), cmp_.cases.end(),
                       [](const CaseResult& r) { return r.comparison.launch_noise_runs > 0; });
  }

  std::string method_text() const {
    const std::size_t pairs = process_pairs();
    const std::string order = interleaving();
    const std::string structure =
        pairs > 1      ? fmt::format("Each benchmark has {} base/head process pairs{}.", pairs,
                                order.empty() ? "" : fmt::format(" (interleaved {})", order))
             : uses_store() ? "Each benchmark has one base/head process pair; the store's runs give the variation "
                              "between launches (see Launch noise)."
                       : "Each benchmark has one base/head process pair; samples describe within-process "
                         "variation only.";
    // Says which unit the interval treats as independent (compare/process_interval.hpp).
    const std::string interval =
        pairs > 1 ? fmt::format(
                        "a {:g}% t-interval on log process medians (the process is the unit: paired by "
                        "pair label, else Welch; the variance moderated across cases when they allow it)",
                        cmp_.options.confidence * 100)
        : uses_store()
            ? fmt::format(
                  "a {:g}% t-interval whose variance is the launch noise learned from the store's runs (a launch "
                  "is the unit; see Launch noise), else a bootstrap interval over samples that decides nothing "
                  "(one launch per side)",
                  cmp_.options.confidence * 100)
        : cmp_.options.assume_launches_identical
            ? fmt::format("a {:g}% bootstrap interval over samples (within-process noise only)",
                          cmp_.options.confidence * 100)
            : fmt::format(
                  "a {:g}% bootstrap interval over samples, which covers within-process noise only, so no "
                  "case is called slower, faster or equivalent (one launch per side)",
                  cmp_.options.confidence * 100);
    const std::string rule = fmt::format(
        "Change = the estimate of the interval the verdict reads (exp of the mean log ratio of process medians − 1; "
        "with one process per side head p50 / base p50 − 1); the interval is {}; a verdict needs the whole "
        "interval on one side of zero and its estimate beyond ±{}, with the false discovery rate across cases "
        "controlled (Benjamini–Hochberg); equivalent needs the whole interval within ±{}. Why gives each verdict's "
        "reason; \"detects ≥ x\" is the smallest change its interval would call (80% power).",
        interval, format_percent(threshold_, 0), format_percent(threshold_, 0));
    return fmt::format("{} {}", structure, rule);
  }

  void add_mode_note(Report& report) const {
    if (opt_.gate) {
      report.add_note(Spans{Span::bold("Gate:"), Span::plain(" this check fails when a case is slower.")},
                      NoteKind::warning);
    } else {
      report.add_note(Spans{Span::bold("Report only:"), Span::plain(" measurements do not fail this PR.")});
    }
  }

  // The sentence a reader takes away in five seconds: verdict counts over the measurements (a
  // derived metric such as cpu_time beside real_time counts once, with its primary) and drift.
  void add_headline(Report& report) const {
    std::array<std::size_t, 5> counts{};
    std::size_t drifting = 0;
    for (const auto& f : figures_) {
      for (std::size_t v = 0; v < counts.size(); ++v) counts[v] += f.rollup.verdict_counts[v];
      std::vector<std::size_t> cases;
      for (const auto& flag : f.drift_flags) {
        if (std::find(cases.begin(), cases.end(), flag.case_index) == cases.end()) cases.push_back(flag.case_index);
      }
      drifting += cases.size();
    }
    const auto count = [&](Verdict v) { return counts[static_cast<std::size_t>(v)]; };
    std::size_t added = 0, removed = 0;
    for (const auto& o : view_.one_sided) {
      if (o.primary) ++(o.result.comparison.verdict == Verdict::added ? added : removed);
    }
    std::vector<std::string> parts;  // the cases on one side only, when there are any
    if (added > 0) parts.push_back(fmt::format("{} added", added));
    if (removed > 0) parts.push_back(fmt::format("{} removed", removed));
    const std::string one_sided = parts.empty() ? std::string() : fmt::format("; {}", fmt::join(parts, ", "));
    const std::string sentence =
        fmt::format("{} slower, {} faster, {} unchanged (within ±{}), {} inconclusive{}; {}.", count(Verdict::slower),
                    count(Verdict::faster), count(Verdict::equivalent) + count(Verdict::unchanged),
                    format_percent(threshold_, 0), count(Verdict::inconclusive), one_sided,
                    drifting == 0 ? std::string("no drift")
                                  : fmt::format("drift in {} case{}", drifting, drifting == 1 ? "" : "s"));
    report.add_paragraph(Spans{Span::bold(sentence)});
  }

  // The method, for whoever wants it, right under the headline: collapsed in Markdown and HTML.
  void add_how_to_read(Report& report) const {
    Details& details = report.add_details("How to read this");
    details.blocks.add_paragraph(method_text());
    if (has_metric_) {
      details.blocks.add_paragraph(
          "One row per benchmark, on the metric its tool reports first (Google Benchmark real_time, Go ns/op; "
          "docs/formats.md names each reader's). The other metrics of the same measurement (cpu_time, bytes/s, "
          "counters) are listed under \"Derived metrics\" and are not counted again in the verdicts.");
    }
  }

  void add_aa_note(Report& report) const {
    report.add_note(Spans{Span::bold("Same-code (A/A) run:"),
                          Span::plain(fmt::format(" base and head ran the same commit ({}); every difference below is "
                                                  "measurement noise, useful to calibrate the threshold.",
                                                  cmp_.base_commit.substr(0, 12)))},
                    NoteKind::warning);
  }

  // Beyond the limit, and either a significant monotonic trend or beyond the limit by more than the side's own
  // noise (MAD / p50): a window change on noisy samples alone is not a trend.
  bool drift_is_real(const ProcessDrift& d, double mad_pct) const {
    const double size = std::abs(d.median_change);
    if (size < opt_.drift_limit) return false;
    return d.trend_significant || size - opt_.drift_limit > mad_pct / 100;
  }

  SectionFigures figures_for(const std::string& section) const {
    SectionFigures f;
    std::vector<const CaseComparison*> comparisons;
    for (std::size_t i = 0; i < cmp_.cases.size(); ++i) {
      if (view_.sections[i] != section) continue;
      f.cases.push_back(i);
      if (view_.primaries[i] != i) {
        f.derived.push_back(i);
        continue;
      }
      f.primaries.push_back(i);
      comparisons.push_back(&cmp_.cases[i].comparison);
      for (const bool head : {false, true}) {
        const ProcessDrift& d = head ? drifts_[i].head : drifts_[i].base;
        if (std::isnan(d.median_change)) continue;
        const DriftFlag flag{i, head, d.median_change};
        if (drift_is_real(d, head ? cmp_.cases[i].comparison.head_mad_pct : cmp_.cases[i].comparison.base_mad_pct)) {
          f.drift_flags.push_back(flag);
        }
        if (!f.largest_drift || std::abs(d.median_change) > std::abs(f.largest_drift->change)) f.largest_drift = flag;
      }
    }
    const auto& o = cmp_.options;
    if (comparisons.empty()) return f;  // a section of cases on one side only: nothing to roll up
    f.rollup = rollup(comparisons, {o.threshold, o.confidence, o.resamples, o.seed});
    for (const auto i : f.primaries) {
      if (cmp_.cases[i].comparison.case_name == f.rollup.largest_case) f.largest = i;
    }
    if (cmp_.same_revision) f.suggested_threshold = calibrate_noise(comparisons, o.threshold).suggested_threshold;
    return f;
  }

  std::string verdict_counts(const Rollup& r) const {
    std::vector<std::string> parts;
    for (const Verdict v :
         {Verdict::faster, Verdict::slower, Verdict::inconclusive, Verdict::equivalent, Verdict::unchanged}) {
      const auto count = r.verdict_counts[static_cast<std::size_t>(v)];
      if (count > 0) parts.push_back(fmt::format("{} {}", count, verdict_label(v)));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  std::string drift_sentence(const DriftFlag& flag) const {
    const bool higher = direction_of(flag.case_index) == Direction::higher_is_better;
    const bool worsening = higher ? flag.change < 0 : flag.change > 0;
    return fmt::format("{} {} samples {} ~{} between the first and last {}", row_name(flag.case_index),
                       flag.head ? "head" : "base", worsening ? "slowing" : "speeding up",
                       format_percent(std::abs(flag.change), 0), count_words(opt_.drift_k));
  }

  void add_run_figures(Report& report) const {
    std::vector<Column> columns{{cmp_.same_revision ? "Same-code base/head differences" : "Base → head"}};
    for (const auto& s : sections_) columns.emplace_back(section_heading(s), Align::right);
    Table& table = report.add_table(std::move(columns), {}, "run-figures");
    const auto row = [&](std::string title, auto cell_of) {
      std::vector<Cell> cells{std::move(title)};
      for (const auto& f : figures_) cells.push_back(cell_of(f));
      table.add_row(std::move(cells));
    };
    row("Cases compared", [](const SectionFigures& f) {
      return Cell(fmt::format("{}", f.primaries.size()), static_cast<double>(f.primaries.size()));
    });
    row("Median absolute change across cases", [](const SectionFigures& f) {
      return Cell(format_percent(f.rollup.median_abs_change, 2), f.rollup.median_abs_change);
    });
    row(fmt::format("Cases with an absolute change of at least {}", format_percent(threshold_, 0)),
        [](const SectionFigures& f) {
          return Cell(fmt::format("{}/{}", f.rollup.cases_at_threshold, f.primaries.size()),
                      static_cast<double>(f.rollup.cases_at_threshold));
        });
    row("Largest absolute change", [&](const SectionFigures& f) {
      if (!f.largest) return Cell(std::string(kUnavailable));
      const double change = f.rollup.largest_abs_change;
      return Cell(fmt::format("{} ({})", format_percent(change, 2), row_name(*f.largest)), change);
    });
    row(fmt::format("Geometric mean of head / base ({:g}% CI)", cmp_.options.confidence * 100),
        [](const SectionFigures& f) {
          const auto& r = f.rollup;
          return Cell(fmt::format("{} ({})", format_change_percent(r.geomean_ratio - 1),
                                  interval_text(r.geomean_lower - 1, r.geomean_upper - 1)),
                      r.geomean_ratio - 1);
        });
    row("Verdicts", [&](const SectionFigures& f) { return Cell(verdict_counts(f.rollup)); });
    if (cmp_.same_revision) {
      row("Suggested threshold from this A/A run: max(t, 1.5 × p95 |Δ|)", [](const SectionFigures& f) {
        return Cell(format_percent(f.suggested_threshold, 2), f.suggested_threshold);
      });
    }
    row(fmt::format("Within-process drift of at least {}", format_percent(opt_.drift_limit, 0)),
        [&](const SectionFigures& f) {
          if (!f.drift_flags.empty()) {
            return Cell(fmt::format("{} ({})", f.drift_flags.size(), drift_sentence(f.drift_flags.front())),
                        CellRole::slower);
          }
          if (!f.largest_drift) return Cell(std::string(kUnavailable));
          return Cell(fmt::format("none (largest: {} {} {})", row_name(f.largest_drift->case_index),
                                  f.largest_drift->head ? "head" : "base",
                                  format_change_percent(f.largest_drift->change)));
        });
    table.footnote = fmt::format(
        "Drift = median of the last {k} / median of the first {k} samples − 1 within each process (median over "
        "processes); it is flagged when it reaches the limit and either a Mann–Kendall trend is significant "
        "(p < 0.05, same direction, in most processes) or it exceeds the limit by more than that side's MAD / p50. "
        "Geometric mean over matched cases only.",
        fmt::arg("k", opt_.drift_k));
  }

  // Each case's rows and payload depend on that case alone: built on the comparison's
  // threads, in chunks (a row takes microseconds), and kept in case order.
  template <class Build>
  auto per_case(const std::vector<std::size_t>& cases, Build build) const {
    return map_indexed(cases.size(), 512, opt_.threads, [&](std::size_t k) { return build(cases[k]); });
  }

  std::vector<Column> change_columns() const { return case_change_columns(cmp_.options.confidence, has_metric_); }

  // The name of a case in a table: beside a Metric column without its metric.
  const std::string& row_name(std::size_t i) const { return has_metric_ ? view_.row_names[i] : view_.names[i]; }

  std::vector<Cell> change_row(std::size_t i) const {
    return case_change_cells(row_name(i), has_metric_ ? std::optional(view_.metrics[i]) : std::nullopt,
                             cmp_.cases[i].comparison, unit_of(i));
  }

  std::vector<std::vector<Cell>> change_rows(const std::vector<std::size_t>& cases) const {
    return per_case(cases, [&](std::size_t i) { return change_row(i); });
  }

  std::vector<Cell> change_row(const OneSidedCase& o) const {
    return case_change_cells(has_metric_ ? o.row_name : o.name, has_metric_ ? std::optional(o.metric) : std::nullopt,
                             o.result.comparison, ds_.unit(first_set(o.result)));
  }

  std::size_t one_sided_count(const std::string& section, bool primary) const {
    return static_cast<std::size_t>(std::count_if(view_.one_sided.begin(), view_.one_sided.end(), [&](const auto& o) {
      return o.section == section && o.primary == primary;
    }));
  }

  // The items of matched `cases` (ascending case indices) with the section's one-sided cases of the
  // kind asked (primary, derived, or both: nullopt) each put before the first matched case it precedes.
  template <class Item, class Of>
  std::vector<Item> with_one_sided(const std::string& section, std::optional<bool> primary,
                                   const std::vector<std::size_t>& cases, std::vector<Item> items, Of of) const {
    std::vector<Item> out;
    std::size_t k = 0;
    for (const auto& o : view_.one_sided) {
      if (o.section != section || (primary && o.primary != *primary)) continue;
      for (; k < cases.size() && cases[k] < o.before; ++k) out.push_back(std::move(items[k]));
      out.push_back(of(o));
    }
    for (; k < cases.size(); ++k) out.push_back(std::move(items[k]));
    return out;
  }

  std::vector<std::vector<Cell>> with_one_sided(const std::string& section, bool primary,
                                                const std::vector<std::size_t>& cases,
                                                std::vector<std::vector<Cell>> rows) const {
    return with_one_sided(section, primary, cases, std::move(rows),
                          [&](const OneSidedCase& o) { return change_row(o); });
  }

  std::vector<Cell> process_row(std::size_t i) const {
    const auto& c = cmp_.cases[i].comparison;
    const Unit& unit = unit_of(i);
    const auto join_values = [&](const std::vector<double>& values) {
      std::vector<std::string> parts;
      for (const double v : values) parts.push_back(format_value(v, unit, kCaseValue));
      return fmt::format("{}", fmt::join(parts, ", "));
    };
    std::vector<std::string> changes;
    for (const double change : c.process_changes) changes.push_back(format_change_percent(change));
    std::string paired = fmt::format("{}", fmt::join(changes, ", "));
    if (c.processes_disagree) paired += " (pairs disagree)";
    const auto& d = drifts_[i];
    const auto drift_text = [](const ProcessDrift& s) {
      return std::isnan(s.median_change) ? std::string(kUnavailable) : format_change_percent(s.median_change);
    };
    // Each side's samples in measurement order (processes one after another), drawn as a sparkline
    // (at most kCellSparklinePoints bucket means are kept).
    // Process order as in the p50 lists beside them (pairs in order, then unpaired sets).
    const auto in_order = [&](const std::vector<std::size_t>& sets) {
      std::vector<double> samples;
      for (const auto& process : process_sets(ds_, sets, opt_.pair_column, cmp_.cases[i].pairs)) {
        for (const auto set : process) ds_.append_base_samples(set, samples);
      }
      return cell_sparkline_samples(samples);
    };
    Cell base(join_values(c.base_process_medians));
    base.samples = in_order(cmp_.cases[i].base_sets);
    Cell head(join_values(c.head_process_medians));
    head.samples = in_order(cmp_.cases[i].head_sets);
    return {row_name(i),
            std::move(base),
            std::move(head),
            Cell(paired, c.processes_disagree ? CellRole::inconclusive : CellRole::none),
            fmt::format("{}, {}", format_percent(c.base_mad_pct / 100, 1), format_percent(c.head_mad_pct / 100, 1)),
            fmt::format("{}, {}", drift_text(d.base), drift_text(d.head))};
  }

  Json add_section(Report& report, std::size_t s) const {
    const std::string& section = sections_[s];
    const SectionFigures& f = figures_[s];
    if (!section.empty() || sections_.size() > 1) report.add_heading(2, section_heading(section));
    for (const auto& flag : f.drift_flags) {
      report.add_note(fmt::format("Within-process drift: {}.", drift_sentence(flag)), NoteKind::warning);
    }
    std::vector<std::size_t> notable;
    for (const auto i : f.primaries) {
      const auto& c = cmp_.cases[i].comparison;
      const bool claimed = c.verdict == Verdict::slower || c.verdict == Verdict::faster;
      if (claimed || std::abs(c.change_estimate) >= threshold_) notable.push_back(i);
    }
    const std::size_t one_sided = one_sided_count(section, true);
    if (notable.empty() && one_sided == 0) {
      report.add_paragraph(fmt::format("No benchmark reached the {} threshold.", format_percent(threshold_, 0)));
    } else {
      Table& table = report.add_table(change_columns(),
                                      fmt::format("Changes of at least {}{}", format_percent(threshold_, 0),
                                                  one_sided == 0 ? "" : ", added and removed cases"),
                                      fmt::format("notable-{}", section));
      std::vector<std::vector<Cell>> rows;
      for (const auto i : notable) rows.push_back(change_row(i));
      for (auto& row : with_one_sided(section, true, notable, std::move(rows))) table.add_row(std::move(row));
    }
    const std::size_t shown = f.primaries.size() + one_sided;
    Details& details = report.add_details(fmt::format("All benchmarks and sample variation ({})", shown));
    Table& all = details.blocks.add_table(change_columns(), {}, fmt::format("all-{}", section));
    for (auto& row : with_one_sided(section, true, f.primaries, change_rows(f.primaries))) all.add_row(std::move(row));
    if (const std::size_t derived_count = f.derived.size() + one_sided_count(section, false); derived_count > 0) {
      Table& derived = details.blocks.add_table(
          change_columns(),
          fmt::format("Derived metrics ({}): measured with the benchmark's primary metric, not counted again",
                      derived_count),
          fmt::format("derived-{}", section));
      for (auto& row : with_one_sided(section, false, f.derived, change_rows(f.derived)))
        derived.add_row(std::move(row));
    }
    Table& processes = details.blocks.add_table({{"Benchmark"},
                                                 {"Base process p50s", Align::right},
                                                 {"Head process p50s", Align::right},
                                                 {"Paired changes", Align::right},
                                                 {"Sample MAD / p50 (base, head)", Align::right},
                                                 {"Drift (base, head)", Align::right}},
                                                {}, fmt::format("processes-{}", section));
    for (auto& row : per_case(f.primaries, [&](std::size_t i) { return process_row(i); }))
      processes.add_row(std::move(row));
    report.add_footnote(
        "p50 is the median of the samples. MAD describes sample spread; ordered raw samples retain within-process "
        "drift (the sparklines after the process p50s draw each "
        "side's samples in measurement order, processes one after another). Paired change i = head process i vs base "
        "process i of the same interleaving block.");
    return section_json(section, f);
  }

  // Cases on one side only, each as {case column: value}, in the order of their first set.
  Json keys_json(const std::vector<std::vector<std::string>>& keys) const {
    Json out = Json::array();
    for (const auto& key : keys) {
      Json::Object names;
      for (std::size_t c = 0; c < cmp_.by.size(); ++c) names.emplace_back(cmp_.by[c], key[c]);
      out.push_back(Json(std::move(names)));
    }
    return out;
  }

  // The reader warnings that name a case with one side only: the reason a side
  // has no samples (e.g. Google Benchmark aggregate rows only) and what to re-run.
  void add_one_side_reasons(Report& report) const {
    const auto names_a_case = [&](const std::string& warning) {
      for (const auto* cases : {&cmp_.new_cases, &cmp_.removed_cases}) {
        for (const auto& key : *cases) {
          for (const auto& part : key) {
            if (!part.empty() && warning.find(part) != std::string::npos) return true;
          }
        }
      }
      return false;
    };
    std::vector<std::string> reasons;
    for (const auto& warning : ds_.warnings()) {
      if (names_a_case(warning)) reasons.push_back(warning);
    }
    if (reasons.empty()) return;
    report.add_note("Why some cases have one side only \u2014 the readers said:", NoteKind::warning);
    report.add_list(reasons);
  }

  void add_revisions(Report& report) const {
    const auto side = [](const std::string& value, const std::string& commit) {
      return commit.empty() ? value : fmt::format("{} ({})", value, commit.substr(0, 8));
    };
    report.add_paragraph(Spans{Span::plain("Compared "), Span::code(side(cmp_.base_value, cmp_.base_commit)),
                               Span::plain(" → "), Span::code(side(cmp_.head_value, cmp_.head_commit)),
                               Span::plain(fmt::format(" by {}.", cmp_.baseline_column))});
  }

  Json method_json() const {
    const auto& o = cmp_.options;
    return Json(Json::Object{
        {"change", "median(head) / median(base) - 1, pooled samples"},
        {"interval",
         "with >= 2 processes per side: t-interval on log process medians (paired by pair label, else "
         "Welch); else bootstrap ratio of medians over samples (BCa, percentile fallback)"},
        {"threshold", o.threshold},
        {"confidence", o.confidence},
        {"alpha", o.alpha},
        {"resamples", static_cast<std::int64_t>(o.resamples)},
        {"seed", static_cast<std::int64_t>(o.seed)},
        {"drift", fmt::format("median(last {k}) / median(first {k}) - 1 per process; median over processes",
                              fmt::arg("k", opt_.drift_k))},
        {"drift_limit", opt_.drift_limit},
        {"estimators",
         "Hodges-Lehmann shift and ratio, disparity = shift / mean Shamos spread, "
         "distribution-free bounds at misrate"},
        {"misrate", o.misrate}});
  }

  // A section's cases in the payload (every statistic behind its rows), in table order.
  Json cases_json(const std::string& section, const SectionFigures& f) const {
    std::vector<std::ptrdiff_t> matched(f.cases.begin(), f.cases.end());
    std::vector<std::ptrdiff_t> rows = with_one_sided(
        section, std::nullopt, f.cases, std::move(matched),
        [&](const OneSidedCase& o) { return -static_cast<std::ptrdiff_t>(&o - view_.one_sided.data()) - 1; });
    std::vector<std::string_view> unit_bases;
    unit_bases.reserve(rows.size());
    for (const std::ptrdiff_t row : rows) {
      const CaseResult& r = row >= 0 ? cmp_.cases[static_cast<std::size_t>(row)]
                                     : view_.one_sided[static_cast<std::size_t>(-row - 1)].result;
      unit_bases.push_back(unit_base_of(ds_, r));
    }
    return Json(std::make_shared<const SectionCases>(shared_view_, std::move(rows), std::move(unit_bases)));
  }

  Json section_json(const std::string& section, const SectionFigures& f) const {
    Json cases = cases_json(section, f);
    Json verdicts = Json::object();
    for (const Verdict v :
         {Verdict::faster, Verdict::slower, Verdict::inconclusive, Verdict::equivalent, Verdict::unchanged}) {
      verdicts.set(std::string(to_string(v)),
                   static_cast<std::int64_t>(f.rollup.verdict_counts[static_cast<std::size_t>(v)]));
    }
    Json::Object out{{"section", section},
                     {"title", section_title(section)},
                     {"cases_compared", static_cast<std::int64_t>(f.primaries.size())},
                     {"median_abs_change", f.rollup.median_abs_change},
                     {"cases_at_threshold", static_cast<std::int64_t>(f.rollup.cases_at_threshold)},
                     {"largest_abs_change", f.rollup.largest_abs_change},
                     {"largest_abs_change_case", f.largest ? Json(view_.names[*f.largest]) : Json()},
                     {"geomean_change", f.rollup.geomean_ratio - 1},
                     {"geomean_change_lower", f.rollup.geomean_lower - 1},
                     {"geomean_change_upper", f.rollup.geomean_upper - 1},
                     {"suggested_threshold", cmp_.same_revision ? Json(f.suggested_threshold) : Json()},
                     {"verdicts", std::move(verdicts)},
                     {"drift_flags", static_cast<std::int64_t>(f.drift_flags.size())}};
    out.emplace_back("cases", std::move(cases));  // moved in: in the list above it would be copied, case by case
    return Json(std::move(out));
  }

  std::shared_ptr<const ComparisonView> shared_view_;  // kept by the payload's SectionCases
  const Dataset& ds_;
  const ComparisonView& view_;
  const DatasetComparison& cmp_;
  const ComparisonReportOptions& opt_;
  double threshold_;
  const std::vector<CaseDrift>& drifts_;
  bool has_metric_;  // a metric case column: one row per measurement, metrics in their own column
  std::vector<std::string> sections_;
  std::vector<SectionFigures> figures_;
};

// True when `value` stands in `text` as a whole token (bounded by non-alphanumerics):
// "javascript" in "javascript/function/add", not "1" in "n=16".
bool contains_token(std::string_view text, std::string_view value) {
  const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (auto at = text.find(value); at != std::string_view::npos; at = text.find(value, at + 1)) {
    const bool open = at == 0 || !is_word(text[at - 1]);
    const std::size_t end = at + value.size();
    if (open && (end == text.size() || !is_word(text[end]))) return true;
  }
  return false;
}

// Case columns whose value differs between cases, one-sided ones included (one that never varies,
// e.g. a Go pkg, names nothing).
std::vector<bool> varying_columns(const DatasetComparison& cmp, const std::vector<OneSidedCase>& one_sided) {
  std::vector<bool> varies(cmp.by.size(), false);
  const auto& first = cmp.cases.front().key;
  const auto visit = [&](const std::vector<std::string>& key) {
    for (std::size_t k = 0; k < varies.size(); ++k) varies[k] = varies[k] || key[k] != first[k];
  };
  for (const auto& c : cmp.cases) visit(c.key);
  for (const auto& o : one_sided) visit(o.result.key);
  return varies;
}

// `with_metric` false: the metric column is left out (a table shows it in a column of its own).
std::string case_display_name(const Dataset& dataset, const CaseResult& result, const DatasetComparison& cmp,
                              const std::vector<bool>& varies, const ComparisonReportOptions& options,
                              const std::string& section, bool with_metric) {
  const std::size_t first = first_set(result);
  const std::string benchmark(dataset.label(first, options.benchmark_column));
  std::string name;
  if (cmp.baseline_column == options.benchmark_column) {
    // Two benchmarks of one run (compare.py's filters mode): the case is named after both.
    name = fmt::format("{} vs {}", cmp.base_value, cmp.head_value);
  } else if (const auto it = options.display_names.find(benchmark); it != options.display_names.end()) {
    name = it->second;
  } else {
    const auto display = metadata::set_metadata_display(dataset, first, options.display_name_key);
    const std::string display_name = display.value_or("");
    if (benchmark.empty()) {
      name = join_key(result.key);
    } else if (options.case_name) {
      name = options.case_name(benchmark, section, display_name);
    } else {
      name = display_name.empty() ? benchmark : display_name;
    }
  }
  // Case columns that tell cases apart and that the benchmark id does not already spell stay visible.
  std::vector<std::string> extra;
  for (std::size_t k = 0; k < cmp.by.size(); ++k) {
    const auto& column = cmp.by[k];
    const auto& value = result.key[k];
    if (column == options.benchmark_column || column == options.section_column || value.empty() || !varies[k]) continue;
    if (!with_metric && column == kMetricLabel) continue;
    if (benchmark.empty() || contains_token(benchmark, value)) continue;
    extra.push_back(fmt::format("{}={}", column, value));
  }
  return extra.empty() ? name : fmt::format("{} ({})", name, fmt::join(extra, ", "));
}

// What a table shows of a case besides its figures.
struct CaseLabels {
  std::string name, row_name, metric, section;
};

CaseLabels case_labels(const Dataset& dataset, const CaseResult& c, const DatasetComparison& cmp,
                       const std::vector<bool>& varies, const ComparisonReportOptions& options) {
  const std::size_t first = first_set(c);
  CaseLabels out;
  if (dataset.has_label(first, options.section_column)) out.section = dataset.label(first, options.section_column);
  out.name = case_display_name(dataset, c, cmp, varies, options, out.section, true);
  out.row_name = case_display_name(dataset, c, cmp, varies, options, out.section, false);
  out.metric = case_metric(c, cmp.by);
  return out;
}

// The values of the labels that tell one process (or input file) of a side from another.
std::string process_id(const Dataset& dataset, std::size_t set) {
  std::string id;
  for (const std::string_view label : {kFileLabel, kProcessLabel, kPairLabel, std::string_view("run")}) {
    if (dataset.column(label) != nullptr && dataset.has_label(set, label)) id += dataset.label(set, label);
    id += '\x1f';
  }
  return id;
}

// Stable case order (see comparison_view): a measurement's rank is its place in the first base
// process when every base process ran the measurements they share in that order, else its name.
// Returns the cases' indices in that order.
std::vector<std::size_t> stable_order(const Dataset& dataset, const std::vector<const CaseResult*>& cases,
                                      const std::vector<std::string>& by) {
  const std::size_t n = cases.size();
  std::vector<std::vector<std::string>> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = measurement_key(*cases[i], by);
  std::vector<std::pair<std::size_t, std::size_t>> sets;  // (set, case): base sets in the order they were read
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto set : cases[i]->base_sets) sets.emplace_back(set, i);
  }
  std::sort(sets.begin(), sets.end());
  std::map<std::vector<std::string>, std::size_t> rank;  // place in the first base process
  std::map<std::string, std::size_t> last;               // per process: the rank of its latest measurement
  bool agree = true;
  const std::string first = sets.empty() ? std::string() : process_id(dataset, sets.front().first);
  for (const auto& [set, i] : sets) {
    if (process_id(dataset, set) == first) rank.emplace(keys[i], rank.size());
  }
  for (const auto& [set, i] : sets) {
    const auto it = rank.find(keys[i]);
    if (it == rank.end()) continue;
    auto [seen, inserted] = last.emplace(process_id(dataset, set), it->second);
    if (!inserted && it->second < seen->second) agree = false;
    seen->second = std::max(seen->second, it->second);
  }
  if (!agree) rank.clear();
  std::vector<std::size_t> place(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto it = rank.find(keys[i]);
    place[i] = it == rank.end() ? rank.size() : it->second;
  }
  // Measurements the first process did not run (all of them when processes disagree) by name, after it;
  // the metrics of one measurement keep the reader's order.
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return place[a] != place[b] ? place[a] < place[b] : (place[a] == rank.size() && keys[a] < keys[b]);
  });
  return order;
}

// A case on one side only as a row: its side's pooled median (the figure a matched case shows per side).
OneSidedCase one_sided_case(const Dataset& dataset, std::vector<std::string> key, std::vector<std::size_t> sets,
                            bool added, const CompareOptions& options) {
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  OneSidedCase o;
  CaseComparison& c = o.result.comparison;
  c.case_name = join_key(key);
  c.verdict = added ? Verdict::added : Verdict::removed;
  std::vector<double> samples;
  for (const auto set : sets) dataset.append_base_samples(set, samples);
  const double median = median_inplace(samples);
  c.base_median = added ? kNone : median;
  c.head_median = added ? median : kNone;
  (added ? c.head_n : c.base_n) = samples.size();
  c.change = c.change_lower = c.change_upper = c.change_estimate = kNone;
  c.base_mad_pct = c.head_mad_pct = c.shift = c.ratio = c.disparity = c.prob_head_better = kNone;
  c.shift_bounds = c.ratio_bounds = c.disparity_bounds = Bounds{kNone, kNone, kNone};
  c.mann_whitney.p_value = kNone;
  c.threshold = options.threshold;
  c.alpha = options.alpha;
  c.confidence = options.confidence;
  c.direction = dataset.direction(sets.front());
  o.result.key = std::move(key);
  (added ? o.result.head_sets : o.result.base_sets) = std::move(sets);
  return o;
}

// The comparison's new and removed cases with the sets of their side, in first-set order.
std::vector<OneSidedCase> one_sided_cases(const Dataset& dataset, const DatasetComparison& cmp) {
  std::vector<OneSidedCase> out;
  for (std::size_t i = 0; i < cmp.removed_cases.size(); ++i)
    out.push_back(one_sided_case(dataset, cmp.removed_cases[i], cmp.removed_case_sets[i], false, cmp.options));
  for (std::size_t i = 0; i < cmp.new_cases.size(); ++i)
    out.push_back(one_sided_case(dataset, cmp.new_cases[i], cmp.new_case_sets[i], true, cmp.options));
  return out;
}

// Matched and one-sided cases in one stable order: the matched ones keep it in cmp.cases, and each
// one-sided case notes the matched case it comes before.
void order_cases(const Dataset& dataset, DatasetComparison& cmp, std::vector<OneSidedCase>& one_sided) {
  std::vector<const CaseResult*> all;
  for (const auto& c : cmp.cases) all.push_back(&c);
  for (const auto& o : one_sided) all.push_back(&o.result);
  const std::size_t matched = cmp.cases.size();
  std::vector<CaseResult> cases;
  std::vector<OneSidedCase> others;
  for (const auto i : stable_order(dataset, all, cmp.by)) {
    if (i < matched) {
      cases.push_back(std::move(cmp.cases[i]));
    } else {
      others.push_back(std::move(one_sided[i - matched]));
      others.back().before = cases.size();
    }
  }
  cmp.cases = std::move(cases);
  one_sided = std::move(others);
}

void check_drift_options(const ComparisonReportOptions& options) {
  if (!(options.drift_limit > 0) || options.drift_k == 0) {
    throw InputError("comparison report: drift_limit must be > 0 and drift_k >= 1");
  }
}

// Drift of one side of a case over its processes (one set each), with the trend test beyond drift_limit.
ProcessDrift side_drift(const Dataset& dataset, const std::vector<std::size_t>& sets,
                        const ComparisonReportOptions& options) {
  std::vector<BaseSamples> samples;
  std::vector<std::span<const double>> processes;
  samples.reserve(sets.size());
  for (const auto set : sets) processes.push_back(samples.emplace_back(dataset.base_samples(set)).span());
  return process_drift(processes, options.drift_k, options.drift_limit);
}

// Families over a size (BM_sort/1024 ...) get the scaling preset's growth
// change after the cases; reports without families are left exactly as they were.
void add_scaling_section(Report& report, const Dataset& dataset, const ComparisonReportOptions& options) {
  ScalingOptions o;
  o.baseline_column = options.baseline_column;
  o.baseline_value = options.baseline_value;
  o.head_value = options.head_value;
  o.pair_column = options.pair_column;
  o.families.ignore_columns.insert(o.families.ignore_columns.end(), options.process_columns.begin(),
                                   options.process_columns.end());
  const ScalingResult result = scaling(dataset, o);
  if (!result.compared || result.comparisons.empty()) return;
  add_scaling_blocks(report.blocks, result, 2);
  report.data.set("scaling", scaling_json(result));
}

// Sections, titles and the case-name rule left empty take the conventions of the data's format.
ComparisonReportOptions with_format_conventions(const Dataset& dataset, ComparisonReportOptions options) {
  FormatConventions conventions = format_conventions(dataset);
  if (options.section_order.empty()) options.section_order = std::move(conventions.section_order);
  if (options.section_titles.empty()) options.section_titles = std::move(conventions.section_titles);
  if (!options.case_name && conventions.case_name != nullptr) options.case_name = conventions.case_name;
  return options;
}

}  // namespace

ComparisonView comparison_view(const Dataset& dataset, const ComparisonReportOptions& given) {
  const ComparisonReportOptions options = with_format_conventions(dataset, given);
  check_drift_options(options);
  ComparisonView view;
  view.comparison = compare(dataset, static_cast<const DatasetCompareOptions&>(options));
  view.one_sided = one_sided_cases(dataset, view.comparison);
  order_cases(dataset, view.comparison, view.one_sided);
  const std::vector<bool> varies = varying_columns(view.comparison, view.one_sided);
  std::vector<const CaseResult*> cases;
  for (const auto& c : view.comparison.cases) {
    cases.push_back(&c);
    CaseLabels labels = case_labels(dataset, c, view.comparison, varies, options);
    view.names.push_back(std::move(labels.name));
    view.row_names.push_back(std::move(labels.row_name));
    view.metrics.push_back(std::move(labels.metric));
    view.sections.push_back(std::move(labels.section));
  }
  view.primaries = measurement_primaries(cases, view.comparison.by);
  // A one-sided case is its measurement's primary unless a case of that measurement comes before it.
  std::set<std::vector<std::string>> seen;
  std::size_t k = 0;
  for (auto& o : view.one_sided) {
    for (; k < o.before; ++k) seen.insert(measurement_key(view.comparison.cases[k], view.comparison.by));
    CaseLabels labels = case_labels(dataset, o.result, view.comparison, varies, options);
    o.name = std::move(labels.name);
    o.row_name = std::move(labels.row_name);
    o.metric = std::move(labels.metric);
    o.section = std::move(labels.section);
    o.primary = seen.insert(measurement_key(o.result, view.comparison.by)).second;
  }
  view.drifts = map_indexed(view.comparison.cases.size(), 512, options.threads, [&](std::size_t i) {
    const auto& c = view.comparison.cases[i];
    return CaseDrift{side_drift(dataset, c.base_sets, options), side_drift(dataset, c.head_sets, options)};
  });
  return view;
}

Report comparison_report(const Dataset& dataset, std::shared_ptr<const ComparisonView> view,
                         const ComparisonReportOptions& given) {
  const ComparisonReportOptions options = with_format_conventions(dataset, given);
  check_drift_options(options);
  Report report = ComparisonBuilder(dataset, std::move(view), options).build();
  add_scaling_section(report, dataset, options);
  return report;
}

Columns comparison_columns(const Dataset& dataset, const ComparisonView& view) {
  Columns out;
  ColumnFields fields(out);
  const auto row = [&](const RowFacts& facts) {
    out.begin_row();
    visit_comparison_row(unit_base_of(dataset, facts.result), view.comparison.by, facts, fields);
  };
  // In the stable order: each one-sided case before the matched case it precedes.
  std::size_t k = 0;
  for (const auto& o : view.one_sided) {
    for (; k < o.before; ++k) row(matched_row(view, k));
    row(one_sided_row(o));
  }
  for (; k < view.comparison.cases.size(); ++k) row(matched_row(view, k));
  return out;
}

Report case_comparisons_report(std::span<const CaseComparison* const> cases, const std::string& title) {
  Report report(title);
  if (cases.empty()) return report;
  Table& table = report.add_table(case_change_columns(cases.front()->confidence, false), {}, "cases");
  std::vector<std::string> warnings;
  std::vector<std::string> methods;
  const Unit unit = parse_unit("1");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CaseComparison& c = *cases[i];
    const std::string name = c.case_name.empty() ? fmt::format("case {}", i + 1) : c.case_name;
    table.add_row(case_change_cells(name, std::nullopt, c, unit));
    for (const auto& w : c.warnings) warnings.push_back(fmt::format("{}: {}", name, w));
    const std::string method = interval_method_text(c.change_interval_method);
    if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
  }
  table.footnote =
      fmt::format("p50 = median in the input's unit; change = head p50 / base p50 − 1; its interval is {}.",
                  fmt::join(methods, "; "));
  if (!warnings.empty()) report.add_details(fmt::format("{} warning(s)", warnings.size())).blocks.add_list(warnings);
  return report;
}

Report comparison_report(const Dataset& dataset, const ComparisonReportOptions& options) {
  return comparison_report(dataset, std::make_shared<const ComparisonView>(comparison_view(dataset, options)), options);
}

}  // namespace benchreport

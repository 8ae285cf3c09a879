// The `history` preset: trends, change points and the per-commit roll-up,
// laid out in the report model from an analyze_history result.
#include "benchreport/presets/history.hpp"

#include "benchreport/report/fields.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchreport/core/error.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

constexpr ValueStyle kHistoryValue{.scale = true, .significant = true, .symbol = ValueStyle::Symbol::shown_unless_one};

Json finite_or_null(double x) { return std::isfinite(x) ? Json(x) : Json(); }

// A difference in the series' unit, signed: "+3 B", "-1.500 ms".
std::string signed_value(double x, const Series& s) {
  if (!std::isfinite(x)) return std::string(kUnavailable);
  return fmt::format("{}{}", x < 0 ? "-" : "+", format_value(std::abs(x), s.unit, kHistoryValue));
}

std::string interval_text(const ChangePoint& cp, const Series& s) {
  if (!std::isfinite(cp.lower)) return std::string(kUnavailable);
  if (!cp.relative) return fmt::format("[{}, {}]", signed_value(cp.lower, s), signed_value(cp.upper, s));
  return fmt::format("[{}, {}]", format_change_percent(cp.lower), format_change_percent(cp.upper));
}

// Relative: "+5.00% slower"; absolute (a series with a value <= 0): "+3 B (absolute) worse".
std::string change_text(double change, bool relative, const Series& s) {
  if (relative) return format_change(change, s.direction);
  if (change == 0.0) return "no change (absolute)";
  const bool higher = s.direction == Direction::higher_is_better;
  const char* word = higher == (change > 0) ? (higher ? "better" : "faster") : (higher ? "worse" : "slower");
  return fmt::format("{} (absolute) {}", signed_value(change, s), word);
}

std::string_view method_name(ChangeMethod m) { return m == ChangeMethod::steps ? "steps" : "e_divisive"; }

std::string_view test_name(const HistoryAnalysis& a, const ChangePoint& cp) {
  if (a.options.method == ChangeMethod::steps) return "step_z";
  return cp.permuted ? "permutation" : "welch_t_bonferroni";
}

CellRole change_role(const ChangePoint& cp) { return cp.regression ? CellRole::slower : CellRole::faster; }

std::vector<Column> key_columns(const History& h) {
  std::vector<Column> columns;
  for (const auto& c : h.by) columns.emplace_back(c);
  if (columns.empty()) columns.emplace_back("case");
  return columns;
}

std::vector<Cell> key_cells(const Series& s) {
  if (s.key.empty()) return {Cell("all sets")};
  return {s.key.begin(), s.key.end()};
}

std::string status_text(const HistoryAnalysis& a, std::size_t i) {
  const SeriesChanges& c = a.changes[i];
  if (c.regressed_since) {
    return fmt::format("still regressed since {} ({})", a.history.commits[*c.regressed_since],
                       change_text(c.latest_change, c.relative, a.history.series[i]));
  }
  return c.change_points.empty() ? "stable" : "not regressed";
}

void add_rollup(Report& report, const HistoryAnalysis& a, std::size_t max_rows) {
  const auto moves = commits_moving_cases(a);
  if (moves.empty()) return;
  Table& t =
      report.add_table({Column("commit"), Column("regressions", Align::right), Column("improvements", Align::right)},
                       "Commits that moved most cases", "rollup");
  for (std::size_t i = 0; i < moves.size() && i < max_rows; ++i) {
    const auto& m = moves[i];
    t.add_row({Cell(a.history.commits[m.commit], CellRole::code),
               Cell(std::to_string(m.regressions), static_cast<double>(m.regressions),
                    m.regressions > 0 ? CellRole::slower : CellRole::none),
               Cell(std::to_string(m.improvements), static_cast<double>(m.improvements))});
  }
  if (moves.size() > max_rows) t.footnote = fmt::format("{} more commits moved cases.", moves.size() - max_rows);
}

void add_cases(Report& report, const HistoryAnalysis& a) {
  std::vector<Column> columns = key_columns(a.history);
  for (const char* c : {"commits", "latest", "change points"}) columns.emplace_back(c, Align::right);
  columns.emplace_back("status");
  columns.emplace_back("trend");
  Table& t = report.add_table(std::move(columns), "Cases", "cases");
  for (std::size_t i = 0; i < a.history.series.size(); ++i) {
    const Series& s = a.history.series[i];
    std::vector<Cell> row = key_cells(s);
    row.emplace_back(std::to_string(s.values.size()), static_cast<double>(s.values.size()));
    row.emplace_back(format_value(s.values.back(), s.unit, kHistoryValue), s.values.back());
    const std::size_t n = a.changes[i].change_points.size();
    row.emplace_back(std::to_string(n), static_cast<double>(n));
    row.emplace_back(status_text(a, i), a.changes[i].regressed_since ? CellRole::slower : CellRole::none);
    row.push_back(Cell("").with_samples(cell_sparkline_samples(s.values)));
    t.add_row(std::move(row));
  }
  t.footnote = fmt::format(
      "latest = summary of the last commit; a commit's summary is the median of its processes' "
      "medians; trend = the summaries in {} order.",
      a.history.order);
}

// A line at `level` over the commits [begin, end) of a series, then a gap.
void add_level(PlotSeries& line, std::size_t begin, std::size_t end, double level) {
  line.x.insert(line.x.end(), {static_cast<double>(begin) - 0.5, static_cast<double>(end) - 0.5, 0.0});
  line.y.insert(line.y.end(), {level, level, std::nan("")});
}

// One case over its commits: the commit summaries as points, each segment's
// median as a level (red after a regression), a dashed marker per change point.
Plot series_plot(const HistoryAnalysis& a, std::size_t i) {
  const Series& s = a.history.series[i];
  const std::vector<ChangePoint>& cps = a.changes[i].change_points;
  Plot p;
  std::vector<Cell> key = key_cells(s);
  for (std::size_t c = 0; c < key.size(); ++c) p.title += (c == 0 ? "" : " / ") + key[c].text;
  p.title += fmt::format(" over {} commits", s.values.size());
  p.x_label = a.history.order;
  p.y_label = s.unit.dimension == Dimension::time ? "time" : std::string(base_symbol(s.unit.dimension));
  p.y_unit = base_symbol(s.unit.dimension);
  p.log_x = p.log_y = false;
  PlotSeries points{"commit summary", {}, {}, false}, levels{"segment median", {}, {}, true},
      regressed{"after a regression", {}, {}, true, PlotTone::worse};
  for (std::size_t k = 0; k < s.values.size(); ++k) {
    p.x_names.push_back(a.history.commits[s.commits[k]]);
    points.x.push_back(static_cast<double>(k));
    points.y.push_back(s.values[k]);
  }
  if (cps.empty()) add_level(levels, 0, s.values.size(), median(s.values));
  for (std::size_t j = 0; j < cps.size(); ++j) {
    if (j == 0) add_level(levels, 0, cps[0].index, cps[0].before);
    const std::size_t end = j + 1 < cps.size() ? cps[j + 1].index : s.values.size();
    add_level(cps[j].regression ? regressed : levels, cps[j].index, end, cps[j].after);
    p.markers.push_back({static_cast<double>(cps[j].index) - 0.5,
                         cps[j].relative ? format_change_percent(cps[j].change) : signed_value(cps[j].change, s),
                         cps[j].regression ? PlotTone::worse : PlotTone::better});
  }
  p.series = {std::move(points), std::move(levels)};
  if (!regressed.x.empty()) p.series.push_back(std::move(regressed));
  return p;
}

// Plots of the cases with change points, then of the others, up to options.max_plots.
void add_plots(Report& report, const HistoryAnalysis& a, std::size_t max_plots) {
  std::vector<std::size_t> order(a.history.series.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(),
                        [&a](std::size_t i) { return !a.changes[i].change_points.empty(); });
  const std::size_t shown = std::min(max_plots, order.size());
  for (std::size_t k = 0; k < shown; ++k) report.add_plot(series_plot(a, order[k]));
  if (shown < order.size()) {
    report.add_paragraph(
        fmt::format("{} more cases are not plotted (cases with change points come first).", order.size() - shown));
  }
}

std::string method_footnote(const ChangePointOptions& o) {
  const std::string common = fmt::format(
      "changes whose |after / before - 1| of the segment medians is below {} are dropped; a series with a value <= 0 "
      "has absolute changes (after - before) and no such floor; the interval is a Welch t interval on the (log, when "
      "relative) commit summaries of the two adjacent segments.",
      format_percent(o.min_magnitude, 1));
  if (o.method == ChangeMethod::steps) {
    return fmt::format(
        "Steps (docs/statistics-history.md) on the per-commit summaries: candidates from a penalised segmentation "
        "(penalty {:g} sigma^2 ln n, sigma = 1.4826 MAD of first differences / sqrt 2), each kept when, in a window "
        "of up to {} commits either side, a step lowers the squared error of the best null (a level, or a level and "
        "a slope at {:g} ln n) by at least {:g} ln n noise variances and is at least {:g} noise sigma; p = the "
        "step's normal p times the positions tested; {}",
        o.steps.candidate_penalty, o.steps.window, o.steps.slope_penalty, o.steps.threshold, o.steps.min_effect,
        common);
  }
  return fmt::format(
      "E-divisive means (alpha = 1) on the per-commit summaries; a split is kept when its permutation p-value "
      "({} permutations, seed {}) is at most {:g}; "
      "(t): kept without permutations, because the Welch t-test between the two sides of its segment, times the "
      "number of splits the segment allows, is at most {:g} (the p shown); {}",
      o.detect.permutations, o.detect.seed, o.detect.max_p_value,
      std::min(o.detect.screen_p_value, o.detect.max_p_value), common);
}

// The alert of change point k of series i, or nullptr without a store.
const ChangePointAlert* alert_of(const HistoryReportOptions& o, std::size_t i, std::size_t k) {
  return o.alerts.empty() ? nullptr : &o.alerts[i][k];
}

bool any_cause(const HistoryReportOptions& o) {
  for (const auto& series : o.alerts) {
    for (const auto& alert : series) {
      if (!alert.cause.empty()) return true;
    }
  }
  return false;
}

void check_alerts(const HistoryAnalysis& a, const HistoryReportOptions& o) {
  if (o.alerts.empty()) return;
  bool fits = o.alerts.size() == a.changes.size();
  for (std::size_t i = 0; fits && i < a.changes.size(); ++i)
    fits = o.alerts[i].size() == a.changes[i].change_points.size();
  if (!fits) throw InputError("history report: the alerts do not match the analysis' change points one to one");
}

void add_change_points(Report& report, const HistoryAnalysis& a, const HistoryReportOptions& o) {
  const bool causes = any_cause(o);
  std::vector<Column> columns = key_columns(a.history);
  columns.emplace_back("commit");
  columns.emplace_back("before \u2192 after", Align::right);
  columns.emplace_back("change", Align::right);
  columns.emplace_back(fmt::format("{:g}% interval", a.options.confidence * 100), Align::right);
  columns.emplace_back("p", Align::right);
  if (!o.alerts.empty()) columns.emplace_back("state");
  if (causes) columns.emplace_back("likely cause");
  Table& t = report.add_table(std::move(columns), "Change points", "change_points");
  for (std::size_t i = 0; i < a.history.series.size(); ++i) {
    const Series& s = a.history.series[i];
    for (std::size_t k = 0; k < a.changes[i].change_points.size(); ++k) {
      const ChangePoint& cp = a.changes[i].change_points[k];
      std::vector<Cell> row = key_cells(s);
      row.emplace_back(a.history.commits[cp.commit], CellRole::code);
      row.emplace_back(fmt::format("{} \u2192 {}", format_value(cp.before, s.unit, kHistoryValue),
                                   format_value(cp.after, s.unit, kHistoryValue)));
      row.emplace_back(change_text(cp.change, cp.relative, s), cp.change, change_role(cp));
      row.emplace_back(interval_text(cp, s));
      row.emplace_back(cp.permuted || a.options.method == ChangeMethod::steps ? fmt::format("{:.3g}", cp.p_value)
                                                                              : fmt::format("{:.1e} (t)", cp.p_value),
                       cp.p_value);
      if (const ChangePointAlert* alert = alert_of(o, i, k)) {
        const bool alarm = cp.regression && (alert->state == "new" || alert->state == "confirmed");
        row.emplace_back(alert->note.empty() ? alert->state : fmt::format("{}: {}", alert->state, alert->note),
                         alarm ? CellRole::slower : CellRole::none);
        if (causes) row.emplace_back(alert->cause);
      }
      t.add_row(std::move(row));
    }
  }
  t.footnote = method_footnote(a.options);
}

// The fields of one change point: its JSON object and its columns.
template <class Visitor>
void visit_change_point(const HistoryAnalysis& a, const ChangePoint& cp, Visitor& v) {
  v.field("commit", a.history.commits[cp.commit]);
  v.field("index", cp.index);
  v.field("before", cp.before);
  v.field("after", cp.after);
  v.field("change", cp.change);
  v.optional("lower", std::isfinite(cp.lower), cp.lower);
  v.optional("upper", std::isfinite(cp.upper), cp.upper);
  v.field("p_value", cp.p_value);
  v.field("relative", cp.relative);
  v.field("test", std::string(test_name(a, cp)));
  v.field("regression", cp.regression);
}

Json text_or_null(const std::string& s) { return s.empty() ? Json() : Json(s); }

Json payload(const HistoryAnalysis& a, const HistoryReportOptions& o) {
  Json series = Json::array();
  for (std::size_t i = 0; i < a.history.series.size(); ++i) {
    const Series& s = a.history.series[i];
    Json labels = Json::object();
    for (std::size_t c = 0; c < a.history.by.size() && c < s.key.size(); ++c) labels.set(a.history.by[c], s.key[c]);
    Json commits = Json::array(), values = Json::array(), cps = Json::array();
    for (std::size_t k = 0; k < s.values.size(); ++k) {
      commits.push_back(a.history.commits[s.commits[k]]);
      values.push_back(s.values[k]);
    }
    for (std::size_t k = 0; k < a.changes[i].change_points.size(); ++k) {
      JsonFields fields;
      visit_change_point(a, a.changes[i].change_points[k], fields);
      Json cp(fields.take());
      if (const ChangePointAlert* alert = alert_of(o, i, k)) {
        cp.set("state", alert->state);
        cp.set("note", text_or_null(alert->note));
        cp.set("cause", text_or_null(alert->cause));
      }
      cps.push_back(std::move(cp));
    }
    Json item = Json::object();
    item.set("labels", std::move(labels));
    item.set("unit", std::string(base_symbol(s.unit.dimension)));
    item.set("commits", std::move(commits));
    item.set("values", std::move(values));
    item.set("change_points", std::move(cps));
    const auto& since = a.changes[i].regressed_since;
    item.set("regressed_since", since ? Json(a.history.commits[*since]) : Json());
    item.set("latest_change", finite_or_null(a.changes[i].latest_change));
    item.set("change_kind", a.changes[i].relative ? "relative" : "absolute");
    series.push_back(std::move(item));
  }
  Json by = Json::array();
  for (const auto& c : a.history.by) by.push_back(c);
  Json out = Json::object();
  out.set("schema", std::string(kHistorySchema));
  out.set("order", a.history.order);
  out.set("by", std::move(by));
  out.set("method", std::string(method_name(a.options.method)));
  if (a.options.method == ChangeMethod::steps) {
    Json steps = Json::object();
    steps.set("min_segment", a.options.steps.min_segment);
    steps.set("candidate_penalty", a.options.steps.candidate_penalty);
    steps.set("threshold", a.options.steps.threshold);
    steps.set("min_effect", a.options.steps.min_effect);
    steps.set("window", a.options.steps.window);
    steps.set("clip", a.options.steps.clip);
    steps.set("slope_penalty", a.options.steps.slope_penalty);
    steps.set("plain_noise", a.options.steps.plain_noise);
    out.set("steps", std::move(steps));
  }
  out.set("max_p_value", a.options.detect.max_p_value);
  out.set("screen_p_value", a.options.detect.screen_p_value);
  out.set("permutations", a.options.detect.permutations);
  out.set("seed", a.options.detect.seed);
  out.set("min_magnitude", a.options.min_magnitude);
  out.set("threshold", a.options.threshold);
  out.set("series", std::move(series));
  return out;
}

}  // namespace

Columns history_columns(const HistoryAnalysis& a) {
  Columns out;
  ColumnFields fields(out);
  const auto row = [&](const std::vector<std::string>& key, std::string unit, const ChangePoint& cp) {
    out.begin_row();
    for (std::size_t c = 0; c < a.history.by.size(); ++c) {
      fields.field(a.history.by[c].c_str(), c < key.size() ? key[c] : std::string());
    }
    fields.field("unit", std::move(unit));
    visit_change_point(a, cp, fields);
  };
  for (std::size_t i = 0; i < a.history.series.size(); ++i) {
    const Series& s = a.history.series[i];
    for (const auto& cp : a.changes[i].change_points) row(s.key, std::string(base_symbol(s.unit.dimension)), cp);
  }
  if (out.rows() == 0 && !a.history.commits.empty()) {
    row({}, "", ChangePoint{});  // names and kinds without rows
    out.drop_rows();
  }
  return out;
}

// "Alerts: 2 new, 1 confirmed regressions ..." when a store gave states.
void add_alert_summary(Report& report, const HistoryAnalysis& a, const HistoryReportOptions& o) {
  if (o.alerts.empty()) return;
  std::vector<std::string> parts;
  for (const char* state : {"new", "confirmed", "acknowledged", "resolved"}) {
    std::size_t regressions = 0, improvements = 0;
    for (std::size_t i = 0; i < a.changes.size(); ++i) {
      for (std::size_t k = 0; k < a.changes[i].change_points.size(); ++k) {
        if (o.alerts[i][k].state != state) continue;
        (a.changes[i].change_points[k].regression ? regressions : improvements) += 1;
      }
    }
    if (regressions + improvements == 0) continue;
    parts.push_back(fmt::format("{} {} ({} regressions, {} improvements)", regressions + improvements, state,
                                regressions, improvements));
  }
  if (parts.empty()) return;
  report.add_paragraph(fmt::format("Change point states from the store: {}.", fmt::join(parts, ", ")));
}

Report history_report(const HistoryAnalysis& a, const HistoryReportOptions& options) {
  check_alerts(a, options);
  std::size_t points = 0, regressions = 0, still = 0;
  for (const auto& c : a.changes) {
    points += c.change_points.size();
    for (const auto& cp : c.change_points) regressions += cp.regression ? 1 : 0;
    still += c.regressed_since ? 1 : 0;
  }
  Report report(options.title);
  report.add_paragraph(fmt::format(
      "{} over {} (ordered by {}): {}, {} and {}.", format_count(a.history.series.size(), "case", "cases"),
      format_count(a.history.commits.size(), "commit", "commits"), a.history.order,
      format_count(points, "change point", "change points"), format_count(regressions, "regression", "regressions"),
      format_count(points - regressions, "improvement", "improvements")));
  if (still > 0) {
    report.add_note(fmt::format("{} of {} cases are still regressed: their latest segment is worse than their first by "
                                "more than {}.",
                                still, a.history.series.size(), format_percent(a.options.threshold, 0)),
                    NoteKind::warning);
  }
  add_alert_summary(report, a, options);
  add_rollup(report, a, options.max_commits_listed);
  add_cases(report, a);
  add_plots(report, a, options.max_plots);
  if (points > 0) add_change_points(report, a, options);
  report.data = payload(a, options);
  return report;
}

Report history_report(const Dataset& dataset, const HistoryReportOptions& options) {
  if (dataset.empty()) throw InputError("history: no sample sets");
  return history(dataset, options).report;
}

HistoryResult history(const Dataset& dataset, const HistoryReportOptions& options) {
  HistoryAnalysis analysis =
      analyze_history(build_history(dataset, options.series, options.changes.threads), options.changes);
  Report report = history_report(analysis, options);
  return {std::move(analysis), std::move(report)};
}

}  // namespace benchreport

// The scaling preset: see scaling.hpp. Layout only; every figure comes from
// compare/scaling.hpp and stats/scaling.hpp.
#include "benchreport/presets/scaling.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "benchreport/report/fields.hpp"
#include "benchreport/report/format.hpp"

namespace benchreport {
namespace {

constexpr ValueStyle kCost{.scale = true, .significant = true, .symbol = ValueStyle::Symbol::shown_unless_one};
constexpr std::size_t kFitPoints = 48;  // points along a drawn fit line

// How the model is chosen and when none fits (docs/statistics-scaling.md).
std::string model_choice(const ScalingResult& r) {
  return fmt::format(
      "Model: least AICc on log residuals among 1, log n, n, n log n, n², n³; n^b, c + n, c + n log n and c + n^k "
      "replace it only with less AICc and a fixed cost c whose interval excludes 0 (n^b: an exponent interval "
      "excluding that model's slope; c + n^k: also k's excluding 1 and that slope). Lack of fit: F test of the "
      "residuals per size against the spread between processes, p < {:g}.",
      r.options.fit.lack_of_fit_alpha);
}

// "O(n log n)"; with a fixed cost "c + O(n)", and c + n^k with its fitted k.
std::string model_label(const ModelFit& m) {
  switch (m.model) {
    case GrowthModel::linear_offset: return "c + O(n)";
    case GrowthModel::n_log_n_offset: return "c + O(n log n)";
    case GrowthModel::power_offset: return fmt::format("c + O(n^{})", format_fixed(m.exponent));
    default: return fmt::format("O({})", growth_model_name(m.model));
  }
}

// The model a table names: the best one, or that none fits and the closest.
std::string chosen_text(const ScalingFit& fit) {
  if (fit.lack_of_fit.detected) return fmt::format("none fits (closest {})", model_label(fit.best_fit()));
  return model_label(fit.best_fit());
}

CellRole chosen_role(const ScalingFit& fit) {
  return fit.lack_of_fit.detected ? CellRole::inconclusive : CellRole::none;
}

// The fixed cost c of the chosen model with its interval, or "—" without one.
Cell intercept_cell(const FamilyFit& f) {
  const ModelFit& m = f.fit.best_fit();
  if (!has_intercept(m.model)) return Cell(std::string(kUnavailable));
  return Cell(
      fmt::format("{} ({} to {})", format_value(m.intercept, f.unit, kCost),
                  format_value(m.intercept_lower, f.unit, kCost), format_value(m.intercept_upper, f.unit, kCost)),
      m.intercept);
}

std::string lack_of_fit_text(const LackOfFit& l) {
  if (!l.tested) return std::string(kUnavailable);
  return fmt::format("F = {}, p = {}", format_fixed(l.f), fmt::format("{:.2g}", l.p));
}

// A warning naming each fit that no model fits, or nothing.
void add_lack_of_fit_note(Blocks& blocks, const std::vector<std::pair<std::string, const ScalingFit*>>& fits) {
  std::vector<std::string> names;
  for (const auto& [name, fit] : fits) {
    if (fit->lack_of_fit.detected) names.push_back(fmt::format("{} ({})", name, lack_of_fit_text(fit->lack_of_fit)));
  }
  if (names.empty()) return;
  blocks.add_note(fmt::format("No model fits {}: the cost per size strays from every model by more than the "
                              "processes at one size differ (lack-of-fit F test). The closest model is drawn; "
                              "its growth class is not a finding.",
                              fmt::join(names, "; ")),
                  NoteKind::warning);
}

std::string exponent_text(const PowerFit& p) {
  return fmt::format("{} ({})", format_fixed(p.exponent), format_range(p.exponent_lower, p.exponent_upper));
}

std::string reported_text(const FamilyFit& f) {
  if (!f.reported) return std::string(kUnavailable);
  return fmt::format("O({}), RMS {}", f.reported->big_o, format_percent(f.reported->rms, 0));
}

CellRole verdict_role(GrowthVerdict v) {
  switch (v) {
    case GrowthVerdict::steeper: return CellRole::slower;
    case GrowthVerdict::flatter: return CellRole::faster;
    case GrowthVerdict::unchanged: return CellRole::unchanged;
    case GrowthVerdict::inconclusive: return CellRole::inconclusive;
  }
  return CellRole::none;
}

std::string verdict_text(const GrowthChange& c) {
  switch (c.verdict) {
    case GrowthVerdict::steeper: return "grows faster";
    case GrowthVerdict::flatter: return "grows slower";
    case GrowthVerdict::unchanged: return "same growth";
    case GrowthVerdict::inconclusive: return "inconclusive";
  }
  return {};
}

std::string ratio_text(double ratio, double lower, double upper) {
  return fmt::format("{} ({} to {})", format_change_percent(ratio - 1), format_change_percent(lower - 1),
                     format_change_percent(upper - 1));
}

PlotSeries measured(const FamilyFit& f, std::string name) {
  PlotSeries s{std::move(name), {}, {}, false};
  for (const SizeLevel& level : f.levels) {
    for (const double v : level.values) {
      s.x.push_back(level.size);
      s.y.push_back(v);
    }
  }
  return s;
}

PlotSeries fitted(const FamilyFit& f, std::string name) {
  PlotSeries s{std::move(name), {}, {}, true};
  const double lo = std::log(f.fit.sizes.front()), hi = std::log(f.fit.sizes.back());
  for (std::size_t i = 0; i < kFitPoints; ++i) {
    const double n = std::exp(lo + (hi - lo) * static_cast<double>(i) / (kFitPoints - 1));
    s.x.push_back(n);
    s.y.push_back(f.fit.predict(n));
  }
  return s;
}

// What the sizes are called: the label that held them (hyperfine's parameter
// name, a user's label), or `from_name` when they came from the case name.
std::string size_label(const ScalingResult& r, std::string_view from_name) {
  return r.size_source == "name" ? std::string(from_name) : r.size_source;
}

Plot family_plot(const std::string& name, const Unit& unit, const std::string& x_label) {
  Plot p;
  p.title = fmt::format("{}: cost against size (log–log)", name);
  p.x_label = x_label;
  p.y_label = unit.dimension == Dimension::time ? "time" : std::string(base_symbol(unit.dimension));
  p.y_unit = base_symbol(unit.dimension);
  return p;
}

void add_residuals(Blocks& blocks, const FamilyFit& f, const std::string& side, const std::string& size) {
  Table t(
      {size, {"processes", Align::right}, {"cost", Align::right}, {"fitted", Align::right}, {"residual", Align::right}},
      fmt::format("{}{}: {} fit", f.name, side.empty() ? "" : " (" + side + ")", model_label(f.fit.best_fit())));
  for (std::size_t i = 0; i < f.fit.sizes.size(); ++i) {
    const double n = f.fit.sizes[i];
    t.add_row({Cell(fmt::format("{:g}", n), n), Cell(format_integer(f.fit.processes[i]), f.fit.processes[i]),
               Cell(format_value(f.fit.summaries[i], f.unit, kCost), f.fit.summaries[i]),
               Cell(format_value(f.fit.predict(n), f.unit, kCost), f.fit.predict(n)),
               Cell(format_change_percent(f.fit.residuals[i]), f.fit.residuals[i])});
  }
  t.footnote = fmt::format(
      "cost: geometric mean of the per-process medians; residual: cost / fitted - 1; "
      "RMS relative residual {}",
      format_percent(f.fit.best_fit().rms_relative));
  blocks.add_table(std::move(t));
}

void add_fits(Blocks& blocks, const ScalingResult& r, int level) {
  blocks.add_heading(level, "Growth");
  Table t({"family",
           "model",
           {"fixed cost c (CI)", Align::right},
           {"exponent b (CI)", Align::right},
           {"cost at largest size", Align::right},
           {"RMS residual", Align::right},
           {"lack of fit", Align::right},
           {"sizes", Align::right},
           "Google Benchmark"},
          {}, "scaling");
  std::vector<std::pair<std::string, const ScalingFit*>> checked;
  for (const FamilyFit& f : r.fits) {
    const double largest = f.fit.sizes.back();
    t.add_row({Cell(f.name, CellRole::code), Cell(chosen_text(f.fit), chosen_role(f.fit)), intercept_cell(f),
               Cell(exponent_text(f.fit.power), f.fit.power.exponent),
               Cell(format_value(f.fit.predict(largest), f.unit, kCost), f.fit.predict(largest)),
               Cell(format_percent(f.fit.best_fit().rms_relative), f.fit.best_fit().rms_relative),
               Cell(lack_of_fit_text(f.fit.lack_of_fit), f.fit.lack_of_fit.p),
               Cell(format_integer(static_cast<double>(f.fit.sizes.size())), static_cast<double>(f.fit.sizes.size())),
               reported_text(f)});
    checked.emplace_back(f.name, &f.fit);
  }
  blocks.add_table(std::move(t));
  add_lack_of_fit_note(blocks, checked);
  blocks.add_note(model_choice(r));
  for (const FamilyFit& f : r.fits) {
    Plot p = family_plot(f.name, f.unit, size_label(r, "size n"));
    p.series = {measured(f, "processes"), fitted(f, model_label(f.fit.best_fit()))};
    blocks.add_plot(std::move(p));
  }
  Details& d = blocks.add_details("Residuals per size");
  for (const FamilyFit& f : r.fits) add_residuals(d.blocks, f, "", size_label(r, "size"));
}

void add_comparisons(Blocks& blocks, const ScalingResult& r, int level) {
  blocks.add_heading(level, "Growth change");
  const bool at = r.options.change.at.has_value();
  std::vector<Column> columns{
      "family", "base", "head", {"Δ exponent (CI)", Align::right}, {"change at reference size (CI)", Align::right}};
  if (at) columns.emplace_back(fmt::format("change at n = {:g} (CI)", *r.options.change.at), Align::right);
  columns.emplace_back("verdict");
  columns.emplace_back("Google Benchmark (base → head)");
  Table t(std::move(columns), {}, "scaling");
  bool far = false;
  for (const FamilyComparison& c : r.comparisons) {
    const GrowthChange& g = c.change;
    std::vector<Cell> row{
        Cell(c.name, CellRole::code),
        fmt::format("{}, b = {}", chosen_text(c.base.fit), exponent_text(c.base.fit.power)),
        fmt::format("{}, b = {}", chosen_text(c.head.fit), exponent_text(c.head.fit.power)),
        Cell(fmt::format("{:+.2f} ({})", g.exponent_change, format_range(g.exponent_lower, g.exponent_upper)),
             g.exponent_change),
        Cell(fmt::format("{} at n = {:g}", ratio_text(g.level_ratio, g.level_lower, g.level_upper),
                         std::round(g.reference_size)),
             g.level_ratio - 1)};
    if (at) row.emplace_back(ratio_text(g.at_ratio, g.at_lower, g.at_upper), g.at_ratio - 1);
    row.emplace_back(verdict_text(g), verdict_role(g.verdict));
    row.emplace_back(c.base.reported || c.head.reported
                         ? fmt::format("{} → {}", reported_text(c.base), reported_text(c.head))
                         : std::string(kUnavailable));
    t.add_row(std::move(row));
    far = far || g.far;
  }
  blocks.add_table(std::move(t));
  std::vector<std::pair<std::string, const ScalingFit*>> checked;
  for (const FamilyComparison& c : r.comparisons) {
    checked.emplace_back(fmt::format("{} ({})", c.name, r.base_value), &c.base.fit);
    checked.emplace_back(fmt::format("{} ({})", c.name, r.head_value), &c.head.fit);
  }
  add_lack_of_fit_note(blocks, checked);
  if (far) {
    blocks.add_note(fmt::format("n = {:g} is more than {:g}× beyond the measured sizes: the extrapolated change "
                                "assumes both power laws hold that far.",
                                *r.options.change.at, r.options.change.far_factor),
                    NoteKind::warning);
  }
  blocks.add_note(fmt::format(
      "Exponent b: log–log least squares of per-size costs (geometric mean of per-process medians, weighted by "
      "process count), {:.0f}% t intervals with the process as unit. A family grows faster (slower) when the "
      "interval of Δb excludes 0 and |Δb| ≥ {:g}; same growth when the interval lies within ±{:g}. {}",
      r.options.change.confidence * 100, r.options.change.exponent_threshold, r.options.change.exponent_threshold,
      model_choice(r)));
  for (const FamilyComparison& c : r.comparisons) {
    Plot p = family_plot(c.name, c.base.unit, size_label(r, "size n"));
    p.series = {measured(c.base, r.base_value), measured(c.head, r.head_value),
                fitted(c.base, fmt::format("{} {}", r.base_value, model_label(c.base.fit.best_fit()))),
                fitted(c.head, fmt::format("{} {}", r.head_value, model_label(c.head.fit.best_fit())))};
    blocks.add_plot(std::move(p));
  }
  Details& d = blocks.add_details("Residuals per size");
  for (const FamilyComparison& c : r.comparisons) {
    add_residuals(d.blocks, c.base, r.base_value, size_label(r, "size"));
    add_residuals(d.blocks, c.head, r.head_value, size_label(r, "size"));
  }
}

Json models_json(const FamilyFit& f) {
  Json models = Json::array();
  for (const ModelFit& m : f.fit.models) {
    models.push_back(Json::Object{{"model", growth_model_name(m.model)},
                                  {"coefficient", m.coefficient},
                                  {"coefficient_lower", m.coefficient_lower},
                                  {"coefficient_upper", m.coefficient_upper},
                                  {"intercept", m.intercept},
                                  {"intercept_lower", m.intercept_lower},
                                  {"intercept_upper", m.intercept_upper},
                                  {"exponent", m.exponent},
                                  {"exponent_lower", m.exponent_lower},
                                  {"exponent_upper", m.exponent_upper},
                                  {"aicc", std::isfinite(m.aicc) ? Json(m.aicc) : Json()},
                                  {"rms_relative", m.rms_relative}});
  }
  return models;
}

// The fields of one family's fit: its JSON object and its columns (report/fields.hpp).
template <class Visitor>
void visit_fit(const FamilyFit& f, Visitor& v) {
  const PowerFit& p = f.fit.power;
  v.field("family", f.name);
  v.field("unit", std::string(base_symbol(f.unit.dimension)));
  v.list("sizes", f.fit.sizes);
  v.list("costs", f.fit.summaries);
  v.list("processes", f.fit.processes);
  const LackOfFit& l = f.fit.lack_of_fit;
  // No class is named when none fits: JSON leaves `best` out, the column is empty; `closest` always names one.
  v.field_if(!l.detected, "best", l.detected ? std::string() : std::string(growth_model_name(f.fit.best)));
  v.field("closest", std::string(growth_model_name(f.fit.best)));
  v.field("intercept", f.fit.best_fit().intercept);
  v.field("intercept_lower", f.fit.best_fit().intercept_lower);
  v.field("intercept_upper", f.fit.best_fit().intercept_upper);
  v.begin_group("lack_of_fit", true);
  v.field("tested", l.tested);
  v.field("detected", l.detected);
  v.field("f", l.tested ? l.f : std::nan(""));
  v.field("p", l.tested ? l.p : std::nan(""));
  v.field("df_model", l.df_model);
  v.field("df_pure", l.df_pure);
  v.end_group();
  v.json("models", models_json(f));
  v.field("exponent", p.exponent);
  v.field("exponent_lower", p.exponent_lower);
  v.field("exponent_upper", p.exponent_upper);
  v.field("df", p.df);
  v.field("sigma", f.fit.sigma);
  v.field("sigma_between_processes", f.fit.sigma_between_processes);
  v.list("residuals", f.fit.residuals);
  const ReportedComplexity reported = f.reported.value_or(ReportedComplexity{"", std::nan(""), std::nan("")});
  v.begin_group("google_benchmark", true, f.reported.has_value());
  v.field("big_o", reported.big_o);
  v.field("coefficient", reported.coefficient);
  v.field("rms", reported.rms);
  v.end_group();
}

// The fields of a base/head comparison of one family.
template <class Visitor>
void visit_family_comparison(const FamilyComparison& c, Visitor& v) {
  const GrowthChange& g = c.change;
  const bool at = g.at.has_value();
  v.field("family", c.name);
  v.begin_group("base", true);
  visit_fit(c.base, v);
  v.end_group();
  v.begin_group("head", true);
  visit_fit(c.head, v);
  v.end_group();
  v.begin_group("change");
  v.field("exponent_change", g.exponent_change);
  v.field("exponent_lower", g.exponent_lower);
  v.field("exponent_upper", g.exponent_upper);
  v.field("level_ratio", g.level_ratio);
  v.field("level_lower", g.level_lower);
  v.field("level_upper", g.level_upper);
  v.field("reference_size", g.reference_size);
  v.field("df", g.df);
  v.field("verdict", std::string(growth_verdict_name(g.verdict)));
  v.field_if(at, "at", g.at.value_or(std::nan("")));
  v.field_if(at, "at_ratio", at ? g.at_ratio : std::nan(""));
  v.field_if(at, "at_lower", at ? g.at_lower : std::nan(""));
  v.field_if(at, "at_upper", at ? g.at_upper : std::nan(""));
  v.field_if(at, "far", g.far);
  v.end_group();
}

template <class Visit, class Item>
Json object_of(Visit visit, const Item& item) {
  JsonFields fields;
  visit(item, fields);
  return Json(fields.take());
}

}  // namespace

void add_scaling_blocks(Blocks& blocks, const ScalingResult& result, int heading_level) {
  if (result.compared) {
    if (!result.comparisons.empty()) add_comparisons(blocks, result, heading_level);
  } else if (!result.fits.empty()) {
    add_fits(blocks, result, heading_level);
  }
  if (!result.skipped.empty()) {
    blocks.add_note(fmt::format("Not fitted: {}", fmt::join(result.skipped, "; ")), NoteKind::warning);
  }
}

Json scaling_json(const ScalingResult& result) {
  Json families = Json::array();
  for (const FamilyFit& f : result.fits) families.push_back(object_of(visit_fit<JsonFields>, f));
  Json comparisons = Json::array();
  for (const FamilyComparison& c : result.comparisons) {
    comparisons.push_back(object_of(visit_family_comparison<JsonFields>, c));
  }
  Json skipped = Json::array();
  for (const std::string& s : result.skipped) skipped.push_back(s);
  return Json::Object{{"schema", kScalingSchema},
                      {"size_source", result.size_source},
                      {"compared", result.compared},
                      {"base", result.base_value},
                      {"head", result.head_value},
                      {"families", std::move(families)},
                      {"comparisons", std::move(comparisons)},
                      {"skipped", std::move(skipped)}};
}

Columns scaling_columns(const ScalingResult& result) {
  Columns out;
  ColumnFields fields(out);
  if (result.compared) {
    for (const FamilyComparison& c : result.comparisons) {
      out.begin_row();
      visit_family_comparison(c, fields);
    }
  } else {
    for (const FamilyFit& f : result.fits) {
      out.begin_row();
      visit_fit(f, fields);
    }
  }
  return out;
}

Report scaling_report(const ScalingResult& result, const ScalingReportOptions& options) {
  Report report(options.title);
  if (result.fits.empty() && result.comparisons.empty()) {
    report.add_note("No size families found: name sizes as BM_x/1024 or test_x[1024], or name a size label.",
                    NoteKind::warning);
  }
  add_scaling_blocks(report.blocks, result, options.heading_level);
  report.data = Json::object();
  report.data.set("preset", "scaling");
  report.data.set("scaling", scaling_json(result));
  return report;
}

ScalingPreset scaling_preset(const Dataset& dataset, const ScalingReportOptions& options) {
  ScalingResult result = scaling(dataset, options.scaling);
  Report report = scaling_report(result, options);
  return {std::move(result), std::move(report)};
}

Report scaling_report(const Dataset& dataset, const ScalingReportOptions& options) {
  return scaling_preset(dataset, options).report;
}

}  // namespace benchreport

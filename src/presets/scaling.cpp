// The scaling preset: see scaling.hpp. Layout only; every figure comes from
// compare/scaling.hpp and stats/scaling.hpp.
#include "benchreport/presets/scaling.hpp"

#include <fmt/format.h>

#include <cmath>

#include "benchreport/report/fields.hpp"
#include "benchreport/report/format.hpp"

namespace benchreport {
namespace {

constexpr ValueStyle kCost{.scale = true, .significant = true, .symbol = ValueStyle::Symbol::shown_unless_one};
constexpr std::size_t kFitPoints = 48;  // points along a drawn fit line

std::string model_label(GrowthModel model) { return fmt::format("O({})", growth_model_name(model)); }

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
      fmt::format("{}{}: {} fit", f.name, side.empty() ? "" : " (" + side + ")", model_label(f.fit.best)));
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
           {"exponent b (CI)", Align::right},
           {"cost at largest size", Align::right},
           {"RMS residual", Align::right},
           {"sizes", Align::right},
           "Google Benchmark"},
          {}, "scaling");
  for (const FamilyFit& f : r.fits) {
    const double largest = f.fit.sizes.back();
    t.add_row({Cell(f.name, CellRole::code), model_label(f.fit.best),
               Cell(exponent_text(f.fit.power), f.fit.power.exponent),
               Cell(format_value(f.fit.predict(largest), f.unit, kCost), f.fit.predict(largest)),
               Cell(format_percent(f.fit.best_fit().rms_relative), f.fit.best_fit().rms_relative),
               Cell(format_integer(static_cast<double>(f.fit.sizes.size())), static_cast<double>(f.fit.sizes.size())),
               reported_text(f)});
  }
  blocks.add_table(std::move(t));
  for (const FamilyFit& f : r.fits) {
    Plot p = family_plot(f.name, f.unit, size_label(r, "size n"));
    p.series = {measured(f, "processes"), fitted(f, model_label(f.fit.best))};
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
        fmt::format("{}, b = {}", model_label(c.base.fit.best), exponent_text(c.base.fit.power)),
        fmt::format("{}, b = {}", model_label(c.head.fit.best), exponent_text(c.head.fit.power)),
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
  if (far) {
    blocks.add_note(fmt::format("n = {:g} is more than {:g}× beyond the measured sizes: the extrapolated change "
                                "assumes both power laws hold that far.",
                                *r.options.change.at, r.options.change.far_factor),
                    NoteKind::warning);
  }
  blocks.add_note(fmt::format(
      "Exponent b: log–log least squares of per-size costs (geometric mean of per-process medians, weighted by "
      "process count), {:.0f}% t intervals with the process as unit. A family grows faster (slower) when the "
      "interval of Δb excludes 0 and |Δb| ≥ {:g}; same growth when the interval lies within ±{:g}. Models by AICc.",
      r.options.change.confidence * 100, r.options.change.exponent_threshold, r.options.change.exponent_threshold));
  for (const FamilyComparison& c : r.comparisons) {
    Plot p = family_plot(c.name, c.base.unit, size_label(r, "size n"));
    p.series = {measured(c.base, r.base_value), measured(c.head, r.head_value),
                fitted(c.base, fmt::format("{} {}", r.base_value, model_label(c.base.fit.best))),
                fitted(c.head, fmt::format("{} {}", r.head_value, model_label(c.head.fit.best)))};
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
  v.field("best", std::string(growth_model_name(f.fit.best)));
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

Report scaling_report(const Dataset& dataset, const ScalingReportOptions& options) {
  return scaling_report(scaling(dataset, options.scaling), options);
}

}  // namespace benchreport

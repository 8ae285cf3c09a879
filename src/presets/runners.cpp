// The `runners` preset: CI runners compared under a parameter fingerprint.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>

#include "benchreport/core/error.hpp"
#include "benchreport/data/best.hpp"
#include "benchreport/data/fingerprint.hpp"
#include "benchreport/report/fields.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/presets/runners.hpp"
#include "benchreport/stats/summary.hpp"
#include "benchreport/data/metadata.hpp"

namespace benchreport {
namespace {

using metadata::display_text;
using metadata::find_deep;

struct RunnerInfo {
  std::string name;
  Json metadata = Json::object();
  std::optional<Json> protocol;
  std::string fingerprint;  // "" without protocol parameters
};

// Statistics of one set in the set's own unit (the unit the input used).
struct SetFigures {
  double median = 0, min = 0, max = 0, cv = 0;
  std::size_t n = 0;
};

SetFigures figures_of(const Dataset& dataset, std::size_t set) {
  const auto values = dataset.samples(set);  // as read: already in the set's unit
  SummaryOptions options;
  options.stats = StatSet().with(Stat::moments).with(Stat::median);
  const Summary s = summarize(values, options);
  return {s.median, s.min, s.max, s.cv, s.n};
}

std::string meta_text(const Json& metadata, std::string_view key) {
  const Json* value = find_deep(metadata, key);
  return value == nullptr || value->is_null() ? std::string(kUnavailable) : display_text(*value);
}

bool is_unpinned(const RunnerInfo& runner) {
  const Json* affinity = find_deep(runner.metadata, "affinity");
  return affinity != nullptr && affinity->is_string() && affinity->as_string() == "unpinned";
}

class RunnersBuilder {
 public:
  RunnersBuilder(const Dataset& dataset, const RunnersReportOptions& options) : ds_(dataset), opt_(options) {
    if (dataset.column(options.runner_column) == nullptr) {
      throw InputError(fmt::format("runners report: the dataset has no \"{}\" label (labels: {})",
                                   options.runner_column, fmt::join(dataset.columns(), ", ")));
    }
    collect_runners();
    choose_fingerprint();
  }

  PresetResult build(bool with_columns) {
    Report report(opt_.title);
    report.add_paragraph(
        "Results per CI runner. Only runners measured with the same parameter fingerprint (a SHA-256 of the "
        "measurement protocol's canonical JSON) are compared; runner selection and provider identity are not part "
        "of it.");
    add_parameters(report);
    add_missing_suites(report);
    add_cpu(report, false);
    add_cpu(report, true);
    add_disk(report);
    add_cache(report);
    add_notices(report);
    add_machines(report);
    report.data = data_;
    report.data.set("preset", "runners");
    report.data.set("fingerprint", chosen_);
    const auto sets = measured_sets();
    Json results = Json::array();
    Columns columns;
    ColumnFields column_fields(columns);
    for (const std::size_t set : sets) {
      JsonFields fields;
      result_fields(fields, set);
      results.push_back(Json(fields.take()));
      if (with_columns) {
        columns.begin_row();
        result_fields(column_fields, set);
      }
    }
    report.data.set("results", std::move(results));
    return {std::move(report), std::move(columns)};
  }

 private:
  void collect_runners() {
    for (std::size_t set = 0; set < ds_.n_sets(); ++set) {
      if (!ds_.has_label(set, opt_.runner_column)) continue;
      const std::string name(ds_.label(set, opt_.runner_column));
      if (index_.count(name) != 0) continue;
      RunnerInfo info{name, metadata::run_metadata(ds_, set), std::nullopt, ""};
      if (const Json* protocol = find_deep(info.metadata, opt_.protocol_key)) {
        info.protocol = *protocol;
        info.fingerprint = fingerprint(to_json(*protocol), opt_.fingerprint_digits);
      }
      index_[name] = runners_.size();
      runners_.push_back(std::move(info));
    }
    if (runners_.empty())
      throw InputError(fmt::format("runners report: no set has a \"{}\" label", opt_.runner_column));
  }

  void choose_fingerprint() {
    if (!opt_.fingerprint.empty()) {
      chosen_ = opt_.fingerprint;
      const bool known =
          std::any_of(runners_.begin(), runners_.end(), [&](const auto& r) { return r.fingerprint == chosen_; });
      if (!known) throw InputError(fmt::format("runners report: no runner has the parameter fingerprint {}", chosen_));
      return;
    }
    std::map<std::string, std::size_t> counts;
    for (const auto& r : runners_) ++counts[r.fingerprint];
    std::size_t best = 0;
    for (const auto& r : runners_) {  // first appearance wins ties
      if (counts[r.fingerprint] > best) best = counts[r.fingerprint], chosen_ = r.fingerprint;
    }
  }

  bool compared(const std::string& runner) const { return runners_[index_.at(runner)].fingerprint == chosen_; }

  // Without a cpu, disk or cache suite label no result table can be built:
  // say so instead of printing the metadata tables alone.
  void add_missing_suites(Report& report) const {
    static constexpr std::array<std::string_view, 3> kSuites{"cpu", "disk", "cache"};
    const auto known = ds_.select_if([&](const Dataset& d, std::size_t set) {
      return d.has_label(set, opt_.runner_column) && d.has_label(set, opt_.suite_column) &&
             std::find(kSuites.begin(), kSuites.end(), d.label(set, opt_.suite_column)) != kSuites.end();
    });
    if (!known.empty()) return;
    report.add_note(
        fmt::format("No result tables: no set has a \"{col}\" label of cpu, disk or cache (labels here: {labels}). "
                    "The runners report reads CoreMark results from {col}=cpu, disk I/O from {col}=disk and cache "
                    "save/restore from {col}=cache; label the inputs, e.g. benchreport runners FILE --label {col}=cpu.",
                    fmt::arg("col", opt_.suite_column), fmt::arg("labels", fmt::join(ds_.columns(), ", "))),
        NoteKind::warning);
  }

  std::vector<std::size_t> sets_of_suite(std::string_view suite) const {
    return ds_.select_if([&](const Dataset& d, std::size_t set) {
      return d.has_label(set, opt_.runner_column) && d.label(set, opt_.suite_column) == suite &&
             compared(std::string(d.label(set, opt_.runner_column)));
    });
  }

  // The compared sets of every suite, in dataset order: report.data's `results` and the columns.
  std::vector<std::size_t> measured_sets() const {
    return ds_.select_if([&](const Dataset& d, std::size_t set) {
      return d.has_label(set, opt_.runner_column) && compared(std::string(d.label(set, opt_.runner_column)));
    });
  }

  // One set's row of `results`: its labels, unit (as read) and figures (in that unit).
  template <class Visitor>
  void result_fields(Visitor& v, std::size_t set) const {
    const SetFigures f = figures(set);
    v.field("runner", runner_of(set));
    v.field("suite", std::string(ds_.label(set, opt_.suite_column)));
    v.field("metric", std::string(ds_.label(set, opt_.metric_column)));
    v.field("backend", std::string(ds_.label(set, opt_.backend_column)));
    v.field("service", std::string(ds_.label(set, opt_.service_column)));
    v.field("unit", ds_.unit(set).symbol);
    v.field("pinned", !is_unpinned(info(set)));
    v.field("median", f.median);
    v.field("min", f.min);
    v.field("max", f.max);
    v.field("cv_population", f.cv);
    v.field("n", f.n);
  }

  const SetFigures& figures(std::size_t set) const {
    auto it = figures_.find(set);
    if (it == figures_.end()) it = figures_.emplace(set, figures_of(ds_, set)).first;
    return it->second;
  }

  std::string runner_of(std::size_t set) const { return std::string(ds_.label(set, opt_.runner_column)); }
  const RunnerInfo& info(std::size_t set) const { return runners_[index_.at(runner_of(set))]; }

  void add_parameters(Report& report) {
    report.add_heading(2, "Benchmark parameters");
    std::vector<std::string> keys;
    std::vector<std::string> prints;
    for (const auto& r : runners_) {
      if (std::find(prints.begin(), prints.end(), r.fingerprint) == prints.end()) prints.push_back(r.fingerprint);
      if (!r.protocol || !r.protocol->is_object()) continue;
      for (const auto& [key, value] : r.protocol->as_object()) {
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
      }
    }
    std::vector<Column> columns{{"Profile"}};
    for (const auto& key : keys) columns.emplace_back(key, Align::right);
    columns.emplace_back("Runners", Align::right);
    columns.emplace_back("Compared");
    Table& table = report.add_table(std::move(columns), {}, "parameters");
    Json profiles = Json::array();
    for (const auto& print : prints) {
      const auto owner =
          std::find_if(runners_.begin(), runners_.end(), [&](const auto& r) { return r.fingerprint == print; });
      const auto count =
          std::count_if(runners_.begin(), runners_.end(), [&](const auto& r) { return r.fingerprint == print; });
      std::vector<Cell> row{print.empty() ? Cell("no protocol parameters", CellRole::muted)
                                          : Cell(print, CellRole::code)};
      for (const auto& key : keys) {
        const Json* value = owner->protocol ? owner->protocol->find(key) : nullptr;
        row.emplace_back(value == nullptr ? std::string(kUnavailable) : display_text(*value));
      }
      row.emplace_back(fmt::format("{}", count), static_cast<double>(count));
      row.emplace_back(print == chosen_ ? "yes" : "no", print == chosen_ ? CellRole::none : CellRole::muted);
      table.add_row(std::move(row));
      Json profile = Json::object();
      profile.set("fingerprint", print);
      profile.set("parameters", owner->protocol ? *owner->protocol : Json());
      profile.set("runners", static_cast<std::int64_t>(count));
      profiles.push_back(std::move(profile));
    }
    table.footnote = fmt::format(
        "Profile = the first {} hex digits of the SHA-256 of the protocol parameters' canonical JSON (keys sorted, "
        "no whitespace). Compare providers using the same profile.",
        opt_.fingerprint_digits);
    data_.set("profiles", std::move(profiles));
    std::vector<std::string> excluded;
    for (const auto& r : runners_) {
      if (r.fingerprint != chosen_) {
        excluded.push_back(
            fmt::format("{} ({})", r.name, r.fingerprint.empty() ? "no protocol parameters" : r.fingerprint));
      }
    }
    if (!excluded.empty()) {
      report.add_note(fmt::format("Not compared (different parameter fingerprint): {}.", fmt::join(excluded, "; ")),
                      NoteKind::warning);
    }
  }

  void add_cpu(Report& report, bool unpinned) {
    std::vector<std::size_t> sets;
    for (const auto set : sets_of_suite("cpu")) {
      if (is_unpinned(info(set)) == unpinned) sets.push_back(set);
    }
    if (sets.empty()) return;
    const Direction direction = ds_.direction(sets.front());
    std::vector<std::pair<std::size_t, SetFigures>> rows;
    for (const auto set : sets) rows.emplace_back(set, figures(set));
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      return is_better(a.second.median, b.second.median, direction);  // best first
    });
    std::set<std::string> metrics;
    for (const auto set : sets) metrics.emplace(ds_.label(set, opt_.metric_column));
    report.add_heading(2, unpinned ? "Unpinned results" : "Pinned results");
    std::vector<Column> columns{{"Runner"}, {"Binary"}};
    if (metrics.size() > 1) columns.emplace_back("Metric");
    columns.insert(columns.end(), {{fmt::format("Median {}", ds_.unit(sets.front()).symbol), Align::right},
                                   {"Min–max", Align::right},
                                   {"Variation", Align::right},
                                   {"CPU / group"},
                                   {"Samples", Align::right}});
    Table& table = report.add_table(std::move(columns), {}, unpinned ? "cpu-unpinned" : "cpu-pinned");
    Json results = Json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& [set, f] = rows[i];
      const RunnerInfo& runner = info(set);
      std::vector<Cell> row{runner_of(set), meta_text(runner.metadata, "binary")};
      if (metrics.size() > 1) row.emplace_back(std::string(ds_.label(set, opt_.metric_column)));
      row.emplace_back(format_fixed(f.median), f.median, i == 0 && rows.size() > 1 ? CellRole::best : CellRole::none);
      row.emplace_back(format_range(f.min, f.max));
      row.emplace_back(format_percent(f.cv, 2), f.cv);
      row.emplace_back(unpinned ? std::string("Unpinned") : meta_text(runner.metadata, "cpu_group"));
      row.emplace_back(fmt::format("{}", f.n), static_cast<double>(f.n));
      table.add_row(std::move(row));
      results.push_back(Json(Json::Object{{"runner", runner_of(set)},
                                          {"metric", std::string(ds_.label(set, opt_.metric_column))},
                                          {"unit", ds_.unit(set).symbol},
                                          {"pinned", !unpinned},
                                          {"median", f.median},
                                          {"min", f.min},
                                          {"max", f.max},
                                          {"cv_population", f.cv},
                                          {"n", static_cast<std::int64_t>(f.n)}}));
    }
    table.footnote =
        "Variation is the population coefficient of variation (σ / mean, ddof = 0) across samples. "
        "Best median in bold.";
    data_.set(unpinned ? "cpu_unpinned" : "cpu_pinned", std::move(results));
  }

  static std::string disk_title(std::string_view metric, std::string_view unit) {
    static const std::map<std::string_view, std::string_view> kNames = {
        {"seq_read", "Read"}, {"seq_write", "Write"}, {"rand_read", "Random read"}, {"rand_write", "Random write"}};
    const auto it = kNames.find(metric);
    return fmt::format("{} {}", it == kNames.end() ? metric : it->second, unit);
  }

  // Rows (runners, sorted) × columns (metrics, first seen) of medians, best per column in bold.
  void add_disk(Report& report) {
    const auto sets = sets_of_suite("disk");
    if (sets.empty()) return;
    std::vector<std::string> metrics;
    std::map<std::string, std::map<std::string, std::size_t>> cell;  // runner -> metric -> set
    for (const auto set : sets) {
      const std::string metric(ds_.label(set, opt_.metric_column));
      if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) metrics.push_back(metric);
      cell[runner_of(set)][metric] = set;
    }
    report.add_heading(2, "Disk I/O");
    std::vector<Column> columns{{"Runner"}, {"Affinity"}, {"File MiB", Align::right}};
    std::vector<std::size_t> metric_set;  // a set of each metric: its unit and direction
    for (const auto& metric : metrics) {
      std::size_t any = 0;
      for (const auto& [runner, by_metric] : cell) {
        if (const auto it = by_metric.find(metric); it != by_metric.end()) any = it->second;
      }
      metric_set.push_back(any);
      columns.emplace_back(disk_title(metric, ds_.unit(any).symbol), Align::right);
    }
    Table& table = report.add_table(std::move(columns), {}, "disk");
    std::vector<std::vector<std::optional<double>>> medians;
    for (const auto& [runner, by_metric] : cell) {
      std::vector<std::optional<double>> row;
      for (const auto& metric : metrics) {
        const auto it = by_metric.find(metric);
        row.push_back(it == by_metric.end() ? std::nullopt : std::optional<double>(figures(it->second).median));
      }
      medians.push_back(std::move(row));
    }
    std::vector<std::optional<std::size_t>> best(metrics.size());
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      std::vector<std::optional<double>> column;
      for (const auto& row : medians) column.push_back(row[m]);
      best[m] = best_index(column, ds_.direction(metric_set[m]));
    }
    Json results = Json::array();
    std::size_t r = 0;
    for (const auto& [runner, by_metric] : cell) {
      const std::size_t any = by_metric.begin()->second;
      const auto file_mib = metadata::set_metadata_display(ds_, any, "file_mib");
      std::vector<Cell> row{runner, is_unpinned(info(any)) ? "Unpinned" : "Pinned",
                            file_mib.value_or(std::string(kUnavailable))};
      Json entry = Json::object();
      entry.set("runner", runner);
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        if (!medians[r][m]) {
          row.emplace_back(std::string(kUnavailable));
          continue;
        }
        const bool is_best = best[m] == r && medians.size() > 1;
        row.emplace_back(format_fixed(*medians[r][m]), *medians[r][m], is_best ? CellRole::best : CellRole::none);
        entry.set(metrics[m], *medians[r][m]);
      }
      table.add_row(std::move(row));
      results.push_back(std::move(entry));
      ++r;
    }
    table.footnote = "Medians across samples; best per column in bold.";
    data_.set("disk", std::move(results));
  }

  static std::string cache_title(std::string_view metric) {
    if (metric == "cache_save") return "Save";
    if (metric == "cache_restore") return "Restore";
    return std::string(metric);
  }

  void add_cache(Report& report) {
    const auto sets = sets_of_suite("cache");
    if (sets.empty()) return;
    report.add_heading(2, "Cache backends");
    std::vector<std::string> services;
    std::vector<std::string> metrics;
    for (const auto set : sets) {
      const std::string service(ds_.label(set, opt_.service_column));
      const std::string metric(ds_.label(set, opt_.metric_column));
      if (std::find(services.begin(), services.end(), service) == services.end()) services.push_back(service);
      if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) metrics.push_back(metric);
    }
    Json results = Json::array();
    for (const auto& service : services) {
      if (!service.empty()) report.add_heading(3, service);
      std::vector<Column> columns{{"Runner"}, {"Cache backend"}, {"Payload MiB", Align::right}, {"Verified pairs"}};
      for (const auto& metric : metrics) {
        const auto title = cache_title(metric);
        columns.insert(columns.end(), {{fmt::format("{} s (median; range)", title)},
                                       {fmt::format("{} MiB/s", title), Align::right},
                                       {fmt::format("{} variation", title), Align::right}});
      }
      // (runner, backend) -> metric -> set, rows sorted by runner then backend.
      std::map<std::pair<std::string, std::string>, std::map<std::string, std::size_t>> cells;
      for (const auto set : sets) {
        if (ds_.label(set, opt_.service_column) != service) continue;
        cells[{runner_of(set), std::string(ds_.label(set, opt_.backend_column))}]
             [std::string(ds_.label(set, opt_.metric_column))] = set;
      }
      Table& table = report.add_table(std::move(columns), {}, fmt::format("cache-{}", service));
      for (const auto& [key, by_metric] : cells) {
        table.add_row(cache_row(key.first, key.second, by_metric, metrics, results, service));
      }
      table.footnote = "MiB/s = payload MiB ÷ median seconds. Variation is the population coefficient of variation.";
    }
    data_.set("cache", std::move(results));
  }

  std::vector<Cell> cache_row(const std::string& runner, const std::string& backend,
                              const std::map<std::string, std::size_t>& by_metric,
                              const std::vector<std::string>& metrics, Json& results,
                              const std::string& service) const {
    const std::size_t any = by_metric.begin()->second;
    const auto payload = metadata::set_metadata_number(ds_, any, "payload_mib");
    const auto verified = metadata::set_metadata_number(ds_, any, "verified_pairs");
    const auto trials = metadata::set_metadata_number(ds_, any, "trials");
    std::vector<Cell> row{runner, backend.empty() ? std::string(kUnavailable) : backend,
                          payload ? Cell(format_fixed(*payload, 1), *payload) : Cell(std::string(kUnavailable)),
                          verified && trials ? fmt::format("{}/{}", *verified, *trials) : std::string(kUnavailable)};
    for (const auto& metric : metrics) {
      const auto it = by_metric.find(metric);
      if (it == by_metric.end()) {
        row.insert(row.end(), 3, Cell(std::string(kUnavailable)));
        continue;
      }
      const SetFigures f = figures(it->second);
      row.emplace_back(fmt::format("{}; {}", format_fixed(f.median), format_range(f.min, f.max)), f.median);
      if (payload && f.median > 0) {
        row.emplace_back(format_fixed(*payload / f.median), *payload / f.median);
      } else {
        row.emplace_back(std::string(kUnavailable));
      }
      row.emplace_back(format_percent(f.cv, 2), f.cv);
      results.push_back(Json(Json::Object{{"service", service},
                                          {"runner", runner},
                                          {"backend", backend},
                                          {"metric", metric},
                                          {"median_s", f.median},
                                          {"min_s", f.min},
                                          {"max_s", f.max},
                                          {"mib_per_s", payload && f.median > 0 ? Json(*payload / f.median) : Json()},
                                          {"cv_population", f.cv},
                                          {"n", static_cast<std::int64_t>(f.n)}}));
    }
    return row;
  }

  // Identical messages are listed once with every runner / stage that reported them.
  void add_notices(Report& report) {
    std::vector<std::string> messages;
    std::map<std::string, std::vector<std::string>> where;
    for (const auto& r : runners_) {
      const Json* notices = find_deep(r.metadata, "notices");
      if (notices == nullptr || !notices->is_array()) continue;
      for (const auto& notice : notices->as_array()) {
        const Json* stage = notice.is_object() ? notice.find("stage") : nullptr;
        const Json* message = notice.is_object() ? notice.find("message") : nullptr;
        const std::string text = message ? display_text(*message) : display_text(notice);
        if (where.count(text) == 0) messages.push_back(text);
        where[text].push_back(stage ? fmt::format("{} / {}", r.name, display_text(*stage)) : r.name);
      }
    }
    if (messages.empty()) return;
    report.add_heading(2, "Optional stages and notices");
    std::vector<Spans> items;
    for (const auto& text : messages) {
      const auto& stages = where[text];
      items.push_back(
          {Span::bold(text), Span::plain(fmt::format(" ({}×): {}", stages.size(), fmt::join(stages, "; ")))});
    }
    report.add_list(std::move(items));
  }

  void add_machines(Report& report) {
    report.add_heading(2, "Machine and build details");
    Table& table = report.add_table({{"Runner"}, {"CPU model"}, {"OS image"}, {"Compiler"}, {"Flags"}}, {}, "machines");
    std::vector<const RunnerInfo*> sorted;
    for (const auto& r : runners_) sorted.push_back(&r);
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
    for (const auto* r : sorted) {
      table.add_row({r->name, meta_text(r->metadata, "cpu_model"), meta_text(r->metadata, "os_image"),
                     meta_text(r->metadata, "compiler"), Cell(meta_text(r->metadata, "flags"), CellRole::code)});
    }
  }

  const Dataset& ds_;
  const RunnersReportOptions& opt_;
  std::vector<RunnerInfo> runners_;
  std::map<std::string, std::size_t> index_;
  std::string chosen_;
  Json data_ = Json::object();
  mutable std::map<std::size_t, SetFigures> figures_;  // per set: tables and `results` summarise it once
};

}  // namespace

PresetResult runners_preset(const Dataset& dataset, const RunnersReportOptions& options, bool with_columns) {
  if (options.fingerprint_digits < 1 || options.fingerprint_digits > 64) {
    throw InputError(
        fmt::format("runners report: fingerprint_digits must be 1–64, got {}", options.fingerprint_digits));
  }
  return RunnersBuilder(dataset, options).build(with_columns);
}

Report runners_report(const Dataset& dataset, const RunnersReportOptions& options) {
  return runners_preset(dataset, options, false).report;
}

}  // namespace benchreport

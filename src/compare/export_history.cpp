#include "benchreport/compare/export_history.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

#include "benchreport/compare/cached_history.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/label_roles.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/data/units.hpp"

namespace benchreport {
namespace {

Labels labels_of(const ExportSet& set, std::string_view commit, std::string_view branch, std::string_view where) {
  const std::string what = std::string(where) + ": labels of a set of run " + std::to_string(set.run);
  const Json parsed = metadata::parse_json(set.labels_json, what);
  if (!parsed.is_object()) throw InputError(what + ": not a JSON object");
  Labels labels;
  for (const auto& [name, value] : parsed.as_object()) {
    if (std::find(kStoreLabels.begin(), kStoreLabels.end(), name) != kStoreLabels.end()) continue;
    if (!value.is_string()) throw InputError(what + ": label " + name + " is not a string");
    labels.emplace_back(name, value.as_string());
  }
  labels.emplace_back("commit", std::string(commit));
  labels.emplace_back("branch", std::string(branch));
  labels.emplace_back("run", std::to_string(set.run));
  return labels;
}

// The commit's sets as one Dataset (weights all 1 where a set has none, when any set has some).
Dataset commit_dataset(std::span<const ExportSet> sets, std::string_view commit, std::string_view branch,
                       std::string_view where) {
  const bool weighted = std::any_of(sets.begin(), sets.end(), [](const ExportSet& s) { return s.iterations; });
  const bool any_exact = std::any_of(sets.begin(), sets.end(), [](const ExportSet& s) { return s.exact; });
  Dataset ds;
  std::map<std::string, Unit, std::less<>> units;  // a run repeats a few symbols over many sets
  for (const ExportSet& set : sets) {
    auto unit = units.find(set.unit);
    if (unit == units.end()) unit = units.emplace(set.unit, parse_unit_or_custom(set.unit)).first;
    Unit u = unit->second;
    if (any_exact) u.exact = set.exact;
    SetOptions options;
    if (set.direction) options.direction = parse_direction(*set.direction);
    const std::vector<double> ones(weighted && !set.iterations ? set.samples.size() : 0, 1.0);
    if (weighted) options.weights = set.iterations ? std::span<const double>(*set.iterations) : ones;
    ds.add_set(labels_of(set, commit, branch, where), set.samples, u, options);
  }
  return ds;
}

}  // namespace

CommitCaseSummaries summarise_export_commit(std::span<const ExportSet> sets, std::string_view commit,
                                            std::string_view branch, std::string_view where, unsigned threads) {
  const History history = build_history(commit_dataset(sets, commit, branch, where), SeriesOptions{}, threads);
  CommitCaseSummaries out;
  out.by = history.by;
  for (const Series& s : history.series) {
    Json labels = Json::object();  // a label the case lacks is "" in the key: the case is its non-empty labels
    for (std::size_t c = 0; c < history.by.size(); ++c) {
      if (!s.key[c].empty()) labels.set(history.by[c], s.key[c]);
    }
    out.case_key.push_back(to_json(labels, {.sort_keys = true}));
    out.unit.push_back(s.unit.symbol);
    out.direction.push_back(std::string(direction_name(s.direction)));
    out.value.push_back(s.values.at(0));
    out.processes.push_back(static_cast<std::int64_t>(s.processes.at(0)));
    out.samples.push_back(static_cast<std::int64_t>(s.samples.at(0)));
  }
  return out;
}

std::pair<History, std::vector<std::pair<std::int64_t, std::int64_t>>> assemble_export_cases(
    const ExportSummaryRows& rows, std::vector<std::string> by, std::vector<std::string> commits) {
  const std::size_t n = rows.case_key.size();
  if (rows.unit.size() != n || rows.direction.size() != n || rows.value.size() != n || rows.processes.size() != n ||
      rows.samples.size() != n) {
    throw InputError("commit summaries: the columns differ in length");
  }
  std::map<std::string_view, std::int64_t> code_of;  // case key → dense code, first appearance first
  std::vector<std::int64_t> codes;
  for (const auto& key : rows.case_key) {
    codes.push_back(code_of.emplace(key, static_cast<std::int64_t>(code_of.size())).first->second);
  }
  const std::vector<std::size_t> first = first_appearances(codes, rows.commit, rows.position);
  std::vector<std::int64_t> commit_of_run(commits.size());  // each commit is its own "run"
  std::iota(commit_of_run.begin(), commit_of_run.end(), std::int64_t{0});
  CachedHistoryInput in{{codes, rows.commit, rows.position, rows.value, rows.processes, rows.samples},
                        commit_of_run,
                        first,
                        {},
                        {},
                        std::move(by),
                        std::move(commits)};
  std::vector<std::pair<std::int64_t, std::int64_t>> where;
  for (std::size_t f : first) {
    const Json key = metadata::parse_json(rows.case_key[f], "commit summaries: case key");
    std::vector<std::pair<std::string, std::string>> labels;
    for (const auto& [name, value] : key.as_object()) labels.emplace_back(name, value.as_string());
    in.cases.push_back({std::move(labels), parse_unit_or_custom(rows.unit[f]),
                        parse_direction(rows.direction[f], "series direction")});
    where.emplace_back(rows.commit[f], rows.position[f]);
  }
  return {assemble_cached_history(std::move(in)), std::move(where)};
}

Columns export_summary_schema() {
  Columns columns;
  columns.begin_row();
  for (const char* text : {"case_key", "unit", "direction"}) columns.add(text, std::string());
  for (const char* count : {"commit", "position"}) columns.add(count, std::size_t{0});
  columns.add("value", 0.0);
  for (const char* count : {"processes", "samples"}) columns.add(count, std::size_t{0});
  columns.drop_rows();
  return columns;
}

}  // namespace benchreport

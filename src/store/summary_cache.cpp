#include "benchreport/store/summary_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <simdjson.h>
#include <unordered_map>

#include "benchreport/compare/cached_history.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/units.hpp"
#include "store/sqlite.hpp"

namespace benchreport::store {
namespace {

using LabelPairs = std::vector<std::pair<std::string, std::string>>;

// A `labels` cell: the case's labels as a JSON list of [name, value] pairs.
LabelPairs label_pairs(std::string_view json, std::string_view where) {
  simdjson::dom::parser parser;
  simdjson::dom::array pairs;
  if (parser.parse(json.data(), json.size()).get_array().get(pairs) != simdjson::SUCCESS)
    throw InputError(fmt::format("{}: case_summaries labels are not a JSON list", where));
  LabelPairs out;
  for (simdjson::dom::element pair : pairs) {
    std::string_view name, value;
    if (pair.at(0).get_string().get(name) != simdjson::SUCCESS ||
        pair.at(1).get_string().get(value) != simdjson::SUCCESS)
      throw InputError(fmt::format("{}: case_summaries labels hold a pair that is not [name, value]", where));
    out.emplace_back(name, value);
  }
  return out;
}

// The cached rows of the branch as columns, and the case keys in code order.
struct RowColumns {
  std::vector<std::string> keys;
  std::vector<std::int64_t> case_code, run, position, processes, samples;
  std::vector<double> value;
};

RowColumns read_rows(const Store& store, const std::string& branch,
                     const std::unordered_map<std::int64_t, std::int64_t>& run_order) {
  RowColumns out;
  std::unordered_map<std::string, std::int64_t> codes;
  Statement rows(store.handle(),
                 "SELECT case_key, run_id, position, value, processes, samples FROM case_summaries WHERE branch = ?");
  rows.bind(1, branch);
  while (rows.step()) {
    const auto [at, added] = codes.try_emplace(rows.text(0), static_cast<std::int64_t>(codes.size()));
    if (added) out.keys.push_back(at->first);
    out.case_code.push_back(at->second);
    const auto place = run_order.find(rows.integer(1));
    out.run.push_back(place == run_order.end() ? -1 : place->second);
    out.position.push_back(rows.integer(2));
    out.value.push_back(rows.real(3));
    out.processes.push_back(rows.integer(4));
    out.samples.push_back(rows.integer(5));
  }
  return out;
}

// The case columns in the order the runs' first rows name them.
std::vector<std::string> case_columns(const Store& store, const std::string& branch, std::span<const StoredRun> runs) {
  std::vector<std::string> by;
  Statement first(store.handle(), "SELECT labels FROM case_summaries WHERE branch = ? AND run_id = ? AND position = 0");
  for (const StoredRun& r : runs) {
    first.reset();
    first.bind(1, branch).bind(2, r.run_id);
    if (!first.step()) continue;
    for (auto& [name, value] : label_pairs(first.bytes(0), store.path()))
      if (std::find(by.begin(), by.end(), name) == by.end()) by.push_back(std::move(name));
  }
  return by;
}

// What each case's first row says of it.
std::vector<CachedCase> first_cases(const Store& store, const std::string& branch, const RowColumns& rows,
                                    std::span<const std::size_t> first, std::span<const StoredRun> runs) {
  std::vector<CachedCase> cases;
  Statement query(
      store.handle(),
      "SELECT labels, unit, direction FROM case_summaries WHERE branch = ? AND case_key = ? AND run_id = ?");
  for (std::size_t at : first) {
    query.reset();
    query.bind(1, branch)
        .bind(2, rows.keys[static_cast<std::size_t>(rows.case_code[at])])
        .bind(3, runs[static_cast<std::size_t>(rows.run[at])].run_id);
    if (!query.step()) throw InputError(fmt::format("{}: a case_summaries row vanished while read", store.path()));
    cases.push_back({label_pairs(query.bytes(0), store.path()), parse_unit_or_custom(query.text(1)),
                     parse_direction(query.text(2), "series direction")});
  }
  return cases;
}

// A commit with several runs: its processes are pooled across the runs (as a full
// run pools them), so its summaries come from those runs' samples together.
std::vector<PooledSummary> pooled_summaries(const Store& store, std::span<const StoredRun> runs,
                                            const std::vector<std::int64_t>& commit_of_run, std::size_t commits,
                                            const std::vector<std::string>& keys, unsigned threads) {
  std::unordered_map<std::string_view, std::size_t> code;
  for (std::size_t i = 0; i < keys.size(); ++i) code.emplace(keys[i], i);
  std::vector<std::vector<StoredRun>> runs_of(commits);
  for (std::size_t i = 0; i < runs.size(); ++i) runs_of[static_cast<std::size_t>(commit_of_run[i])].push_back(runs[i]);
  std::vector<PooledSummary> out;
  for (std::size_t commit = 0; commit < commits; ++commit) {
    if (runs_of[commit].size() < 2) continue;
    const History history = build_history(store.read_runs(runs_of[commit]).dataset, {}, threads);
    for (const Series& s : history.series) {
      const auto found = code.find(case_key(history.by, s.key));
      if (found != code.end()) out.push_back({found->second, commit, s.values[0], s.processes[0], s.samples[0]});
    }
  }
  return out;
}

}  // namespace

std::string case_key(const std::vector<std::string>& names, const std::vector<std::string>& values) {
  std::map<std::string, std::string> sorted;  // a name given twice: the later value, as a dict keeps it
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) sorted[names[i]] = values[i];
  std::string out = "{";
  for (const auto& [name, value] : sorted) {
    if (out.size() > 1) out += ',';
    append_json_string(out, name);
    out += ':';
    append_json_string(out, value);
  }
  return out + "}";
}

History cached_branch_history(const Store& store, const std::string& branch, std::span<const StoredRun> runs,
                              unsigned threads) {
  std::vector<std::string> commits;
  std::vector<std::int64_t> commit_of_run;
  std::unordered_map<std::string, std::int64_t> commit_index;
  std::unordered_map<std::int64_t, std::int64_t> run_order;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto [at, added] = commit_index.try_emplace(runs[i].commit_sha, static_cast<std::int64_t>(commits.size()));
    if (added) commits.push_back(runs[i].commit_sha);
    commit_of_run.push_back(at->second);
    run_order[runs[i].run_id] = static_cast<std::int64_t>(i);
  }
  const RowColumns rows = read_rows(store, branch, run_order);
  const std::vector<std::size_t> first = first_appearances(rows.case_code, rows.run, rows.position);
  CachedHistoryInput in{{rows.case_code, rows.run, rows.position, rows.value, rows.processes, rows.samples},
                        commit_of_run,
                        first,
                        first_cases(store, branch, rows, first, runs),
                        pooled_summaries(store, runs, commit_of_run, commits.size(), rows.keys, threads),
                        case_columns(store, branch, runs),
                        std::move(commits)};
  return assemble_cached_history(std::move(in));
}

}  // namespace benchreport::store

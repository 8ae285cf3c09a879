#include "benchreport/store/alert_states.hpp"

#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "benchreport/compare/alert_state.hpp"
#include "benchreport/store/environment_diff.hpp"
#include "benchreport/store/summary_cache.hpp"
#include "store/sqlite.hpp"

namespace benchreport::store {
namespace {

using RowKey = std::pair<std::string, std::string>;  // case key, commit sha

struct StoredState {
  std::string state;
  std::string note;
};

std::map<RowKey, StoredState> stored_states(sqlite3* db, const std::string& branch) {
  Statement rows(db, "SELECT case_key, commit_sha, state, note FROM change_points WHERE branch = ?");
  rows.bind(1, branch);
  std::map<RowKey, StoredState> out;
  while (rows.step()) out[{rows.text(0), rows.text(1)}] = {rows.text(2), rows.optional_text(3).value_or("")};
  return out;
}

// One row to upsert: the change point and its new state.
struct Write {
  std::string case_key, commit_sha;
  bool regression = false;
  double change = 0;
  std::string state, note;
};

void write_states(sqlite3* db, const std::string& branch, const std::vector<Write>& writes,
                  const std::vector<RowKey>& gone, const std::string& updated) {
  in_transaction(db, [&] {
    Statement upsert(db,
                     "INSERT INTO change_points(branch, case_key, commit_sha, direction, change, state, note,"
                     " updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                     " ON CONFLICT(branch, case_key, commit_sha) DO UPDATE SET direction = excluded.direction,"
                     " change = excluded.change, state = excluded.state, updated = excluded.updated");
    for (const Write& w : writes) {
      upsert.reset();  // an unbound note is NULL: no note
      upsert.bind(1, branch).bind(2, w.case_key).bind(3, w.commit_sha);
      upsert.bind(4, w.regression ? "regression" : "improvement").bind(5, w.change).bind(6, w.state);
      if (!w.note.empty()) upsert.bind(7, w.note);
      upsert.bind(8, updated);
      upsert.step();
    }
    Statement remove(db, "DELETE FROM change_points WHERE branch = ? AND case_key = ? AND commit_sha = ?");
    for (const auto& [key, sha] : gone) {
      remove.reset();
      remove.bind(1, branch).bind(2, key).bind(3, sha);
      remove.step();
    }
  });
}

// The environment of each commit's runs, by commit index: the runs in branch order.
std::unordered_map<std::size_t, std::vector<const StoredRun*>> runs_by_commit(const History& history,
                                                                              std::span<const StoredRun> runs) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < history.commits.size(); ++i) index.emplace(history.commits[i], i);
  std::unordered_map<std::size_t, std::vector<const StoredRun*>> out;
  for (const StoredRun& r : runs) out[index.at(r.commit_sha)].push_back(&r);
  return out;
}

std::string_view environment(const StoredRun* run) {
  return run->environment_json ? std::string_view(*run->environment_json) : std::string_view();
}

}  // namespace

std::vector<std::vector<ChangePointAlert>> update_alert_states(const Store& store, const std::string& branch,
                                                               const HistoryAnalysis& analysis,
                                                               std::span<const StoredRun> runs,
                                                               std::size_t confirm_after) {
  const History& history = analysis.history;
  const std::map<RowKey, StoredState> stored = stored_states(store.handle(), branch);
  const auto runs_at = runs_by_commit(history, runs);
  std::vector<std::vector<ChangePointAlert>> alerts;
  std::set<RowKey> found;
  std::vector<Write> writes;
  for (std::size_t i = 0; i < history.series.size(); ++i) {
    const Series& series = history.series[i];
    const auto& points = analysis.changes[i].change_points;
    const std::string key = case_key(history.by, series.key);
    std::vector<StoredState> olds;
    std::vector<bool> acknowledged;
    for (const ChangePoint& cp : points) {
      const auto old = stored.find({key, history.commits[cp.commit]});
      olds.push_back(old == stored.end() ? StoredState{} : old->second);
      acknowledged.push_back(olds.back().state == "acknowledged");
    }
    const std::vector<AlertState> states = alert_states(series.values, points, confirm_after, acknowledged);
    auto& row = alerts.emplace_back();
    for (std::size_t k = 0; k < points.size(); ++k) {
      const ChangePoint& cp = points[k];
      const std::string& sha = history.commits[cp.commit];
      const std::string state(alert_state_name(states[k]));
      std::string cause;
      if (cp.index > 0) {
        const auto& before = runs_at.at(series.commits[cp.index - 1]);
        cause = environment_cause(environment_diff(environment(before.back()), environment(runs_at.at(cp.commit)[0])));
      }
      row.push_back({state, olds[k].note, std::move(cause)});
      found.insert({key, sha});
      if (state != olds[k].state) writes.push_back({key, sha, cp.regression, cp.change, state, olds[k].note});
    }
  }
  std::vector<RowKey> gone;
  for (const auto& [row_key, old] : stored)
    if (!found.contains(row_key) && old.state != "acknowledged") gone.push_back(row_key);
  write_states(store.handle(), branch, writes, gone, runs.empty() ? std::string() : runs.back().time);
  return alerts;
}

}  // namespace benchreport::store

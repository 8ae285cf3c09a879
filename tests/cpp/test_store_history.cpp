#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "benchreport/store/alert_states.hpp"
#include "benchreport/store/environment_diff.hpp"
#include "benchreport/store/store.hpp"
#include "benchreport/store/summarise_runs.hpp"
#include "store_fixture.hpp"

using namespace benchreport;
using namespace benchreport::store;

namespace {

std::vector<std::string> rows(const Store& store, const char* query) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(store.handle(), query, -1, &stmt, nullptr) == SQLITE_OK);
  std::vector<std::string> out;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(stmt, 0);
    out.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
  }
  sqlite3_finalize(stmt);
  return out;
}

// One case over commits c0..c5 stepping up at c3 (a regression), and six runs, one per commit,
// whose environment's cpu changes at c3.
HistoryAnalysis stepped_analysis() {
  HistoryAnalysis a;
  a.history.order = "commit";
  a.history.by = {"case"};
  a.history.commits = {"c0", "c1", "c2", "c3", "c4", "c5"};
  Series s;
  s.key = {"a"};
  s.commits = {0, 1, 2, 3, 4, 5};
  s.values = {1, 1, 1, 2, 2, 2};
  s.processes = s.samples = {1, 1, 1, 1, 1, 1};
  a.history.series.push_back(s);
  ChangePoint cp;
  cp.index = cp.commit = 3;
  cp.before = 1;
  cp.after = 2;
  cp.change = 1;
  cp.regression = true;
  a.changes.push_back({{cp}, std::nullopt, 1, true});
  return a;
}

std::vector<StoredRun> stepped_runs() {
  std::vector<StoredRun> runs(6);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    runs[i].run_id = static_cast<std::int64_t>(i + 1);
    runs[i].commit_sha = "c" + std::to_string(i);
    runs[i].branch = "main";
    runs[i].time = "t" + std::to_string(i);
    runs[i].environment_json = i < 3 ? R"({"tool":{"cpu":"x86"}})" : R"({"tool":{"cpu":"arm"}})";
  }
  return runs;
}

}  // namespace

TEST_CASE("environment_diff flattens objects to dotted keys and compares as Python does", "[store][history]") {
  const auto diff = environment_diff(R"({"a":{"b":1,"c":[1,2]},"d":1,"e":true,"f":null,"g":{}})",
                                     R"({"a":{"b":1.0,"c":[1,3]},"d":true,"g":{},"h":"x"})");
  REQUIRE(diff.size() == 3);
  CHECK(diff[0].key == "a.c");
  CHECK(diff[0].old_value == "[1,2]");
  CHECK(diff[1].key == "e");  // true against a missing key; d (1 == True) and f (null = missing) are equal
  CHECK(diff[2].key == "h");
  CHECK(!diff[2].old_value);
  CHECK(environment_diff("", R"({})").empty());
}

TEST_CASE("environment_cause prints values as Python's str() and names at most four", "[store][history]") {
  CHECK(environment_cause({}).empty());
  CHECK(python_str(R"([1, 1.0, "it's", null, true, {"k": [1e20]}])") ==
        "[1, 1.0, \"it's\", None, True, {'k': [1e+20]}]");
  CHECK(python_str(R"("bare")") == "bare");
  const auto diff = environment_diff(R"({"a":1,"b":2,"c":3,"d":4,"e":5,"f":6})", R"({"a":2,"b":3,"c":4,"d":5})");
  CHECK(environment_cause(diff) ==
        "environment changed: a: 1 \u2192 2; b: 2 \u2192 3; c: 3 \u2192 4; d: 4 \u2192 5 (+2 more)");
  CHECK(environment_cause(environment_diff(R"({"x":"y"})", "")) == "environment changed: x: y \u2192 (none)");
}

TEST_CASE("update_alert_states writes each state once, keeps acknowledgements and names the cause",
          "[store][history]") {
  const StoreFixture fixture("alert-states");
  const Store& store = fixture.store;
  fixture.sql(
      "INSERT INTO change_points(branch, case_key, commit_sha, direction, change, state, note, updated) VALUES"
      " ('main', '{\"case\":\"gone\"}', 'c1', 'regression', 1, 'new', NULL, 't'),"
      " ('main', '{\"case\":\"kept\"}', 'c1', 'regression', 1, 'acknowledged', 'known', 't')");
  const HistoryAnalysis analysis = stepped_analysis();
  const auto runs = stepped_runs();
  auto alerts = update_alert_states(store, "main", analysis, runs, 2);
  REQUIRE(alerts.size() == 1);
  REQUIRE(alerts[0].size() == 1);
  CHECK(alerts[0][0].state == "confirmed");
  CHECK(alerts[0][0].cause == "environment changed: tool.cpu: x86 \u2192 arm");
  const char* query =
      "SELECT case_key || '|' || commit_sha || '|' || direction || '|' || state || '|' || COALESCE(note, 'NULL')"
      " || '|' || updated FROM change_points ORDER BY case_key";
  CHECK(rows(store, query) == std::vector<std::string>{R"({"case":"a"}|c3|regression|confirmed|NULL|t5)",
                                                       R"({"case":"kept"}|c1|regression|acknowledged|known|t)"});
  fixture.sql("UPDATE change_points SET state = 'acknowledged', note = 'ok' WHERE commit_sha = 'c3'");
  alerts = update_alert_states(store, "main", analysis, runs, 2);
  CHECK(alerts[0][0].state == "acknowledged");
  CHECK(alerts[0][0].note == "ok");
  CHECK(rows(store, query)[0] == R"({"case":"a"}|c3|regression|acknowledged|ok|t5)");  // unchanged: not written
}

TEST_CASE("summarise_new_runs stops after a finished batch when asked, and a later call continues",
          "[store][history][summarise]") {
  const StoreFixture fixture("summarise-stop");
  const Store& store = fixture.store;
  const std::size_t n = kRunsPerTransaction + 3;
  std::vector<std::pair<std::int64_t, std::string>> ids;
  std::string sql;
  for (std::size_t i = 1; i <= n; ++i) {
    const std::string id = std::to_string(i);
    sql += "INSERT INTO runs(run_id, content_hash, commit_sha, branch, time, seq) VALUES (" + id + ", 'h" + id +
           "', 'c" + id + "', 'main', 't', " + id + ");";
    sql += "INSERT INTO sets(run_id, name, labels, unit, process, samples) VALUES (" + id +
           ", 'a', '{\"case\":\"a\"}', 's', NULL, X'000000000000F03F');";
    ids.emplace_back(static_cast<std::int64_t>(i), "c" + id);
  }
  fixture.sql(sql.c_str());
  const auto runs = main_runs(ids);
  std::size_t asked = 0;
  const auto stop = [&asked] {
    ++asked;
    return true;
  };
  CHECK(summarise_new_runs(store, "main", runs, false, 1, stop) == kRunsPerTransaction);
  CHECK(asked == 1);
  CHECK(rows(store, "SELECT COUNT(DISTINCT run_id) FROM case_summaries")[0] == std::to_string(kRunsPerTransaction));
  CHECK(summarise_new_runs(store, "main", runs, false, 1, stop) == 3);  // the rest: one batch, not asked
  CHECK(asked == 1);
  CHECK(rows(store, "SELECT COUNT(DISTINCT run_id) FROM case_summaries")[0] == std::to_string(n));
}

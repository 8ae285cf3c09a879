#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "benchreport/store/store.hpp"
#include "benchreport/store/summarise_runs.hpp"
#include "store_fixture.hpp"

using namespace benchreport::store;

TEST_CASE("ascii_json_string escapes as Python's json.dumps", "[store][summarise]") {
  // Expected text printed by: python3 -c 'import json; print(json.dumps("caf\u00e9 \x7f \U0001F600 \"q\" \n"))'
  CHECK(ascii_json_string("caf\xc3\xa9 \x7f \xf0\x9f\x98\x80 \"q\" \n") ==
        R"("caf\u00e9 \u007f \ud83d\ude00 \"q\" \n")");
}

namespace {

std::vector<std::string> column_texts(const Store& store, const char* query) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(store.handle(), query, -1, &stmt, nullptr) == SQLITE_OK);
  std::vector<std::string> out;
  while (sqlite3_step(stmt) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  sqlite3_finalize(stmt);
  return out;
}

}  // namespace

TEST_CASE("summarise_new_runs caches each (case, run) once: median of process medians, counts, labels",
          "[store][summarise]") {
  const StoreFixture fixture("summarise");
  const Store& store = fixture.store;
  // Samples as float64 little-endian: 1, 2, 3 (process 0) and 5, 7 (process 1) of case a; 4 of case b.
  fixture.sql(
      "INSERT INTO runs(run_id, content_hash, commit_sha, branch, time, seq) VALUES"
      " (1, 'h1', 'c1', 'main', 't1', 0);"
      "INSERT INTO sets(run_id, name, labels, unit, process, samples) VALUES"
      " (1, 'a', '{\"case\":\"a\",\"process\":\"0\"}', 's', 0,"
      "  X'000000000000F03F00000000000000400000000000000840'),"
      " (1, 'a', '{\"case\":\"a\",\"process\":\"1\"}', 's', 1,"
      "  X'00000000000014400000000000001C40'),"
      " (1, 'b', '{\"case\":\"b\\u00e9\"}', 'ms', NULL, X'0000000000001040')");
  const auto runs = main_runs({{1, "c1"}});
  CHECK(summarise_new_runs(store, "main", runs, false, 1) == 1);
  CHECK(summarise_new_runs(store, "main", runs, false, 1) == 0);  // already cached
  const char* query =
      "SELECT case_key || '|' || position || '|' || labels || '|' || unit || '|' || direction || '|' || value || '|' "
      "|| processes || '|' || samples FROM case_summaries ORDER BY case_key";
  // Case a: medians 2 and 6 of its two processes, their median 4; case b: 4 ms = 0.004 s.
  // The branch is a case column (commit orders, run and process are per-process).
  const std::vector<std::string> expected{
      R"({"branch":"main","case":"a"}|0|[["case", "a"], ["branch", "main"]]|s|lower|4.0|2|5)",
      "{\"branch\":\"main\",\"case\":\"b\xc3\xa9\"}|1|"
      R"([["case", "b\u00e9"], ["branch", "main"]]|ms|lower|0.004|1|1)"};
  CHECK(column_texts(store, query) == expected);
  CHECK(summarise_new_runs(store, "main", runs, true, 1) == 1);  // rebuild
  CHECK(column_texts(store, query) == expected);
}

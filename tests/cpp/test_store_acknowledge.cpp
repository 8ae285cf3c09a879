#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/store/acknowledge.hpp"
#include "benchreport/store/store.hpp"
#include "store_fixture.hpp"

using benchreport::InputError;
using namespace benchreport::store;

namespace {

std::string text_of(const Store& store, const char* query) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(store.handle(), query, -1, &stmt, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
  std::string out(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  sqlite3_finalize(stmt);
  return out;
}

}  // namespace

TEST_CASE("case_matches reads CASE as label pairs or one label's value", "[store][acknowledge]") {
  const std::string key = R"({"case":"sort","n":"10"})";
  CHECK(case_matches(key, "sort"));
  CHECK(case_matches(key, "10"));
  CHECK_FALSE(case_matches(key, "case"));
  CHECK(case_matches(key, "case=sort"));
  CHECK(case_matches(key, "case=sort,n=10"));
  CHECK_FALSE(case_matches(key, "case=sort,n=11"));
  CHECK_FALSE(case_matches(key, "other=sort"));
  CHECK(case_matches(key, "n=11,n=10"));  // the last value of a label named twice wins, as in a dict
  CHECK(case_matches(key, "case=sort=x") == false);
  CHECK_THROWS_AS(case_matches(key, "case=sort,n"), InputError);
}

TEST_CASE("a change point is found by case and commit prefix and acknowledged with the newest run's time",
          "[store][acknowledge]") {
  const StoreFixture fixture("acknowledge");
  const Store& store = fixture.store;
  fixture.sql(
      "INSERT INTO runs(run_id, content_hash, commit_sha, branch, time, seq) VALUES"
      " (1, 'h1', 'abc_1', 'main', '2026-01-01T00:00:00Z', 0), (2, 'h2', 'abcd2', 'main', '2026-01-02T00:00:00Z', 1);"
      "INSERT INTO change_points(branch, case_key, commit_sha, direction, change, state) VALUES"
      " ('main', '{\"case\":\"a\"}', 'abc_1', 'regression', 0.5, 'new'),"
      " ('main', '{\"case\":\"b\"}', 'abcd2', 'improvement', -0.5, 'confirmed'),"
      " ('dev', '{\"case\":\"a\"}', 'abcd2', 'regression', 0.5, 'new')");
  CHECK(matching_change_points(store, "a", "abc", std::nullopt).size() == 2);
  CHECK(matching_change_points(store, "a", "abc", std::string("main")).size() == 1);
  CHECK(matching_change_points(store, "a", "abc%", std::nullopt).size() == 2);            // % is dropped
  const auto underscore = matching_change_points(store, "case=a", "abc_", std::nullopt);  // _ is no wildcard
  REQUIRE(underscore.size() == 1);
  CHECK(underscore[0].commit_sha == "abc_1");
  CHECK(matching_change_points(store, "b", "abcd", std::nullopt)[0].state == "confirmed");
  CHECK(matching_change_points(store, "c", "abc", std::nullopt).empty());

  acknowledge_change_point(store, underscore[0].change_id, "known");
  CHECK(text_of(store, "SELECT state || '|' || note || '|' || updated FROM change_points WHERE commit_sha = 'abc_1'") ==
        "acknowledged|known|2026-01-02T00:00:00Z");
  CHECK(text_of(store, "SELECT COUNT(*) FROM change_points WHERE state = 'acknowledged'") == "1");
}

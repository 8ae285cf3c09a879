#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "benchreport/store/store.hpp"
#include "benchreport/store/summary_cache.hpp"
#include "store_fixture.hpp"

using namespace benchreport::store;

TEST_CASE("case_key writes labels as Python's json.dumps(sort_keys=True, ensure_ascii=False)",
          "[store][summary_cache]") {
  // Expected text printed by: python3 -c 'import json; print(json.dumps({"b": "x\"y", "a": "caf\u00e9",
  // "\u00e9": "1"}, sort_keys=True, separators=(",", ":"), ensure_ascii=False))'
  CHECK(case_key({"b", "a", "\xc3\xa9"}, {"x\"y", "caf\xc3\xa9", "1"}) ==
        "{\"a\":\"caf\xc3\xa9\",\"b\":\"x\\\"y\",\"\xc3\xa9\":\"1\"}");
  CHECK(case_key({}, {}) == "{}");
}

TEST_CASE("cached_branch_history orders commits, cases and columns by first appearance, skipping unlisted runs",
          "[store][summary_cache]") {
  const StoreFixture fixture("summary-cache");
  const Store& store = fixture.store;
  // Run 3 is on the branch but not listed: its row is skipped. Labels as json.dumps(list(labels.items())) stores them.
  fixture.sql(
      "INSERT INTO runs(run_id, content_hash, commit_sha, branch, time, seq) VALUES"
      " (1, 'h1', 'c1', 'main', 't1', 0), (2, 'h2', 'c2', 'main', 't2', 1),"
      " (3, 'h3', 'c3', 'main', 't3', 2);"
      "INSERT INTO case_summaries VALUES"
      " ('main', '{\"case\":\"b\"}', 1, 0, '[[\"case\", \"b\"]]', 's', 'lower', 2.0, 3, 30),"
      " ('main', '{\"case\":\"a\"}', 1, 1, '[[\"case\", \"a\"]]', 's', 'lower', 1.0, 3, 30),"
      " ('main', '{\"case\":\"a\"}', 2, 0, '[[\"case\", \"a\"], [\"n\", \"caf\\u00e9\"]]', 'ms',"
      " 'higher', 1.5, 2, 20),"
      " ('main', '{\"case\":\"b\"}', 3, 0, '[[\"case\", \"b\"]]', 's', 'lower', 9.0, 3, 30)");
  const auto runs = main_runs({{1, "c1"}, {2, "c2"}});
  const benchreport::History history = cached_branch_history(store, "main", runs, 1);
  CHECK(history.commits == std::vector<std::string>{"c1", "c2"});
  CHECK(history.by == std::vector<std::string>{"case", "n"});
  REQUIRE(history.series.size() == 2);
  CHECK(history.series[0].key == std::vector<std::string>{"b", ""});
  CHECK(history.series[0].commits == std::vector<std::size_t>{0});
  CHECK(history.series[0].values == std::vector<double>{2.0});
  CHECK(history.series[1].key == std::vector<std::string>{"a", ""});  // labels of the case's first row
  CHECK(history.series[1].commits == std::vector<std::size_t>{0, 1});
  CHECK(history.series[1].values == std::vector<double>{1.0, 1.5});
  CHECK(history.series[1].processes == std::vector<std::size_t>{3, 2});
  CHECK(history.series[1].samples == std::vector<std::size_t>{30, 20});
}

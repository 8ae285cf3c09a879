// Writing runs through the store's one connection (store/write_runs.hpp), the
// transaction helper under it, and the time a run records (store/utc_time.hpp).
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/store/utc_time.hpp"
#include "benchreport/store/write_runs.hpp"
#include "store/sqlite.hpp"
#include "store_fixture.hpp"

using namespace benchreport::store;
using benchreport::Dataset;

namespace {

Dataset two_cases(double shift = 0.0) {
  Dataset ds;
  ds.add_run("f.json", "{}");
  benchreport::SetOptions options;
  options.run = "f.json";
  for (const char* name : {"a", "b"}) {
    ds.add_set({{"benchmark", name}}, std::vector<double>{1.0 + shift, 2.0}, benchreport::parse_unit("ms"), options);
  }
  return ds;
}

RecordRequest at_commit(const std::string& commit, const std::string& branch = "main") {
  return {"f.json", commit, branch, std::string("2026-01-01T00:00:00Z"), {}, {{"compiler", "gcc-14"}}};
}

std::int64_t count(const Store& store, const char* table) {
  return query_integer(store.handle(), std::string("SELECT COUNT(*) FROM ") + table);
}

}  // namespace

TEST_CASE("in_transaction rethrows the write's own error even when SQLite already ended the transaction", "[store]") {
  StoreFixture f("in_transaction_error");
  sqlite3* db = f.store.handle();
  try {
    in_transaction(db, [&] {
      execute(db, "INSERT INTO environments(hash, json) VALUES ('h', '{}')");
      execute(db, "ROLLBACK");  // as SQLite does itself after some errors (SQLITE_FULL, SQLITE_IOERR)
      throw std::runtime_error("the real error");
    });
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "the real error");
  }
  CHECK(sqlite3_get_autocommit(db) != 0);
  CHECK(count(f.store, "environments") == 0);
}

TEST_CASE("in_transaction rolls back a failed COMMIT and leaves no transaction open", "[store]") {
  StoreFixture f("in_transaction_commit");
  sqlite3* db = f.store.handle();
  // A deferred foreign key is checked at COMMIT: the run names an environment that does not exist.
  execute(db, "PRAGMA defer_foreign_keys = ON");
  CHECK_THROWS_WITH(in_transaction(db,
                                   [&] {
                                     execute(db,
                                             "INSERT INTO runs(content_hash, commit_sha, branch, time, seq,"
                                             " environment_id) VALUES ('h', 'c', 'b', 't', 0, 42)");
                                   }),
                    Catch::Contains("FOREIGN KEY constraint failed") && Catch::Contains("s.db"));
  CHECK(sqlite3_get_autocommit(db) != 0);
  CHECK(count(f.store, "runs") == 0);
  in_transaction(db, [&] { execute(db, "INSERT INTO environments(hash, json) VALUES ('h', '{}')"); });
  CHECK(count(f.store, "environments") == 1);
}

TEST_CASE("record: numbered, placed on its branch, skipped when the content is stored", "[store]") {
  StoreFixture f("record");
  const Recorded first = record(f.store, two_cases(), at_commit("c1"));
  CHECK(first.run_id == 1);
  CHECK(first.note == "recorded run 1: 2 sets, commit c1 on main");
  CHECK(record(f.store, two_cases(1.0), at_commit("c2")).run_id == 2);
  CHECK(record(f.store, two_cases(2.0), at_commit("c1")).run_id == 3);  // c1 again: its earlier seq
  CHECK(record(f.store, two_cases(), at_commit("c1", "feature")).run_id == 4);
  const Recorded again = record(f.store, two_cases(), at_commit("c1"));
  CHECK(!again.run_id);
  CHECK(again.note == "already recorded as run 1 (commit c1 on main); skipped");
  std::vector<std::pair<std::string, std::int64_t>> placed;
  for (const StoredRun& r : f.store.runs()) placed.emplace_back(r.branch + "/" + r.commit_sha, r.seq);
  CHECK(placed == std::vector<std::pair<std::string, std::int64_t>>{
                      {"feature/c1", 0}, {"main/c1", 0}, {"main/c1", 0}, {"main/c2", 1}});
  CHECK(count(f.store, "sets") == 8);
  CHECK(count(f.store, "run_files") == 4);
  CHECK(count(f.store, "environments") == 1);  // one environment, shared
  CHECK(f.store.run(1).time == "2026-01-01T00:00:00Z");
}

TEST_CASE("record: bad input writes nothing", "[store]") {
  StoreFixture f("record_bad");
  RecordRequest request = at_commit("c1");
  request.time = "yesterday";
  CHECK_THROWS_AS(record(f.store, two_cases(), request), benchreport::InputError);
  CHECK_THROWS_AS(record(f.store, Dataset(), at_commit("c1")), benchreport::InputError);
  CHECK(count(f.store, "runs") == 0);
  CHECK(count(f.store, "environments") == 0);
}

TEST_CASE("export_runs, export_sets and import_runs round-trip a store", "[store]") {
  StoreFixture from("export_from");
  record(from.store, two_cases(), at_commit("c1"));
  record(from.store, two_cases(1.0), at_commit("c2", "feature"));
  std::vector<FullRun> runs = export_runs(from.store);
  REQUIRE(runs.size() == 2);
  for (FullRun& run : runs) {
    run.rows.sets = export_sets(from.store, *run.run_id);
    run.checksum = content_hash(run.commit_sha, run.branch, run.rows.sets);
  }
  CHECK(runs[1].rows.content_hash == content_hash("c2", "feature", runs[1].rows.sets));
  CHECK(runs[0].rows.files.size() == 1);
  CHECK(label_names(from.store) == std::vector<std::string>{"benchmark"});

  StoreFixture to("export_to");
  record(to.store, two_cases(5.0), at_commit("c0"));
  const ImportCounts counts = import_runs(to.store, runs, "export");
  CHECK((counts.imported == 2 && counts.skipped == 0));
  CHECK(to.store.run(2).commit_sha == "c1");  // appended: new ids
  CHECK(import_runs(to.store, runs, "export").skipped == 2);

  StoreFixture empty("export_empty");
  runs[0].run_id = 10;
  CHECK(import_runs(empty.store, runs, "export").imported == 2);
  CHECK(empty.store.run(10).commit_sha == "c1");  // into an empty store: ids kept
  CHECK(export_sets(empty.store, 10).size() == 2);

  StoreFixture damaged("export_damaged");
  runs[1].checksum = runs[0].rows.content_hash;
  CHECK_THROWS_WITH(import_runs(damaged.store, runs, "export"),
                    "export: run 2 does not match its checksum (damaged export)");
  CHECK(count(damaged.store, "runs") == 0);
  runs[1].checksum.reset();  // an export run without its checksum is damaged too
  CHECK_THROWS_WITH(import_runs(damaged.store, runs, "export"),
                    "export: run 2 does not match its checksum (damaged export)");
}

TEST_CASE("a closed store says so", "[store]") {
  StoreFixture f("closed");
  f.store.close();
  f.store.close();
  CHECK_THROWS_WITH(f.store.runs(), Catch::EndsWith("s.db: the store is closed"));
}

TEST_CASE("utc_time normalises ISO-8601 times as datetime.fromisoformat reads them", "[store]") {
  CHECK(utc_time(std::string("2026-01-01T00:00:00Z")) == "2026-01-01T00:00:00Z");
  CHECK(utc_time(std::string(" 2026-01-02T01:00:00+02:00 ")) == "2026-01-01T23:00:00Z");
  CHECK(utc_time(std::string("2026-03-01T00:30:00.250+01:00")) == "2026-02-28T23:30:00.25Z");
  CHECK(utc_time(std::string("2026-12-05")) == "2026-12-05T00:00:00Z");
  CHECK(utc_time(std::string("20261205T193000")) == "2026-12-05T19:30:00Z");
  CHECK(utc_time(std::string("2026-W01-1")) == "2025-12-29T00:00:00Z");
  CHECK(utc_time(std::string("2026-01-01T10:30-0530")) == "2026-01-01T16:00:00Z");
  CHECK(utc_time(std::nullopt).size() == 20);
  for (const char* bad : {"yesterday", "2026-13-01", "2026-02-30", "2026-01-01T24:00", "2026-01-01T10:3",
                          "2026-01-01T10:30:00+24:00", "2026-01-01T10:30:00."}) {
    CHECK_THROWS_WITH(utc_time(std::string(bad)),
                      Catch::Contains("expected an ISO-8601 date and time, e.g. 2026-12-05T19:30:00Z"));
  }
}

#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/store/run_rows.hpp"
#include "benchreport/store/store.hpp"

using benchreport::Dataset;
using benchreport::InputError;
using namespace benchreport::store;

namespace {

std::string bytes_of(std::vector<double> values) {
  std::string out(values.size() * sizeof(double), '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// A fresh path under the system's temporary folder, removed with its WAL files when done.
struct TempStore {
  std::filesystem::path path;
  explicit TempStore(const std::string& name) : path(std::filesystem::temp_directory_path() / name) { remove(); }
  ~TempStore() { remove(); }
  void remove() const {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  }
};

void sql(const std::filesystem::path& path, const char* statement) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, statement, nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

}  // namespace

TEST_CASE("the core's json_string escapes as Python's json.dumps(ensure_ascii=False), as stored texts need",
          "[store]") {
  // Expected text printed by: python3 -c 'import json; print(json.dumps(s, ensure_ascii=False))'
  CHECK(python_json_string("a\"b\\c\n\t\x01\x1f\x7f caf\xc3\xa9") ==
        "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f\x7f caf\xc3\xa9\"");
  CHECK(python_json_string("\b\f\r") == "\"\\b\\f\\r\"");
}

TEST_CASE("content_hash matches hashlib over the same parts", "[store]") {
  SetRow a;
  a.labels = R"({"benchmark":"x"})";
  a.unit = "ns";
  a.direction = "lower";
  a.samples = bytes_of({1.5, 2.0});
  SetRow b = a;
  b.labels = R"({"benchmark":"y"})";
  b.unit = "s";
  b.direction.reset();
  b.iterations = bytes_of({3.0, 4.0});
  // hashlib.sha256 of b"c1\0main\0" + per set labels\0 unit\0 direction\0 len(8 LE) samples, b"-" or len+iterations.
  CHECK(content_hash("c1", "main", std::vector{a, b}) ==
        "1144bb8e0b16fad1e561d56fb12b258a7b75edbf7b732df24cd27af4326cdc0f");
}

TEST_CASE("run_rows: canonical labels, name, process, blobs and files", "[store]") {
  Dataset ds;
  ds.add_run("f.json", R"({"x":1})");
  ds.set_run_format("f.json", "nitro");
  benchreport::SetOptions options;
  options.run = "f.json";
  options.metadata = {{"k", "[1,2]"}};
  ds.add_set({{"z", "1"}, {"process", "7"}, {"benchmark", ""}}, std::vector<double>{1.0, 2.0},
             benchreport::parse_unit("ms"), options);
  const RunRows rows = run_rows(ds, "c", "b");
  REQUIRE(rows.sets.size() == 1);
  const SetRow& set = rows.sets[0];
  CHECK(set.labels == R"({"benchmark":"","process":"7","z":"1"})");
  CHECK(set.name == "benchmark=,z=1");  // an empty benchmark label does not name the case; process labels never do
  CHECK(set.process == 7);
  CHECK(set.samples == bytes_of({1.0, 2.0}));
  CHECK(!set.iterations);
  CHECK(set.direction == "lower");
  CHECK(set.file == 0);
  CHECK(set.metadata == R"([["k","[1,2]"]])");
  CHECK(rows.tool == "nitro");
  CHECK(!rows.warnings);
  REQUIRE(rows.files.size() == 1);
  CHECK(rows.files[0].metadata == R"({"x":1})");
  CHECK(rows.content_hash == content_hash("c", "b", rows.sets));
}

TEST_CASE("check_blob names the file, set and column", "[store]") {
  CHECK_NOTHROW(check_blob("s.db", 16, "bytes", 1, "samples"));
  CHECK_THROWS_WITH(check_blob("s.db", 5, "bytes", 2, "samples"),
                    "s.db: set 2: column samples holds 5 bytes, expected a multiple of 8 bytes (float64 LE)");
  CHECK_THROWS_WITH(check_blob("s.db", std::nullopt, "str", 3, "iterations", 16),
                    "s.db: set 3: column iterations holds a str, expected 16 bytes, as the samples");
}

TEST_CASE("a new store has schema version 2, WAL and the application id", "[store]") {
  TempStore temp("benchreport_test_store_new.db");
  CHECK_THROWS_WITH(Store::open(temp.path.string(), false), temp.path.string() + ": no such store");
  Store store = Store::open(temp.path.string());
  CHECK(store.schema_version() == kSchemaVersion);
  CHECK(store.runs().empty());
  CHECK_THROWS_WITH(store.run(3), temp.path.string() + ": no run 3");
  store.close();
  CHECK(Store::open(temp.path.string(), false).schema_version() == 2);
}

TEST_CASE("files that are not benchreport stores are refused", "[store]") {
  TempStore temp("benchreport_test_store_other.db");
  sql(temp.path, "CREATE TABLE customers(id INTEGER)");
  CHECK_THROWS_WITH(Store::open(temp.path.string()),
                    temp.path.string() + ": not a benchreport store (an SQLite database with other tables)");
  temp.remove();
  sql(temp.path, "PRAGMA user_version = 3");
  CHECK_THROWS_WITH(Store::open(temp.path.string()),
                    Catch::Contains("store schema version 3 is newer than this benchreport reads (up to 2)"));
}

TEST_CASE("the reference store written by the Python store reads back", "[store]") {
  TempStore temp("benchreport_test_store_reference.db");
  std::filesystem::copy_file(std::string(BENCHREPORT_TEST_DATA) + "/store/reference.db", temp.path);
  Store store = Store::open(temp.path.string(), false);
  const auto runs = store.runs(std::string("main"));
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].commit_sha == std::string(40, 'a'));
  CHECK(runs[1].time == "2026-01-02T23:00:00Z");
  const ReadRuns read = store.read_runs(runs);
  CHECK(read.label_texts.size() == 3);
  CHECK(read.dataset.n_sets() == 6 + 6 + 2);  // Nitro 6 sets, pyperf 6, the weighted dataset 2
  CHECK(read.dataset.label(13, "run") == "4");
  CHECK(read.dataset.label(13, "benchmark") == "caf\xc3\xa9 \xe2\x98\x83");
  CHECK(read.dataset.label(12, "z") == "\t");
  // Only the weighted run has iterations: every other set weighs each sample 1.
  REQUIRE(read.dataset.has_weights());
  const auto ones = read.dataset.sample_weights(0);
  CHECK(std::all_of(ones.begin(), ones.end(), [](double w) { return w == 1.0; }));
  CHECK(read.dataset.sample_weights(13).size() == 7);
  CHECK(read.dataset.samples(13).size() == 7);
}

TEST_CASE("a damaged blob in a stored run is an InputError naming the set", "[store]") {
  TempStore temp("benchreport_test_store_damaged.db");
  std::filesystem::copy_file(std::string(BENCHREPORT_TEST_DATA) + "/store/reference.db", temp.path);
  sql(temp.path, "UPDATE sets SET iterations = x'0011' WHERE set_id = 25");
  const Store store = Store::open(temp.path.string(), false);
  const std::vector<StoredRun> weighted{store.run(4)};
  CHECK_THROWS_WITH(store.read_runs(weighted),
                    Catch::Contains("set 25: column iterations holds 2 bytes, expected 56 bytes, as the samples"));
}

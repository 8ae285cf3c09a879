#pragma once
// A fresh results store in a scratch folder, filled by SQL on its own connection,
// and the branch runs a test names: the store stage's tests' common setup.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/store/store.hpp"
#include "scratch_folder.hpp"

struct StoreFixture {
  ScratchFolder folder;
  benchreport::store::Store store;
  explicit StoreFixture(const std::string& name)
      : folder(name), store(benchreport::store::Store::open(folder.at("s.db"))) {}
  void sql(const char* statements) const {
    REQUIRE(sqlite3_exec(store.handle(), statements, nullptr, nullptr, nullptr) == SQLITE_OK);
  }
};

// Runs of branch main as (run id, commit).
inline std::vector<benchreport::store::StoredRun> main_runs(
    const std::vector<std::pair<std::int64_t, std::string>>& ids) {
  std::vector<benchreport::store::StoredRun> runs(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    runs[i].run_id = ids[i].first;
    runs[i].commit_sha = ids[i].second;
    runs[i].branch = "main";
  }
  return runs;
}

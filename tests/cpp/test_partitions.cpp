// What benchreport.dask and benchreport.launch_noise take from C++: the labels naming a case, the
// checks that each case lies whole in one partition, the commits of a store's Parquet export and
// each case's stored runs (the medians checked against values worked out by hand).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "benchreport/compare/stored_runs.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/label_roles.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/data/whole_cases.hpp"
#include "benchreport/io/store_export.hpp"

using namespace benchreport;
using Strings = std::vector<std::string>;

TEST_CASE("case labels are by, else the columns less the excluded and process labels", "[partitions]") {
  const Strings columns{"case", "run", "commit", "process", "value", "pair", "unit", "size"};
  CHECK(case_labels(columns, Strings{"value", "unit", "commit"}, {}) == Strings{"case", "size"});
  CHECK(case_labels(columns, Strings{}, Strings{"size"}) == Strings{"size"});
  CHECK(case_labels(Strings{}, Strings{"value"}, {}).empty());
}

TEST_CASE("summary groups must hold the case columns", "[partitions]") {
  const Strings cases{"case", "size"};
  CHECK_NOTHROW(require_case_columns({}, cases, "summaries"));
  CHECK_NOTHROW(require_case_columns(Strings{"size", "commit", "case"}, cases, "summaries"));
  CHECK_THROWS_WITH(require_case_columns(Strings{"commit"}, cases, "analyze"),
                    "analyze: by must contain the case columns (case, size missing)");
}

TEST_CASE("a case key seen twice is a case split across partitions", "[partitions]") {
  const Strings columns{"case", "size"};
  CHECK_NOTHROW(refuse_split_cases(columns, {{"a", "a", "b"}, {"1", "2", "1"}}));
  CHECK_NOTHROW(refuse_split_cases(columns, {{}, {}}));
  CHECK_THROWS_WITH(refuse_split_cases(columns, {{"a", "b", "b", "a"}, {"1", "2", "2", "1"}}),
                    "case case=b, size=2 is split across partitions; write each case to its own files (partition "
                    "the Parquet by case, size) and read them with read_parquet");
  CHECK_THROWS_AS(refuse_split_cases(columns, {{"a"}}), InputError);
}

TEST_CASE("an export's runs are grouped by commit in branch order, batches in SQLite's order", "[partitions]") {
  // Runs of two branches; "main" sorts after "feat" and after "Zed" (bytes), and a non-ASCII name last.
  const std::vector<std::int64_t> ids{10, 9, 3, 4, 5, 11};
  const Strings branches{"main", "main", "feat", "main", "\xc3\xa9t\xc3\xa9", "Zed"};
  const Strings commits{"c2", "c2", "f0", "c1", "e0", "z0"};
  const std::vector<std::int64_t> seqs{2, 2, 0, 1, 0, 0};
  const auto main = export_commits(ids, branches, commits, seqs, "main");
  // Batches: Zed 11 (0), feat 3 (1), main 4 (2), main 9 (3), main 10 (4), été 5 (5).
  REQUIRE(main.size() == 2);
  REQUIRE(main[0].size() == 1);
  CHECK((main[0][0].run == 4 && main[0][0].batch == 2 && main[0][0].commit == "c1" && main[0][0].seq == 1));
  REQUIRE(main[1].size() == 2);
  CHECK((main[1][0].run == 9 && main[1][0].batch == 3 && main[1][1].run == 10 && main[1][1].batch == 4));
  CHECK(export_commits(ids, branches, commits, seqs, "\xc3\xa9t\xc3\xa9")[0][0].batch == 5);
  CHECK(export_commits(ids, branches, commits, seqs, "none").empty());
  CHECK_THROWS_AS(export_commits(ids, Strings{"main"}, commits, seqs, "main"), InputError);
}

TEST_CASE("stored runs: per case, runs in the given order, one median per process", "[partitions][launch_noise]") {
  Dataset ds;
  const auto ms = parse_unit("ms");
  const auto add = [&](const std::string& c, const std::string& run, const std::string& process,
                       std::vector<double> x) {
    Labels labels{{"case", c}, {"run", run}, {"commit", "c" + run}};
    if (!process.empty()) labels.emplace_back("process", process);
    ds.add_set(labels, x, ms);
  };
  add("b", "2", "1", {1, 2, 3});
  add("b", "2", "1", {10, 11});  // the same process: pooled with the set above
  add("b", "2", "2", {4, 6});
  add("a", "1", "", {5});
  add("b", "1", "", {7, 9});
  add("a", "9", "", {8});  // a run not asked for
  const Strings order{"1", "2"};
  const auto runs = stored_runs(ds, Strings{"case"}, order);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].name == "b");
  REQUIRE(runs[0].runs.size() == 2);
  CHECK(runs[0].runs[0].first == "c1");
  REQUIRE(runs[0].runs[0].second.size() == 1);
  CHECK(runs[0].runs[0].second[0] == Approx(8e-3).epsilon(1e-14));  // median of 7 and 9 ms, in seconds
  CHECK(runs[0].runs[1].first == "c2");
  REQUIRE(runs[0].runs[1].second.size() == 2);  // process 1: {1, 2, 3, 10, 11}; process 2: {4, 6}
  CHECK(runs[0].runs[1].second[0] == Approx(3e-3).epsilon(1e-14));
  CHECK(runs[0].runs[1].second[1] == Approx(5e-3).epsilon(1e-14));
  CHECK(runs[1].name == "a");
  REQUIRE(runs[1].runs.size() == 1);
  CHECK(runs[1].runs[0].second.at(0) == Approx(5e-3).epsilon(1e-14));
  CHECK(stored_runs(ds, Strings{"missing"}, order).empty());
}

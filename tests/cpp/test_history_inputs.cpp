// The inputs of a history: folders into commits (io/commit_entries.hpp), commit labels
// (data/label_commits.hpp), a long table cut into sets (data/long_table.hpp) and the per-(case,
// commit) frame of a History (compare/series.hpp).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "benchreport/compare/series.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/label_commits.hpp"
#include "benchreport/data/long_table.hpp"
#include "benchreport/io/commit_entries.hpp"

using namespace benchreport;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> column(const Dataset& ds, std::string_view name) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ds.n_sets(); ++i) out.emplace_back(ds.has_label(i, name) ? ds.label(i, name) : "-");
  return out;
}

const DataColumn& named(const Columns& columns, std::string_view name) {
  for (const DataColumn& c : columns.columns()) {
    if (c.name == name) return c;
  }
  FAIL("no column " << name);
  throw;
}

}  // namespace

TEST_CASE("commit_entries: a folder is its visible entries in natural order", "[history_inputs]") {
  const fs::path root = fs::temp_directory_path() / ("benchreport-commits-" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "runs" / "run-3");
  fs::create_directories(root / "empty");
  for (const char* file : {"runs/run-10.json", "runs/run-2.json", "runs/.hidden.json", "one.json"})
    std::ofstream(root / file) << "{}";
  const std::string runs = (root / "runs").string(), one = (root / "one.json").string();
  CHECK(commit_entries({one, runs, runs + "/", "missing.json"}) ==
        std::vector<std::string>{one, runs + "/run-2.json", runs + "/run-3", runs + "/run-10.json",
                                 runs + "/run-2.json", runs + "/run-3", runs + "/run-10.json", "missing.json"});
  CHECK_THROWS_WITH(commit_entries({(root / "empty").string()}),
                    (root / "empty").string() + ": empty folder (history takes one commit per file in it)");
  fs::remove_all(root);
}

TEST_CASE("label_commits labels the parts that lack the commit label on some set", "[history_inputs]") {
  const std::vector<double> x{1.0, 2.0};
  Dataset plain, labelled, partly;
  plain.add_set({{"benchmark", "a"}}, x, parse_unit("ms"));
  labelled.add_set({{"benchmark", "a"}, {"commit", "abc"}}, x, parse_unit("ms"));
  partly.add_set({{"benchmark", "a"}, {"commit", "def"}}, x, parse_unit("ms"));
  partly.add_set({{"benchmark", "b"}}, x, parse_unit("ms"));
  const std::vector<const Dataset*> parts{&plain, &labelled, &partly};
  const std::vector<std::string> names{"1.json", "2.json", "3.json"};
  const Dataset ds = label_commits(parts, names);
  CHECK(column(ds, "commit") == std::vector<std::string>{"1.json", "abc", "3.json", "3.json"});
  CHECK(column(ds, "benchmark") == std::vector<std::string>{"a", "a", "a", "b"});
  CHECK_THROWS_WITH(label_commits({}, {}), "history: no inputs");
  CHECK_THROWS_AS(label_commits(parts, std::vector<std::string>{"x"}), InputError);
}

TEST_CASE("long_table_sets: a set per run of rows equal in every column", "[history_inputs]") {
  const std::vector<std::int32_t> bench{0, 0, 1, 1, 1}, os{0, 0, 0, -1, -1}, unit{0, 1, 1, 1, 1};
  const std::vector<CodedColumn> labels{{"benchmark", bench, {"a", "b"}}, {"os", os, {"linux"}}};
  const CodedColumn units{"unit", unit, {"ms", "s"}};
  const LongTableSets sets = long_table_sets(5, labels, &units, "ns");
  CHECK(sets.offsets == std::vector<std::int64_t>{0, 1, 2, 3, 5});
  CHECK(sets.labels == std::vector<Labels>{{{"benchmark", "a"}, {"os", "linux"}},
                                           {{"benchmark", "a"}, {"os", "linux"}},
                                           {{"benchmark", "b"}, {"os", "linux"}},
                                           {{"benchmark", "b"}}});
  CHECK(sets.units == std::vector<std::string>{"ms", "s", "s", "s"});
  const LongTableSets plain = long_table_sets(5, labels, nullptr, "ns");
  CHECK(plain.offsets == std::vector<std::int64_t>{0, 2, 3, 5});
  CHECK(plain.units == std::vector<std::string>{"ns", "ns", "ns"});
  CHECK(long_table_sets(0, {}, nullptr, "s").offsets == std::vector<std::int64_t>{0});
  const std::vector<std::int32_t> bad{0, 2, 0, 0, 0};
  CHECK_THROWS_WITH(long_table_sets(5, std::vector<CodedColumn>{{"benchmark", bad, {"a", "b"}}}, nullptr, "s"),
                    "column benchmark, row 1: code 2 outside its dictionary");
  CHECK_THROWS_AS(long_table_sets(4, labels, nullptr, "s"), InputError);
  const std::vector<std::int32_t> no_unit{0, 0, -1, -1, -1};
  const CodedColumn missing{"unit", no_unit, {"ms"}};
  CHECK_THROWS_WITH(long_table_sets(5, labels, &missing, "s"), "column unit, row 2: no unit");
}

TEST_CASE("series_frame: a row per (case, commit), the last label first", "[history_inputs]") {
  History h{"commit", {"benchmark", "os"}, {"c1", "c2", "c3"}, {}};
  h.series.push_back(
      {{"a", "linux"}, parse_unit("s"), Direction::lower_is_better, {0, 2}, {1.5, 2.5}, {3, 4}, {30, 40}});
  h.series.push_back({{"b", "mac"}, parse_unit("s"), Direction::lower_is_better, {1}, {7.0}, {1}, {5}});
  const Columns frame = series_frame(h);
  std::vector<std::string> names;
  for (const DataColumn& c : frame.columns()) names.push_back(c.name);
  CHECK(names == std::vector<std::string>{"os", "benchmark", "commit", "position", "value", "processes", "samples"});
  CHECK(named(frame, "benchmark").texts == std::vector<std::string>{"a", "a", "b"});
  CHECK(named(frame, "commit").texts == std::vector<std::string>{"c1", "c3", "c2"});
  CHECK(named(frame, "position").counts == std::vector<std::int64_t>{0, 2, 1});
  CHECK(named(frame, "value").reals == std::vector<double>{1.5, 2.5, 7.0});
  CHECK(named(frame, "samples").counts == std::vector<std::int64_t>{30, 40, 5});
  CHECK(series_frame(History{}).columns().empty());
  // series_points keeps its columns (and kinds) without a series
  const Columns points = series_points(History{});
  CHECK(points.columns().size() == 5);
  CHECK(points.rows() == 0);
}

// benchreport.dask.store_history's C++ part: one commit of a store export summarised per case
// (the median of the per-process medians, worked out by hand here; processes pooled across the
// commit's runs) and a partition of such summaries assembled into series in branch order.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/compare/export_history.hpp"
#include "benchreport/core/error.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

ExportSet set(std::int64_t run, std::string labels, std::string unit, std::vector<double> samples) {
  return {.run = run,
          .labels_json = std::move(labels),
          .unit = std::move(unit),
          .direction = std::nullopt,
          .exact = false,
          .samples = std::move(samples),
          .iterations = std::nullopt};
}

}  // namespace

TEST_CASE("a commit's runs are summarised per case, processes pooled across runs", "[export_history]") {
  const std::vector<ExportSet> sets{
      set(1, R"({"case":"x","process":"1","run":"stale"})", "ms", {1, 2, 3}),
      set(1, R"({"case":"x","process":"2"})", "ms", {4, 5, 6, 7}),
      set(1, R"({"case":"y"})", "ns", {10}),
      set(2, R"({"case":"x","process":"1"})", "ms", {9, 8}),
  };
  const CommitCaseSummaries s = summarise_export_commit(sets, "c1", "main", "export/_sets.arrow");
  CHECK(s.by == std::vector<std::string>{"case", "branch"});
  REQUIRE(s.case_key == std::vector<std::string>{R"({"branch":"main","case":"x"})", R"({"branch":"main","case":"y"})"});
  CHECK(s.unit == std::vector<std::string>{"ms", "ns"});
  CHECK(s.direction == std::vector<std::string>{"lower", "lower"});
  // x: the sets of process 1 in runs 1 and 2 are one process ({1, 2, 3, 9, 8}: median 3 ms), process 2
  // has median 5.5 ms: the case's value is the median of the two, 4.25 ms.
  CHECK(s.value[0] == Approx(4.25e-3).epsilon(1e-14));
  CHECK(s.value[1] == Approx(1e-8).epsilon(1e-14));
  CHECK(s.processes == std::vector<std::int64_t>{2, 1});
  CHECK(s.samples == std::vector<std::int64_t>{9, 1});
}

TEST_CASE("iterations are the samples' weights, and a set without them weighs each sample 1", "[export_history]") {
  std::vector<ExportSet> sets{set(1, R"({"case":"x"})", "ms", {1, 2, 10}), set(2, R"({"case":"x"})", "ms", {3})};
  sets[0].iterations = std::vector<double>{1, 1, 5};
  const CommitCaseSummaries s = summarise_export_commit(sets, "c1", "main", "e");
  CHECK(s.value.at(0) == Approx(2.5e-3).epsilon(1e-14));  // the medians (2 and 3 ms) of the runs' processes
  CHECK(s.samples.at(0) == 4);
  sets[0].iterations = std::vector<double>{1, 1};  // not one weight per sample
  CHECK_THROWS_AS(summarise_export_commit(sets, "c1", "main", "e"), InputError);
}

TEST_CASE("bad labels in an export name the file and the run", "[export_history]") {
  const std::vector<ExportSet> not_string{set(7, R"({"case":"x","size":3})", "ms", {1})};
  CHECK_THROWS_WITH(summarise_export_commit(not_string, "c1", "main", "e/_sets.arrow"),
                    Contains("e/_sets.arrow: labels of a set of run 7") && Contains("label size is not a string"));
  const std::vector<ExportSet> not_json{set(8, "{", "ms", {1})};
  CHECK_THROWS_AS(summarise_export_commit(not_json, "c1", "main", "e"), InputError);
  const std::vector<ExportSet> not_object{set(9, "[1]", "ms", {1})};
  CHECK_THROWS_WITH(summarise_export_commit(not_object, "c1", "main", "e"), Contains("not a JSON object"));
}

TEST_CASE("a partition's summaries become series in branch order", "[export_history]") {
  const std::vector<std::string> keys{R"({"case":"y"})", R"({"case":"x"})", R"({"case":"x"})", R"({"case":"y"})"};
  const std::vector<std::string> units{"s", "ms", "ms", "s"}, directions{"higher", "lower", "lower", "higher"};
  const std::vector<std::int64_t> commit{1, 0, 1, 0}, position{0, 1, 1, 0}, processes{1, 2, 3, 4}, samples{5, 6, 7, 8};
  const std::vector<double> value{4.0, 2e-3, 3e-3, 1.0};
  const auto [history, first] = assemble_export_cases(
      {keys, units, directions, commit, position, value, processes, samples}, {"case"}, {"c0", "c1"});
  REQUIRE(history.series.size() == 2);  // y first: commit 0, position 0
  CHECK(first == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 0}, {0, 1}});
  CHECK(history.series[0].key == std::vector<std::string>{"y"});
  CHECK(history.series[0].direction == Direction::higher_is_better);
  CHECK(history.series[0].values == std::vector<double>{1.0, 4.0});
  CHECK(history.series[0].processes == std::vector<std::size_t>{4, 1});
  CHECK(history.series[1].key == std::vector<std::string>{"x"});
  CHECK(history.series[1].unit.symbol == "ms");
  CHECK(history.series[1].values == std::vector<double>{2e-3, 3e-3});
  CHECK(history.series[1].commits == std::vector<std::size_t>{0, 1});
  CHECK_THROWS_AS(
      assemble_export_cases({keys, units, directions, commit, position, value, processes, {}}, {"case"}, {"c0", "c1"}),
      InputError);
}

TEST_CASE("the export summary schema names the columns of ExportSummaryRows with no rows", "[export_history]") {
  const Columns schema = export_summary_schema();
  CHECK(schema.rows() == 0);
  std::vector<std::pair<std::string, ColumnKind>> named;
  for (const DataColumn& c : schema.columns()) {
    named.emplace_back(c.name, c.kind);
    CHECK(c.reals.empty());
    CHECK(c.counts.empty());
    CHECK(c.texts.empty());
  }
  using K = ColumnKind;
  CHECK(named == std::vector<std::pair<std::string, ColumnKind>>{{"case_key", K::text},
                                                                 {"unit", K::text},
                                                                 {"direction", K::text},
                                                                 {"commit", K::count},
                                                                 {"position", K::count},
                                                                 {"value", K::real},
                                                                 {"processes", K::count},
                                                                 {"samples", K::count}});
}

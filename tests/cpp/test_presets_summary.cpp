// The summary preset on small hand-built datasets: statistics by hand, pooling,
// drift highlighting, units, the payload and errors.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/presets/summary.hpp"
#include "benchreport/render/render.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

const Table& summary_table(const Report& report) {
  for (const Block& block : report.blocks.items()) {
    if (const auto* table = std::get_if<Table>(&block.content)) return *table;
  }
  FAIL("no table");
  throw;
}

}  // namespace

TEST_CASE("summary_report: one row per set with n, p50, MAD / p50, CV, range and drift", "[presets][summary]") {
  Dataset ds;
  ds.add_set({{"benchmark", "a"}}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, parse_unit("ms"));
  ds.add_set({{"benchmark", "b"}, {"metric", "read"}}, std::vector<double>{100, 100, 100}, parse_unit("MiB/s"));
  const Report report = summary_report(ds);
  REQUIRE_NOTHROW(report.validate());
  const Table& table = summary_table(report);
  REQUIRE(table.columns.size() == 9);  // benchmark, metric, n, p50, MAD / p50, CV, min – max, drift, samples
  CHECK(table.columns[2].title == "n");
  CHECK(table.columns[2].align == Align::right);
  CHECK(table.columns[8].align == Align::left);
  const auto& a = table.rows[0];
  CHECK(a[0].text == "a");
  CHECK(a[1].text.empty());  // a has no metric label
  CHECK(a[2].text == "10");
  CHECK(a[3].text == "5.500 ms");
  // MAD of 1..10 around 5.5 is 2.5: 2.5 / 5.5 = 45.5 %.
  CHECK(a[4].text == "45.5%");
  // Population CV of 1..10: sqrt(8.25) / 5.5 = 52.22 % (numpy std / mean), one decimal as MAD / p50.
  CHECK(a[5].text == "52.2%");
  CHECK(a[6].text == "1.000 ms \u2013 10.00 ms");
  // median(6..10) / median(1..5) - 1 = 8 / 3 - 1.
  CHECK(a[7].text == "+166.67%");
  CHECK(a[7].role == CellRole::inconclusive);
  CHECK(a[8].samples.size() == 10);
  const auto& b = table.rows[1];
  CHECK(b[3].text == "100.0 MiB/s");
  CHECK(b[5].text == "0.0%");
  CHECK(b[7].text == "n/a");
  CHECK(b[7].role == CellRole::muted);
  const std::string md = render_markdown(report, {});
  CHECK_THAT(md, Contains("2 sample sets, 13 samples."));
  CHECK_THAT(md, Contains("1 of 2 rows drift by 10% or more between the first and last 5 samples."));
  CHECK(report.data.find("schema")->as_string() == kSummarySchema);
  CHECK(report.data.find("drift_k")->as_integer() == 5);
}

TEST_CASE("summary_report: --by pools sets in set order - mixed dimensions are refused", "[presets][summary]") {
  Dataset ds;
  ds.add_set({{"benchmark", "a"}, {"run", "1"}}, std::vector<double>{1, 2}, parse_unit("s"));
  ds.add_set({{"benchmark", "a"}, {"run", "2"}}, std::vector<double>{3}, parse_unit("ms"));
  ds.add_set({{"benchmark", "b"}, {"run", "1"}}, std::vector<double>{5}, parse_unit("ops/s"));
  SummaryReportOptions o;
  o.by = {"benchmark"};
  o.drift_k = 1;
  const Report report = summary_report(ds, o);
  const Table& table = summary_table(report);
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0][1].text == "3");        // 1 s, 2 s and 3 ms pooled
  CHECK(table.rows[0][2].text == "1.000 s");  // four significant digits (report/format.hpp)
  REQUIRE(table.rows[0][7].samples.size() == 3);
  CHECK(table.rows[0][7].samples[2] == Approx(0.003));
  CHECK(table.rows[1][2].text == "5.000 ops/s");
  CHECK_THAT(render_markdown(report, {}), Contains("pooled by benchmark into 2 groups"));
  o.by = {"run"};
  CHECK_THROWS_WITH(summary_report(ds, o), Contains("group run=1 mixes units s and ops/s"));
  o.by = {};
  o.drift_k = 0;
  CHECK_THROWS_AS(summary_report(ds, o), InputError);
  CHECK_THROWS_WITH(summary_report(Dataset{}), Contains("no sample sets to summarise"));
}

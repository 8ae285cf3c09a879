// What Python's benchreport.notebook and benchreport.plot take from the core: drift windows, plot
// scales and labels (against Python's "g" format and numpy's median, worked by hand), forest rows,
// a Summary's and a Dataset's notebook tables, history and scaling plot axes.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/presets/notebook.hpp"
#include "benchreport/render/render.hpp"
#include "benchreport/report/forest.hpp"
#include "benchreport/report/general_format.hpp"
#include "benchreport/report/plot_axes.hpp"
#include "benchreport/stats/drift.hpp"
#include "benchreport/stats/summary.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// The report's tables, in order (the notebook reports hold one).
std::vector<const Table*> tables_of(const Report& report) {
  std::vector<const Table*> out;
  for (const Block& block : report.blocks.items()) {
    if (const auto* table = std::get_if<Table>(&block.content)) out.push_back(table);
  }
  return out;
}

const Table& first_table(const Report& report) {
  const auto tables = tables_of(report);
  REQUIRE(tables.size() == 1);
  return *tables.front();
}

}  // namespace

TEST_CASE("drift_windows: the first and last k samples, none below 2k", "[notebook][drift]") {
  const auto w = drift_windows(10, 5);
  REQUIRE(w);
  CHECK(std::vector<std::size_t>{w->first_begin, w->first_end, w->last_begin, w->last_end} ==
        std::vector<std::size_t>{0, 5, 5, 10});
  const auto w3 = drift_windows(12, 3);
  REQUIRE(w3);
  CHECK(w3->last_begin == 9);
  CHECK_FALSE(drift_windows(9, 5));
  // The windows drift compares are these: median(10..12) / median(1..3) - 1 = 11 / 2 - 1.
  const std::vector<double> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  CHECK(drift(x, {3}).change == Approx(11.0 / 2.0 - 1).epsilon(1e-15));
}

TEST_CASE("format_general, human_number and value_with_unit print as Python's g format", "[notebook][format]") {
  CHECK(format_general(1.0 / 3) == "0.333333");  // f"{1/3:g}"
  CHECK(format_general(1e-5) == "1e-05");
  CHECK(format_general(-std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(format_general(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(human_number(184536) == "185k");
  CHECK(human_number(1.0838e6) == "1.08M");
  CHECK(human_number(-2.5e9) == "-2.5G");
  CHECK(human_number(3e13) == "30T");
  CHECK(human_number(999.6) == "1e+03");  // below a thousand: no suffix, as Python's f"{999.6:.3g}"
  CHECK(human_number(0.5) == "0.5");
  CHECK(human_number(0) == "0");
  CHECK(human_number(-0.0) == "-0");
  CHECK(value_with_unit(19.7412, "\u00b5s") == "19.74 \u00b5s");
  CHECK(value_with_unit(12345.0, "") == "1.234e+04");
}

TEST_CASE("display_scale and plot_scale: the reports' unit at the median, unknown units as given",
          "[notebook][units]") {
  const PlotScale us = display_scale(1.974e-5, "s");
  CHECK(us.symbol == "\u00b5s");
  CHECK(us.factor == Approx(1e6).epsilon(1e-15));
  CHECK(display_scale(0.98, "ms").symbol == "\u00b5s");
  CHECK(display_scale(1.5e9, "B").factor == 1.0);
  CHECK(display_scale(3, "widgets").symbol == "widgets");
  CHECK(display_scale(3, "").factor == 1.0);
  // Median of {5e5, 2e6} ns is 1.25e6 ns: ms.
  const std::vector<double> ns{5e5, 2e6};
  CHECK(plot_scale(ns, "ns").symbol == "ms");
  CHECK(plot_scale({}, "s").symbol == "s");
  const std::vector<double> with_nan{1e-6, std::nan("")};
  CHECK(plot_scale(with_nan, "s").symbol == "s");  // numpy's median is NaN: seconds
}

TEST_CASE("forest_shown keeps the largest |change|, earlier first among equals, sorted by change",
          "[notebook][forest]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<ForestRow> rows{{"a", 0.1, 0, 0.5, "slower"}, {"b", -0.1, 0, 0.5, "faster"},
                              {"c", 0.3, 0, 0.5, "slower"}, {"d", 0.1, 0, 0.5, "x"},
                              {"e", nan, 0, 0.5, "y"},      {"f", -0.3, 0, 0.5, "faster"}};
  std::vector<std::string> names;
  for (const auto& r : forest_shown(rows, 4)) names.push_back(r.name);
  // |change| 0.3, 0.3, 0.1 (a), 0.1 (b): then by change.
  CHECK(names == std::vector<std::string>{"f", "b", "a", "c"});
  names.clear();
  for (const auto& r : forest_shown(rows, 10)) names.push_back(r.name);
  CHECK(names == std::vector<std::string>{"f", "b", "a", "d", "c", "e"});
  CHECK(forest_shown(rows, 0).empty());
}

TEST_CASE("summary_statistics_report: every statistic with 6 significant digits", "[notebook][summary]") {
  std::vector<double> x;
  for (int i = 1; i <= 12; ++i) x.push_back(i);
  const Summary s = summarize(x);
  const Report report = summary_statistics_report(s, "S");
  const Table& t = first_table(report);
  CHECK(report.title == "S");
  CHECK(t.id == "summary");
  CHECK(t.columns[1].align == Align::right);
  REQUIRE(t.rows.size() == 10 + s.quantiles.size() + 2);
  CHECK(t.rows[0][1].text == "12");
  CHECK(t.rows[1][0].text == "median");
  CHECK(t.rows[1][1].text == "6.5");
  CHECK(t.rows[2][1].text == "6.5");      // mean
  CHECK(t.rows[3][1].text == "3.45205");  // sqrt(143 / 12)
  CHECK(t.rows[10][0].text == "quantile 0.05");
  CHECK(t.rows[10][1].text == "1.55");  // numpy: 1 + 0.05 * 11
  CHECK_THAT(t.rows[10 + s.quantiles.size()][0].text, Contains("% achieved)"));
  CHECK(t.rows.back()[0].text == "drift");
  CHECK(t.rows.back()[1].text == "2.33333");  // median(8..12) / median(1..5) - 1 = 10 / 3 - 1
  CHECK(*t.rows.back()[1].value == Approx(10.0 / 3.0 - 1).epsilon(1e-15));
  const Summary few = summarize(std::vector<double>{1, 2, 3});
  const Report few_report = summary_statistics_report(few);
  const Table& ft = first_table(few_report);
  CHECK_THAT(ft.rows.back()[1].text, StartsWith("n/a (n = 3 < 2k = 10"));
  CHECK_FALSE(ft.rows.back()[1].value);
}

TEST_CASE("dataset_display_report: every set up to 60, else the first and last 5 with the counts",
          "[notebook][dataset]") {
  Dataset ds;
  for (int i = 0; i < 61; ++i)
    ds.add_set({{"benchmark", "BM_" + std::to_string(i)}}, std::vector<double>{1, 2, 3}, parse_unit("ns"));
  const Report big = dataset_display_report(ds);
  CHECK(big.title == "Dataset: 61 sample sets");
  CHECK(first_table(big).rows.size() == 10);
  const std::string md = render(big, Format::markdown);
  CHECK_THAT(md, Contains("Sets 1\u20135 and 57\u201361 of 61 shown (51 not shown)"));
  CHECK_THAT(md, Contains("BM\\_56"));
  CHECK_FALSE(md.find("BM\\_55") != std::string::npos);
  const Report small = dataset_display_report(ds.subset(std::vector<std::size_t>(60, 0)), "T");
  CHECK(small.title == "T");
  CHECK(first_table(small).rows.size() == 60);
}

TEST_CASE("history_axis: relative for several series or units, else the display unit of all", "[notebook][history]") {
  Series a, b;
  a.unit = parse_unit("ms");
  a.values = {2e-3, 2.4e-3};
  b.unit = parse_unit("B");
  b.values = {10, 20};
  const Series* one[] = {&a};
  const HistoryAxis axis = history_axis(one, std::nullopt);
  CHECK_FALSE(axis.relative);
  CHECK(axis.scale.symbol == "ms");
  CHECK(axis.scale.factor == Approx(1e3).epsilon(1e-15));
  const Series* two[] = {&a, &b};
  CHECK(history_axis(two, std::nullopt).relative);
  CHECK(history_axis(one, true).relative);
  CHECK_THROWS_WITH(history_axis(two, false), "cases in different units (B, s): pass relative=True");
}

TEST_CASE("scaling_family_plot: the family asked for, or the first, and errors that name the families",
          "[notebook][scaling]") {
  ScalingResult r;
  CHECK_THROWS_WITH(scaling_family_plot(r, std::nullopt), "no size families to plot");
  FamilyFit f;
  f.name = "BM_sort";
  f.unit = parse_unit("ns");
  f.levels = {SizeLevel{}, SizeLevel{}};
  f.levels[0].values = {2e-6, 4e-6};  // in the base unit, seconds
  f.levels[1].values = {8e-6};
  r.fits = {f, f};
  r.fits[1].name = "BM_find";
  const ScalingFamilyPlot first = scaling_family_plot(r, std::nullopt);
  CHECK(first.index == 0);
  CHECK(first.title == "BM_sort");
  CHECK(first.scale.symbol == "\u00b5s");  // median 4e-6 s: 4 µs
  CHECK(scaling_family_plot(r, std::string("BM_find")).index == 1);
  CHECK_THROWS_WITH(scaling_family_plot(r, std::string("x")), "no family 'x'; families: BM_sort, BM_find");
}

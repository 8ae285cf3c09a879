// What benchreport.plot's charts draw (report/plot_layout.hpp): values in the display unit,
// medians as numpy computes them, drift windows, forest rows, history lines and their text.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/report/plot_layout.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

TEST_CASE("a distributions plot draws both sides in the reports' unit with numpy's medians", "[plot_layout]") {
  const std::vector<double> base{1e-6, 3e-6, 2e-6, 4e-6}, head{5e-6, 6e-6, 7e-6};
  const DistributionsPlot plot = distributions_plot(base, head, "s", {"base", "head"});
  REQUIRE(plot.sides.size() == 2);
  CHECK(plot.x_label == "value (µs)");
  CHECK(plot.sides[0].values.size() == 4);
  CHECK(plot.sides[0].values[1] == 1e6 * 3e-6);
  CHECK(plot.sides[0].median == (1e6 * 2e-6 + 1e6 * 3e-6) / 2);  // (a + b) / 2, as numpy
  CHECK(plot.sides[0].color == kBaseColor);
  CHECK(plot.sides[1].color == kHeadColor);
  CHECK(plot.sides[0].label == "base (n=4, median 2.5 µs)");
  CHECK(plot.sides[1].label == "head (n=3, median 6 µs)");
  CHECK(distributions_plot(base, head, "", {"a", "b"}).x_label == "value");
}

TEST_CASE("a samples plot marks both drift windows, or says why there are none", "[plot_layout]") {
  std::vector<double> values;
  for (int i = 0; i < 10; ++i) values.push_back(1.0 + (i < 5 ? 0 : 1));
  const SamplesPlot plot = samples_plot(values, 3, "ms");
  REQUIRE(plot.windows.size() == 2);
  CHECK(plot.windows[0].begin == -0.5);
  CHECK(plot.windows[0].end == 2.5);
  CHECK(plot.windows[1].begin == 6.5);
  CHECK(plot.windows[1].end == 9.5);
  CHECK(plot.windows[0].label == "median of first 3: 1 ms");
  CHECK(plot.windows[1].label == "median of last 3: 2 ms");
  CHECK(plot.title == "drift +100.00% (median of last 3 / first 3 \u2212 1)");
  CHECK(plot.y_label == "value (ms)");
  const SamplesPlot few = samples_plot(std::vector<double>{1, 2, 3}, 2, "");
  CHECK(few.windows.empty());
  CHECK(few.title == "drift n/a: 3 samples, needs at least 4 (k = 2)");
  CHECK_THROWS_AS(samples_plot(values, 0, ""), InputError);
}

TEST_CASE("a forest plot sorts cases by change and names each verdict's colour once", "[plot_layout]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<ForestRow> rows{{"a", 0.10, 0.05, 0.15, "slower"},
                              {"b", -0.02, -0.06, 0.01, "unchanged"},
                              {"c", 0.30, nan, 0.45, "slower"},
                              {"d", 0.01, 0.0, 0.02, "odd"}};
  const ForestPlot plot = forest_plot(rows, 3, 0.05);
  CHECK(plot.names == std::vector<std::string>{"b", "a", "c"});
  CHECK(plot.marks[1].change == 100 * 0.10);
  CHECK(plot.marks[1].interval);
  CHECK_FALSE(plot.marks[2].interval);
  CHECK(plot.marks[0].color == verdict_color("unchanged"));
  REQUIRE(plot.verdicts.size() == 2);
  CHECK(plot.verdicts[0].label == "unchanged (change, CI)");
  CHECK(plot.verdicts[1].label == "slower (change, CI)");
  CHECK(plot.thresholds == std::vector<double>{-5.0, 5.0});
  CHECK(plot.threshold_label == "\u00b15% threshold");
  CHECK(plot.title == "3 of 4 cases (largest |change|)");
  CHECK(plot.height == 2.0);  // at least 2 inches
  const ForestPlot all = forest_plot(rows, 60, std::nullopt);
  CHECK(all.thresholds.empty());
  CHECK(all.title.empty());
  CHECK(all.height == 0.28 * 4 + 1);
  CHECK(forest_plot({rows[0]}, 60, 0.05).height == 2.0);
  CHECK(verdict_color("odd") == kBaseColor);
  CHECK_THROWS_WITH(forest_plot({}, 60, 0.05), Contains("no matched cases"));
}

TEST_CASE("a history plot draws lines in the display unit with their change points", "[plot_layout]") {
  History history;
  history.order = "commit";
  history.by = {"case"};
  for (int i = 0; i < 12; ++i) history.commits.push_back(i == 3 ? "0123456789abcdef" : "c" + std::to_string(i));
  Series s;
  s.key = {"x"};
  s.unit = parse_unit("s");
  for (std::size_t i = 0; i < 12; ++i) {
    s.commits.push_back(i);
    s.values.push_back(i < 6 ? 2e-3 : 3e-3);
  }
  history.series = {s};
  HistoryAnalysis analysis{history, {SeriesChanges{}}, {}};
  ChangePoint cp;
  cp.index = 6;
  cp.commit = 6;
  cp.regression = true;
  analysis.changes[0].change_points = {cp};
  const HistoryPlot plot = history_plot(analysis, 12, std::nullopt);
  CHECK_FALSE(plot.relative);
  CHECK(plot.y_label == "summary (ms)");
  CHECK(plot.x_label == "commit");
  REQUIRE(plot.lines.size() == 1);
  CHECK(plot.lines[0].label == "x");
  CHECK(plot.lines[0].values[0] == 2e-3 * 1e3);
  REQUIRE(plot.lines[0].changes.size() == 1);
  CHECK(plot.lines[0].changes[0].value == 3e-3 * 1e3);
  CHECK(plot.lines[0].changes[0].color == verdict_color("slower"));
  // np.unique(np.linspace(0, 11, 8).astype(int))
  CHECK(plot.ticks == std::vector<std::size_t>{0, 1, 3, 4, 6, 7, 9, 11});
  CHECK(plot.tick_labels[2] == "0123456789ab");
  const HistoryPlot relative = history_plot(analysis, 12, true);
  CHECK(relative.y_label == "summary / first commit");
  CHECK(relative.lines[0].values.back() == 3e-3 / 2e-3);
  CHECK(history_plot(analysis, 0, std::nullopt).lines.empty());
}

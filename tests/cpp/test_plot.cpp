// Plots: 1-2-5 ticks with SI labels, gaps in lines, markers, and the history
// preset's time-series plot per case.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "benchreport/compare/history.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/presets/history.hpp"
#include "benchreport/render/render.hpp"
#include "render/plot_svg.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

// Whether every gap between ticks is the same 1, 2 or 5 times a power of ten.
bool one_two_five_steps(const std::vector<double>& ticks) {
  for (std::size_t i = 1; i < ticks.size(); ++i) {
    const double step = ticks[i] - ticks[i - 1];
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-12));
    const bool nice = std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9;
    if (!nice || std::abs(step - (ticks[1] - ticks[0])) > 1e-9 * step) return false;
  }
  return true;
}

std::vector<const Plot*> plots_of(const Report& report) {
  std::vector<const Plot*> out;
  for (const Block& b : report.blocks.items()) {
    if (const auto* p = std::get_if<Plot>(&b.content)) out.push_back(p);
  }
  return out;
}

}  // namespace

TEST_CASE("plot_ticks: linear ranges get 1-2-5 steps, log ranges decades or 1-2-5 values", "[plot]") {
  CHECK(plot_ticks(0.3, 9.7, false) == std::vector<double>{2, 4, 6, 8});
  CHECK(plot_ticks(-1.2, 1.2, false) == std::vector<double>{-1, -0.5, 0, 0.5, 1});
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{184536, 1083800}, {0.013, 0.0171}, {3, 3e4}}) {
    const auto t = plot_ticks(lo, hi, false);
    CHECK(t.size() >= 3);
    CHECK(t.size() <= 11);
    CHECK(one_two_five_steps(t));
    CHECK(t.front() >= lo);
    CHECK(t.back() <= hi);
  }
  CHECK(plot_ticks(1, 1e4, true) == std::vector<double>{1, 10, 100, 1000, 1e4});
  const auto narrow = plot_ticks(150000, 1.2e6, true);  // less than a decade: 2, 5, 10 x 10^5
  REQUIRE(narrow.size() == 3);
  CHECK(narrow[0] == Approx(2e5));
  CHECK(narrow[1] == Approx(5e5));
  CHECK(narrow[2] == Approx(1e6));
  const auto tight = plot_ticks(1.2e-5, 1.9e-5, true);  // not even a 1-2-5 pair: evenly spaced
  CHECK(tight.size() >= 3);
  CHECK(one_two_five_steps(tight));
}

TEST_CASE("tick_label: SI prefix, the unit, the decimals the step needs", "[plot]") {
  CHECK(tick_label(2e-5, 2e-5, "s") == "20 \u00b5s");
  CHECK(tick_label(1.5e-5, 5e-7, "s") == "15.0 \u00b5s");
  CHECK(tick_label(0.001, 0.001, "s") == "1 ms");
  CHECK(tick_label(200000, 200000, "") == "200k");
  CHECK(tick_label(1e6, 1e6, "1") == "1M");
  CHECK(tick_label(1.2e6, 2e5, "") == "1.2M");
  CHECK(tick_label(1.5e6, 5e5, "B") == "1.5 MB");
  CHECK(tick_label(0.5, 0.5, "") == "0.5");
  CHECK(tick_label(0, 0.5, "") == "0");
  CHECK(tick_label(-0.5, 0.5, "") == "-0.5");
  CHECK(tick_label(0, 2e-6, "s") == "0 s");
  // No exponent and no six-digit raw number, whatever the range.
  for (const double v : plot_ticks(184536, 1083800, false)) {
    const std::string label = tick_label(v, 2e5, "");
    CHECK(label.find('e') == std::string::npos);
    CHECK(label.size() <= 5);
  }
}

TEST_CASE("Plot: a line may have gaps (NaN y), points may not, and markers are drawn dashed", "[plot]") {
  Plot p;
  p.title = "t";
  p.log_x = p.log_y = false;
  p.series = {{"level", {0, 1, 2, 3, 4}, {1, 1, std::nan(""), 2, 2}, true}};
  p.markers = {{2, "+100%", PlotTone::worse}};
  REQUIRE_NOTHROW(p.validate());
  const std::string svg = plot_svg(p);
  CHECK(svg.find("<polyline", svg.find("<polyline") + 1) != std::string::npos);  // two pieces
  CHECK_THAT(svg, Contains("stroke-dasharray"));
  CHECK_THAT(svg, Contains("+100%"));
  p.series[0].line = false;
  CHECK_THROWS_AS(p.validate(), InputError);
  p.series[0].line = true;
  p.markers[0].x = std::nan("");
  CHECK_THROWS_AS(p.validate(), InputError);
}

TEST_CASE("history_report: one time-series plot per case, change points marked, regressions red", "[plot][history]") {
  Dataset ds;
  const Unit us = parse_unit("us");
  for (std::size_t k = 0; k < 30; ++k) {
    const double wobble = 1 + 0.002 * static_cast<double>(k % 3);
    const double slow = (k >= 12 ? 1.3 : 1.0) * 20 * wobble;  // a regression at c12
    const double fast = (k >= 20 ? 0.8 : 1.0) * 50 * wobble;  // an improvement at c20
    for (const auto& [name, v] : {std::pair{"slow", slow}, std::pair{"fast", fast}, std::pair{"flat", 7 * wobble}}) {
      ds.add_set(Labels{{"benchmark", name}, {"commit", fmt::format("c{:02}", k)}}, std::vector<double>{v, v * 1.001},
                 us);
    }
  }
  const HistoryAnalysis a = analyze_history(build_history(ds));
  const Report report = history_report(a);
  const auto plots = plots_of(report);
  REQUIRE(plots.size() == 3);
  CHECK(plots[0]->title == "slow over 30 commits");  // cases with change points first
  CHECK(plots[1]->title == "fast over 30 commits");
  CHECK(plots[2]->title == "flat over 30 commits");
  const Plot& slow = *plots[0];
  CHECK(slow.y_unit == "s");
  REQUIRE(slow.x_names.size() == 30);
  CHECK(slow.x_names[12] == "c12");
  REQUIRE(slow.markers.size() == 1);
  CHECK(slow.markers[0].x == 11.5);
  CHECK(slow.markers[0].tone == PlotTone::worse);
  REQUIRE(slow.series.size() == 3);  // points, levels, the level after the regression
  CHECK(slow.series[2].tone == PlotTone::worse);
  CHECK(slow.series[2].y[0] == Approx(26e-6).epsilon(0.01));
  REQUIRE(plots[1]->markers.size() == 1);
  CHECK(plots[1]->markers[0].tone == PlotTone::better);
  CHECK(plots[1]->series.size() == 2);  // no regressed level
  CHECK(plots[2]->markers.empty());
  const std::string html = render(report, Format::html);
  CHECK_THAT(html, Contains("after a regression"));
  CHECK_THAT(html, Contains("\u00b5s</text>"));
  CHECK_THAT(html, Contains(">c12</text>"));
  HistoryReportOptions one;
  one.max_plots = 1;
  const Report capped = history_report(a, one);
  CHECK(plots_of(capped).size() == 1);
  CHECK_THAT(render(capped, Format::markdown), Contains("2 more cases are not plotted"));
}

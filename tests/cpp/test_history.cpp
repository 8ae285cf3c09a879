// History: the q-statistic scan against a direct O(n^2) sum, E-divisive on
// planted shifts (seeded, thread-count independent), the series model
// (median of process medians per commit, ordering), change points with
// magnitude filter and "still regressed", and the preset.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "benchreport/compare/history.hpp"
#include "benchreport/compare/series.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/rng.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/presets/history.hpp"
#include "benchreport/render/render.hpp"
#include "benchreport/stats/edivisive.hpp"
#include "benchreport/stats/pelt.hpp"
#include "benchreport/stats/steps.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

// q(tau) of x[0, tau) against x[tau, n) straight from the definition (Matteson & James 2014, alpha = 1).
double direct_q(const std::vector<double>& x, std::size_t tau, std::size_t n) {
  double cross = 0, left = 0, right = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const double d = std::abs(x[i] - x[j]);
      if (j < tau)
        left += d;
      else if (i >= tau)
        right += d;
      else
        cross += d;
    }
  }
  const double m = static_cast<double>(tau), r = static_cast<double>(n - tau);
  return m * r / (m + r) * (2 * cross / (m * r) - 2 * left / (m * (m - 1)) - 2 * right / (r * (r - 1)));
}

// Normal-ish noise (sum of uniforms) from our portable generator.
std::vector<double> noisy_steps(std::uint64_t seed, const std::vector<std::pair<std::size_t, double>>& steps,
                                std::size_t n, double noise) {
  Xoshiro256 rng(seed);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    double level = 100;
    for (const auto& [at, factor] : steps) level *= i >= at ? factor : 1.0;
    double u = 0;
    for (int k = 0; k < 12; ++k) u += rng.unit();
    x[i] = level * (1 + noise * (u - 6));
  }
  return x;
}

SeriesOptions sorted() {
  SeriesOptions o;
  o.sort = true;
  return o;
}

ChangePointOptions with_threads(unsigned threads) {
  ChangePointOptions o;
  o.threads = threads;
  return o;
}

}  // namespace

TEST_CASE("best_q_split: both scans equal the direct q at its argmax", "[history]") {
  for (const bool search_end : {false, true}) {
    EDivisiveOptions o;
    o.search_end = search_end;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const std::size_t n = 5 + seed * 3;
      const auto x = noisy_steps(seed, {{n / 3, 1.1}, {2 * n / 3, 1 / 1.1}}, n, 0.05);
      const EDivisiveSplit best = best_q_split(x, o);
      double direct_best = -INFINITY;
      std::size_t direct_tau = 0;
      for (std::size_t kappa = search_end ? 4 : n; kappa <= n; ++kappa) {
        for (std::size_t tau = 2; tau + 2 <= kappa; ++tau) {
          const double q = direct_q(x, tau, kappa);
          if (q > direct_best) {
            direct_best = q;
            direct_tau = tau;
          }
        }
      }
      CHECK(best.index == direct_tau);
      CHECK(best.q == Approx(direct_best).epsilon(1e-12));
    }
  }
}

TEST_CASE("best_q_split: no split fits below two points per side - ties keep the first", "[history]") {
  CHECK(best_q_split(std::vector<double>{1, 2, 3}).index == 0);
  const auto flat = best_q_split(std::vector<double>{5, 5, 5, 5, 5, 5});
  CHECK(flat.index == 2);
  CHECK(flat.q == 0);
  EDivisiveOptions one;
  one.min_segment = 1;
  CHECK_THROWS_AS(best_q_split(std::vector<double>{1, 2, 3, 4}, one), InputError);
  one.within = WithinMean::squares;
  CHECK(best_q_split(std::vector<double>{1, 1, 1, 9}, one).index == 3);
}

TEST_CASE("e_divisive: finds two planted shifts, same result for the same seed", "[history]") {
  const auto x = noisy_steps(7, {{30, 1.10}, {60, 0.95}}, 90, 0.01);
  const auto splits = e_divisive(x, {.seed = 3});
  REQUIRE(splits.size() == 2);
  CHECK(splits[0].index == 30);
  CHECK(splits[1].index == 60);
  CHECK(splits[0].p_value <= 0.05);
  const auto again = e_divisive(x, {.seed = 3});
  CHECK(again[0].p_value == splits[0].p_value);
  CHECK(again[1].q == splits[1].q);
}

TEST_CASE("e_divisive: the Welch screen keeps clear splits unpermuted and changes no split", "[history]") {
  const auto x = noisy_steps(7, {{30, 1.10}, {60, 0.95}}, 90, 0.01);
  const auto screened = e_divisive(x, {.seed = 3});
  const auto permuted = e_divisive(x, {.seed = 3, .screen_p_value = 0});
  REQUIRE(screened.size() == permuted.size());
  for (std::size_t i = 0; i < screened.size(); ++i) {
    CHECK(screened[i].index == permuted[i].index);
    CHECK(permuted[i].permuted);
    if (!screened[i].permuted) CHECK(screened[i].p_value <= 5e-4);
  }
  CHECK_FALSE(screened[0].permuted);  // a 10 % step under 1 % noise needs no permutations
  CHECK_THROWS_AS(e_divisive(x, {.screen_p_value = -1}), InputError);
}

TEST_CASE("e_divisive: pure noise gives no change point at p <= 0.01 in most series", "[history]") {
  std::size_t false_alarms = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    false_alarms += e_divisive(noisy_steps(100 + seed, {}, 60, 0.02), {.max_p_value = 0.01, .seed = seed}).size();
  }
  CHECK(false_alarms <= 2);  // expected about 0.2 at p <= 0.01 per series
}

TEST_CASE("e_divisive: bad input is an InputError", "[history]") {
  CHECK_THROWS_WITH(e_divisive(std::vector<double>{1, NAN, 3}), Contains("position 1"));
  CHECK_THROWS_AS(e_divisive(std::vector<double>{1, 2}, {.permutations = 0}), InputError);
  CHECK(e_divisive(std::vector<double>{}).empty());
}

TEST_CASE("build_history: median of per-process medians per commit, sorted numerically on request", "[history]") {
  Dataset ds;
  const Unit ms = parse_unit("ms");
  ds.add_set({{"benchmark", "a"}, {"commit", "10"}, {"process", "p1"}}, std::vector<double>{1, 2, 3}, ms);
  ds.add_set({{"benchmark", "a"}, {"commit", "10"}, {"process", "p1"}}, std::vector<double>{100}, ms);  // same process
  ds.add_set({{"benchmark", "a"}, {"commit", "10"}}, std::vector<double>{5, 6}, ms);
  ds.add_set({{"benchmark", "a"}, {"commit", "10"}}, std::vector<double>{9}, ms);
  ds.add_set({{"benchmark", "a"}, {"commit", "9"}}, std::vector<double>{4}, ms);
  const History h = build_history(ds, sorted());
  REQUIRE(h.commits == std::vector<std::string>{"9", "10"});
  CHECK(h.by == std::vector<std::string>{"benchmark"});
  REQUIRE(h.series.size() == 1);
  const Series& s = h.series[0];
  CHECK(s.commits == std::vector<std::size_t>{0, 1});
  // commit 10: process p1 = median{1,2,3,100} = 2.5 ms, then 5.5 ms and 9 ms -> median 5.5 ms.
  CHECK(s.values[1] == Approx(5.5e-3));
  CHECK(s.processes == std::vector<std::size_t>{1, 3});
  CHECK(s.samples == std::vector<std::size_t>{1, 7});
  const History unsorted = build_history(ds);
  CHECK(unsorted.commits == std::vector<std::string>{"10", "9"});
}

TEST_CASE("build_history: a set without the order label is named", "[history]") {
  Dataset ds;
  ds.add_set({{"benchmark", "a"}, {"commit", "c1"}}, std::vector<double>{1}, parse_unit("ms"));
  ds.add_set({{"benchmark", "b"}}, std::vector<double>{1}, parse_unit("ms"));
  CHECK_THROWS_WITH(build_history(ds), Contains("set 1 (benchmark=b)") && Contains("\"commit\""));
  SeriesOptions time;
  time.order = "time";
  CHECK_THROWS_WITH(build_history(ds, time), Contains("no label \"time\""));
}

TEST_CASE("series_changes: magnitudes, direction, interval and still regressed", "[history]") {
  const auto x = noisy_steps(11, {{20, 1.20}, {40, 1.0 / 1.20}, {60, 1.10}}, 80, 0.01);
  const SeriesChanges c = series_changes(x, Direction::lower_is_better, {});
  REQUIRE(c.change_points.size() == 3);
  CHECK(c.change_points[0].index == 20);
  CHECK(c.change_points[0].regression);
  CHECK(c.change_points[0].change == Approx(0.20).margin(0.02));
  CHECK(c.change_points[0].lower < c.change_points[0].change);
  CHECK(c.change_points[0].upper > c.change_points[0].change);
  CHECK_FALSE(c.change_points[1].regression);
  REQUIRE(c.regressed_since.has_value());
  CHECK(*c.regressed_since == 60);
  CHECK(c.latest_change == Approx(0.10).margin(0.02));
  // Higher is better: the same series reads the other way, and is not regressed at the end.
  const SeriesChanges r = series_changes(x, Direction::higher_is_better, {});
  CHECK_FALSE(r.change_points[0].regression);
  CHECK_FALSE(r.regressed_since.has_value());
  // A 5 % minimum magnitude drops a planted 3 % step and keeps the 20 % one.
  const auto y = noisy_steps(12, {{20, 1.20}, {50, 1.03}}, 80, 0.002);
  REQUIRE(series_changes(y, Direction::lower_is_better, {}).change_points.size() == 2);
  ChangePointOptions large;
  large.min_magnitude = 0.05;
  const SeriesChanges big = series_changes(y, Direction::lower_is_better, large);
  REQUIRE(big.change_points.size() == 1);
  CHECK(big.change_points[0].index == 20);
  CHECK(big.change_points[0].after == Approx(120 * 1.015).epsilon(0.01));  // the merged segment's median
}

TEST_CASE("pelt_mean_changes: the optimal cuts of a clean staircase, none when the penalty is large", "[history]") {
  const std::vector<double> x{0, 0.1, 0, 5, 5.1, 5, 5, 1, 1.1, 1};
  CHECK(pelt_mean_changes(x, 1.0, 2) == std::vector<std::size_t>{3, 7});
  CHECK(pelt_mean_changes(x, 1e6, 2).empty());
  CHECK(pelt_mean_changes(x, 0.0, 5) == std::vector<std::size_t>{5});  // the only split with 5 on each side
  CHECK_THROWS_AS(pelt_mean_changes(x, -1.0, 2), InputError);
}

TEST_CASE("detect_steps: a step on a trend is found, the trend alone is not cut", "[history]") {
  auto trend = noisy_steps(21, {}, 200, 0.01);
  for (std::size_t i = 0; i < trend.size(); ++i) trend[i] += 0.06 * static_cast<double>(i);  // +12 over the series
  CHECK(detect_steps(trend).empty());
  auto stepped = trend;
  for (std::size_t i = 120; i < stepped.size(); ++i) stepped[i] += 5;
  const auto found = detect_steps(stepped);
  REQUIRE(found.size() == 1);
  CHECK(found[0].index == 120);
  CHECK(found[0].step == Approx(5).margin(1.5));
  CHECK(found[0].p_value < 1e-3);
  // The same at 1e80 and at 1e-80: scaling by a power of two first.
  for (const double scale : {1e80, 1e-80}) {
    std::vector<double> big = stepped;
    for (double& v : big) v *= scale;
    const auto again = detect_steps(big);
    REQUIRE(again.size() == 1);
    CHECK(again[0].index == 120);
  }
  CHECK_THROWS_AS(detect_steps(stepped, {.window = 1}), InputError);
}

TEST_CASE("detect_steps: a long series is segmented in blocks and keeps steps at block edges", "[history]") {
  // 6 000 points (candidates from 512-point blocks every 256): no change on flat noise, and
  // steps at a block's first and last admissible points (256 + 3, 768 - 3) and mid-block are found.
  auto flat = noisy_steps(23, {}, 6000, 0.01);
  CHECK(detect_steps(flat).empty());
  const auto stepped = noisy_steps(23, {{259, 1.06}, {765, 0.95}, {3000, 1.05}}, 6000, 0.01);
  std::vector<std::size_t> at;
  for (const auto& c : detect_steps(stepped)) at.push_back(c.index);
  CHECK(at == std::vector<std::size_t>{259, 765, 3000});
}

TEST_CASE("detect_steps: a change of spread alone is a change point with its sd ratio", "[history]") {
  auto x = noisy_steps(29, {}, 200, 0.01);
  for (std::size_t i = 120; i < x.size(); ++i) x[i] = 100 + 3 * (x[i] - 100);  // sd triples, level stays
  const auto found = detect_steps(x);
  REQUIRE(found.size() == 1);
  CHECK(found[0].index == Approx(120).margin(3));
  CHECK(found[0].step == 0);
  CHECK(found[0].spread_ratio > 2);
  CHECK(found[0].z > 0);
  CHECK(detect_steps(x, {.spreads = false}).empty());
  CHECK_THROWS_AS(detect_steps(x, {.min_spread_ratio = 0.5}), InputError);
}

TEST_CASE("series_changes: a series with zeros has absolute changes", "[history]") {
  std::vector<double> counter(40, 0.0);
  for (std::size_t i = 20; i < counter.size(); ++i) counter[i] = 3;
  for (const ChangeMethod method : {ChangeMethod::steps, ChangeMethod::e_divisive}) {
    ChangePointOptions o;
    o.method = method;
    const SeriesChanges c = series_changes(counter, Direction::lower_is_better, o);
    CHECK_FALSE(c.relative);
    REQUIRE(c.change_points.size() == 1);
    CHECK(c.change_points[0].index == 20);
    CHECK(c.change_points[0].change == 3);
    CHECK_FALSE(c.change_points[0].relative);
    CHECK(c.change_points[0].regression);
  }
}

TEST_CASE("analyze_history: results do not depend on the thread count", "[history]") {
  Dataset ds;
  const Unit ns = parse_unit("ns");
  for (int c = 0; c < 6; ++c) {
    const auto x = noisy_steps(40 + c, {{static_cast<std::size_t>(10 + c), 1.15}}, 30, 0.005);
    for (std::size_t k = 0; k < x.size(); ++k) {
      ds.add_set(Labels{{"benchmark", fmt::format("b{}", c)}, {"commit", fmt::format("c{:02}", k)}},
                 std::vector<double>{x[k], x[k] * 1.01}, ns);
    }
  }
  const auto one = analyze_history(build_history(ds), with_threads(1));
  const auto many = analyze_history(build_history(ds), with_threads(4));
  REQUIRE(one.changes.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) {
    REQUIRE(one.changes[i].change_points.size() == many.changes[i].change_points.size());
    for (std::size_t k = 0; k < one.changes[i].change_points.size(); ++k) {
      CHECK(one.changes[i].change_points[k].p_value == many.changes[i].change_points[k].p_value);
    }
    REQUIRE(one.changes[i].change_points.size() == 1);
    CHECK(one.history.commits[one.changes[i].change_points[0].commit] == fmt::format("c{:02}", 10 + i));
  }
  const Report report = history_report(one);
  REQUIRE_NOTHROW(report.validate());
  const std::string md = render(report, Format::markdown);
  CHECK_THAT(md, Contains("still regressed since c10"));
  CHECK_THAT(md, Contains("Commits that moved most cases"));
  CHECK(render(report, Format::json) == render(history_report(many), Format::json));
}

TEST_CASE("history_report: alert states and causes from a store, one per change point", "[history]") {
  Dataset ds;
  const Unit ns = parse_unit("ns");
  for (int c = 0; c < 2; ++c) {
    const auto x = noisy_steps(7 + c, {{20, 1.2}}, 40, 0.005);
    for (std::size_t k = 0; k < x.size(); ++k) {
      ds.add_set(Labels{{"benchmark", fmt::format("b{}", c)}, {"commit", fmt::format("c{:02}", k)}},
                 std::vector<double>{x[k]}, ns);
    }
  }
  const auto a = analyze_history(build_history(ds));
  REQUIRE(a.changes[0].change_points.size() == 1);
  REQUIRE(a.changes[1].change_points.size() == 1);
  HistoryReportOptions o;
  o.alerts = {{{"confirmed", "", "environment changed: compiler: gcc-13 \u2192 gcc-14"}},
              {{"acknowledged", "expected", ""}}};
  const Report report = history_report(a, o);
  REQUIRE_NOTHROW(report.validate());
  const std::string md = render(report, Format::markdown);
  CHECK_THAT(md, Contains("| confirmed | environment changed: compiler: gcc-13 \u2192 gcc-14 |"));
  CHECK_THAT(md, Contains("acknowledged: expected"));
  CHECK_THAT(md, Contains("1 confirmed (1 regressions, 0 improvements), 1 acknowledged (1 regressions"));
  const std::string json = render(report, Format::json);
  CHECK_THAT(json, Contains("\"state\": \"acknowledged\""));
  CHECK_THAT(json, Contains("\"note\": \"expected\""));
  CHECK_THAT(json, Contains("\"cause\": null"));
  // without alerts: no state column, no state fields (the report of files, unchanged)
  CHECK_THAT(render(history_report(a), Format::json), !Contains("\"state\""));
  o.alerts.pop_back();
  CHECK_THROWS_WITH(history_report(a, o), Contains("do not match the analysis' change points"));
}

TEST_CASE("series_points: one row per (case, commit) in series order, and no series keeps the names", "[history]") {
  History h{"commit", {"name"}, {"c0", "c1", "c2"}, {}};
  h.series.push_back({{"a"}, parse_unit("ms"), Direction::lower_is_better, {0, 2}, {1.5, 2.5}, {3, 4}, {30, 40}});
  h.series.push_back({{"b"}, parse_unit("ms"), Direction::lower_is_better, {1}, {7.0}, {1}, {5}});
  const Columns points = series_points(h);
  REQUIRE(points.rows() == 3);
  const auto& c = points.columns();
  REQUIRE(c.size() == 5);
  CHECK(c[0].name == "series");
  CHECK(c[0].counts == std::vector<std::int64_t>{0, 0, 1});
  CHECK(c[1].counts == std::vector<std::int64_t>{0, 2, 1});
  CHECK(c[2].reals == std::vector<double>{1.5, 2.5, 7.0});
  CHECK(c[3].counts == std::vector<std::int64_t>{3, 4, 1});
  CHECK(c[4].name == "samples");
  CHECK(c[4].counts == std::vector<std::int64_t>{30, 40, 5});
  h.series.clear();
  const Columns none = series_points(h);
  CHECK(none.rows() == 0);
  CHECK(none.columns().size() == 5);
  CHECK(none.columns()[2].reals.empty());
}

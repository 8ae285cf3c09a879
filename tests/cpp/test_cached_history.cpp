// A History from cached per-(case, run) summaries (compare/cached_history.hpp)
// against hand-worked examples and a direct reference on random rows, and the
// alert states of change points (compare/alert_state.hpp) against hand-worked
// series and a sort-based reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "benchreport/compare/alert_state.hpp"
#include "benchreport/compare/cached_history.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/rng.hpp"
#include "benchreport/data/units.hpp"

using namespace benchreport;

namespace {

using I = std::vector<std::int64_t>;

struct Rows {
  I case_code, run, position;
  std::vector<double> value;
  I processes, samples;
  void add(std::int64_t c, std::int64_t r, std::int64_t p, double v) {
    case_code.push_back(c), run.push_back(r), position.push_back(p), value.push_back(v);
    processes.push_back(c + 1), samples.push_back(10 * (c + 1));
  }
  CachedRows view() const { return {case_code, run, position, value, processes, samples}; }
};

CachedCase named(std::vector<std::pair<std::string, std::string>> labels, const char* unit = "ms") {
  return {std::move(labels), parse_unit(unit), Direction::lower_is_better};
}

History assemble(const Rows& rows, const I& commit_of_run, std::vector<CachedCase> cases,
                 std::vector<PooledSummary> pooled, std::vector<std::string> by, std::size_t commits) {
  const auto first = first_appearances(rows.case_code, rows.run, rows.position);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < commits; ++i) names.push_back("c" + std::to_string(i));
  return assemble_cached_history(
      {rows.view(), commit_of_run, first, std::move(cases), std::move(pooled), std::move(by), std::move(names)});
}

}  // namespace

TEST_CASE("cached history: first appearance, last run of a commit, pooled and merged cases", "[cached_history]") {
  // Runs 0, 1 at commit 0, run 2 at commit 1. Codes are in key-text order, not appearance order.
  Rows rows;
  rows.add(2, 0, 0, 1.0);  // case 2 appears first (run 0, position 0)
  rows.add(0, 0, 1, 5.0);
  rows.add(0, 1, 0, 6.0);  // the last run of commit 0 stands for it
  rows.add(2, 2, 1, 2.0);
  rows.add(1, 2, 0, 9.0);  // case 1 first appears in run 2: after case 0
  rows.add(0, 2, 2, 7.0);
  const auto first = first_appearances(rows.case_code, rows.run, rows.position);
  CHECK(first == std::vector<std::size_t>{0, 1, 4});

  // case 2 = {name: a}; case 0 = {name: b}; case 1 = {name: a, size: ""}: the same key as case 2.
  const History h = assemble(
      rows, {0, 0, 1}, {named({{"name", "a"}}), named({{"name", "b"}}), named({{"size", ""}, {"name", "a"}}, "s")},
      {{0, 0, 8.5, 4, 40}}, {"name", "size"}, 2);
  REQUIRE(h.series.size() == 2);
  CHECK(h.series[0].key == std::vector<std::string>{"a", ""});
  CHECK(h.series[0].unit.symbol == "ms");  // the group's first case's
  CHECK(h.series[0].commits == std::vector<std::size_t>{0, 1});
  CHECK(h.series[0].values == std::vector<double>{1.0, 9.0});  // the later case wins at commit 1
  CHECK(h.series[0].processes == std::vector<std::size_t>{3, 2});
  CHECK(h.series[1].key == std::vector<std::string>{"b", ""});
  CHECK(h.series[1].values == std::vector<double>{8.5, 7.0});  // pooled replaces run 1's 6.0
  CHECK(h.series[1].samples == std::vector<std::size_t>{40, 10});
  CHECK(h.commits == std::vector<std::string>{"c0", "c1"});
  CHECK(h.by == std::vector<std::string>{"name", "size"});
}

TEST_CASE("cached history: rows of runs no longer listed (run < 0) are skipped", "[cached_history]") {
  Rows rows;
  rows.add(1, -1, 0, 99.0);  // case 1 only in a dropped run: no series
  rows.add(0, 0, 0, 1.0);
  rows.add(0, -1, 1, 98.0);
  rows.add(0, 1, 0, 2.0);
  CHECK(first_appearances(rows.case_code, rows.run, rows.position) == std::vector<std::size_t>{1});
  const History h = assemble(rows, {0, 1}, {named({{"name", "a"}})}, {}, {"name"}, 2);
  REQUIRE(h.series.size() == 1);
  CHECK(h.series[0].values == std::vector<double>{1.0, 2.0});
}

TEST_CASE("cached history: random rows equal a direct reference", "[cached_history]") {
  Xoshiro256 rng(30);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t runs = 1 + rng.below(12), codes = 1 + rng.below(8), commits_n = 1 + rng.below(runs);
    I commit_of_run(runs);
    for (std::size_t r = 0; r < runs; ++r)  // non-decreasing, every commit used
      commit_of_run[r] = static_cast<std::int64_t>(std::min<std::size_t>(commits_n - 1, r * commits_n / runs));
    Rows rows;
    for (std::size_t r = 0; r < runs; ++r) {
      std::int64_t position = 0;
      for (std::size_t c = 0; c < codes; ++c) {
        if (rng.below(3) != 0) rows.add(static_cast<std::int64_t>((c * 5 + r) % codes), r, position++, rng.unit());
      }
    }
    std::vector<CachedCase> cases;  // by code: two labels of three values, "" = absent
    std::vector<std::vector<std::string>> key_of(codes);
    for (std::size_t c = 0; c < codes; ++c) key_of[c] = {std::to_string(c % 3), c % 2 ? "x" : ""};
    const auto first = first_appearances(rows.case_code, rows.run, rows.position);
    for (std::size_t f : first) {
      const auto& key = key_of[static_cast<std::size_t>(rows.case_code[f])];
      CachedCase c = named({{"n", key[0]}});
      if (!key[1].empty()) c.labels.emplace_back("m", key[1]);
      cases.push_back(c);
    }
    std::vector<PooledSummary> pooled;
    for (int k = 0; k < 3; ++k) pooled.push_back({rng.below(codes), rng.below(commits_n), rng.unit() + 2, 1, 1});
    const History h = assemble(rows, commit_of_run, cases, pooled, {"n", "m"}, commits_n);

    // Reference: order of first appearance by scanning (run, position) in order; per key a map commit -> value.
    std::vector<std::size_t> order(rows.case_code.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) {
      return std::pair(rows.run[a], rows.position[a]) < std::pair(rows.run[b], rows.position[b]);
    });
    std::vector<std::int64_t> code_order;
    for (std::size_t i : order)
      if (std::find(code_order.begin(), code_order.end(), rows.case_code[i]) == code_order.end())
        code_order.push_back(rows.case_code[i]);
    std::vector<std::vector<std::string>> keys;
    std::map<std::vector<std::string>, std::map<std::size_t, double>> expected;
    for (std::int64_t code : code_order) {
      const auto& key = key_of[static_cast<std::size_t>(code)];
      if (!expected.count(key)) keys.push_back(key);
      auto& points = expected[key];
      std::map<std::size_t, std::pair<std::int64_t, double>> own;  // commit -> (run, value), latest run
      for (std::size_t i = 0; i < rows.case_code.size(); ++i) {
        if (rows.case_code[i] != code) continue;
        auto& slot = own[static_cast<std::size_t>(commit_of_run[static_cast<std::size_t>(rows.run[i])])];
        if (slot.first <= rows.run[i]) slot = {rows.run[i], rows.value[i]};
      }
      for (const auto& [commit, entry] : own) points[commit] = entry.second;
      for (const auto& p : pooled)
        if (static_cast<std::int64_t>(p.case_code) == code) points[p.commit] = p.value;
    }
    REQUIRE(h.series.size() == keys.size());
    for (std::size_t s = 0; s < keys.size(); ++s) {
      CHECK(h.series[s].key == keys[s]);
      std::vector<std::size_t> commits;
      std::vector<double> values;
      for (const auto& [commit, v] : expected[keys[s]]) commits.push_back(commit), values.push_back(v);
      CHECK(h.series[s].commits == commits);
      CHECK(h.series[s].values == values);
    }
  }
}

TEST_CASE("cached history: inconsistent input is an InputError", "[cached_history]") {
  Rows rows;
  rows.add(0, 0, 0, 1.0);
  rows.add(0, 1, 0, 2.0);
  CHECK_THROWS_AS(first_appearances(rows.case_code, I{0}, rows.position), InputError);
  Rows negative = rows;
  negative.case_code[1] = -1;
  CHECK_THROWS_AS(first_appearances(negative.case_code, negative.run, negative.position), InputError);
  CHECK_THROWS_AS(assemble(rows, {0}, {named({})}, {}, {}, 1), InputError);     // run 1 has no commit
  CHECK_THROWS_AS(assemble(rows, {0, 2}, {named({})}, {}, {}, 2), InputError);  // commit 2 of 2
  CHECK_THROWS_AS(assemble(rows, {0, 0}, {}, {}, {}, 1), InputError);           // no case for the first row
  CHECK_THROWS_AS(assemble(rows, {0, 0}, {named({})}, {{0, 3, 1, 1, 1}}, {}, 1), InputError);  // pooled commit 3
}

namespace {

ChangePoint step(std::size_t index, double before, double after, bool relative = true) {
  ChangePoint cp;
  cp.index = index;
  cp.before = before;
  cp.after = after;
  cp.relative = relative;
  return cp;
}

std::vector<std::string> names(const std::vector<AlertState>& states) {
  std::vector<std::string> out;
  for (AlertState s : states) out.emplace_back(alert_state_name(s));
  return out;
}

using S = std::vector<std::string>;

S states(const std::vector<double>& values, const std::vector<ChangePoint>& cps, std::size_t confirm_after,
         const std::vector<bool>& acknowledged = {}) {
  return names(alert_states(values, cps, confirm_after, acknowledged));
}

}  // namespace

TEST_CASE("alert states: confirmed after enough commits, resolved when back, acknowledged until resolved",
          "[alert_state]") {
  const std::vector<double> up{1, 1, 1, 2, 2, 2, 2};
  const std::vector<ChangePoint> one{step(3, 1, 2)};
  CHECK(states(up, one, 3) == S{"confirmed"});  // 3 commits after index 3
  CHECK(states(up, one, 4) == S{"new"});
  CHECK(states(up, one, 4, {true}) == S{"acknowledged"});

  const std::vector<double> back{1, 1, 1, 2, 2, 2, 1.1, 1.2, 1.1};
  const std::vector<ChangePoint> two{step(3, 1, 2), step(6, 2, 1.1)};
  CHECK(states(back, two, 2) == S{"resolved", "confirmed"});
  CHECK(states(back, two, 3, {true, true}) == S{"resolved", "acknowledged"});
  // On the log scale 1.45 is nearer 2 than 1 (|log 1.45| = 0.372 > |log(1.45 / 2)| = 0.322),
  // while on the linear scale it is nearer 1: relative and absolute change points differ.
  const std::vector<double> mid{1, 1, 1, 2, 2, 2, 1.45, 1.45};
  CHECK(states(mid, {step(3, 1, 2), step(6, 2, 1.45)}, 5) == S{"new", "new"});
  CHECK(states(mid, {step(3, 1, 2, false), step(6, 2, 1.45, false)}, 5) == S{"resolved", "new"});
}

TEST_CASE("alert states: an even segment's median is (a + b) / 2 as numpy.median rounds it", "[alert_state]") {
  // (a + b) / 2 = 1.0645743079322196 while a + (b - a) / 2 = 1.0645743079322194. With the old
  // level 0 and the new one 2m (absolute), the median m = (a + b) / 2 lies exactly between them:
  // not nearer the old level, so not resolved; the other rounding would resolve it.
  const double a = -0.5424755574590947, b = 2.6716241733235337, m = (a + b) / 2;
  REQUIRE(a + (b - a) / 2 < m);
  const std::vector<double> v{-1, -1, 5, 5, a, b};
  CHECK(states(v, {step(2, 0, 2 * m, false), step(4, 2 * m, m, false)}, 1) == S{"confirmed", "confirmed"});
  CHECK(states(v, {step(2, 1e-9, 2 * m, false), step(4, 2 * m, m, false)}, 1) == S{"resolved", "confirmed"});
}

TEST_CASE("alert states: random series equal a sort-based reference", "[alert_state]") {
  Xoshiro256 rng(31);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 2 + rng.below(30);
    std::vector<double> values(n);
    for (double& x : values) x = 0.5 + rng.unit();
    std::vector<ChangePoint> cps;
    for (std::size_t i = 1; i < n; ++i)
      if (rng.below(5) == 0) cps.push_back(step(i, 0.5 + rng.unit(), 0.5 + rng.unit(), rng.below(2) == 0));
    const std::size_t confirm = 1 + rng.below(4);
    std::vector<bool> acked(cps.size());
    for (std::size_t k = 0; k < cps.size(); ++k) acked[k] = rng.below(2) == 0;
    const auto got = alert_states(values, cps, confirm, acked);
    std::vector<std::size_t> bounds{0};
    for (const auto& cp : cps) bounds.push_back(cp.index);
    bounds.push_back(n);
    for (std::size_t k = 0; k < cps.size(); ++k) {
      AlertState want = bounds[k + 2] - bounds[k + 1] - 1 >= confirm ? AlertState::confirmed : AlertState::fresh;
      if (acked[k]) want = AlertState::acknowledged;
      for (std::size_t s = k + 2; s + 1 < bounds.size(); ++s) {
        std::vector<double> seg(values.begin() + bounds[s], values.begin() + bounds[s + 1]);
        std::sort(seg.begin(), seg.end());
        const std::size_t h = seg.size() / 2;
        const double med = seg.size() % 2 ? seg[h] : (seg[h - 1] + seg[h]) / 2;
        const bool old = cps[k].relative
                             ? std::abs(std::log(med / cps[k].before)) < std::abs(std::log(med / cps[k].after))
                             : std::abs(med - cps[k].before) < std::abs(med - cps[k].after);
        if (old) want = AlertState::resolved;
      }
      CHECK(got[k] == want);
    }
  }
}

TEST_CASE("alert states: bad input is an InputError", "[alert_state]") {
  const std::vector<double> v{1, 2, 3};
  CHECK_THROWS_AS(states(v, {step(1, 1, 2)}, 0), InputError);
  CHECK_THROWS_AS(states(v, {step(4, 1, 2)}, 1), InputError);
  CHECK_THROWS_AS(states(v, {step(2, 1, 2), step(1, 1, 2)}, 1), InputError);
  CHECK_THROWS_AS(states(v, {step(1, 1, 2)}, 1, {true, false}), InputError);
}

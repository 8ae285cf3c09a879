// Process-level intervals, one process per side, BH demotion, and a sweep of
// intervals across the threshold boundaries: no verdict contradicts its interval.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/compare/process_interval.hpp"
#include "benchreport/report/verdict_text.hpp"

using namespace benchreport;
using V = std::vector<double>;

namespace {
// Whatever the interval, the verdict must be implied by it.
void check_consistent(Verdict v, double est, double lo, double hi, const CompareOptions& o) {
  const double t = o.threshold;
  const bool lower_better = o.direction == Direction::lower_is_better;
  const bool worse_side = lower_better ? lo > 0 : hi < 0;
  const bool better_side = lower_better ? hi < 0 : lo > 0;
  switch (v) {
    case Verdict::slower:
      REQUIRE(worse_side);
      REQUIRE(std::fabs(est) >= t);
      REQUIRE(lo <= est);
      REQUIRE(est <= hi);
      break;
    case Verdict::faster:
      REQUIRE(better_side);
      REQUIRE(std::fabs(est) >= t);
      break;
    case Verdict::equivalent:
      REQUIRE(lo > -t);
      REQUIRE(hi < t);
      break;
    case Verdict::inconclusive:
      REQUIRE_FALSE((lo > -t && hi < t));
      REQUIRE_FALSE(((lo > 0 || hi < 0) && std::fabs(est) >= t));
      break;
    case Verdict::unchanged: FAIL("unchanged is for exact units only");
    case Verdict::added:
    case Verdict::removed: FAIL("added and removed are for cases on one side only");
  }
}
}  // namespace

TEST_CASE("verdict sweep across the threshold boundaries never contradicts the interval", "[verdict]") {
  for (Direction d : {Direction::lower_is_better, Direction::higher_is_better}) {
    CompareOptions o;
    o.direction = d;
    const double t = o.threshold;
    const V edges{-2 * t, -t - 1e-12, -t, -t + 1e-12, -t / 2, -1e-12, 0, 1e-12, t / 2, t - 1e-12, t, t + 1e-12, 2 * t};
    std::size_t seen[5] = {};
    for (double lo : edges) {
      for (double hi : edges) {
        if (hi < lo) continue;
        for (double w : {0.0, 0.25, 0.5, 0.75, 1.0}) {
          const double est = lo + w * (hi - lo);
          const auto decision = explain_verdict(est, lo, hi, std::nullopt, o);
          check_consistent(decision.verdict, est, lo, hi, o);
          REQUIRE(to_string(decision.code) != "unknown");
          ++seen[static_cast<int>(decision.verdict)];
        }
      }
    }
    REQUIRE(seen[static_cast<int>(Verdict::slower)] > 0);
    REQUIRE(seen[static_cast<int>(Verdict::faster)] > 0);
    REQUIRE(seen[static_cast<int>(Verdict::equivalent)] > 0);
    REQUIRE(seen[static_cast<int>(Verdict::inconclusive)] > 0);
  }
}

TEST_CASE("t intervals on log summaries, hand-checked", "[verdict]") {
  // Paired: d = {0.1, 0.2, 0.3}: mean 0.2, sd 0.1, se 0.1/sqrt(3), t_{0.975,2} = 4.302652729911275.
  const auto p = paired_t_interval(V{0, 0, 0}, V{0.1, 0.2, 0.3}, 0.95);
  REQUIRE(p.method == "paired_t");
  REQUIRE(p.df == 2);
  REQUIRE(p.estimate == Approx(0.2));
  REQUIRE(p.upper - p.estimate == Approx(4.302652729911275 * 0.1 / std::sqrt(3.0)).epsilon(1e-9));
  // Welch with equal variances and sizes: df = 2(k - 1).
  const auto w = welch_t_interval(V{0, 1, 2}, V{1, 2, 3}, 0.95);
  REQUIRE(w.df == Approx(4));
  REQUIRE(w.estimate == Approx(1));
  // No spread: the point, p = 0.
  const auto z = paired_t_interval(V{1, 2}, V{1.5, 2.5}, 0.95);
  REQUIRE(z.lower == z.upper);
  REQUIRE(z.p_value == 0);
}

TEST_CASE("process-level interval, one process per side, and BH demotion", "[verdict]") {
  CompareOptions o;
  o.resamples = 200;
  const V b0{1.00, 1.01, 0.99, 1.02, 0.98}, b1{1.10, 1.11, 1.09, 1.12, 1.08}, b2{0.95, 0.96, 0.94, 0.97, 0.93};
  const V h0{1.20, 1.21, 1.19, 1.22, 1.18}, h1{1.32, 1.33, 1.31, 1.34, 1.30}, h2{1.14, 1.15, 1.13, 1.16, 1.12};
  const auto c = compare_case(SideSamples{{b0, b1, b2}}, SideSamples{{h0, h1, h2}}, o, "p");
  REQUIRE(c.interval_unit == "process");
  REQUIRE(c.change_interval_method == "paired_t");
  REQUIRE(c.base_processes == 3);
  REQUIRE(c.interval_df == 2);
  REQUIRE(c.verdict == Verdict::slower);
  REQUIRE(c.verdict_code == VerdictCode::beyond_threshold);
  REQUIRE(c.between_process_share > 0.9);
  REQUIRE(c.between_process_dominates);
  REQUIRE(c.change_lower <= c.change_estimate);
  REQUIRE(c.change_estimate <= c.change_upper);
  const auto u = compare_case(SideSamples{{b0, b1, b2}}, SideSamples{{h0, h1, h2}}, o, "u", ProcessPairing::unpaired);
  REQUIRE(u.change_interval_method == "welch_t");
  REQUIRE(u.interval_df > 2);
  // Unpaired, the process-to-process spread is not cancelled: a wider interval.
  REQUIRE(u.change_upper - u.change_lower > 3 * (c.change_upper - c.change_lower));
  // Two processes of very different speed per side: Welch on 2 + 2 processes is inconclusive.
  const auto few = compare_case(SideSamples{{b0, h1}}, SideSamples{{b1, h2}}, o, "few", ProcessPairing::unpaired);
  REQUIRE(few.verdict == Verdict::inconclusive);
  REQUIRE(few.inconclusive_cause == InconclusiveCause::few_processes);
  REQUIRE(std::isfinite(few.detectable_change));

  V flat_b, flat_h;
  for (int i = 0; i < 30; ++i) {
    flat_b.push_back(1 + 0.001 * (i % 7));
    flat_h.push_back(1.2 + 0.001 * (i % 5));
  }
  const auto fresh = compare_case(SideSamples{{flat_b}}, SideSamples{{flat_h}}, o, "one");
  REQUIRE(fresh.verdict == Verdict::inconclusive);  // one launch per side: no claim by default
  REQUIRE(fresh.verdict_code == VerdictCode::one_launch_per_side);
  REQUIRE(fresh.inconclusive_cause == InconclusiveCause::one_launch);
  REQUIRE(std::isnan(fresh.detectable_change));
  CompareOptions assume = o;
  assume.assume_launches_identical = true;
  const auto one = compare_case(SideSamples{{flat_b}}, SideSamples{{flat_h}}, assume, "one");
  REQUIRE(one.interval_unit == "sample");
  REQUIRE(one.within_process_only);
  REQUIRE(one.verdict == Verdict::slower);
  REQUIRE(verdict_code_text(one) == "beyond_threshold_within_process");
  REQUIRE(verdict_reason(one).rfind("one process per side: within-process noise only", 0) == 0);
  const auto tiny = compare_case(SideSamples{{V{1.0}}}, SideSamples{{V{2.0}}}, o, "tiny");  // no crash
  REQUIRE(tiny.verdict == Verdict::inconclusive);

  // BH: a borderline slower case among many null p-values is demoted.
  std::vector<CaseComparison> cases(10);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].verdict = Verdict::inconclusive;
    cases[i].p_value = 0.5 + 0.04 * static_cast<double>(i);
  }
  cases[0].verdict = Verdict::slower;
  cases[0].verdict_code = VerdictCode::beyond_threshold;
  cases[0].p_value = 0.02;
  control_false_discoveries(cases, o);
  REQUIRE(cases[0].p_adjusted == Approx(0.2));
  REQUIRE(cases[0].verdict == Verdict::inconclusive);
  REQUIRE(cases[0].verdict_code == VerdictCode::fdr_adjusted);
  REQUIRE(cases[0].inconclusive_cause == InconclusiveCause::multiple_comparisons);
  cases[0].verdict = Verdict::slower;
  o.control_fdr = false;
  control_false_discoveries(cases, o);
  REQUIRE(cases[0].verdict == Verdict::slower);
}

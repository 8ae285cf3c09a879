// compare_case, the verdict rule, roll-ups and noise calibration on hand-checked cases.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/compare/rollup.hpp"

using namespace benchreport;
using V = std::vector<double>;

namespace {
SideSamples one(const V& v) { return SideSamples{{std::span<const double>(v)}}; }
// Built with += : g++ 12 at -O3 raises a false -Wrestrict on "literal" + std::string.
std::string case_name(std::size_t i) {
  std::string name = "c";
  name += std::to_string(i);
  return name;
}
CompareOptions quick() {
  CompareOptions o;
  o.resamples = 500;
  return o;
}
}  // namespace

TEST_CASE("compare_case basic figures", "[compare]") {
  const V base{100, 102, 98, 101, 99, 100.5, 103, 97};
  V head;
  for (double v : base) head.push_back(v * 1.2);
  const auto c = compare_case(one(base), one(head), quick(), "sum");
  REQUIRE(c.case_name == "sum");
  REQUIRE(c.base_n == 8);
  REQUIRE(c.base_median == 100.25);
  REQUIRE(c.head_median == Approx(120.3));
  REQUIRE(c.change == Approx(0.2));
  REQUIRE(c.log_ratio == Approx(std::log(1.2)));
  REQUIRE(c.base_mad_pct == Approx(150 / 100.25));  // |dev| .25 1.75 2.25 .75 1.25 .25 2.75 3.25 → MAD 1.5
  REQUIRE(c.ratio == Approx(1.2));
  REQUIRE(c.mann_whitney.method == TestMethod::exact);
  REQUIRE(c.prob_head_better == 0.0);
  // One process per side: no claim on within-process noise unless the launches are assumed identical.
  REQUIRE(c.verdict == Verdict::inconclusive);
  REQUIRE(c.verdict_code == VerdictCode::one_launch_per_side);
  CompareOptions assume = quick();
  assume.assume_launches_identical = true;
  REQUIRE(compare_case(one(base), one(head), assume, "sum").verdict == Verdict::slower);
  REQUIRE(c.change_lower > 0);
  REQUIRE_FALSE(c.wilcoxon_available);
}

TEST_CASE("Paired processes", "[compare]") {
  const V b0{10, 11, 10}, b1{20, 21, 20}, b2{30, 30, 31};
  const V h0{11, 12, 11}, h1{18, 19, 18}, h2{33, 33, 34};
  const SideSamples base{{b0, b1, b2}}, head{{h0, h1, h2}};
  const auto c = compare_case(base, head, quick(), "p");
  REQUIRE(c.base_process_medians == V{10, 20, 30});
  REQUIRE(c.process_changes.size() == 3);
  REQUIRE(c.process_changes[1] == Approx(-0.1));
  REQUIRE(c.processes_disagree);
  // Processes on both sides: the interval is a paired t on log process medians and the
  // sample bootstrap is not run (NaN ends, the estimate kept).
  REQUIRE(c.change_interval_method == "paired_t");
  REQUIRE(std::isnan(c.bootstrap.percentile_lower));
  REQUIRE(std::isnan(c.bootstrap.bca_upper));
  REQUIRE(c.bootstrap.estimate == Approx(1 + c.change));
  REQUIRE(c.wilcoxon_available);
  const SideSamples head2{{h0, h1}};
  const auto u = compare_case(base, head2, quick(), "p");
  REQUIRE(u.change_interval_method == "welch_t");
  REQUIRE(u.process_changes.size() == 2);
  REQUIRE_FALSE(u.wilcoxon_available);
}

TEST_CASE("Verdict rule", "[compare]") {
  CompareOptions o;
  REQUIRE(decide_verdict(0.10, 0.05, 0.15, false, o) == Verdict::slower);
  REQUIRE(decide_verdict(-0.10, -0.15, -0.05, false, o) == Verdict::faster);
  REQUIRE(decide_verdict(0.10, -0.01, 0.2, false, o) == Verdict::inconclusive);
  REQUIRE(decide_verdict(0.10, 0.05, 0.15, true, o) == Verdict::inconclusive);
  REQUIRE(decide_verdict(0.01, -0.02, 0.03, false, o) == Verdict::equivalent);
  // The old rule called these "unchanged" although the interval reaches beyond +t (or the
  // case was gated); a verdict may not claim more than its interval: inconclusive.
  REQUIRE(decide_verdict(0.01, -0.02, 0.08, false, o) == Verdict::inconclusive);
  REQUIRE(explain_verdict(0.01, -0.02, 0.08, std::nullopt, o).code == VerdictCode::straddles_zero);
  REQUIRE(decide_verdict(0.01, -0.02, 0.03, true, o) == Verdict::inconclusive);
  // Excludes 0, estimate below t, interval reaches t: a change, of uncertain size.
  REQUIRE(explain_verdict(0.03, 0.01, 0.07, std::nullopt, o).code == VerdictCode::below_threshold);
  REQUIRE(explain_verdict(0.03, 0.01, 0.07, std::nullopt, o).verdict == Verdict::inconclusive);
  // Excludes 0 but estimate below t: not slower (the estimate rule, docs/statistics-comparison.md "Verdict").
  REQUIRE(decide_verdict(0.049, 0.001, 0.09, false, o) == Verdict::inconclusive);
  REQUIRE(decide_verdict(0.05, 0.001, 0.09, false, o) == Verdict::slower);
  REQUIRE(decide_verdict(0.0, NAN, NAN, false, o) == Verdict::inconclusive);
  o.direction = Direction::higher_is_better;
  REQUIRE(decide_verdict(0.10, 0.05, 0.15, false, o) == Verdict::faster);
  REQUIRE(decide_verdict(-0.10, -0.15, -0.05, false, o) == Verdict::slower);
  o.exact_unit = true;
  REQUIRE(decide_verdict(0.001, 0, 0, false, o) == Verdict::faster);
  REQUIRE(decide_verdict(0.0, 0, 0, false, o) == Verdict::unchanged);
  REQUIRE(to_string(Verdict::inconclusive) == "inconclusive");
  REQUIRE(min_samples_per_side(0.05) == 4);  // 2 / C(8, 4) = 0.029 <= 0.05 < 2 / C(6, 3)
}

TEST_CASE("compare_case errors name the case", "[compare]") {
  const V ok{1, 2, 3}, empty{}, nan{1, NAN}, neg{1, -2};
  auto message = [&](const SideSamples& b, const SideSamples& h) {
    try {
      compare_case(b, h, quick(), "my case");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  REQUIRE(message(one(empty), one(ok)) == "case 'my case': base has no samples");
  REQUIRE(message(SideSamples{}, one(ok)) == "case 'my case': base has no samples");
  REQUIRE(message(SideSamples{{ok, empty}}, one(ok)) == "case 'my case': base process 1 has no samples");
  REQUIRE(message(one(ok), one(nan)).find("case 'my case': head process 0 sample 1 is nan") == 0);
  REQUIRE(message(one(ok), one(neg)).find("expected a positive value") != std::string::npos);
  CompareOptions bad = quick();
  bad.alpha = 2;
  REQUIRE_THROWS_AS(compare_case(one(ok), one(ok), bad), InputError);
}

TEST_CASE("compare_cases is independent of the thread count", "[compare]") {
  std::vector<V> storage;
  for (int i = 0; i < 6; ++i) {
    storage.push_back({10.0 + i, 11, 9.5, 10.2, 10.9, 9.9, 10.4});
    storage.push_back({10.5 + i, 11.2, 9.9, 10.1, 11.5, 10.3, 10.8});
  }
  std::vector<CaseInput> cases;
  for (int i = 0; i < 6; ++i) {
    cases.push_back({case_name(static_cast<std::size_t>(i)), one(storage[2 * i]), one(storage[2 * i + 1])});
  }
  const auto a = compare_cases(cases, quick(), 1);
  const auto b = compare_cases(cases, quick(), 3);
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].change_lower == b[i].change_lower);
    REQUIRE(a[i].change_upper == b[i].change_upper);
    REQUIRE(a[i].case_name == b[i].case_name);
  }
}

TEST_CASE("Rollup figures by hand", "[compare]") {
  std::vector<CaseComparison> cs(3);
  const double changes[] = {0.10, -0.02, 0.0};
  const Verdict verdicts[] = {Verdict::slower, Verdict::unchanged, Verdict::equivalent};
  const double ps[] = {0.01, 0.04, 0.03};
  for (std::size_t i = 0; i < 3; ++i) {
    cs[i].case_name = case_name(i);
    cs[i].change = changes[i];
    cs[i].log_ratio = std::log1p(changes[i]);
    cs[i].verdict = verdicts[i];
    cs[i].p_value = ps[i];  // the roll-up adjusts the verdict p-values (was Mann-Whitney's)
  }
  RollupOptions o;
  o.resamples = 1000;
  const Rollup r = rollup(cs, o);
  REQUIRE(r.cases == 3);
  REQUIRE(r.median_abs_change == Approx(0.02));
  REQUIRE(r.cases_at_threshold == 1);
  REQUIRE(r.largest_case == "c0");
  REQUIRE(r.largest_change == 0.10);
  REQUIRE(r.geomean_ratio == Approx(std::cbrt(1.10 * 0.98)));
  REQUIRE(r.geomean_lower <= r.geomean_ratio);
  REQUIRE(r.geomean_upper >= r.geomean_ratio);
  {  // t-interval over the log ratios: exp(mean ± t_{0.975, 2} sd / sqrt(3))
    const double l[] = {std::log(1.10), std::log(0.98), 0.0};
    const double mean = (l[0] + l[1] + l[2]) / 3;
    const double sd = std::sqrt(((l[0] - mean) * (l[0] - mean) + (l[1] - mean) * (l[1] - mean) + mean * mean) / 2);
    REQUIRE(r.geomean_upper == Approx(std::exp(mean + 4.302652729911275 * sd / std::sqrt(3.0))).epsilon(1e-9));
    REQUIRE(r.geomean_lower == Approx(std::exp(mean - 4.302652729911275 * sd / std::sqrt(3.0))).epsilon(1e-9));
  }
  REQUIRE(r.verdict_counts[static_cast<std::size_t>(Verdict::slower)] == 1);
  REQUIRE(r.verdict_counts[static_cast<std::size_t>(Verdict::faster)] == 0);
  REQUIRE(r.p_holm[1] == Approx(0.06));
  REQUIRE_THROWS_AS(rollup(std::vector<CaseComparison>{}), InputError);
}

TEST_CASE("Noise calibration by hand", "[compare]") {
  const std::vector<std::string> names{"a", "b", "a"};
  const V changes{0.01, -0.02, 0.03};
  const auto cal = calibrate_noise(names, changes);
  REQUIRE(cal.cases == std::vector<std::string>{"a", "b"});
  REQUIRE(cal.noise_floor == V{0.03, 0.02});
  REQUIRE(cal.runs == std::vector<std::size_t>{2, 1});
  REQUIRE(cal.p95_abs_change == Approx(0.029));  // type 7 over 0.01 0.02 0.03
  REQUIRE(cal.suggested_threshold == 0.05);
  const auto big = calibrate_noise(names, V{0.1, 0.2, 0.3});
  REQUIRE(big.suggested_threshold == Approx(1.5 * 0.29));
  REQUIRE_THROWS_AS(calibrate_noise(names, V{0.1}), InputError);
  REQUIRE_THROWS_AS(calibrate_noise(names, V{0.1, NAN, 0.2}), InputError);
}

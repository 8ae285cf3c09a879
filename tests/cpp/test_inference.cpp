// Hand-checked small cases for the rank tests, estimators, PRNG, bootstrap and
// p-value adjustment (the scipy cross-checks live in tests/python/test_compare.py).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/compare/batch.hpp"
#include "benchreport/core/parallel.hpp"

using namespace benchreport;
using V = std::vector<double>;

TEST_CASE("Mann-Whitney exact null counts", "[inference]") {
  // n = m = 2: U in 0..4 with counts 1 1 2 1 1 (C(4,2) = 6 arrangements).
  REQUIRE(mann_whitney_counts(2, 2, 4) == V{1, 1, 2, 1, 1});
  // Symmetric in the roles of the two sides.
  REQUIRE(mann_whitney_counts(3, 5, 15) == mann_whitney_counts(5, 3, 15));
  const V c = mann_whitney_counts(3, 4, 12);
  double total = 0;
  for (double v : c) total += v;
  REQUIRE(total == 35.0);  // C(7, 3)
}

TEST_CASE("Mann-Whitney hand-checked p-values", "[inference]") {
  // Complete separation, n = 3, m = 2: U_x = 0, P(U <= 0) = 1/10, two-sided 0.2.
  const auto r = mann_whitney_u(V{1, 2, 3}, V{4, 5});
  REQUIRE(r.u == 0.0);
  REQUIRE(r.method == TestMethod::exact);
  REQUIRE(r.p_value == Approx(0.2).epsilon(1e-14));
  // Ties force the normal approximation.
  const auto t = mann_whitney_u(V{1, 2, 2}, V{2, 3});
  REQUIRE(t.method == TestMethod::asymptotic);
  REQUIRE(t.u == 1.0);  // two ties (2 vs 2) count a half each
  REQUIRE(to_string(TestMethod::permutation) == "permutation");
}

TEST_CASE("Wilcoxon signed-rank hand-checked", "[inference]") {
  REQUIRE(signed_rank_counts(3) == V{1, 1, 1, 2, 1, 1, 1});
  const auto r = wilcoxon_signed_rank(V{1, 2, 3, 4, 5});
  REQUIRE(r.r_plus == 15.0);
  REQUIRE(r.statistic == 0.0);
  REQUIRE(r.p_value == Approx(2.0 / 32).epsilon(1e-14));
  REQUIRE(r.method == TestMethod::exact);
  const auto z = wilcoxon_signed_rank(V{0, 1, 2});  // a zero: enumeration of sign flips
  REQUIRE(z.method == TestMethod::permutation);
  REQUIRE(z.n_used == 2);
  REQUIRE(z.p_value == Approx(0.5));  // r+ = 3 of {0,1,2,3}: P(T >= 3) = 1/4
  REQUIRE_THROWS_AS(wilcoxon_signed_rank(V{0, 0}), InputError);
}

TEST_CASE("Brunner-Munzel input checks", "[inference]") {
  REQUIRE_THROWS_AS(brunner_munzel(V{1}, V{1, 2}), InputError);
  REQUIRE_THROWS_AS(brunner_munzel(V{1, NAN}, V{1, 2}), InputError);
  const auto sep = brunner_munzel(V{1, 2}, V{3, 4});  // complete separation: degenerate like scipy
  REQUIRE(std::isnan(sep.p_value));
  const auto r = brunner_munzel(V{1, 3, 5}, V{2, 4, 6});
  REQUIRE(r.p_value > 0.0);
  REQUIRE(r.p_value <= 1.0);
}

TEST_CASE("Hodges-Lehmann estimators on small hand-checked sets", "[inference]") {
  REQUIRE(hodges_lehmann_shift(V{1, 2}, V{3, 5}) == 2.5);  // differences 2 1 4 3
  REQUIRE(center(V{1, 2, 3}) == 2.0);                      // Walsh 1 1.5 2 2 2.5 3
  REQUIRE(spread(V{1, 2, 4}) == 2.0);                      // gaps 1 3 2
  REQUIRE(ratio(V{1, 2}, V{2, 4}) == Approx(2.0));
  REQUIRE(disparity(V{1, 2, 4}, V{3, 4, 6}) == Approx(2.0 / 2.0));
  REQUIRE_THROWS_AS(ratio(V{1, 0}, V{1}), InputError);
  REQUIRE_THROWS_AS(spread(V{1}), InputError);
  REQUIRE_THROWS_AS(hodges_lehmann_shift(V{}, V{1}), InputError);
  REQUIRE_THROWS_AS(center(V{1, INFINITY}), InputError);
}

TEST_CASE("Sub-quadratic pairwise selection equals brute force", "[inference]") {
  Xoshiro256 rng(42);
  V x(157), y(203);
  for (double& v : x) v = std::round(rng.unit() * 50) / 10;  // many ties
  for (double& v : y) v = rng.unit() * 5;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  V all;
  for (double a : x)
    for (double b : y) all.push_back(b - a);
  std::sort(all.begin(), all.end());
  for (std::size_t k = 0; k < all.size(); k += 331) REQUIRE(kth_pairwise_difference(x, y, k) == all[k]);
  REQUIRE(kth_pairwise_difference(x, y, all.size() - 1) == all.back());
}

TEST_CASE("Bounds margins", "[inference]") {
  // n = m = 2: P(U <= 0) = 1/6, so misrate 1/3 allows k = 1 exactly.
  const Margin g = shift_margin(2, 2, 1.0 / 3 + 1e-12);
  REQUIRE(g.k == 1);
  REQUIRE(g.exact);
  REQUIRE(g.achieved_misrate == Approx(1.0 / 3));
  // Unreachable misrate: extremes with the achieved misrate reported.
  const Bounds b = shift_bounds(V{1, 2}, V{3, 5}, 1e-3);
  REQUIRE(b.lower == 1.0);
  REQUIRE(b.upper == 4.0);
  REQUIRE(b.achieved_misrate > 1e-3);
  REQUIRE_FALSE(shift_margin(300, 300, 1e-3).exact);  // large: normal approximation
  const Bounds c = center_bounds(V{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.01);
  REQUIRE(c.lower < center(V{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  REQUIRE_THROWS_AS(shift_margin(3, 3, 1.5), InputError);
}

TEST_CASE("spread and disparity bounds, hand-checked", "[inference]") {
  // m = 10 pairs: 2 P(B <= 1) = 2 * 11/1024 <= 0.05 < 2 * P(B <= 2) = 2 * 56/1024.
  const Margin g = sign_margin(10, 0.05);
  REQUIRE(g.k == 2);
  REQUIRE(g.achieved_misrate == Approx(22.0 / 1024).epsilon(1e-12));
  REQUIRE(sign_margin(1, 0.5).k == 1);
  REQUIRE(sign_margin(1, 0.5).achieved_misrate == 1.0);
  // One pair: the bounds are its gap, whatever the order.
  const Bounds one = spread_bounds(V{3, 7}, 0.5);
  REQUIRE((one.lower == 4.0 && one.upper == 4.0));
  const Bounds flat = spread_bounds(V{5, 5, 5, 5, 5}, 0.5);
  REQUIRE((flat.lower == 0.0 && flat.upper == 0.0));
  // Bounds are gaps of the data, and the same seed gives the same pairing.
  const V x{1, 2, 4, 8, 16, 32, 64, 128};
  const Bounds a = spread_bounds(x, 0.9, 42);
  REQUIRE(a.lower <= a.upper);
  REQUIRE(a.lower >= 1.0);
  REQUIRE(a.upper <= 127.0);
  REQUIRE(spread_bounds(x, 0.9, 42).upper == a.upper);
  REQUIRE_THROWS_AS(spread_bounds(V{1}, 0.1), InputError);
  // Disparity: a clear shift with tight spreads stays positive and finite.
  const Bounds d = disparity_bounds(V{1, 1.1, 0.9, 1.05, 0.95, 1.02}, V{3, 3.1, 2.9, 3.05, 2.95, 3.02}, 0.9);
  REQUIRE(d.lower > 0);
  REQUIRE(std::isfinite(d.upper));
  REQUIRE(d.lower <= disparity(V{1, 1.1, 0.9, 1.05, 0.95, 1.02}, V{3, 3.1, 2.9, 3.05, 2.95, 3.02}));
}

TEST_CASE("PRNG is the documented SplitMix64 / xoshiro256**", "[inference]") {
  std::uint64_t s = 0;
  REQUIRE(splitmix64(s) == 0xE220A8397B1DCDAFULL);  // reference first output for seed 0
  Xoshiro256 a(7), b(7), c(8);
  for (int i = 0; i < 100; ++i) {
    const auto va = a.next();
    REQUIRE(va == b.next());
  }
  REQUIRE(Xoshiro256(7).next() != c.next());
  Xoshiro256 r(1);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const auto v = r.below(10);
    REQUIRE(v < 10);
    seen.insert(v);
    REQUIRE(r.below(1) == 0);
    const double u = r.unit();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
  }
  REQUIRE(seen.size() == 10);
  REQUIRE(Xoshiro256::for_stream(1, 0).next() != Xoshiro256::for_stream(1, 1).next());
}

TEST_CASE("Bootstrap is reproducible and sensible", "[inference]") {
  const V base{10, 11, 9, 10.5, 10.2, 9.8, 10.1, 10.3};
  V head;
  for (double v : base) head.push_back(v * 1.5);
  const BootstrapOptions o{2000, 0.9};
  const auto r1 = bootstrap_median_ratio_ci(base, head, o, 3);
  const auto r2 = bootstrap_median_ratio_ci(base, head, o, 3);
  REQUIRE(r1.percentile_lower == r2.percentile_lower);
  REQUIRE(r1.bca_upper == r2.bca_upper);
  REQUIRE(r1.estimate == Approx(1.5));
  REQUIRE(r1.percentile_lower <= 1.5);
  REQUIRE(r1.percentile_upper >= 1.5);
  REQUIRE(r1.percentile_lower > 1.3);
  REQUIRE_THROWS_AS(bootstrap_median_ratio_ci(V{}, head, o, 1), InputError);
  REQUIRE_THROWS_AS(bootstrap_median_ratio_ci(V{1, -1}, head, o, 1), InputError);
  REQUIRE_THROWS_AS(bootstrap_median_ratio_ci(base, head, BootstrapOptions{1, 0.9}, 1), InputError);
  REQUIRE(sorted_quantile(V{1, 2, 3, 4}, 0.5) == 2.5);
  REQUIRE(sorted_quantile(V{1, 2, 3, 4}, 1.0) == 4.0);
}

TEST_CASE("Batched kernels do not depend on the thread count", "[inference]") {
  V xv, yv;
  std::vector<std::int64_t> xo{0}, yo{0};
  Xoshiro256 rng(5);
  for (int c = 0; c < 9; ++c) {
    for (int i = 0; i < 12; ++i) xv.push_back(1 + rng.unit());
    for (int i = 0; i < 10; ++i) yv.push_back(1.1 + rng.unit());
    xo.push_back(static_cast<std::int64_t>(xv.size()));
    yo.push_back(static_cast<std::int64_t>(yv.size()));
  }
  const auto a = bootstrap_median_ratio_ci_batch(xv, xo, yv, yo, BootstrapOptions{300, 0.95}, 9, 1);
  const auto b = bootstrap_median_ratio_ci_batch(xv, xo, yv, yo, BootstrapOptions{300, 0.95}, 9, 2);
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].percentile_lower == b[i].percentile_lower);
    REQUIRE(a[i].percentile_upper == b[i].percentile_upper);
  }
  const auto m = mann_whitney_u_batch(xv, xo, yv, yo, 2);
  REQUIRE(m[3].p_value == mann_whitney_u(csr_case(xv, xo, 3), csr_case(yv, yo, 3)).p_value);
  const std::vector<std::int64_t> bad{0, 5};
  REQUIRE_THROWS_AS(mann_whitney_u_batch(xv, bad, yv, yo, 1), InputError);
}

TEST_CASE("run_indexed rethrows the lowest failing index", "[inference]") {
  for (unsigned threads : {1U, 3U}) {
    try {
      run_indexed(20, threads, [](std::size_t i) {
        if (i == 7 || i == 13) throw std::runtime_error("fail " + std::to_string(i));
      });
      FAIL("expected an exception");
    } catch (const std::runtime_error& e) {
      REQUIRE(std::string(e.what()) == "fail 7");
    }
  }
}

TEST_CASE("Benjamini-Hochberg and Holm by hand", "[inference]") {
  const V p{0.01, 0.04, 0.03};
  const V bh = adjust_bh(p);
  REQUIRE(bh[0] == Approx(0.03));
  REQUIRE(bh[1] == Approx(0.04));
  REQUIRE(bh[2] == Approx(0.04));
  const V holm = adjust_holm(p);
  REQUIRE(holm[0] == Approx(0.03));
  REQUIRE(holm[1] == Approx(0.06));
  REQUIRE(holm[2] == Approx(0.06));
  REQUIRE(adjust_bh(V{}).empty());
  REQUIRE_THROWS_AS(adjust_holm(V{0.5, -0.1}), InputError);
}

namespace {

// Straightforward resampling of the sorted values with the generator's below32
// draws (base first, then head, per resample): the reference the histogram
// kernel must reproduce bit for bit.
V straightforward_ratios(V base, V head, int resamples, std::uint64_t seed) {
  std::sort(base.begin(), base.end());
  std::sort(head.begin(), head.end());
  Xoshiro256 rng(seed);
  auto resampled_median = [&](const V& sorted) {
    V draw(sorted.size());
    for (double& d : draw) d = sorted[rng.below32(static_cast<std::uint32_t>(sorted.size()))];
    std::sort(draw.begin(), draw.end());
    const double lower = draw[(draw.size() - 1) / 2], upper = draw[draw.size() / 2];
    return lower + (upper - lower) / 2;
  };
  V ratios;
  for (int b = 0; b < resamples; ++b) {
    const double mb = resampled_median(base);
    ratios.push_back(resampled_median(head) / mb);
  }
  return ratios;
}

// Every resample of a tiny sample enumerated (n^n equally likely draws).
std::map<double, double> enumerated_median_distribution(V sample) {
  std::sort(sample.begin(), sample.end());
  const std::size_t n = sample.size();
  std::size_t total = 1;
  for (std::size_t i = 0; i < n; ++i) total *= n;
  std::map<double, double> probability;
  V draw(n);
  for (std::size_t code = 0; code < total; ++code) {
    std::size_t digits = code;
    for (double& d : draw) {
      d = sample[digits % n];
      digits /= n;
    }
    std::sort(draw.begin(), draw.end());
    const double lower = draw[(n - 1) / 2], upper = draw[n / 2];
    probability[lower + (upper - lower) / 2] += 1.0 / static_cast<double>(total);
  }
  return probability;
}

}  // namespace

TEST_CASE("Bootstrap histogram kernel equals straightforward resampling bit for bit", "[inference][bootstrap]") {
  Xoshiro256 data(11);
  for (std::size_t nb : {1U, 2U, 7U, 20U}) {
    for (std::size_t nh : {3U, 20U, 21U}) {
      V base, head;
      for (std::size_t i = 0; i < nb; ++i) base.push_back(1 + std::floor(8 * data.unit()) / 4);  // with ties
      for (std::size_t i = 0; i < nh; ++i) head.push_back(1.2 + data.unit());
      const int B = 501;
      const auto r = bootstrap_median_ratio_ci(base, head, BootstrapOptions{B, 0.9}, 5);
      V ratios = straightforward_ratios(base, head, B, 5);
      double mean = 0;
      for (double x : ratios) mean += x;
      mean /= B;
      double ss = 0;
      for (double x : ratios) ss += (x - mean) * (x - mean);
      std::sort(ratios.begin(), ratios.end());
      REQUIRE(r.percentile_lower == sorted_quantile(ratios, 0.05));
      REQUIRE(r.percentile_upper == sorted_quantile(ratios, 0.95));
      REQUIRE(r.standard_error == std::sqrt(ss / (B - 1)));
    }
  }
}

TEST_CASE("Exact bootstrap median distribution equals enumeration of all resamples", "[inference][bootstrap]") {
  const std::vector<V> samples{
      {3}, {2, 5}, {1, 2, 3}, {4, 1, 3, 3}, {1, 2, 3, 4, 5}, {2, 2, 7, 1, 9, 4}, {5, 3, 8, 1, 9, 2, 7}, {1, 1, 1, 2}};
  for (const V& x : samples) {
    const MedianDistribution d = exact_bootstrap_median_distribution(x);
    const auto expected = enumerated_median_distribution(x);
    REQUIRE(d.values.size() == expected.size());
    std::size_t i = 0;
    double sum = 0;
    for (const auto& [value, probability] : expected) {
      REQUIRE(d.values[i] == value);
      REQUIRE(d.probabilities[i] == Approx(probability).margin(1e-11));
      sum += d.probabilities[i];
      ++i;
    }
    REQUIRE(sum == Approx(1.0).margin(1e-12));
  }
  REQUIRE_THROWS_AS(exact_bootstrap_median_distribution(V{}), InputError);
  REQUIRE_THROWS_AS(exact_bootstrap_median_distribution(V(kMaxExactSamples + 1, 1.0)), InputError);
}

TEST_CASE("Exact bootstrap interval agrees with a large resampling run", "[inference][bootstrap]") {
  Xoshiro256 data(3);
  for (std::size_t n : {20U, 15U}) {
    V base, head;
    for (std::size_t i = 0; i < n; ++i) base.push_back(1 + data.unit());
    for (std::size_t i = 0; i < n + 1; ++i) head.push_back(1.1 + data.unit());
    const BootstrapOptions exact_options{0, 0.95, BootstrapMethod::exact};
    const auto e = bootstrap_median_ratio_ci(base, head, exact_options, 0);
    const auto r = bootstrap_median_ratio_ci(base, head, BootstrapOptions{200000, 0.95}, 1);
    const double width = r.percentile_upper - r.percentile_lower;
    // Monte Carlo error of a 2.5% quantile from 2e5 resamples is well under 1% of the width here.
    REQUIRE(e.estimate == r.estimate);
    REQUIRE(std::abs(e.percentile_lower - r.percentile_lower) < 0.01 * width);
    REQUIRE(std::abs(e.percentile_upper - r.percentile_upper) < 0.01 * width);
    REQUIRE(std::abs(e.bca_lower - r.bca_lower) < 0.01 * width);
    REQUIRE(std::abs(e.bca_upper - r.bca_upper) < 0.01 * width);
    REQUIRE(e.standard_error == Approx(r.standard_error).epsilon(0.01));
    REQUIRE(e.resamples == 0);
    // Deterministic and independent of the seed.
    const auto again = bootstrap_median_ratio_ci(base, head, exact_options, 99);
    REQUIRE(again.bca_lower == e.bca_lower);
    REQUIRE(again.percentile_upper == e.percentile_upper);
  }
}

TEST_CASE("Exact bootstrap: hand-checked tiny case and bad input", "[inference][bootstrap]") {
  // base {1, 3}: medians 1, 2, 3 with probabilities 1/4, 1/2, 1/4; head {2}: always 2.
  // Ratio 2/3, 1, 2 with P 1/4, 1/2, 1/4: the 10% quantile is 2/3, the 90% quantile 2.
  const BootstrapOptions o{0, 0.8, BootstrapMethod::exact};
  const auto r = bootstrap_median_ratio_ci(V{1, 3}, V{2}, o, 0);
  REQUIRE(r.estimate == 1.0);
  REQUIRE(r.percentile_lower == 2.0 / 3.0);
  REQUIRE(r.percentile_upper == 2.0);
  // E[R] = 1/4 * 2/3 + 1/2 + 1/2 = 7/6, E[R^2] = 1/4 * 4/9 + 1/2 + 1 = 29/18.
  REQUIRE(r.standard_error == Approx(std::sqrt(29.0 / 18.0 - 49.0 / 36.0)).epsilon(1e-12));
  const V a{1, 2, 3}, b{2, 3, 4};
  Xoshiro256 rng(1);
  REQUIRE_THROWS_AS(bootstrap_median_ratio_ci(SideSamples{{a, b}}, SideSamples{{b}}, o, rng), InputError);
  REQUIRE_THROWS_AS(bootstrap_median_ratio_ci(V{}, b, o, 1), InputError);
  REQUIRE_THROWS_AS(bootstrap_median_ratio_ci(a, b, BootstrapOptions{0, 1.0, BootstrapMethod::exact}, 1), InputError);
  REQUIRE_THROWS_AS(bootstrap_median_ratio_ci(V{1, 0}, b, o, 1), InputError);
}

TEST_CASE("Pooled rank tests from one sort equal the two separate tests bit for bit", "[inference]") {
  Xoshiro256 rng(42);
  for (const std::size_t n : {1, 2, 5, 40, 301}) {
    V x(n), y(n + 3);
    // Values on a coarse grid: ties within and across the samples.
    for (auto& v : x) v = static_cast<double>(rng.below(n + 5));
    for (auto& v : y) v = static_cast<double>(rng.below(n + 5)) + 0.5 * static_cast<double>(rng.below(2));
    const PooledRankTests both = pooled_rank_tests(x, y);
    const MannWhitneyResult mw = mann_whitney_u(x, y);
    CHECK(both.mann_whitney.u == mw.u);
    CHECK(both.mann_whitney.p_value == mw.p_value);
    CHECK(both.mann_whitney.method == mw.method);
    CHECK(both.brunner_munzel_available == (n >= 2));
    if (n < 2) continue;
    const BrunnerMunzelResult bm = brunner_munzel(x, y);
    CHECK(both.brunner_munzel.statistic == bm.statistic);
    CHECK(both.brunner_munzel.df == bm.df);
    CHECK((both.brunner_munzel.p_value == bm.p_value ||
           (std::isnan(bm.p_value) && std::isnan(both.brunner_munzel.p_value))));
  }
}

// Hand-checked small cases for the rank tests, estimators, PRNG, bootstrap and
// p-value adjustment (the scipy cross-checks live in tests/python/test_compare.py).
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include "benchreport/error.hpp"
#include "benchreport/inference.hpp"

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
  for (double a : x) for (double b : y) all.push_back(b - a);
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

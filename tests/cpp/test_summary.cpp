// Hand-checked summary statistics (every expected value worked out on paper).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "benchreport/stats/grouped.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/stats/selection_network.hpp"
#include "stats/small_sort.hpp"
#include "benchreport/stats/summary.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {
const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Bitwise-equal results, where NaN (an unavailable statistic) equals NaN.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(3.0, 0.5);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}
}  // namespace

TEST_CASE("summary of [100, 2, 3, 4, 1]", "[summary]") {
  const std::vector<double> x{100, 2, 3, 4, 1};
  const Summary s = summarize(x);
  CHECK(s.n == 5);
  CHECK(s.n_omitted == 0);
  CHECK(s.min == 1.0);
  CHECK(s.max == 100.0);
  CHECK(s.median == 3.0);
  CHECK(s.mad == 1.0);  // |x - 3| = 97, 1, 0, 1, 2 -> median 1
  CHECK(s.mean == 22.0);
  // squared deviations from 22: 6084 + 400 + 361 + 324 + 441 = 7610
  CHECK(s.std_population == Approx(std::sqrt(7610.0 / 5.0)).epsilon(1e-15));
  CHECK(s.std_sample == Approx(std::sqrt(7610.0 / 4.0)).epsilon(1e-15));
  CHECK(s.cv == Approx(std::sqrt(7610.0 / 5.0) / 22.0).epsilon(1e-15));
  CHECK(s.iqr == 2.0);  // type 7: q1 = x(1) = 2, q3 = x(3) = 4
  CHECK(s.mad_over_median_pct == Approx(100.0 / 3.0).epsilon(1e-15));
  CHECK(s.robust_cv == Approx(kMadNormalScale / 3.0).epsilon(1e-15));
  // fences: mild [-1, 7], severe [-4, 10]: 100 is a severe outlier; 97 / 1 > 14.826
  CHECK(s.outliers.tukey_mild == 0);
  CHECK(s.outliers.tukey_severe == 1);
  CHECK(s.outliers.modified_z == 1);
  // default quantiles 5/25/75/95 %: h = 4p -> 0.2, 1, 3, 3.8
  REQUIRE(s.quantiles.size() == 4);
  CHECK(s.quantiles[0] == Approx(1.2).epsilon(1e-15));
  CHECK(s.quantiles[1] == 2.0);
  CHECK(s.quantiles[2] == 4.0);
  CHECK(s.quantiles[3] == Approx(4.0 + 0.8 * 96.0).epsilon(1e-15));
}

TEST_CASE("median and MAD of even n", "[summary]") {
  const Summary s = summarize(std::vector<double>{1, 2, 3, 4});
  CHECK(s.median == 2.5);
  CHECK(s.mad == 1.0);  // |x - 2.5| = 1.5, 0.5, 0.5, 1.5
  SummaryOptions normal;
  normal.mad_scale = MadScale::normal;
  CHECK(summarize(std::vector<double>{1, 2, 3, 4}, normal).mad == kMadNormalScale);
}

TEST_CASE("a single sample", "[summary]") {
  const Summary s = summarize(std::vector<double>{7});
  CHECK(s.n == 1);
  CHECK(s.median == 7.0);
  CHECK(s.mad == 0.0);
  CHECK(s.std_population == 0.0);
  CHECK(std::isnan(s.std_sample));
  for (double q : s.quantiles) CHECK(q == 7.0);
  CHECK_FALSE(s.median_ci.availability.ok);
  CHECK_THAT(s.median_ci.availability.reason, Contains("n = 1"));
  CHECK_FALSE(s.drift.change_availability.ok);
  CHECK_FALSE(s.drift.theil_sen_availability.ok);
  CHECK_FALSE(s.drift.mann_kendall_availability.ok);
  CHECK(s.outliers.modified_z == 0);
}

TEST_CASE("all-equal samples", "[summary]") {
  const std::vector<double> x(10, 5.0);
  const Summary s = summarize(x);
  CHECK(s.median == 5.0);
  CHECK(s.mad == 0.0);
  CHECK(s.cv == 0.0);
  CHECK(s.iqr == 0.0);
  CHECK(s.drift.change == 0.0);
  CHECK(s.drift.theil_sen_slope == 0.0);
  CHECK_FALSE(s.drift.mann_kendall_availability.ok);
  CHECK_THAT(s.drift.mann_kendall_availability.reason, Contains("equal"));
  CHECK(s.outliers.modified_z == 0);  // 0 / 0 is not an outlier
  CHECK(s.outliers.tukey_mild + s.outliers.tukey_severe == 0);
}

TEST_CASE("MAD = 0 makes every value off the median a modified-z outlier", "[summary]") {
  const Summary s = summarize(std::vector<double>{5, 5, 5, 5, 6});
  CHECK(s.mad == 0.0);
  CHECK(s.outliers.modified_z == 1);
}

TEST_CASE("Hyndman–Fan types on [1, 2, 3, 4]", "[summary]") {
  const std::vector<double> x{4, 3, 2, 1};
  using M = QuantileMethod;
  // p = 0.5: h (0-based) per type, worked out from the definitions
  CHECK(quantile(x, 0.5, M::inverted_cdf) == 2.0);               // h = 1, integer: x(1)
  CHECK(quantile(x, 0.5, M::averaged_inverted_cdf) == 2.5);      // average of x(1), x(2)
  CHECK(quantile(x, 0.5, M::closest_observation) == 2.0);        // h = 0.5 -> next: x(1)
  CHECK(quantile(x, 0.5, M::interpolated_inverted_cdf) == 2.0);  // h = 2 - 1 = 1
  CHECK(quantile(x, 0.5, M::hazen) == 2.5);                      // h = 1.5
  CHECK(quantile(x, 0.5, M::weibull) == 2.5);
  CHECK(quantile(x, 0.5, M::linear) == 2.5);
  CHECK(quantile(x, 0.3, M::weibull) == Approx(1.5).epsilon(1e-15));  // h = 1.2 + 0.3 - 1
  CHECK(quantile(x, 0.3, M::median_unbiased) == Approx(1.0 + (1.2 + 0.3 / 3.0 + 1.0 / 3.0 - 1.0)).epsilon(1e-14));
  CHECK(quantile(x, 0.1, M::inverted_cdf) == 1.0);  // h = -0.6 -> clipped to x(0)
  CHECK(quantile(x, 0.1, M::interpolated_inverted_cdf) == 1.0);
  CHECK(quantile(x, 0.0, M::linear) == 1.0);
  CHECK(quantile(x, 1.0, M::linear) == 4.0);
  CHECK(quantile(x, 1.0, M::inverted_cdf) == 4.0);
}

TEST_CASE("Harrell–Davis of a small sample", "[summary]") {
  // n = 2, p = 0.5: a = b = 1.5, weights I_{1/2}(1.5, 1.5) = 0.5 each by symmetry
  CHECK(quantile(std::vector<double>{1, 3}, 0.5, QuantileMethod::harrell_davis) == Approx(2.0).epsilon(1e-14));
  CHECK(quantile(std::vector<double>{5}, 0.3, QuantileMethod::harrell_davis) == 5.0);
  CHECK(quantile(std::vector<double>{1, 3, 9}, 0.0, QuantileMethod::harrell_davis) == 1.0);
  CHECK(quantile(std::vector<double>{1, 3, 9}, 1.0, QuantileMethod::harrell_davis) == 9.0);
}

TEST_CASE("median CI order statistics and achieved confidence", "[summary]") {
  // n = 5: [min, max] covers with 1 - 2/32 = 0.9375 < 0.95
  const MedianCI five = median_ci(std::vector<double>{5, 4, 3, 2, 1}, 0.95);
  CHECK_FALSE(five.availability.ok);
  CHECK(five.achieved == 0.9375);
  CHECK_THAT(five.availability.reason, Contains("93.8%"));
  // n = 6: l = 1 gives 1 - 2/64 = 0.96875
  const MedianCI six = median_ci(std::vector<double>{6, 5, 4, 3, 2, 1}, 0.95);
  CHECK(six.availability.ok);
  CHECK(six.lower == 1.0);
  CHECK(six.upper == 6.0);
  CHECK(six.achieved == 0.96875);
  // n = 10: l = 2 gives 1 - 2 * 11/1024; l = 3 would give 1 - 2 * 56/1024 = 0.89
  const MedianCI ten = median_ci(std::vector<double>{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 0.95);
  CHECK(ten.lower_rank == 2);
  CHECK(ten.upper_rank == 9);
  CHECK(ten.lower == 2.0);
  CHECK(ten.upper == 9.0);
  CHECK(ten.achieved == Approx(1.0 - 22.0 / 1024.0).epsilon(1e-14));
}

TEST_CASE("drift of the end medians", "[summary]") {
  const std::vector<double> x{10, 10, 10, 10, 10, 11, 11, 11, 11, 11};
  const Drift d = drift(x);
  CHECK(d.change_availability.ok);
  CHECK(d.change == Approx(0.1).epsilon(1e-14));
  const Drift short_run = drift(std::vector<double>(9, 1.0));
  CHECK_FALSE(short_run.change_availability.ok);
  CHECK_THAT(short_run.change_availability.reason, Contains("2k = 10"));
  const Drift zero_base = drift(std::vector<double>{0, 0, 1, 1}, DriftOptions{2, 100});
  CHECK_FALSE(zero_base.change_availability.ok);
  CHECK_THAT(zero_base.change_availability.reason, Contains("positive baseline"));
}

TEST_CASE("Theil–Sen slope and Mann–Kendall with ties", "[summary]") {
  // slopes of [1, 3, 2, 5]: 2, 0.5, 4/3, -1, 1, 3 -> median (1 + 4/3) / 2
  const Drift d = drift(std::vector<double>{1, 3, 2, 5});
  CHECK(d.theil_sen_slope == Approx((1.0 + 4.0 / 3.0) / 2.0).epsilon(1e-15));
  CHECK(d.theil_sen_relative == Approx(d.theil_sen_slope / 2.5).epsilon(1e-15));
  // [1, 2, 2, 3]: 5 concordant pairs, 1 tie -> S = 5; var = (4·3·13 - 2·1·9) / 18
  const Drift t = drift(std::vector<double>{1, 2, 2, 3});
  CHECK(t.mann_kendall_s == 5.0);
  CHECK(t.mann_kendall_z == Approx(5.0 / std::sqrt(138.0 / 18.0)).epsilon(1e-15));
  CHECK(t.kendall_tau == Approx(5.0 / std::sqrt(30.0)).epsilon(1e-15));
  CHECK(t.mann_kendall_p == Approx(std::erfc(t.mann_kendall_z / std::sqrt(2.0))).epsilon(1e-15));
  // strictly decreasing: S = -n(n-1)/2
  CHECK(drift(std::vector<double>{5, 4, 3, 2, 1}).mann_kendall_s == -10.0);
  const Drift big = drift(std::vector<double>(20, 1.0), DriftOptions{5, 10});
  CHECK_FALSE(big.theil_sen_availability.ok);
  CHECK_THAT(big.theil_sen_availability.reason, Contains("n = 20 > 10"));
}

TEST_CASE("select_many places every requested order statistic", "[summary]") {
  std::vector<double> v = random_values(101, 7);
  std::vector<double> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  const std::vector<std::size_t> ranks{0, 1, 49, 50, 51, 99, 100};
  select_many(v, ranks);
  for (std::size_t k : ranks) CHECK(v[k] == sorted[k]);
}

TEST_CASE("non-finite values: raise names the index, omit counts them", "[summary]") {
  const std::vector<double> x{1, 2, kNan, 4, kInf};
  CHECK_THROWS_WITH(summarize(x), Contains("sample set: value at index 2 is nan"));
  SummaryOptions omit;
  omit.nan_policy = NanPolicy::omit;
  const Summary s = summarize(x, omit);
  CHECK(s.n == 3);
  CHECK(s.n_omitted == 2);
  CHECK(s.median == 2.0);
  CHECK_THROWS_WITH(summarize(std::vector<double>{kNan, -kInf}, omit), Contains("no finite values"));
  CHECK_THROWS_WITH(summarize(std::vector<double>{}), Contains("sample set is empty"));
  CHECK_THROWS_WITH(quantile(std::vector<double>{1, -kInf}, 0.5), Contains("index 1 is -inf"));
}

TEST_CASE("bad options are input errors", "[summary]") {
  const std::vector<double> x{1, 2, 3};
  SummaryOptions o;
  o.quantiles = {0.5, 1.5};
  CHECK_THROWS_AS(summarize(x, o), InputError);
  CHECK_THROWS_WITH(summarize(x, o), Contains("#1 is 1.5"));
  o = {};
  o.ddof = 2;
  CHECK_THROWS_WITH(summarize(x, o), Contains("ddof is 2"));
  o = {};
  o.drift_k = 0;
  CHECK_THROWS_WITH(summarize(x, o), Contains("k is 0"));
  o = {};
  o.confidence = 1.0;
  CHECK_THROWS_WITH(summarize(x, o), Contains("confidence is 1"));
  CHECK_THROWS_WITH(parse_quantile_method("median"), Contains("unknown quantile method 'median'"));
  CHECK_THROWS_WITH(parse_stat("p95", StatSet{}), Contains("unknown statistic 'p95'"));
  CHECK(parse_quantile_method("harrell_davis") == QuantileMethod::harrell_davis);
}

TEST_CASE("requested statistics only", "[summary]") {
  SummaryOptions o;
  o.stats = StatSet{}.with(Stat::mad);
  const Summary s = summarize(std::vector<double>{100, 2, 3, 4, 1}, o);
  CHECK(s.mad == 1.0);
  CHECK(std::isnan(s.median));  // computed internally, not reported
  CHECK(std::isnan(s.mean));
  CHECK(std::isnan(s.quantiles[0]));
  CHECK(s.min == 1.0);
}

TEST_CASE("grouped summary equals per-set summaries for any thread count", "[summary]") {
  std::vector<double> values;
  std::vector<std::int64_t> offsets{0};
  for (unsigned set = 0; set < 700; ++set) {
    const auto part = random_values(1 + set % 37, set);
    values.insert(values.end(), part.begin(), part.end());
    offsets.push_back(static_cast<std::int64_t>(values.size()));
  }
  SummaryOptions o;
  const GroupedSummary one = summarize_grouped(values, offsets, o, 1);
  const GroupedSummary three = summarize_grouped(values, offsets, o, 3);
  for (std::size_t i = 0; i < 700; ++i) {
    const auto first = static_cast<std::size_t>(offsets[i]);
    const Summary s =
        summarize(std::span<const double>(values).subspan(first, static_cast<std::size_t>(offsets[i + 1]) - first), o);
    REQUIRE(one.median[i] == s.median);
    REQUIRE(three.median[i] == s.median);
    REQUIRE(three.mad[i] == s.mad);
    REQUIRE(three.quantiles[i * 4 + 3] == s.quantiles[3]);
    REQUIRE(three.cv[i] == s.cv);
    REQUIRE(three.drift_ok[i] == s.drift.change_availability.ok);
    REQUIRE(three.drift_reason[i] == (s.drift.change_availability.ok ? "" : s.drift.change_availability.reason));
    REQUIRE(same(three.mann_kendall_p[i], one.mann_kendall_p[i]));
    REQUIRE(same(three.mann_kendall_p[i], s.drift.mann_kendall_p));
    REQUIRE(same(three.theil_sen_slope[i], s.drift.theil_sen_slope));
    REQUIRE(same(three.ci_lower[i], s.median_ci.lower));
  }
}

TEST_CASE("grouped errors name the first bad set", "[summary]") {
  const std::vector<double> values{1, 2, 3, kNan, 5, 6};
  CHECK_THROWS_WITH(summarize_grouped(values, std::vector<std::int64_t>{0, 2, 4, 6}, {}, 2),
                    Contains("set 1: value at index 1 is nan"));
  CHECK_THROWS_WITH(summarize_grouped(values, std::vector<std::int64_t>{0, 3, 3, 6}, {}, 1),
                    Contains("set 1 is empty"));
  CHECK_THROWS_WITH(summarize_grouped(values, std::vector<std::int64_t>{}, {}, 1), Contains("offsets is empty"));
  CHECK_THROWS_WITH(summarize_grouped(values, std::vector<std::int64_t>{1, 6}, {}, 1), Contains("offsets[0] is 1"));
  CHECK_THROWS_WITH(summarize_grouped(values, std::vector<std::int64_t>{0, 4, 3, 6}, {}, 1),
                    Contains("must not decrease"));
  CHECK_THROWS_WITH(summarize_grouped(values, std::vector<std::int64_t>{0, 5}, {}, 1), Contains("6 values"));
  // many bad sets spread over threads: always the lowest is reported
  std::vector<double> many(5000, 1.0);
  for (std::size_t i = 1000; i < many.size(); i += 7) many[i] = kNan;
  std::vector<std::int64_t> offs;
  for (std::int64_t i = 0; i <= 5000; i += 5) offs.push_back(i);
  for (unsigned threads : {1u, 2u, 4u}) {
    CHECK_THROWS_WITH(summarize_grouped(many, offs, {}, threads), Contains("set 200: value at index 0"));
  }
}

TEST_CASE("a changed confidence is not served from the cached median-CI plan", "[summary]") {
  const std::vector<double> x{10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  SummaryOptions o;
  o.confidence = 0.95;
  CHECK(summarize(x, o).median_ci.lower_rank == 2);
  o.confidence = 0.5;  // 1 - 2 P(B <= 3) = 0.656 >= 0.5, l = 5 would give 0.246
  const Summary s = summarize(x, o);
  CHECK(s.median_ci.lower_rank == 4);
  CHECK(s.median_ci.achieved == Approx(1.0 - 2.0 * 176.0 / 1024.0).epsilon(1e-14));
}

TEST_CASE("selection agrees with sorting on random, tied and adversarial data", "[summary]") {
  std::mt19937_64 rng(3);
  for (std::size_t n : {1u, 2u, 3u, 16u, 17u, 50u, 51u, 257u, 4000u}) {
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<double> v(n);
      for (std::size_t i = 0; i < n; ++i) {
        switch (kind) {
          case 0: v[i] = std::uniform_real_distribution<double>(0, 1)(rng); break;
          case 1: v[i] = static_cast<double>(rng() % 3); break;   // heavy ties
          case 2: v[i] = static_cast<double>(i); break;           // sorted
          default: v[i] = static_cast<double>(n - i % 7); break;  // organ-pipe-ish
        }
      }
      std::vector<double> sorted = v;
      std::sort(sorted.begin(), sorted.end());
      for (std::size_t k : {std::size_t{0}, n / 3, n / 2, n - 1}) {
        std::vector<double> w = v;
        REQUIRE(select_kth(w, k) == sorted[k]);
        for (std::size_t i = 0; i < k; ++i) REQUIRE(w[i] <= w[k]);
        for (std::size_t i = k + 1; i < n; ++i) REQUIRE(w[i] >= w[k]);
      }
    }
  }
  std::vector<double> equal(10000, 2.0);
  CHECK(median_inplace(equal) == 2.0);
}

TEST_CASE("selection networks select every requested rank", "[summary]") {
  std::mt19937_64 rng(11);
  for (std::size_t n = 2; n <= kNetworkMaxN; ++n) {
    const std::vector<std::size_t> ranks{0, (n - 1) / 2, n / 2, n - 1};
    std::vector<std::size_t> unique_ranks = ranks;
    unique_ranks.erase(std::unique(unique_ranks.begin(), unique_ranks.end()), unique_ranks.end());
    const auto network = selection_network(n, unique_ranks);
    std::vector<double> x(n * kNetworkLanes);
    for (double& v : x) v = static_cast<double>(rng() % 20);  // ties included
    std::vector<std::vector<double>> sorted(kNetworkLanes);
    for (std::size_t l = 0; l < kNetworkLanes; ++l) {
      for (std::size_t w = 0; w < n; ++w) sorted[l].push_back(x[w * kNetworkLanes + l]);
      std::sort(sorted[l].begin(), sorted[l].end());
    }
    apply_network(network, x.data());
    for (std::size_t l = 0; l < kNetworkLanes; ++l) {
      for (std::size_t r : unique_ranks) REQUIRE(x[r * kNetworkLanes + l] == sorted[l][r]);
    }
  }
}

TEST_CASE("grouped network blocks equal per-set summaries", "[summary]") {
  // Equal-sized sets form blocks of kNetworkLanes; one bad-sized set and one
  // NaN under omit break blocks so both paths meet in one call.
  for (std::size_t n : {2u, 5u, 20u, 50u, 64u, 65u}) {
    std::vector<double> values;
    std::vector<std::int64_t> offsets{0};
    for (unsigned set = 0; set < 40; ++set) {
      auto part = random_values(set == 17 ? n + 1 : n, set * 31 + static_cast<unsigned>(n));
      if (set == 29) part[0] = kNan;
      if (set % 5 == 0)
        for (double& v : part) v = std::round(v / 10.0);  // ties
      values.insert(values.end(), part.begin(), part.end());
      offsets.push_back(static_cast<std::int64_t>(values.size()));
    }
    SummaryOptions o;
    o.nan_policy = NanPolicy::omit;
    o.quantiles = {0.0, 0.05, 0.5, 0.95, 1.0};
    for (auto method : {QuantileMethod::linear, QuantileMethod::inverted_cdf, QuantileMethod::hazen}) {
      o.method = method;
      const GroupedSummary g = summarize_grouped(values, offsets, o, 1);
      for (std::size_t i = 0; i < 40; ++i) {
        const auto first = static_cast<std::size_t>(offsets[i]);
        const Summary s = summarize(
            std::span<const double>(values).subspan(first, static_cast<std::size_t>(offsets[i + 1]) - first), o);
        REQUIRE(g.median[i] == s.median);
        REQUIRE(g.mad[i] == s.mad);
        REQUIRE(g.iqr[i] == s.iqr);
        for (std::size_t q = 0; q < 5; ++q) REQUIRE(g.quantiles[i * 5 + q] == s.quantiles[q]);
        REQUIRE(same(g.ci_lower[i], s.median_ci.lower));
        REQUIRE(same(g.ci_upper[i], s.median_ci.upper));
        REQUIRE(g.tukey_mild[i] == static_cast<std::int64_t>(s.outliers.tukey_mild));
        REQUIRE(g.tukey_severe[i] == static_cast<std::int64_t>(s.outliers.tukey_severe));
        REQUIRE(g.modified_z[i] == static_cast<std::int64_t>(s.outliers.modified_z));
        REQUIRE(same(g.drift[i], s.drift.change));
        REQUIRE(same(g.theil_sen_relative[i], s.drift.theil_sen_relative));
        REQUIRE(g.n_omitted[i] == static_cast<std::int64_t>(s.n_omitted));
        REQUIRE(same(g.cv[i], s.cv));
      }
    }
  }
}

TEST_CASE("sorting networks sort every lane, ties included", "[summary]") {
  std::mt19937_64 rng(5);
  for (std::size_t n = 1; n <= kNetworkMaxN; ++n) {
    std::vector<double> x(n * kNetworkLanes);
    for (double& v : x) v = static_cast<double>(rng() % 7) - 3.0;
    std::vector<std::vector<double>> expected(kNetworkLanes);
    for (std::size_t l = 0; l < kNetworkLanes; ++l) {
      for (std::size_t w = 0; w < n; ++w) expected[l].push_back(x[w * kNetworkLanes + l]);
      std::sort(expected[l].begin(), expected[l].end());
    }
    apply_network(sorting_network(n), x.data());
    for (std::size_t l = 0; l < kNetworkLanes; ++l) {
      for (std::size_t w = 0; w < n; ++w) REQUIRE(x[w * kNetworkLanes + l] == expected[l][w]);
    }
  }
}

TEST_CASE("MAD of sorted lanes equals mad_inplace", "[summary]") {
  std::mt19937_64 rng(9);
  for (std::size_t n = 1; n <= kNetworkMaxN; ++n) {
    for (bool ties : {false, true}) {
      std::vector<double> lanes(n * kNetworkLanes), deviations(n * kNetworkLanes);
      std::vector<std::vector<double>> sets(kNetworkLanes);
      for (std::size_t l = 0; l < kNetworkLanes; ++l) {
        sets[l] = random_values(n, static_cast<unsigned>(rng()));
        if (ties)
          for (double& v : sets[l]) v = std::round(v / 8.0);
        std::sort(sets[l].begin(), sets[l].end());
        for (std::size_t w = 0; w < n; ++w) lanes[w * kNetworkLanes + l] = sets[l][w];
      }
      const LaneValues medians = median_of_sorted_lanes(lanes.data(), n);
      const LaneValues mads = mad_of_sorted_lanes(lanes.data(), n, medians, deviations.data());
      for (std::size_t l = 0; l < kNetworkLanes; ++l) {
        std::vector<double> work = sets[l];
        REQUIRE(medians[l] == median(sets[l]));
        REQUIRE(mads[l] == mad_inplace(work, medians[l]));
      }
    }
  }
}

TEST_CASE("hand-checked MAD of sorted lanes", "[summary]") {
  // Lane 0: [1, 2, 3, 4, 100] -> median 3, |x - 3| = 2, 1, 0, 1, 97 -> MAD 1.
  // Lane 1: [-2, -1, 0, 0, 5] -> median 0, deviations 2, 1, 0, 0, 5 -> MAD 1.
  // Other lanes: all 7 -> MAD 0 (and +0.0, not -0.0).
  const std::vector<std::vector<double>> rows{{1, 2, 3, 4, 100}, {-2, -1, 0, 0, 5}};
  std::vector<double> lanes(5 * kNetworkLanes, 7.0), deviations(5 * kNetworkLanes);
  for (std::size_t l = 0; l < rows.size(); ++l) {
    for (std::size_t w = 0; w < 5; ++w) lanes[w * kNetworkLanes + l] = rows[l][w];
  }
  const LaneValues medians = median_of_sorted_lanes(lanes.data(), 5);
  const LaneValues mads = mad_of_sorted_lanes(lanes.data(), 5, medians, deviations.data());
  CHECK(medians[0] == 3.0);
  CHECK(mads[0] == 1.0);
  CHECK(medians[1] == 0.0);
  CHECK(mads[1] == 1.0);
  CHECK(mads[2] == 0.0);
  CHECK_FALSE(std::signbit(mads[2]));
}

TEST_CASE("sorted blocks (stats subset) equal per-set summaries for 1 and 2 threads", "[summary]") {
  // Random, tied, negative-baseline, signed-zero, NaN (omitted) and odd-sized
  // sets mixed in one call, so blocks, the drift fallback and the per-set path meet.
  SummaryOptions o;
  for (const char* name : {"median", "mad", "cv", "quantiles", "iqr", "drift"}) o.stats = parse_stat(name, o.stats);
  o.nan_policy = NanPolicy::omit;
  o.quantiles = {0.0, 0.05, 0.5, 0.95, 1.0};
  for (std::size_t n : {2u, 3u, 4u, 9u, 10u, 11u, 20u, 49u, 50u, 63u, 64u, 65u}) {
    std::vector<double> values;
    std::vector<std::int64_t> offsets{0};
    for (unsigned set = 0; set < 48; ++set) {
      auto part = random_values(set == 17 ? n + 1 : n, set * 131 + static_cast<unsigned>(n));
      if (set == 29) part[n / 2] = kNan;
      if (set % 4 == 1)
        for (double& v : part) v = std::round(v / 10.0);  // ties
      if (set % 8 == 2)
        for (double& v : part) v -= 25.0;  // baseline <= 0 for some
      if (set % 8 == 3)
        for (std::size_t w = 0; w < n; ++w) part[w] = w % 4 == 0 ? -0.0 : (w % 4 == 1 ? 0.0 : 1.0);
      values.insert(values.end(), part.begin(), part.end());
      offsets.push_back(static_cast<std::int64_t>(values.size()));
    }
    for (auto method : {QuantileMethod::linear, QuantileMethod::inverted_cdf, QuantileMethod::hazen,
                        QuantileMethod::median_unbiased}) {
      o.method = method;
      o.ddof = method == QuantileMethod::hazen ? 1 : 0;
      o.mad_scale = method == QuantileMethod::linear ? MadScale::normal : MadScale::raw;
      const GroupedSummary one = summarize_grouped(values, offsets, o, 1);
      const GroupedSummary two = summarize_grouped(values, offsets, o, 2);
      for (std::size_t i = 0; i < 48; ++i) {
        const auto first = static_cast<std::size_t>(offsets[i]);
        const Summary s = summarize(
            std::span<const double>(values).subspan(first, static_cast<std::size_t>(offsets[i + 1]) - first), o);
        for (const GroupedSummary* g : {&one, &two}) {
          REQUIRE(g->n[i] == static_cast<std::int64_t>(s.n));
          REQUIRE(g->n_omitted[i] == static_cast<std::int64_t>(s.n_omitted));
          REQUIRE(g->min[i] == s.min);
          REQUIRE(g->max[i] == s.max);
          REQUIRE(g->mean[i] == s.mean);
          REQUIRE(same(g->std_population[i], s.std_population));
          REQUIRE(same(g->std_sample[i], s.std_sample));
          REQUIRE(same(g->cv[i], s.cv));
          REQUIRE(g->median[i] == s.median);
          for (std::size_t q = 0; q < 5; ++q) REQUIRE(g->quantiles[i * 5 + q] == s.quantiles[q]);
          REQUIRE(g->iqr[i] == s.iqr);
          REQUIRE(g->mad[i] == s.mad);
          REQUIRE(same(g->mad_over_median_pct[i], s.mad_over_median_pct));
          REQUIRE(same(g->robust_cv[i], s.robust_cv));
          REQUIRE(same(g->drift[i], s.drift.change));
          REQUIRE(g->drift_ok[i] == s.drift.change_availability.ok);
          REQUIRE(g->drift_reason[i] == (s.drift.change_availability.ok ? "" : s.drift.change_availability.reason));
        }
      }
    }
  }
}

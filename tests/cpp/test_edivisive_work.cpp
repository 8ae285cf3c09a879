// E-divisive's permutation work: counted, capped by max_permutation_pairs, and
// the cap changes nothing for a series whose tests fit under it (issue 33).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/core/rng.hpp"
#include "benchreport/stats/edivisive.hpp"

using namespace benchreport;

namespace {

// About standard normal: the sum of 12 uniforms, less 6.
double gauss(Xoshiro256& rng) {
  double u = 0;
  for (int k = 0; k < 12; ++k) u += rng.unit();
  return u - 6;
}

// Level 100, times 1.2 on every other block of `block` points (a square wave:
// the bisection peels one block at a time off the long segment), 1 % noise.
std::vector<double> square_wave(std::uint64_t seed, std::size_t n, std::size_t block) {
  Xoshiro256 rng(seed);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = ((i / block) % 2 == 1 ? 120.0 : 100.0) * (1 + 0.01 * gauss(rng));
  return x;
}

// Noise with a few shifts at random places and of random sizes.
std::vector<double> random_steps(std::uint64_t seed, std::size_t n) {
  Xoshiro256 rng(seed);
  double level = 50;
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (rng.unit() < 0.02) level *= 1 + 0.1 * gauss(rng);
    x[i] = level * (1 + 0.02 * gauss(rng));
  }
  return x;
}

void check_same(const std::vector<EDivisiveSplit>& a, const std::vector<EDivisiveSplit>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].index == b[i].index);
    CHECK(a[i].q == b[i].q);
    CHECK(a[i].p_value == b[i].p_value);
    CHECK(a[i].permuted == b[i].permuted);
  }
}

}  // namespace

TEST_CASE("e_divisive work: below the budget the splits are those of unlimited permutations, bit for bit",
          "[history][edivisive]") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto x = random_steps(seed, 240);
    for (const double screen : {0.0, 5e-4}) {
      EDivisiveOptions unlimited{.seed = seed, .screen_p_value = screen};
      unlimited.max_permutation_pairs = INFINITY;
      EDivisiveWork work;
      const auto capped = e_divisive(x, {.seed = seed, .screen_p_value = screen}, 7, &work);
      CHECK(work.tests_over_budget == 0);
      CHECK(work.permutation_pairs <= EDivisiveOptions{}.max_permutation_pairs);
      check_same(capped, e_divisive(x, unlimited, 7));
    }
  }
}

TEST_CASE("e_divisive work: a peeled series 4x longer spends at most 6x the permutation pairs under a budget",
          "[history][edivisive]") {
  EDivisiveOptions o{.seed = 5, .screen_p_value = 0};
  o.max_permutation_pairs = INFINITY;
  EDivisiveWork small, unlimited, capped;
  const auto short_splits = e_divisive(square_wave(3, 200, 25), o, 0, &small);
  REQUIRE(short_splits.size() == 7);
  for (const auto& s : short_splits) CHECK(s.permuted);
  const auto x = square_wave(3, 800, 25);
  const auto exact = e_divisive(x, o, 0, &unlimited);
  // Without a cap the tests of the segments peeled one block at a time cost
  // permutations * sum(length^2 / 2): cubic, far more than 16x.
  CHECK(unlimited.permutation_pairs > 30 * small.permutation_pairs);
  o.max_permutation_pairs = 4 * small.permutation_pairs;
  const auto splits = e_divisive(x, o, 0, &capped);
  CHECK(capped.tests_over_budget > 0);
  CHECK(capped.permutation_pairs <= o.max_permutation_pairs);
  CHECK(capped.permutation_pairs <= 6 * small.permutation_pairs);
  // Every planted step is still found; tests past the budget are Welch-screened.
  REQUIRE(splits.size() == 31);
  REQUIRE(exact.size() == 31);
  std::size_t screened = 0;
  for (std::size_t i = 0; i < splits.size(); ++i) {
    CHECK(splits[i].index == 25 * (i + 1));
    CHECK(splits[i].index == exact[i].index);
    if (!splits[i].permuted) {
      ++screened;
      CHECK(splits[i].p_value <= o.max_p_value);
    }
  }
  CHECK(screened > 0);
}

TEST_CASE("e_divisive work: a negative or NaN budget is an InputError", "[history][edivisive]") {
  EDivisiveOptions o;
  o.max_permutation_pairs = -1;
  CHECK_THROWS_AS(e_divisive(std::vector<double>{1, 2, 3, 4}, o), InputError);
  o.max_permutation_pairs = NAN;
  CHECK_THROWS_AS(e_divisive(std::vector<double>{1, 2, 3, 4}, o), InputError);
}

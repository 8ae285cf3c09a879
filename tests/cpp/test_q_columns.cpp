// The float scan's bounds of a permutation's best q against the double scan
// they stand in for: on noise, steps, ties, values far from zero and at
// extreme scales, for every vector width this machine runs, the double scan's
// q lies within the bounds, and a stop_at decision the bounds make is the one
// the double scan makes.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "benchreport/core/rng.hpp"
#include "stats/q_columns.hpp"

using namespace benchreport;

namespace {

struct Shape {
  std::string name;
  std::function<double(Xoshiro256&, std::size_t i, std::size_t n)> value;
};

double normal(Xoshiro256& rng) {  // Box-Muller; only the shape of the data matters here
  const double u = 1.0 - rng.unit(), v = rng.unit();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
}

std::vector<Shape> shapes() {
  return {
      {"noise", [](Xoshiro256& r, std::size_t, std::size_t) { return normal(r); }},
      {"step", [](Xoshiro256& r, std::size_t i, std::size_t n) { return normal(r) + (2 * i >= n ? 3.0 : 0.0); }},
      {"ties", [](Xoshiro256& r, std::size_t, std::size_t) { return std::round(4 * normal(r)); }},
      {"far from zero", [](Xoshiro256& r, std::size_t, std::size_t) { return 1e6 + 1e-3 * normal(r); }},
      {"tiny", [](Xoshiro256& r, std::size_t, std::size_t) { return 1e-25 * normal(r); }},
      {"huge", [](Xoshiro256& r, std::size_t, std::size_t) { return 1e25 * normal(r); }},
      {"outlier", [](Xoshiro256& r, std::size_t i, std::size_t) { return normal(r) + (i == 3 ? 1e4 : 0.0); }},
      {"ramp",
       [](Xoshiro256& r, std::size_t i, std::size_t) { return 0.05 * static_cast<double>(i) + 0.01 * normal(r); }},
  };
}

// The double scan's best q of v (no stop, no split index).
double exact_q(q_columns::ExactScan scan, const std::vector<double>& v, std::size_t min_segment, bool pairs) {
  const std::size_t n = v.size();
  std::vector<double> tail(n + 1, 0.0), left(n), inv(n + 1, 0.0);
  for (std::size_t k = (pairs ? 2 : 1); k <= n; ++k) inv[k] = 1.0 / static_cast<double>(pairs ? k - 1 : k);
  std::vector<double> inv_reversed(n + 1);
  std::reverse_copy(inv.begin(), inv.end(), inv_reversed.begin());
  bool stopped = false;
  return scan({v.data(), n, tail.data(), left.data(), inv.data(), inv_reversed.data(), inv.size(), min_segment, pairs},
              INFINITY, false, &stopped)
      .q;
}

// The float scan's bounds of v * scale's best q, and the scale.
q_columns::Bounds float_bounds(q_columns::BoundScan scan, const std::vector<double>& v, double scale,
                               std::size_t min_segment, bool pairs, double stop_at) {
  const std::size_t n = v.size();
  std::vector<float> x, left(n), inv(n + 1, 0.0f);
  for (const double value : v) x.push_back(static_cast<float>(value * scale));
  std::vector<float> tail(n + 1, 0.0f);
  for (std::size_t k = (pairs ? 2 : 1); k <= n; ++k)
    inv[k] = static_cast<float>(1.0 / static_cast<double>(pairs ? k - 1 : k));
  std::vector<float> inv_reversed(n + 1);
  std::reverse_copy(inv.begin(), inv.end(), inv_reversed.begin());
  const auto terms = q_columns::bound_terms(n, pairs);
  return scan({x.data(), n, tail.data(), left.data(), inv.data(), inv_reversed.data(), inv.size(), min_segment, pairs},
              terms.data(), stop_at);
}

}  // namespace

TEST_CASE("q_columns: the float bounds hold the double scan's q and make its stop decisions", "[history][q_columns]") {
  // This process's scans: AVX2 where the processor has it; ctest runs this
  // case again with BENCHREPORT_SIMD=baseline for the narrow ones.
  {
    const auto exact = q_columns::exact_scan_of_this_machine();
    const auto bound = q_columns::bound_scan_of_this_machine();
    Xoshiro256 rng(20261205);
    std::size_t settled = 0, decisions = 0;
    for (const Shape& shape : shapes()) {
      for (const std::size_t n : {4, 5, 8, 9, 15, 16, 17, 33, 64, 101, 200}) {
        for (const bool pairs : {true, false}) {
          for (const std::size_t min_segment : {1, 2, 5}) {
            if ((pairs && min_segment < 2) || n < 2 * min_segment) continue;
            std::vector<double> v(n);
            for (std::size_t i = 0; i < n; ++i) v[i] = shape.value(rng, i, n);
            const double scale = q_columns::float_scale(v.data(), n);
            INFO(fmt::format("{} n {} max {}", shape.name, n, *std::max_element(v.begin(), v.end())));
            if (scale == 0) continue;  // all equal: no float bounds (and every q is 0)
            const double q = exact_q(exact, v, min_segment, pairs) * scale;
            INFO(fmt::format("{}, n {}, {}, min_segment {}, scaled q {}", shape.name, n, pairs ? "pairs" : "squares",
                             min_segment, q));
            const auto all = float_bounds(bound, v, scale, min_segment, pairs, INFINITY);
            REQUIRE(all.settled);
            CHECK(all.lower <= q);
            CHECK(q <= all.upper);
            settled += all.upper - all.lower <= 1e-3 * (std::abs(q) + 1e-3);
            for (const double stop : {q * 0.9, q * (1 - 1e-6), q, q * (1 + 1e-6), q * 1.1, q + 0.5, q - 0.5}) {
              const auto b = float_bounds(bound, v, scale, min_segment, pairs, stop);
              if (b.upper == INFINITY) {
                CHECK(q >= stop);
                CHECK(b.lower == stop);
                ++decisions;
              } else if (b.settled) {
                CHECK(q < stop);
                CHECK(b.upper < stop);
                ++decisions;
              }
            }
          }
        }
      }
    }
    // The bounds are useful, not only valid: most scans are pinned down to
    // 0.1 % and most decisions made without the double scan.
    CHECK(settled > 200);
    CHECK(decisions > 1000);
  }
}

TEST_CASE(
    "q_columns: float_scale is the power of two that brings the largest value to at least half and below one, else 0",
    "[history][q_columns]") {
  const std::vector<double> v{-3.0, 0.25, 2.0};
  CHECK(q_columns::float_scale(v.data(), v.size()) == 0.25);
  const std::vector<double> zeros{0.0, 0.0};
  CHECK(q_columns::float_scale(zeros.data(), zeros.size()) == 0.0);
  const std::vector<double> far{1e40, -2.0};
  CHECK(q_columns::float_scale(far.data(), far.size()) == 0.0);
  const std::vector<double> near{1e-40, 0.0};
  CHECK(q_columns::float_scale(near.data(), near.size()) == 0.0);
  const std::vector<double> inf{INFINITY};
  CHECK(q_columns::float_scale(inf.data(), inf.size()) == 0.0);
}

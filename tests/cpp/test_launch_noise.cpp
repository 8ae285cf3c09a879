// Hand-checked edges of the launch-noise estimate (stats/launch_noise.hpp) and its use in
// compare_cases (compare/launch_noise.hpp); the numpy/scipy checks and the simulation live in
// tests/python/test_launch_noise.py.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/stats/launch_noise.hpp"

using namespace benchreport;

namespace {
// Alternating ±s around level: sample variance s^2 R / (R - 1) for even R.
std::vector<StoredRun> alternating(std::size_t runs, double s, double level = 0, const std::string& prefix = "c") {
  std::vector<StoredRun> out;
  for (std::size_t r = 0; r < runs; ++r) out.push_back({prefix + std::to_string(r), {level + (r % 2 ? s : -s)}});
  return out;
}
}  // namespace

TEST_CASE("launch noise: variance of the log locations on runs - 1 df", "[launch_noise]") {
  const auto runs = alternating(20, 0.05);
  const LaunchNoise n = estimate_launch_noise(runs, {.min_runs = 10, .max_runs = 30, .branch = "main"});
  CHECK(n.usable);
  CHECK(n.runs == 20);
  CHECK(n.df == 19);
  CHECK(n.variance == Approx(0.05 * 0.05 * 20 / 19).epsilon(1e-12));
  CHECK(n.since_commit == "c0");
  CHECK(describe_launch_noise(n).rfind("launch noise from 20 runs of main since c0 (sd", 0) == 0);
}

TEST_CASE("launch noise: too few runs, empty and non-finite input", "[launch_noise]") {
  const LaunchNoise few =
      estimate_launch_noise(alternating(6, 0.05), {.min_runs = 10, .max_runs = 30, .branch = "main"});
  CHECK_FALSE(few.usable);
  CHECK(describe_launch_noise(few).find("fewer than 10") != std::string::npos);
  CHECK_FALSE(estimate_launch_noise({}).usable);
  std::vector<StoredRun> bad{{"abc", {}}};
  CHECK_THROWS_AS(estimate_launch_noise(bad), InputError);
  bad = {{"abc", {std::nan("")}}};
  CHECK_THROWS_WITH(estimate_launch_noise(bad), Catch::Contains("commit abc"));
}

TEST_CASE("launch noise: one process per side gets a t interval on the store's variance", "[launch_noise]") {
  std::vector<double> base{1.00, 1.01, 0.99, 1.00, 1.02}, head{1.20, 1.21, 1.19, 1.20, 1.22};
  CaseInput in;
  in.name = "x";
  in.base.processes = {base};
  in.head.processes = {head};
  in.launch_noise = estimate_launch_noise(alternating(30, 0.05));
  CompareOptions o;
  o.moderate = false;
  const auto out = compare_cases(std::span<const CaseInput>(&in, 1), o, 1);
  const CaseComparison& c = out.front();
  CHECK(c.change_interval_method == "store_launch_t");
  CHECK(c.launch_noise_runs == 30);
  CHECK(c.interval_df == 29);
  CHECK(c.verdict == Verdict::slower);
  // The same case without a store: inconclusive, one launch per side.
  in.launch_noise.reset();
  const auto plain = compare_cases(std::span<const CaseInput>(&in, 1), o, 1);
  CHECK(plain.front().verdict_code == VerdictCode::one_launch_per_side);
}

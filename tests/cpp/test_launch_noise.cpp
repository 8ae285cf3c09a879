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

TEST_CASE("launch noise: pooled within-run variance against numpy", "[launch_noise]") {
  // numpy: sum over runs of ((y - y.mean())**2).sum() / sum(len(y) - 1), runs of one process skipped.
  const std::vector<StoredRun> runs{
      {"a", {0.01, 0.03, -0.02}}, {"b", {0.05}}, {"c", {-0.01, 0.02}}, {"d", {0.00, 0.04, 0.01, -0.03}}};
  const WithinRunVariance w = pooled_within_run_variance(runs);
  CHECK(w.variance == Approx(0.0007027777777777779).epsilon(1e-12));
  CHECK(w.df == 6);
  CHECK(w.runs == 3);
  // A level step between runs never enters it: shift run d by 0.5.
  std::vector<StoredRun> stepped = runs;
  for (double& y : stepped[3].log_locations) y += 0.5;
  CHECK(pooled_within_run_variance(stepped).variance == Approx(w.variance).epsilon(1e-12));
  // One process per run: no within-run df, no unshared estimate, and a paired case says why.
  const WithinRunVariance none = pooled_within_run_variance(alternating(12, 0.05));
  CHECK(none.df == 0);
  CHECK(std::isnan(none.variance));
  const LaunchNoise n =
      estimate_launch_noise(alternating(12, 0.05), {.min_runs = 10, .max_runs = 30, .branch = "main"});
  CHECK_FALSE(n.unshared_usable);
  CHECK(describe_launch_noise(n, true).find("0 of these runs have ≥ 2 processes") != std::string::npos);
}

TEST_CASE("launch noise: a paired one-process pair uses the unshared variance", "[launch_noise]") {
  // 12 runs of two processes at level ±0.03 around a run mean that alternates by ±0.05: within-run
  // variance 2 * 0.03^2 / 1 per run.
  std::vector<StoredRun> runs;
  for (std::size_t r = 0; r < 12; ++r) {
    const double m = r % 2 ? 0.05 : -0.05;
    runs.push_back({"c" + std::to_string(r), {m - 0.03, m + 0.03}});
  }
  const LaunchNoise noise = estimate_launch_noise(runs, {.min_runs = 10, .max_runs = 30, .branch = "main"});
  REQUIRE(noise.unshared_usable);
  CHECK(noise.unshared_variance == Approx(2 * 0.03 * 0.03).epsilon(1e-12));
  CHECK(noise.unshared_df == 12);
  CHECK(noise.unshared_runs == 12);
  CHECK(describe_launch_noise(noise, true).rfind("unshared launch noise from 12 runs of main with ≥ 2 processes", 0) ==
        0);
  std::vector<double> base{1.00, 1.01, 0.99, 1.00, 1.02}, head{1.10, 1.11, 1.09, 1.10, 1.12};
  CaseInput in;
  in.name = "x";
  in.base.processes = {base};
  in.head.processes = {head};
  in.pairing = ProcessPairing::paired;
  in.launch_noise = noise;
  CompareOptions o;
  o.moderate = false;
  const CaseComparison paired = compare_cases(std::span<const CaseInput>(&in, 1), o, 1).front();
  CHECK(paired.change_interval_method == "store_paired_launch_t");
  CHECK(paired.interval_df == 12);
  CHECK(paired.launch_noise_sd == Approx(std::sqrt(2 * 0.03 * 0.03)).epsilon(1e-12));
  // se^2 = 2 * unshared variance; scipy: stats.t.ppf(0.975, 12) = 2.1788128296672284.
  const double se = std::sqrt(2 * 2 * 0.03 * 0.03);
  CHECK(std::log1p(paired.change_upper) - std::log1p(paired.change_estimate) ==
        Approx(2.1788128296672284 * se).epsilon(1e-9));
  // Unpaired, the same store gives the whole launch variance (store_launch_t on runs - 1 df).
  in.pairing = ProcessPairing::automatic;
  const CaseComparison unpaired = compare_cases(std::span<const CaseInput>(&in, 1), o, 1).front();
  CHECK(unpaired.change_interval_method == "store_launch_t");
  CHECK(unpaired.interval_df == 11);
}

// The scaling fit through the C++ API (stats/scaling.hpp): fixed-cost models on exact data, the
// lack-of-fit test, and bad options. The statistics are checked against numpy/scipy in
// tests/python/test_scaling.py.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/scaling.hpp"

using benchreport::GrowthModel;
using benchreport::SizeLevel;

namespace {

// Two processes per size at cost(n)·e^(±spread): their geometric mean is cost(n).
std::vector<SizeLevel> levels(const std::vector<double>& sizes, double (*cost)(double), double spread) {
  std::vector<SizeLevel> out;
  for (const double n : sizes) out.push_back({n, {cost(n) * std::exp(spread), cost(n) * std::exp(-spread)}});
  return out;
}

double start_plus_linear(double n) { return 0.5 + 1e-3 * n; }
double start_plus_n_log_n(double n) { return 2.0 + 1e-4 * n * std::log(n); }
double cliff(double n) { return 1e-3 * n * (n > 300 ? 1.6 : 1.0); }

}  // namespace

TEST_CASE("an exact fixed cost plus growth is recovered with its intercept", "[scaling]") {
  const std::vector<double> sizes{10, 30, 100, 300, 1000, 3000, 10000};
  const auto linear = benchreport::fit_scaling(levels(sizes, start_plus_linear, 1e-3));
  CHECK(linear.best == GrowthModel::linear_offset);
  CHECK(linear.best_fit().intercept == Approx(0.5).epsilon(1e-9));
  CHECK(linear.best_fit().coefficient == Approx(1e-3).epsilon(1e-9));
  CHECK(linear.best_fit().intercept_lower < 0.5);
  CHECK(linear.predict(2000) == Approx(2.5).epsilon(1e-9));
  CHECK_FALSE(linear.lack_of_fit.detected);
  const auto n_log_n = benchreport::fit_scaling(levels(sizes, start_plus_n_log_n, 1e-3));
  CHECK(n_log_n.best == GrowthModel::n_log_n_offset);
  CHECK(n_log_n.best_fit().intercept == Approx(2.0).epsilon(1e-9));
}

TEST_CASE("a cost no model follows within the process spread is a lack of fit", "[scaling]") {
  const auto fit = benchreport::fit_scaling(levels({10, 30, 100, 300, 1000, 3000, 10000}, cliff, 1e-2));
  CHECK(fit.lack_of_fit.tested);
  CHECK(fit.lack_of_fit.detected);
  CHECK(fit.lack_of_fit.df_pure == 7);
  CHECK(fit.lack_of_fit.df_model == Approx(7.0 - static_cast<double>(fit.best_fit().parameters)));
  CHECK(fit.lack_of_fit.p < 0.01);
}

TEST_CASE("the lack-of-fit level must be a probability", "[scaling]") {
  benchreport::ScalingFitOptions options;
  options.lack_of_fit_alpha = 1;
  CHECK_THROWS_AS(benchreport::fit_scaling(levels({1, 2, 4}, start_plus_linear, 0), options), benchreport::InputError);
}

#include "benchreport/stats/quantile.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/data/sample_check.hpp"

namespace benchreport {
namespace {

struct MethodName {
  QuantileMethod method;
  std::string_view name;
};

constexpr std::array<MethodName, 10> kMethodNames{{
    {QuantileMethod::inverted_cdf, "inverted_cdf"},
    {QuantileMethod::averaged_inverted_cdf, "averaged_inverted_cdf"},
    {QuantileMethod::closest_observation, "closest_observation"},
    {QuantileMethod::interpolated_inverted_cdf, "interpolated_inverted_cdf"},
    {QuantileMethod::hazen, "hazen"},
    {QuantileMethod::weibull, "weibull"},
    {QuantileMethod::linear, "linear"},
    {QuantileMethod::median_unbiased, "median_unbiased"},
    {QuantileMethod::normal_unbiased, "normal_unbiased"},
    {QuantileMethod::harrell_davis, "harrell-davis"},
}};

// Plotting-position constants (alpha, beta) of the continuous types 4–9.
struct PlottingPosition {
  double alpha;
  double beta;
};

PlottingPosition plotting_position(QuantileMethod method) {
  switch (method) {
    case QuantileMethod::interpolated_inverted_cdf: return {0.0, 1.0};
    case QuantileMethod::hazen: return {0.5, 0.5};
    case QuantileMethod::weibull: return {0.0, 0.0};
    case QuantileMethod::median_unbiased: return {1.0 / 3.0, 1.0 / 3.0};
    case QuantileMethod::normal_unbiased: return {3.0 / 8.0, 3.0 / 8.0};
    default: return {1.0, 1.0};
  }
}

// Continuous-type virtual index h - 1 (0-based), in numpy's operation order so
// results agree to the last bit where the arithmetic allows.
double virtual_index(std::size_t n, double p, QuantileMethod method) {
  const double nd = static_cast<double>(n);
  if (method == QuantileMethod::linear) return (nd - 1.0) * p;
  const auto [alpha, beta] = plotting_position(method);
  return nd * p + (alpha + p * (1.0 - alpha - beta)) - 1.0;
}

// Clamps an interpolation between ranks floor(h) and floor(h)+1 into [0, n-1].
QuantilePosition clamped_position(std::size_t n, double h, double weight) {
  const double last = static_cast<double>(n - 1);
  if (h >= last) return {n - 1, n - 1, 0.0};
  if (h < 0.0) return {0, 0, 0.0};
  const auto lo = static_cast<std::size_t>(std::floor(h));
  return {lo, lo + 1, weight};
}

// Discrete types 1 and 3 pick one order statistic: floor(h) or floor(h) + 1.
QuantilePosition discrete_position(std::size_t n, double h, bool take_lower) {
  const double chosen = take_lower ? std::floor(h) : std::floor(h) + 1.0;
  const double last = static_cast<double>(n - 1);
  const auto rank = static_cast<std::size_t>(std::clamp(chosen, 0.0, last));
  return {rank, rank, 0.0};
}

}  // namespace

std::vector<std::string_view> quantile_method_names() {
  std::vector<std::string_view> out;
  for (const auto& entry : kMethodNames) out.push_back(entry.name);
  return out;
}

QuantileMethod parse_quantile_method(std::string_view name) {
  if (name == "harrell_davis") return QuantileMethod::harrell_davis;
  for (const auto& entry : kMethodNames) {
    if (entry.name == name) return entry.method;
  }
  std::string accepted;
  for (const auto& entry : kMethodNames) accepted += fmt::format("{}{}", accepted.empty() ? "" : ", ", entry.name);
  throw InputError(fmt::format("unknown quantile method '{}': expected one of {}", name, accepted));
}

std::string_view quantile_method_name(QuantileMethod method) noexcept {
  for (const auto& entry : kMethodNames) {
    if (entry.method == method) return entry.name;
  }
  return "unknown";
}

QuantilePosition quantile_position(std::size_t n, double p, QuantileMethod method) {
  const double nd = static_cast<double>(n);
  switch (method) {
    case QuantileMethod::inverted_cdf: {
      const double h = nd * p - 1.0;
      return discrete_position(n, h, h == std::floor(h));
    }
    case QuantileMethod::closest_observation: {
      // Round to the nearest even 1-based order statistic when exactly between two.
      const double h = nd * p - 1.0 - 0.5;
      const double lower = std::floor(h);
      return discrete_position(n, h, h == lower && std::fmod(lower, 2.0) != 0.0);
    }
    case QuantileMethod::averaged_inverted_cdf: {
      const double h = nd * p - 1.0;
      return clamped_position(n, h, h == std::floor(h) ? 0.5 : 1.0);
    }
    case QuantileMethod::harrell_davis:
      throw InputError("quantile_position: Harrell–Davis is not a Hyndman–Fan position");
    default: {
      const double h = virtual_index(n, p, method);
      return clamped_position(n, h, h - std::floor(h));
    }
  }
}

double interpolate(std::span<const double> ordered, const QuantilePosition& pos) {
  const double a = ordered[pos.lo];
  const double b = ordered[pos.hi];
  if (pos.lo == pos.hi) return a;
  // numpy's _lerp: interpolate from the nearer end for stability.
  const double diff = b - a;
  return pos.weight >= 0.5 ? b - diff * (1.0 - pos.weight) : a + diff * pos.weight;
}

double harrell_davis_sorted(std::span<const double> sorted, double p) {
  const std::size_t n = sorted.size();
  if (p <= 0.0) return sorted.front();
  if (p >= 1.0) return sorted.back();
  // scipy evaluates the beta CDF in double precision; do the same. A tiny a or b
  // overflows Gamma inside ibeta although the CDF itself is fine (it tends to 1).
  using DoublePolicy =
      boost::math::policies::policy<boost::math::policies::promote_double<false>,
                                    boost::math::policies::overflow_error<boost::math::policies::ignore_error>>;
  const double nd = static_cast<double>(n);
  const double a = (nd + 1.0) * p;
  const double b = (nd + 1.0) * (1.0 - p);
  double previous_cdf = 0.0;
  double total = 0.0;
  for (std::size_t i = 1; i <= n; ++i) {
    const double cdf = boost::math::ibeta(a, b, static_cast<double>(i) / nd, DoublePolicy());
    total += (cdf - previous_cdf) * sorted[i - 1];
    previous_cdf = cdf;
  }
  return total;
}

void check_probabilities(std::span<const double> ps) {
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (!(ps[i] >= 0.0 && ps[i] <= 1.0)) {
      throw InputError(fmt::format("quantile probability #{} is {}: expected a value in [0, 1]", i, ps[i]));
    }
  }
}

void quantiles_inplace(std::span<double> work, std::span<const double> ps, QuantileMethod method,
                       std::span<double> out) {
  if (method == QuantileMethod::harrell_davis) {
    std::sort(work.begin(), work.end());
    for (std::size_t i = 0; i < ps.size(); ++i) out[i] = harrell_davis_sorted(work, ps[i]);
    return;
  }
  std::vector<QuantilePosition> positions;
  std::vector<std::size_t> ranks;
  positions.reserve(ps.size());
  for (double p : ps) {
    positions.push_back(quantile_position(work.size(), p, method));
    ranks.push_back(positions.back().lo);
    ranks.push_back(positions.back().hi);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  select_many(work, ranks);
  for (std::size_t i = 0; i < ps.size(); ++i) out[i] = interpolate(work, positions[i]);
}

std::vector<double> quantiles(std::span<const double> x, std::span<const double> ps, QuantileMethod method) {
  check_probabilities(ps);
  std::vector<double> work;
  load_finite(x, NanPolicy::raise, SetLabel{}, work);
  std::vector<double> out(ps.size());
  quantiles_inplace(work, ps, method, out);
  return out;
}

double quantile(std::span<const double> x, double p, QuantileMethod method) {
  return quantiles(x, std::span<const double>(&p, 1), method).front();
}

}  // namespace benchreport

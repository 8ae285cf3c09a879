#pragma once
// Sample quantiles: the nine Hyndman–Fan definitions (under numpy's method
// names, type 7 "linear" by default) and the Harrell–Davis estimator.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace benchreport {

enum class QuantileMethod {
  inverted_cdf = 1,           // HF 1
  averaged_inverted_cdf,      // HF 2
  closest_observation,        // HF 3
  interpolated_inverted_cdf,  // HF 4
  hazen,                      // HF 5
  weibull,                    // HF 6
  linear,                     // HF 7 (default, numpy's default)
  median_unbiased,            // HF 8
  normal_unbiased,            // HF 9
  harrell_davis,              // weighted sum of all order statistics (needs a sorted copy)
};

// numpy's method name ("linear", "hazen", ...) or "harrell-davis"/"harrell_davis";
// throws InputError naming the accepted names.
QuantileMethod parse_quantile_method(std::string_view name);
std::string_view quantile_method_name(QuantileMethod method) noexcept;
// The canonical name of every method (Hyndman–Fan types 1–9, then Harrell–Davis).
std::vector<std::string_view> quantile_method_names();

// A Hyndman–Fan quantile of n order statistics x(0) <= ... <= x(n-1) is
// x(lo) + weight * (x(hi) - x(lo)) (0-based ranks, both < n).
struct QuantilePosition {
  std::size_t lo = 0;
  std::size_t hi = 0;
  double weight = 0.0;
};

// Requires n >= 1, p in [0, 1] and a Hyndman–Fan method (not harrell_davis).
QuantilePosition quantile_position(std::size_t n, double p, QuantileMethod method);

// Value at `pos` in a sample whose order statistics pos.lo and pos.hi are in place
// (sorted, or after select_many on those ranks). Interpolates as numpy does.
double interpolate(std::span<const double> ordered, const QuantilePosition& pos);

// Harrell–Davis quantile of a sorted, non-empty sample: sum_i w_i x(i) with
// w_i = I_{i/n}(a, b) - I_{(i-1)/n}(a, b), a = (n+1)p, b = (n+1)(1-p).
double harrell_davis_sorted(std::span<const double> sorted, double p);

// Throws InputError unless every p is in [0, 1].
void check_probabilities(std::span<const double> ps);

// Quantiles of a caller-owned working copy (reordered; sorted for harrell_davis).
// `work` must be non-empty and finite; out.size() == ps.size().
void quantiles_inplace(std::span<double> work, std::span<const double> ps, QuantileMethod method,
                       std::span<double> out);

// Quantiles of a read-only sample (one working copy). Empty input, NaN/±inf or
// p outside [0, 1] throw InputError.
std::vector<double> quantiles(std::span<const double> x, std::span<const double> ps,
                              QuantileMethod method = QuantileMethod::linear);
double quantile(std::span<const double> x, double p, QuantileMethod method = QuantileMethod::linear);

}  // namespace benchreport

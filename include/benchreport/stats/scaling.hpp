#pragma once
// How cost grows with input size: weighted least-squares fits of per-size
// summaries against fixed growth models, a free power law and models with a
// fixed cost (c + b·g(n)), model choice by AICc, an F test of lack of fit, t
// intervals with the process as the independent unit, and the change of growth
// between two fits. Formulas: docs/statistics-scaling.md.
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace benchreport {

// One-coefficient models a·g(n), the power law a·n^b, and the models with a
// fixed cost c + b·n, c + b·n log n and c + b·n^k (k fitted).
enum class GrowthModel {
  constant,
  log,
  linear,
  n_log_n,
  quadratic,
  cubic,
  power,
  linear_offset,
  n_log_n_offset,
  power_offset
};
inline constexpr std::array<GrowthModel, 10> kGrowthModels{
    GrowthModel::constant,       GrowthModel::log,         GrowthModel::linear, GrowthModel::n_log_n,
    GrowthModel::quadratic,      GrowthModel::cubic,       GrowthModel::power,  GrowthModel::linear_offset,
    GrowthModel::n_log_n_offset, GrowthModel::power_offset};

// "1", "log n", "n", "n log n", "n^2", "n^3", "n^b", "c + n", "c + n log n", "c + n^k".
std::string_view growth_model_name(GrowthModel model) noexcept;
// g(n) of y = a·g(n) or y = c + b·g(n) (natural log); NaN for power and c + n^k.
double growth_term(GrowthModel model, double n) noexcept;
// Whether the model has a fixed cost c.
bool has_intercept(GrowthModel model) noexcept;

// One size of a family: one value per process (e.g. each process's median).
struct SizeLevel {
  double size = 0;
  std::vector<double> values;
};

struct ScalingFitOptions {
  double confidence = 0.95;
  double reference_size = 0;        // n_ref of the power law's level; 0 = geometric mean of the sizes
  double lack_of_fit_alpha = 0.01;  // the F test's level
};

// y = a·g(n), a·n^b or c + b·g(n): the coefficients with their intervals and fit quality.
struct ModelFit {
  GrowthModel model = GrowthModel::constant;
  double coefficient = 0, coefficient_lower = 0, coefficient_upper = 0;  // a (or b beside a fixed cost)
  double intercept = 0, intercept_lower = 0, intercept_upper = 0;        // c; 0 without a fixed cost
  double exponent = 0, exponent_lower = 0, exponent_upper = 0;           // b of a·n^b, k of c + b·n^k; NaN otherwise
  std::size_t parameters = 1;
  double aicc = 0;          // +inf when too few sizes for the model (or a fitted cost <= 0)
  double rms_relative = 0;  // sqrt(Σ m_s (ŷ/y - 1)² / Σ m_s)
};

// The fitted cost of `fit` at size n.
double model_value(const ModelFit& fit, double n) noexcept;

// F test of the chosen model's residuals against the between-process noise
// (replicates per size): F = (Σ m_s e_s² / (S − k)) / σ², e_s the log residual.
struct LackOfFit {
  bool tested = false;    // false: no size has two processes, or S <= k
  bool detected = false;  // p < alpha: no model fits the sizes within their noise
  double f = 0, p = 1;
  double df_model = 0, df_pure = 0;  // S − k, Σ (m_s − 1)
};

// log y = level + b·(log n − log n_ref), weighted by process counts.
struct PowerFit {
  double exponent = 0, exponent_lower = 0, exponent_upper = 0, exponent_se = 0;
  double level = 0, level_se = 0;  // log cost at n_ref
  double covariance = 0;           // cov(level, b)
  double reference_size = 1;
  double df = 0;  // degrees of freedom of the t intervals
};

struct ScalingFit {
  std::vector<double> sizes;                 // ascending
  std::vector<double> summaries;             // per size: geometric mean of its process values
  std::vector<double> processes;             // per size: process count m_s (the weight)
  std::vector<ModelFit> models;              // one per kGrowthModels entry, same order
  GrowthModel best = GrowthModel::constant;  // least AICc among the eligible models (the closest one under lack of fit)
  PowerFit power;
  LackOfFit lack_of_fit;                // of the best model
  std::vector<double> residuals;        // per size: y / ŷ − 1 under the best model
  double sigma = 0;                     // per-process log-scale noise behind the intervals
  bool sigma_between_processes = true;  // false: from the power fit's residuals (one process per size)
  double confidence = 0.95;

  const ModelFit& model(GrowthModel m) const;
  const ModelFit& best_fit() const { return model(best); }
  // The fitted cost at n under the best model.
  double predict(double n) const;
};

// Throws InputError with fewer than 3 sizes, a repeated or non-positive size, a
// size without values, or a value that is not finite and > 0.
ScalingFit fit_scaling(std::span<const SizeLevel> levels, const ScalingFitOptions& options = {});

// The power fit's level moved to another reference size (its covariance with it).
PowerFit recentred(const PowerFit& fit, double reference_size);

enum class GrowthVerdict { steeper, flatter, unchanged, inconclusive };
std::string_view growth_verdict_name(GrowthVerdict verdict) noexcept;

struct GrowthChangeOptions {
  double confidence = 0.95;
  double exponent_threshold = 0.1;  // |Δb| below this is not a change of growth
  std::optional<double> at;         // extrapolate the change to this size
  double far_factor = 10;           // warn beyond far_factor × the largest measured size
};

struct GrowthChange {
  double exponent_change = 0, exponent_lower = 0, exponent_upper = 0;  // Δb = b_head − b_base
  double level_ratio = 1, level_lower = 1, level_upper = 1;            // head/base cost at reference_size
  double reference_size = 1;                                           // geometric mean of both sides' sizes
  double df = 0;
  GrowthVerdict verdict = GrowthVerdict::inconclusive;
  // At options.at: head/base cost ratio from both power laws, and its interval.
  std::optional<double> at;
  double at_ratio = 1, at_lower = 1, at_upper = 1;
  bool far = false;  // `at` beyond far_factor × the largest (or below 1/far_factor × the smallest) size
};

GrowthChange compare_growth(const ScalingFit& base, const ScalingFit& head, const GrowthChangeOptions& options = {});

}  // namespace benchreport

// Growth fits and their comparison: see scaling.hpp and docs/statistics-scaling.md.
#include "benchreport/stats/scaling.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The range searched for k of c + b·n^k: below it n^k is nearly the constant column.
constexpr double kMinPowerK = 0.1, kMaxPowerK = 4, kPowerKStep = 0.05;

// Two-sided t quantile at `confidence` (df > 0).
double t_quantile(double df, double confidence) {
  const boost::math::students_t_distribution<double> t(df);
  return boost::math::quantile(boost::math::complement(t, (1 - confidence) / 2));
}

struct Level {
  double size = 0, log_mean = 0, count = 0, ss = 0;  // ss: Σ (log v − log_mean)²
};

std::vector<Level> checked_levels(std::span<const SizeLevel> levels) {
  std::vector<Level> out;
  for (const SizeLevel& level : levels) {
    if (!(std::isfinite(level.size) && level.size > 0)) {
      throw InputError(fmt::format("scaling fit: size {} is not a finite number > 0", level.size));
    }
    if (level.values.empty()) throw InputError(fmt::format("scaling fit: size {} has no values", level.size));
    Level l{level.size, 0, static_cast<double>(level.values.size()), 0};
    for (const double v : level.values) {
      if (!(std::isfinite(v) && v > 0)) {
        throw InputError(fmt::format("scaling fit: size {} has value {} (expected a finite cost > 0)", level.size, v));
      }
      l.log_mean += std::log(v);
    }
    l.log_mean /= l.count;
    for (const double v : level.values) l.ss += (std::log(v) - l.log_mean) * (std::log(v) - l.log_mean);
    out.push_back(l);
  }
  std::sort(out.begin(), out.end(), [](const Level& a, const Level& b) { return a.size < b.size; });
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].size == out[i - 1].size)
      throw InputError(fmt::format("scaling fit: size {} appears twice", out[i].size));
  }
  if (out.size() < 3) throw InputError(fmt::format("scaling fit: {} sizes (need at least 3)", out.size()));
  return out;
}

// AICc of a k-parameter fit from its log residuals, weights normalised to mean 1.
double aicc(const std::vector<double>& log_residuals, const std::vector<double>& weights, std::size_t k) {
  const double s = static_cast<double>(log_residuals.size());
  const double kd = static_cast<double>(k);
  if (s - kd - 1 <= 0) return kInf;
  const double mean_w = std::accumulate(weights.begin(), weights.end(), 0.0) / s;
  double wrss = 0;
  for (std::size_t i = 0; i < log_residuals.size(); ++i) {
    if (!std::isfinite(log_residuals[i])) return kInf;
    wrss += weights[i] / mean_w * log_residuals[i] * log_residuals[i];
  }
  // A floor keeps an exact fit finite (and ties resolved by model order).
  wrss = std::max(wrss, s * 1e-300);
  return s * std::log(wrss / s) + 2 * kd + 2 * kd * (kd + 1) / (s - kd - 1);
}

void fill_quality(ModelFit& fit, const ScalingFit& out, const std::vector<double>& predicted) {
  std::vector<double> log_residuals(predicted.size());
  double num = 0, den = 0;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    log_residuals[i] = predicted[i] > 0 ? std::log(out.summaries[i]) - std::log(predicted[i]) : kInf;
    const double rel = predicted[i] / out.summaries[i] - 1;
    num += out.processes[i] * rel * rel;
    den += out.processes[i];
  }
  fit.aicc = aicc(log_residuals, out.processes, fit.parameters);
  fit.rms_relative = std::sqrt(num / den);
}

// Weighted least squares of the size costs on the columns of x, weights
// w_s = m_s / y_s² (relative errors): β and (XᵀWX)⁻¹.
struct Wls {
  Eigen::VectorXd beta;
  Eigen::MatrixXd inverse_information;
  double wrss = 0;
};

Wls relative_wls(const ScalingFit& out, const Eigen::MatrixXd& x) {
  const auto s = x.rows();
  Eigen::VectorXd root_w(s), y(s);
  for (Eigen::Index i = 0; i < s; ++i) {
    const auto k = static_cast<std::size_t>(i);
    root_w(i) = std::sqrt(out.processes[k]) / out.summaries[k];
    y(i) = out.summaries[k];
  }
  const Eigen::MatrixXd xw = root_w.asDiagonal() * x;
  const Eigen::VectorXd yw = root_w.cwiseProduct(y);
  Wls r;
  r.beta = xw.colPivHouseholderQr().solve(yw);
  r.inverse_information = (xw.transpose() * xw).inverse();
  r.wrss = (yw - xw * r.beta).squaredNorm();
  return r;
}

// est ± t·σ·√v: a t interval from a diagonal entry of (XᵀWX)⁻¹ (NaN when singular).
void interval(double estimate, double variance_factor, double sigma, double t, double& lower, double& upper) {
  const double se = variance_factor >= 0 ? sigma * std::sqrt(variance_factor) : kNaN;
  lower = estimate - t * se;
  upper = estimate + t * se;
}

void fill_predictions(ModelFit& fit, const ScalingFit& out) {
  std::vector<double> predicted(out.sizes.size());
  for (std::size_t i = 0; i < predicted.size(); ++i) predicted[i] = model_value(fit, out.sizes[i]);
  fill_quality(fit, out, predicted);
}

// y = a·g(n) or y = c + b·g(n) by relative weighted least squares.
ModelFit fit_linear(GrowthModel model, const ScalingFit& out, double t) {
  const bool offset = has_intercept(model);
  const auto s = static_cast<Eigen::Index>(out.sizes.size());
  Eigen::MatrixXd x(s, offset ? 2 : 1);
  for (Eigen::Index i = 0; i < s; ++i) {
    if (offset) x(i, 0) = 1;
    x(i, x.cols() - 1) = growth_term(model, out.sizes[static_cast<std::size_t>(i)]);
  }
  const Wls w = relative_wls(out, x);
  const Eigen::Index last = x.cols() - 1;
  ModelFit fit;
  fit.model = model;
  fit.parameters = static_cast<std::size_t>(x.cols());
  fit.exponent = fit.exponent_lower = fit.exponent_upper = kNaN;
  fit.coefficient = w.beta(last);
  interval(fit.coefficient, w.inverse_information(last, last), out.sigma, t, fit.coefficient_lower,
           fit.coefficient_upper);
  if (offset) {
    fit.intercept = w.beta(0);
    interval(fit.intercept, w.inverse_information(0, 0), out.sigma, t, fit.intercept_lower, fit.intercept_upper);
  }
  fill_predictions(fit, out);
  return fit;
}

// c + b·n^k with k fixed: its weighted fit (columns 1 and n^k).
Wls offset_power_at(const ScalingFit& out, double k) {
  const auto s = static_cast<Eigen::Index>(out.sizes.size());
  Eigen::MatrixXd x(s, 2);
  for (Eigen::Index i = 0; i < s; ++i) {
    x(i, 0) = 1;
    x(i, 1) = std::pow(out.sizes[static_cast<std::size_t>(i)], k);
  }
  return relative_wls(out, x);
}

// k of c + b·n^k: the profile WRSS(k) minimised over a grid, then by Brent's
// method within one grid step (the grid keeps Brent off a local minimum).
double profile_power_k(const ScalingFit& out) {
  const auto wrss = [&](double k) { return offset_power_at(out, k).wrss; };
  double best_k = kMinPowerK, best = kInf;
  const auto steps = static_cast<int>(std::lround((kMaxPowerK - kMinPowerK) / kPowerKStep));
  for (int i = 0; i <= steps; ++i) {  // counted, not summed: the same grid on every platform
    const double k = kMinPowerK + i * kPowerKStep;
    const double v = wrss(k);
    if (v < best) best = v, best_k = k;
  }
  const double lo = std::max(kMinPowerK, best_k - kPowerKStep), hi = std::min(kMaxPowerK, best_k + kPowerKStep);
  const auto refined = boost::math::tools::brent_find_minima(wrss, lo, hi, std::numeric_limits<double>::digits / 2);
  return refined.second <= best ? refined.first : best_k;
}

// c + b·n^k; intervals from the linearised model (Jacobian 1, n^k, b·n^k·ln n).
ModelFit fit_offset_power(const ScalingFit& out, double t) {
  ModelFit fit;
  fit.model = GrowthModel::power_offset;
  fit.parameters = 3;
  fit.exponent = profile_power_k(out);
  const Wls at_k = offset_power_at(out, fit.exponent);
  fit.intercept = at_k.beta(0);
  fit.coefficient = at_k.beta(1);
  const auto s = static_cast<Eigen::Index>(out.sizes.size());
  Eigen::MatrixXd jacobian(s, 3);
  for (Eigen::Index i = 0; i < s; ++i) {
    const double n = out.sizes[static_cast<std::size_t>(i)];
    jacobian(i, 0) = 1;
    jacobian(i, 1) = std::pow(n, fit.exponent);
    jacobian(i, 2) = fit.coefficient * std::pow(n, fit.exponent) * std::log(n);
  }
  const Eigen::MatrixXd inverse = relative_wls(out, jacobian).inverse_information;
  interval(fit.intercept, inverse(0, 0), out.sigma, t, fit.intercept_lower, fit.intercept_upper);
  interval(fit.coefficient, inverse(1, 1), out.sigma, t, fit.coefficient_lower, fit.coefficient_upper);
  interval(fit.exponent, inverse(2, 2), out.sigma, t, fit.exponent_lower, fit.exponent_upper);
  fill_predictions(fit, out);
  return fit;
}

// log y = level + b·(log n − log n_ref), weights m_s. Also sets out.sigma from
// the residuals when no size has two processes.
PowerFit fit_power(ScalingFit& out, double reference_size, double pure_ss, double pure_df) {
  const auto s = static_cast<Eigen::Index>(out.sizes.size());
  Eigen::MatrixXd x(s, 2);
  Eigen::VectorXd z(s);
  for (Eigen::Index i = 0; i < s; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const double root_w = std::sqrt(out.processes[k]);
    x(i, 0) = root_w;
    x(i, 1) = root_w * (std::log(out.sizes[k]) - std::log(reference_size));
    z(i) = root_w * std::log(out.summaries[k]);
  }
  const Eigen::Vector2d beta = x.colPivHouseholderQr().solve(z);
  PowerFit p;
  p.reference_size = reference_size;
  p.level = beta(0);
  p.exponent = beta(1);
  if (pure_df > 0) {
    out.sigma = std::sqrt(pure_ss / pure_df);
    p.df = pure_df;
  } else {
    out.sigma_between_processes = false;
    p.df = static_cast<double>(s - 2);
    out.sigma = std::sqrt((z - x * beta).squaredNorm() / p.df);
  }
  const Eigen::Matrix2d cov = out.sigma * out.sigma * (x.transpose() * x).inverse();
  p.level_se = std::sqrt(cov(0, 0));
  p.exponent_se = std::sqrt(cov(1, 1));
  p.covariance = cov(0, 1);
  const double t = t_quantile(p.df, out.confidence);
  p.exponent_lower = p.exponent - t * p.exponent_se;
  p.exponent_upper = p.exponent + t * p.exponent_se;
  return p;
}

ModelFit power_model(const ScalingFit& out, double t) {
  const PowerFit at_one = recentred(out.power, 1.0);  // level at n = 1 is log a
  ModelFit fit;
  fit.model = GrowthModel::power;
  fit.parameters = 2;
  fit.coefficient = std::exp(at_one.level);
  fit.coefficient_lower = std::exp(at_one.level - t * at_one.level_se);
  fit.coefficient_upper = std::exp(at_one.level + t * at_one.level_se);
  fit.exponent = out.power.exponent;
  fit.exponent_lower = out.power.exponent_lower;
  fit.exponent_upper = out.power.exponent_upper;
  fill_predictions(fit, out);
  return fit;
}

// The weighted log–log slope of g(n) over the fit's sizes (exactly k for n^k);
// NaN when g is not positive at every size.
double effective_exponent(const ScalingFit& out, GrowthModel model) {
  double sw = 0, sx = 0, sy = 0;
  for (std::size_t i = 0; i < out.sizes.size(); ++i) {
    const double g = growth_term(model, out.sizes[i]);
    if (!(g > 0)) return std::numeric_limits<double>::quiet_NaN();
    sw += out.processes[i];
    sx += out.processes[i] * std::log(out.sizes[i]);
    sy += out.processes[i] * std::log(g);
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < out.sizes.size(); ++i) {
    const double dx = std::log(out.sizes[i]) - sx / sw;
    sxy += out.processes[i] * dx * (std::log(growth_term(model, out.sizes[i])) - sy / sw);
    sxx += out.processes[i] * dx * dx;
  }
  return sxy / sxx;
}

bool outside(double value, double lower, double upper) { return !(lower <= value && value <= upper); }

// Whether a model with more than one parameter may replace `simple`, the best
// one-coefficient model: what it adds must be told apart from nothing — a
// power law's exponent from simple's own slope, a fixed cost from 0 (and its
// growth b > 0), c + n^k's k from 1 (else c + n says it) and from simple's slope.
bool eligible(const ModelFit& m, const ScalingFit& out, GrowthModel simple) {
  const double slope = effective_exponent(out, simple);
  switch (m.model) {
    case GrowthModel::power: return outside(slope, m.exponent_lower, m.exponent_upper);
    case GrowthModel::linear_offset:
    case GrowthModel::n_log_n_offset: return m.intercept_lower > 0 && m.coefficient > 0;
    case GrowthModel::power_offset:
      return m.intercept_lower > 0 && m.coefficient > 0 && outside(1.0, m.exponent_lower, m.exponent_upper) &&
             outside(slope, m.exponent_lower, m.exponent_upper);
    default: return false;
  }
}

// Least AICc among the one-coefficient models (ties go to the simpler, earlier
// one), replaced by an eligible richer model only with still less AICc.
GrowthModel chosen_model(const ScalingFit& out) {
  const ModelFit* best = nullptr;
  for (const ModelFit& m : out.models) {
    if (m.parameters == 1 && (best == nullptr || m.aicc < best->aicc)) best = &m;
  }
  const GrowthModel simple = best->model;
  for (const ModelFit& m : out.models) {
    if (m.parameters > 1 && m.aicc < best->aicc && eligible(m, out, simple)) best = &m;
  }
  return best->model;
}

// The pure-error variance is floored so that replicates equal to 12 digits do
// not turn a rounding residual into lack of fit.
constexpr double kMinPureVariance = 1e-24;

LackOfFit lack_of_fit(const ScalingFit& out, const ModelFit& m, double pure_ss, double pure_df, double alpha) {
  LackOfFit l;
  l.df_pure = pure_df;
  l.df_model = static_cast<double>(out.sizes.size()) - static_cast<double>(m.parameters);
  if (pure_df <= 0 || l.df_model <= 0) return l;
  double ss = 0;  // Σ m_s (log y_s − log ŷ_s)²: the between-size part of the process-level residuals
  for (std::size_t i = 0; i < out.sizes.size(); ++i) {
    const double fitted = model_value(m, out.sizes[i]);
    const double e = fitted > 0 ? std::log(out.summaries[i] / fitted) : kInf;
    ss += out.processes[i] * e * e;
  }
  l.tested = true;
  l.f = (ss / l.df_model) / std::max(pure_ss / pure_df, kMinPureVariance);
  l.p = std::isfinite(l.f) ? boost::math::cdf(boost::math::complement(
                                 boost::math::fisher_f_distribution<double>(l.df_model, l.df_pure), l.f))
                           : 0.0;
  l.detected = l.p < alpha;
  return l;
}

double geometric_mean(std::span<const double> values) {
  double sum = 0;
  for (const double v : values) sum += std::log(v);
  return std::exp(sum / static_cast<double>(values.size()));
}

// Both sides' t interval on the difference of two estimates (Welch–Satterthwaite df).
struct Difference {
  double estimate = 0, se = 0, df = 0;
};

Difference difference(double base, double base_se, double base_df, double head, double head_se, double head_df) {
  const double vb = base_se * base_se, vh = head_se * head_se;
  Difference d{head - base, std::sqrt(vb + vh), std::min(base_df, head_df)};
  if (vb + vh > 0) d.df = (vb + vh) * (vb + vh) / (vb * vb / base_df + vh * vh / head_df);
  return d;
}

}  // namespace

std::string_view growth_model_name(GrowthModel model) noexcept {
  switch (model) {
    case GrowthModel::constant: return "1";
    case GrowthModel::log: return "log n";
    case GrowthModel::linear: return "n";
    case GrowthModel::n_log_n: return "n log n";
    case GrowthModel::quadratic: return "n^2";
    case GrowthModel::cubic: return "n^3";
    case GrowthModel::power: return "n^b";
    case GrowthModel::linear_offset: return "c + n";
    case GrowthModel::n_log_n_offset: return "c + n log n";
    case GrowthModel::power_offset: return "c + n^k";
  }
  return "?";
}

double growth_term(GrowthModel model, double n) noexcept {
  switch (model) {
    case GrowthModel::constant: return 1;
    case GrowthModel::log: return std::log(n);
    case GrowthModel::linear: return n;
    case GrowthModel::n_log_n: return n * std::log(n);
    case GrowthModel::quadratic: return n * n;
    case GrowthModel::cubic: return n * n * n;
    case GrowthModel::linear_offset: return n;
    case GrowthModel::n_log_n_offset: return n * std::log(n);
    case GrowthModel::power:
    case GrowthModel::power_offset: return kNaN;
  }
  return kNaN;
}

bool has_intercept(GrowthModel model) noexcept {
  return model == GrowthModel::linear_offset || model == GrowthModel::n_log_n_offset ||
         model == GrowthModel::power_offset;
}

double model_value(const ModelFit& fit, double n) noexcept {
  switch (fit.model) {
    case GrowthModel::power: return fit.coefficient * std::pow(n, fit.exponent);
    case GrowthModel::power_offset: return fit.intercept + fit.coefficient * std::pow(n, fit.exponent);
    default: return fit.intercept + fit.coefficient * growth_term(fit.model, n);
  }
}

const ModelFit& ScalingFit::model(GrowthModel m) const {
  for (const ModelFit& fit : models) {
    if (fit.model == m) return fit;
  }
  throw InputError(fmt::format("scaling fit: no {} model", growth_model_name(m)));
}

double ScalingFit::predict(double n) const { return model_value(best_fit(), n); }

ScalingFit fit_scaling(std::span<const SizeLevel> levels, const ScalingFitOptions& options) {
  if (!(options.confidence > 0 && options.confidence < 1))
    throw InputError("scaling fit: confidence must be in (0, 1)");
  if (!(options.lack_of_fit_alpha > 0 && options.lack_of_fit_alpha < 1))
    throw InputError("scaling fit: lack-of-fit alpha must be in (0, 1)");
  const std::vector<Level> checked = checked_levels(levels);
  ScalingFit out;
  out.confidence = options.confidence;
  double pure_ss = 0, pure_df = 0;
  for (const Level& l : checked) {
    out.sizes.push_back(l.size);
    out.summaries.push_back(std::exp(l.log_mean));
    out.processes.push_back(l.count);
    pure_ss += l.ss;
    pure_df += l.count - 1;
  }
  const double reference = options.reference_size > 0 ? options.reference_size : geometric_mean(out.sizes);
  out.power = fit_power(out, reference, pure_ss, pure_df);
  const double t = t_quantile(out.power.df, out.confidence);
  for (const GrowthModel m : kGrowthModels) {
    if (m == GrowthModel::power)
      out.models.push_back(power_model(out, t));
    else if (m == GrowthModel::power_offset)
      out.models.push_back(fit_offset_power(out, t));
    else
      out.models.push_back(fit_linear(m, out, t));
  }
  out.best = chosen_model(out);
  out.lack_of_fit = lack_of_fit(out, out.best_fit(), pure_ss, pure_df, options.lack_of_fit_alpha);
  for (std::size_t i = 0; i < out.sizes.size(); ++i)
    out.residuals.push_back(out.summaries[i] / out.predict(out.sizes[i]) - 1);
  return out;
}

PowerFit recentred(const PowerFit& fit, double reference_size) {
  PowerFit p = fit;
  const double d = std::log(reference_size) - std::log(fit.reference_size);
  p.reference_size = reference_size;
  p.level = fit.level + fit.exponent * d;
  p.level_se = std::sqrt(
      std::max(0.0, fit.level_se * fit.level_se + d * d * fit.exponent_se * fit.exponent_se + 2 * d * fit.covariance));
  p.covariance = fit.covariance + d * fit.exponent_se * fit.exponent_se;
  return p;
}

std::string_view growth_verdict_name(GrowthVerdict verdict) noexcept {
  switch (verdict) {
    case GrowthVerdict::steeper: return "steeper";
    case GrowthVerdict::flatter: return "flatter";
    case GrowthVerdict::unchanged: return "unchanged";
    case GrowthVerdict::inconclusive: return "inconclusive";
  }
  return "?";
}

GrowthChange compare_growth(const ScalingFit& base, const ScalingFit& head, const GrowthChangeOptions& options) {
  if (!(options.confidence > 0 && options.confidence < 1))
    throw InputError("growth change: confidence must be in (0, 1)");
  if (!(options.exponent_threshold >= 0)) throw InputError("growth change: exponent threshold must be >= 0");
  std::vector<double> sizes = base.sizes;
  sizes.insert(sizes.end(), head.sizes.begin(), head.sizes.end());
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  GrowthChange c;
  c.reference_size = geometric_mean(sizes);
  const PowerFit b = recentred(base.power, c.reference_size), h = recentred(head.power, c.reference_size);
  const Difference slope = difference(b.exponent, b.exponent_se, b.df, h.exponent, h.exponent_se, h.df);
  const Difference level = difference(b.level, b.level_se, b.df, h.level, h.level_se, h.df);
  c.df = slope.df;
  const double t = t_quantile(c.df, options.confidence);
  c.exponent_change = slope.estimate;
  c.exponent_lower = slope.estimate - t * slope.se;
  c.exponent_upper = slope.estimate + t * slope.se;
  const double tl = t_quantile(level.df, options.confidence);
  c.level_ratio = std::exp(level.estimate);
  c.level_lower = std::exp(level.estimate - tl * level.se);
  c.level_upper = std::exp(level.estimate + tl * level.se);
  const double thr = options.exponent_threshold;
  if (c.exponent_lower > 0 && c.exponent_change >= thr)
    c.verdict = GrowthVerdict::steeper;
  else if (c.exponent_upper < 0 && c.exponent_change <= -thr)
    c.verdict = GrowthVerdict::flatter;
  else if (c.exponent_lower > -thr && c.exponent_upper < thr)
    c.verdict = GrowthVerdict::unchanged;
  if (options.at) {
    if (!(std::isfinite(*options.at) && *options.at > 0)) throw InputError("growth change: --at must be a size > 0");
    c.at = options.at;
    const double x = std::log(*options.at / c.reference_size);
    const double estimate = level.estimate + x * slope.estimate;
    const double var = level.se * level.se + x * x * slope.se * slope.se + 2 * x * (b.covariance + h.covariance);
    const double se = std::sqrt(std::max(0.0, var));
    c.at_ratio = std::exp(estimate);
    c.at_lower = std::exp(estimate - t * se);
    c.at_upper = std::exp(estimate + t * se);
    c.far = *options.at > options.far_factor * sizes.back() || *options.at < sizes.front() / options.far_factor;
  }
  return c;
}

}  // namespace benchreport

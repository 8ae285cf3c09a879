#include "benchreport/compare/case.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "benchreport/compare/launch_noise.hpp"
#include "benchreport/compare/moderation.hpp"
#include "benchreport/compare/process_drift.hpp"
#include "benchreport/compare/process_interval.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/stats/median_ci.hpp"
#include "benchreport/stats/moderated_t.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/stats/pvalues.hpp"

namespace benchreport {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Asymptotic standard error of a median relative to a mean: sqrt(pi / 2).
constexpr double kMedianEfficiency = 1.2533141373155003;
constexpr double kMdePower = 0.8;
constexpr std::size_t kMinWilcoxonPairs = 3;

std::string case_label(std::string_view name) {
  return name.empty() ? std::string("case") : fmt::format("case '{}'", name);
}

void validate_side(const SideSamples& side, std::string_view which, std::string_view name) {
  if (side.processes.empty() || side.total_samples() == 0) {
    throw InputError(fmt::format("{}: {} has no samples", case_label(name), which));
  }
  for (std::size_t p = 0; p < side.processes.size(); ++p) {
    const auto& samples = side.processes[p];
    if (samples.empty()) throw InputError(fmt::format("{}: {} process {} has no samples", case_label(name), which, p));
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const double v = samples[i];
      if (!std::isfinite(v)) {
        throw InputError(fmt::format("{}: {} process {} sample {} is {} (expected a finite value)", case_label(name),
                                     which, p, i, v));
      }
      if (!(v > 0)) {
        throw InputError(
            fmt::format("{}: {} process {} sample {} is {} (expected a positive value: changes are "
                        "ratios)",
                        case_label(name), which, p, i, v));
      }
    }
  }
}

struct SideSummary {
  double median = 0;
  double mad = 0;
};

SideSummary summarize(std::span<const double> pooled) {
  std::vector<double> work(pooled.begin(), pooled.end());
  SideSummary s;
  s.median = median_inplace(work);
  s.mad = mad_inplace(work, s.median);
  return s;
}

bool is_worse(double change, Direction d) { return d == Direction::lower_is_better ? change > 0 : change < 0; }

void fill_processes(CaseComparison& c, const SideSamples& base, const SideSamples& head, const CompareOptions& o) {
  for (const auto& p : base.processes) c.base_process_medians.push_back(median(p));
  for (const auto& p : head.processes) c.head_process_medians.push_back(median(p));
  // Unequal counts: the interval is Welch's, which pairs nothing; process_changes pair the first `pairs`.
  const std::size_t pairs = std::min(base.processes.size(), head.processes.size());
  for (std::size_t i = 0; i < pairs; ++i) {
    c.process_changes.push_back(c.head_process_medians[i] / c.base_process_medians[i] - 1);
  }
  const auto [lo, hi] = std::minmax_element(c.process_changes.begin(), c.process_changes.end());
  c.process_change_min = *lo;
  c.process_change_max = *hi;
  c.processes_disagree = c.process_change_min <= -o.threshold && c.process_change_max >= o.threshold;
  if (c.processes_disagree) {
    c.warnings.push_back(fmt::format("process pairs disagree: paired changes range from {:+.2f}% to {:+.2f}%",
                                     100 * c.process_change_min, 100 * c.process_change_max));
  }
}

void fill_paired_test(CaseComparison& c, const CompareOptions& o) {
  const std::size_t pairs = c.process_changes.size();
  if (pairs < kMinWilcoxonPairs) {
    c.wilcoxon_unavailable_reason = fmt::format("needs at least {} process pairs, have {}", kMinWilcoxonPairs, pairs);
    return;
  }
  std::vector<double> log_ratios;
  for (double ch : c.process_changes) log_ratios.push_back(std::log1p(ch));
  if (std::all_of(log_ratios.begin(), log_ratios.end(), [](double v) { return v == 0; })) {
    c.wilcoxon_unavailable_reason = "every paired process change is zero";
    return;
  }
  c.wilcoxon = wilcoxon_signed_rank(log_ratios);
  c.wilcoxon_available = true;
  if (2.0 / std::ldexp(1.0, static_cast<int>(c.wilcoxon.n_used)) > o.alpha) {
    c.warnings.push_back(fmt::format("the paired process test cannot reach alpha = {} with {} nonzero pairs", o.alpha,
                                     c.wilcoxon.n_used));
  }
}

void fill_estimators(CaseComparison& c, std::span<const double> b, std::span<const double> h, const CompareOptions& o) {
  if (b.size() > kMaxPooledEstimatorSamples || h.size() > kMaxPooledEstimatorSamples) {
    // Extra figures on pooled samples (they never decide the verdict) whose selections over
    // n·m pairwise differences would cost more than the rest of the comparison.
    c.shift = c.ratio = c.disparity = kNaN;
    c.shift_bounds = c.ratio_bounds = c.disparity_bounds = Bounds{kNaN, kNaN, 1.0, false};
    c.warnings.push_back(
        fmt::format("Hodges-Lehmann shift, ratio, disparity and their bounds not computed: more than "
                    "{} samples on a side",
                    kMaxPooledEstimatorSamples));
    return;
  }
  c.shift = hodges_lehmann_shift(b, h);
  c.shift_bounds = shift_bounds(b, h, o.misrate);
  c.ratio = ratio(b, h);
  c.ratio_bounds = ratio_bounds(b, h, o.misrate);
  if (b.size() >= 2 && h.size() >= 2) {
    c.disparity = disparity(c.shift, b, h);  // the shift is already known
    // The spread bounds' pairing seed: the bootstrap's (seed, stream) mixed with a constant of its own.
    std::uint64_t mixer = o.stream ^ 0x5350524541445321ULL;
    c.disparity_bounds = disparity_bounds(b, h, o.misrate, o.seed ^ splitmix64(mixer));
  } else {
    c.disparity = kNaN;
    c.disparity_bounds = Bounds{kNaN, kNaN, 1.0, false};
  }
  if (c.shift_bounds.achieved_misrate > o.misrate) {
    c.warnings.push_back(
        fmt::format("Hodges-Lehmann bounds cannot reach misrate {} with {} and {} samples "
                    "(achieved {:.3g})",
                    o.misrate, b.size(), h.size(), c.shift_bounds.achieved_misrate));
  } else if (c.disparity_bounds.achieved_misrate > o.misrate) {
    // The spread bounds (misrate/4 each) are the part that runs out: their sign test on
    // floor(n/2) pairs reaches at best 2 * 2^-pairs.
    const auto pairs = static_cast<std::size_t>(std::ceil(std::log2(8.0 / o.misrate)));
    c.warnings.push_back(
        fmt::format("disparity bounds cannot reach misrate {} with {} and {} samples (achieved {:.3g}; "
                    "the spread bounds need >= {} samples per side)",
                    o.misrate, b.size(), h.size(), c.disparity_bounds.achieved_misrate, 2 * pairs));
  }
}

void fill_tests(CaseComparison& c, std::span<const double> b, std::span<const double> h, const CompareOptions& o) {
  const PooledRankTests tests = pooled_rank_tests(b, h);
  c.mann_whitney = tests.mann_whitney;
  const double pairs = static_cast<double>(b.size()) * static_cast<double>(h.size());
  const double base_above = c.mann_whitney.u / pairs;  // P(base > head) + ties / 2
  c.prob_head_better = o.direction == Direction::lower_is_better ? base_above : 1 - base_above;
  c.brunner_munzel_available = tests.brunner_munzel_available;
  if (c.brunner_munzel_available) c.brunner_munzel = tests.brunner_munzel;
}

// Best achievable exact two-sided U-test p-value with n and m samples: 2 / C(n+m, n).
double best_u_test_p(std::size_t n, std::size_t m) { return std::min(1.0, 2.0 / binomial_coefficient(n + m, n)); }

void fill_power(CaseComparison& c, const CompareOptions& o) {
  const boost::math::normal_distribution<double> normal;
  const double z = boost::math::quantile(normal, 1 - o.alpha / 2) + boost::math::quantile(normal, kMdePower);
  const double var = c.base_robust_cv * c.base_robust_cv / static_cast<double>(c.base_n) +
                     c.head_robust_cv * c.head_robust_cv / static_cast<double>(c.head_n);
  c.min_detectable_effect = z * kMedianEfficiency * std::sqrt(var);
  c.min_samples_for_alpha = min_samples_per_side(o.alpha);
  c.too_few_samples = best_u_test_p(c.base_n, c.head_n) > o.alpha;
  c.too_noisy = std::max(c.base_robust_cv, c.head_robust_cv) > o.noise_limit;
  if (c.too_few_samples) {
    c.warnings.push_back(fmt::format("need >= {} samples per side to reach alpha = {} (have {} and {})",
                                     c.min_samples_for_alpha, o.alpha, c.base_n, c.head_n));
  }
  if (c.too_noisy) {
    c.warnings.push_back(fmt::format("too noisy: robust CV {:.1f}% (base) / {:.1f}% (head) exceeds {:.1f}%",
                                     100 * c.base_robust_cv, 100 * c.head_robust_cv, 100 * o.noise_limit));
  }
  if (c.min_detectable_effect > o.threshold) {
    c.warnings.push_back(fmt::format("minimum detectable effect {:.2f}% exceeds the threshold {:.2f}%",
                                     100 * c.min_detectable_effect, 100 * o.threshold));
  }
}

// Standard error of log(median) from the distribution-free 95 % median interval
// [x(l), x(n+1-l)]: its log half-width over z_0.975 (the order-statistic ranks sit
// z·√n/2 from the middle, so for large n this is the sd of the log median).
double log_median_se(std::span<const double> x) {
  constexpr double kNominal = 0.95;
  const MedianCI ci = median_ci(x, kNominal);
  const boost::math::normal_distribution<double> normal;
  return (std::log(ci.upper) - std::log(ci.lower)) / (2 * boost::math::quantile(normal, (1 + kNominal) / 2));
}

// Above kMaxResampledSamples on a side, the bootstrap's limit instead of resampling:
// the ratio of medians with a normal interval on the log scale, each side's se from
// its median interval (docs/statistics-comparison.md, "Work by case size").
BootstrapInterval median_ratio_normal_interval(std::span<const double> b, std::span<const double> h, double ratio,
                                               double confidence) {
  const double se = std::hypot(log_median_se(b), log_median_se(h));
  const boost::math::normal_distribution<double> normal;
  const double half = boost::math::quantile(normal, (1 + confidence) / 2) * se;
  BootstrapInterval out;
  out.estimate = ratio;
  out.percentile_lower = ratio * std::exp(-half);
  out.percentile_upper = ratio * std::exp(half);
  out.bca_lower = out.bca_upper = kNaN;
  out.standard_error = ratio * se;  // delta method
  out.resamples = 0;
  return out;
}

void fill_bootstrap(CaseComparison& c, const SideSamples& base, const SideSamples& head, std::span<const double> b,
                    std::span<const double> h, const CompareOptions& o) {
  if (b.size() > kMaxResampledSamples || h.size() > kMaxResampledSamples) {
    c.bootstrap = median_ratio_normal_interval(b, h, c.change + 1, o.confidence);
    return;
  }
  const bool flat = base.processes.size() == 1 && head.processes.size() == 1;
  const bool small = b.size() <= kMaxExactBootstrapSamples && h.size() <= kMaxExactBootstrapSamples;
  const BootstrapMethod method = flat && small ? BootstrapMethod::exact : BootstrapMethod::resampling;
  Xoshiro256 rng = Xoshiro256::for_stream(o.seed, o.stream);
  c.bootstrap = bootstrap_median_ratio_ci(base, head, BootstrapOptions{o.resamples, o.confidence, method}, rng);
}

double sample_variance(std::span<const double> v) {
  if (v.size() < 2) return kNaN;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return ss / static_cast<double>(v.size() - 1);
}

// B, W and the between-process share (docs/statistics-comparison.md).
void fill_process_variance(CaseComparison& c, const SideSamples& base, const SideSamples& head,
                           const std::vector<double>& lb, const std::vector<double>& lh, const CompareOptions& o) {
  const auto within = [](const SideSamples& side) {
    double sum = 0;
    std::size_t used = 0;
    for (const auto& p : side.processes) {
      if (p.size() < 2) continue;
      std::vector<double> logs(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) logs[i] = std::log(p[i]);
      sum += kMedianEfficiency * kMedianEfficiency * sample_variance(logs) / static_cast<double>(p.size());
      ++used;
    }
    return used == 0 ? kNaN : sum / static_cast<double>(used);
  };
  c.between_process_variance = (sample_variance(lb) + sample_variance(lh)) / 2;
  c.within_process_variance = (within(base) + within(head)) / 2;
  const double b = c.between_process_variance, w = c.within_process_variance;
  if (std::isnan(w)) {
    c.between_process_share = kNaN;
  } else {
    c.between_process_share = b > 0 ? std::clamp((b - w) / b, 0.0, 1.0) : 0.0;
  }
  c.between_process_dominates = c.between_process_share > o.between_share_limit;
  if (c.between_process_dominates) {
    c.warnings.push_back(
        fmt::format("between-process variance dominates: {:.0f}% of the variance of the process "
                    "medians is process-to-process",
                    100 * c.between_process_share));
  }
}

// Half-width based detectable change of a normal interval: exp(h (q_c + q_0.8) / q_c) - 1.
double detectable_from(double log_lower, double log_upper, double q_conf, double q_power) {
  const double h = (log_upper - log_lower) / 2;
  return std::expm1(h * (q_conf + q_power) / q_conf);
}

// The log-median variance floor of the timer grid, or 0 when it cannot bind: values on a
// grid r have medians on the grid r/2, so distinct process medians differ by >= r/2 and
// r <= 2 * (smallest gap); only when that bound could bind are the samples sorted.
double grid_floor(CaseComparison& c, std::span<const double> b, std::span<const double> h, double variance,
                  double variance_per_floor) {
  std::vector<double> medians(c.base_process_medians);
  medians.insert(medians.end(), c.head_process_medians.begin(), c.head_process_medians.end());
  std::sort(medians.begin(), medians.end());
  double gap = std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < medians.size(); ++i) {
    if (medians[i] > medians[i - 1]) gap = std::min(gap, medians[i] - medians[i - 1]);
  }
  const double level = medians.front();
  if (std::isfinite(gap) && variance >= variance_per_floor * process_variance_floor(2 * gap, level)) return 0;
  std::vector<double> all(b.begin(), b.end());
  all.insert(all.end(), h.begin(), h.end());
  c.timer_resolution = timer_resolution(all);
  return process_variance_floor(c.timer_resolution, level);
}

double log_variance(std::span<const double> base_logs, std::span<const double> head_logs, bool paired) {
  if (!paired) return std::min(sample_variance(base_logs), sample_variance(head_logs));
  std::vector<double> d(base_logs.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = head_logs[i] - base_logs[i];
  return sample_variance(d);
}

void fill_interval(CaseComparison& c, const SideSamples& base, const SideSamples& head, std::span<const double> b,
                   std::span<const double> h, ProcessPairing pairing, const CompareOptions& o) {
  c.base_processes = base.processes.size();
  c.head_processes = head.processes.size();
  if (c.base_processes >= 2 && c.head_processes >= 2) {
    std::vector<double> lb, lh;
    for (double m : c.base_process_medians) lb.push_back(std::log(m));
    for (double m : c.head_process_medians) lh.push_back(std::log(m));
    const bool paired = pairing != ProcessPairing::unpaired && c.base_processes == c.head_processes;
    // A difference of two grid-read medians carries twice the rounding variance of one.
    const double floor = grid_floor(c, b, h, log_variance(lb, lh, paired), paired ? 2 : 1);
    const LogTInterval t =
        paired ? paired_t_interval(lb, lh, o.confidence, 2 * floor) : welch_t_interval(lb, lh, o.confidence, floor);
    set_change_interval(c, t);
    c.interval_unit = "process";
    c.within_process_only = false;
    // compare_cases fills it in moderate_cases, from the interval the case ends with.
    c.detectable_change = o.defer_detectable ? kNaN
                                             : std::expm1(detectable_log_change(t.standard_error, t.df, o.confidence,
                                                                                std::log1p(o.threshold), kMdePower));
    fill_process_variance(c, base, head, lb, lh, o);
    return;
  }
  // One process on a side: the bootstrap over samples, which covers within-process noise only.
  const bool bca_ok = std::isfinite(c.bootstrap.bca_lower) && std::isfinite(c.bootstrap.bca_upper);
  const bool normal_limit = c.bootstrap.resamples == 0 && !c.bootstrap.exact;
  c.change_interval_method = normal_limit ? "median_normal" : bca_ok ? "bca" : "percentile";
  c.interval_unit = "sample";
  c.within_process_only = true;
  c.change_estimate = c.change;
  c.change_lower = (bca_ok ? c.bootstrap.bca_lower : c.bootstrap.percentile_lower) - 1;
  c.change_upper = (bca_ok ? c.bootstrap.bca_upper : c.bootstrap.percentile_upper) - 1;
  // Normal approximation on the log scale (delta method: se(log R) = se(R) / R) for the BH step.
  const double theta = 1 + c.change;
  const double se_log = c.bootstrap.standard_error / theta;
  const boost::math::normal_distribution<double> normal;
  if (se_log > 0 && std::isfinite(se_log)) {
    c.p_value = 2 * boost::math::cdf(boost::math::complement(normal, std::fabs(std::log(theta)) / se_log));
  } else {
    c.p_value = c.log_ratio == 0 ? 1.0 : 0.0;
  }
  // One launch per side: what the case could detect depends on the launch noise, which it cannot
  // see (moderate_cases reads it off the other cases); the old figure under assume_launches_identical.
  c.detectable_change = o.assume_launches_identical || o.exact_unit
                            ? detectable_from(std::log1p(c.change_lower), std::log1p(c.change_upper),
                                              boost::math::quantile(normal, (1 + o.confidence) / 2),
                                              boost::math::quantile(normal, kMdePower))
                            : kNaN;
  if (c.base_processes >= 2 || c.head_processes >= 2) {
    c.warnings.push_back("one process on a side: the interval covers within-process noise only");
  } else {
    c.warnings.push_back("one process per side: the interval covers within-process noise only");
  }
}

// Drift window of the inconclusive cause (compare/process_drift.hpp with k = 5).
constexpr std::size_t kCauseDriftK = 5;

// The larger over the two sides of |median over processes of the window change| (compare/process_drift.hpp),
// counted only when it reaches `limit` and stands out from the noise of those medians: |log drift| >= 3 se,
// se = sqrt(pi/2) sqrt(2/5) s / sqrt(m), s = 1.4826 MAD of the process's log samples (mean over the m
// processes with >= 10 samples); NaN when no side qualifies.
double within_process_drift(const SideSamples& base, const SideSamples& head, double limit) {
  constexpr std::size_t k = kCauseDriftK;
  double worst = kNaN;
  for (const SideSamples* side : {&base, &head}) {
    const ProcessDrift drift = process_drift(side->processes, k);
    const double d = std::fabs(drift.median_change);
    if (std::isnan(d) || !(d >= limit) || worst >= d) continue;
    double spread = 0;  // only for a drift that could be a cause: MADs of every long process
    for (const auto& p : side->processes) {
      if (p.size() < 2 * k) continue;
      std::vector<double> logs(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) logs[i] = std::log(p[i]);
      const double centre = median_inplace(logs);
      spread += kMadNormalScale * mad_inplace(logs, centre);
    }
    const double m = static_cast<double>(drift.processes);
    const double se = kMedianEfficiency * std::sqrt(2.0 / k) * (spread / m) / std::sqrt(m);
    if (std::fabs(std::log1p(d)) >= 3 * se) worst = d;
  }
  return worst;
}

}  // namespace

void set_change_interval(CaseComparison& c, const LogTInterval& t) {
  c.change_interval_method = t.method;
  c.change_estimate = std::expm1(t.estimate);
  c.change_lower = std::expm1(t.lower);
  c.change_upper = std::expm1(t.upper);
  c.interval_df = t.df;
  c.p_value = t.p_value;
}

void decide_case(CaseComparison& c, const CompareOptions& o) {
  std::optional<VerdictCode> gate;
  if (c.too_noisy)
    gate = VerdictCode::too_noisy;
  else if (c.within_process_only && c.too_few_samples)
    gate = VerdictCode::too_few_samples;
  VerdictDecision d = explain_verdict(c.change_estimate, c.change_lower, c.change_upper, gate, o);
  const bool one_launch = c.within_process_only && !o.exact_unit && !o.assume_launches_identical;
  if (one_launch && !gate && d.code != VerdictCode::no_interval) {
    d.verdict = Verdict::inconclusive;
    d.code = VerdictCode::one_launch_per_side;
  }
  c.verdict = d.verdict;
  c.verdict_code = d.code;
  c.threshold = o.threshold;
  c.alpha = o.alpha;
  c.confidence = o.confidence;
  c.direction = o.direction;
  c.inconclusive_cause = InconclusiveCause::none;
  if (c.verdict != Verdict::inconclusive) return;
  const std::size_t k = std::min(c.base_processes, c.head_processes);
  if (one_launch)
    c.inconclusive_cause = InconclusiveCause::one_launch;
  else if (gate)
    c.inconclusive_cause = InconclusiveCause::noise;
  else if (c.within_process_drift >= o.threshold / 2)
    c.inconclusive_cause = InconclusiveCause::drift;
  else if (k < 4)
    c.inconclusive_cause = InconclusiveCause::few_processes;
  else
    c.inconclusive_cause = InconclusiveCause::noise;
}

namespace {

void validate_options(const CompareOptions& o) {
  if (!(o.threshold >= 0)) throw InputError("threshold must be >= 0");
  if (!(o.alpha > 0 && o.alpha < 1)) throw InputError("alpha must be in (0, 1)");
  if (!(o.noise_limit > 0)) throw InputError("noise_limit must be > 0");
  if (!(o.confidence > 0 && o.confidence < 1)) throw InputError("confidence must be in (0, 1)");
  if (!(o.prior_excess_z >= 0)) throw InputError("prior_excess_z must be >= 0");
}

}  // namespace

std::string_view to_string(Direction d) noexcept {
  return d == Direction::lower_is_better ? "lower_is_better" : "higher_is_better";
}

std::string_view to_string(Verdict v) noexcept {
  switch (v) {
    case Verdict::faster: return "faster";
    case Verdict::slower: return "slower";
    case Verdict::inconclusive: return "inconclusive";
    case Verdict::equivalent: return "equivalent";
    case Verdict::unchanged: return "unchanged";
    case Verdict::added: return "added";
    case Verdict::removed: return "removed";
  }
  return "unknown";
}

std::string_view to_string(VerdictCode code) noexcept {
  switch (code) {
    case VerdictCode::within_threshold: return "within_threshold";
    case VerdictCode::beyond_threshold: return "beyond_threshold";
    case VerdictCode::below_threshold: return "below_threshold";
    case VerdictCode::straddles_zero: return "straddles_zero";
    case VerdictCode::too_noisy: return "too_noisy";
    case VerdictCode::too_few_samples: return "too_few_samples";
    case VerdictCode::no_interval: return "no_interval";
    case VerdictCode::fdr_adjusted: return "fdr_adjusted";
    case VerdictCode::exact_equal: return "exact_equal";
    case VerdictCode::exact_differs: return "exact_differs";
    case VerdictCode::one_launch_per_side: return "one_launch_per_side";
    case VerdictCode::contaminated: return "contaminated";
  }
  return "unknown";
}

std::string_view to_string(InconclusiveCause cause) noexcept {
  switch (cause) {
    case InconclusiveCause::none: return "";
    case InconclusiveCause::noise: return "noise";
    case InconclusiveCause::few_processes: return "few_processes";
    case InconclusiveCause::drift: return "drift";
    case InconclusiveCause::multiple_comparisons: return "multiple_comparisons";
    case InconclusiveCause::one_launch: return "one_launch";
    case InconclusiveCause::contamination: return "contamination";
  }
  return "unknown";
}

std::size_t min_samples_per_side(double alpha) {
  std::size_t n = 1;
  while (best_u_test_p(n, n) > alpha) ++n;
  return n;
}

VerdictDecision explain_verdict(double estimate, double lower, double upper, std::optional<VerdictCode> gate,
                                const CompareOptions& o) {
  const double t = o.threshold;
  const auto by_direction = [&](double change) {
    return is_worse(change, o.direction) ? Verdict::slower : Verdict::faster;
  };
  if (o.exact_unit) {
    if (estimate == 0) return {Verdict::unchanged, VerdictCode::exact_equal};
    return {by_direction(estimate), VerdictCode::exact_differs};
  }
  if (!(std::isfinite(lower) && std::isfinite(upper) && std::isfinite(estimate))) {
    return {Verdict::inconclusive, VerdictCode::no_interval};
  }
  if (gate) return {Verdict::inconclusive, *gate};
  if (lower > -t && upper < t) return {Verdict::equivalent, VerdictCode::within_threshold};
  if ((lower > 0 && estimate >= t) || (upper < 0 && estimate <= -t)) {
    return {by_direction(estimate), VerdictCode::beyond_threshold};
  }
  if (lower > 0 || upper < 0) return {Verdict::inconclusive, VerdictCode::below_threshold};
  return {Verdict::inconclusive, VerdictCode::straddles_zero};
}

Verdict decide_verdict(double estimate, double change_lower, double change_upper, bool gated, const CompareOptions& o) {
  return explain_verdict(estimate, change_lower, change_upper,
                         gated ? std::optional(VerdictCode::too_noisy) : std::nullopt, o)
      .verdict;
}

void control_false_discoveries(std::span<CaseComparison> cases, const CompareOptions& o) {
  control_false_discoveries(std::span<CaseComparison* const>(pointers_to(cases)), o);
}

void control_false_discoveries(std::span<CaseComparison* const> cases, const CompareOptions& o) {
  std::vector<std::size_t> primary_of(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) primary_of[i] = i;
  control_false_discoveries(cases, primary_of, o);
}

namespace {
void demote(CaseComparison& c, const CompareOptions& o) {
  const bool claims = c.verdict == Verdict::slower || c.verdict == Verdict::faster;
  if (!o.control_fdr || !claims || is_exact(c.verdict_code) || c.p_adjusted < o.alpha) return;
  c.verdict = Verdict::inconclusive;
  c.verdict_code = VerdictCode::fdr_adjusted;
  c.inconclusive_cause = InconclusiveCause::multiple_comparisons;
}
}  // namespace

void control_false_discoveries(std::span<CaseComparison* const> cases, std::span<const std::size_t> primary_of,
                               const CompareOptions& o) {
  if (primary_of.size() != cases.size()) throw InputError("control_false_discoveries: one primary index per case");
  std::vector<CaseComparison*> family;
  std::vector<double> p;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CaseComparison* c = cases[i];
    c->p_adjusted = c->p_value;
    if (o.exact_unit || !std::isfinite(c->p_value) || primary_of[i] != i) continue;
    family.push_back(c);
    p.push_back(c->p_value);
  }
  if (family.empty()) return;
  const std::vector<double> adjusted = adjust_bh(p);
  for (std::size_t j = 0; j < family.size(); ++j) {
    CaseComparison& c = *family[j];
    c.p_adjusted = std::max(adjusted[j], c.p_value);  // p m / m can round below p
    c.fdr_cases = family.size();
    demote(c, o);
  }
  // Metrics derived from a measurement follow its primary: a discovery only when the primary is one.
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::size_t primary = primary_of[i];
    if (primary == i || o.exact_unit || !std::isfinite(cases[i]->p_value)) continue;
    CaseComparison& c = *cases[i];
    const double gate = cases[primary]->p_adjusted;
    c.p_adjusted = std::isfinite(gate) ? std::max(c.p_value, gate) : c.p_value;
    c.fdr_cases = family.size();
    demote(c, o);
  }
}

CaseComparison compare_case(const SideSamples& base, const SideSamples& head, const CompareOptions& options,
                            std::string_view case_name, ProcessPairing pairing) {
  validate_options(options);
  validate_side(base, "base", case_name);
  validate_side(head, "head", case_name);
  CaseComparison c;
  c.case_name = std::string(case_name);
  const std::vector<double> b = base.pooled(), h = head.pooled();
  c.base_n = b.size();
  c.head_n = h.size();
  const SideSummary sb = summarize(b), sh = summarize(h);
  c.base_median = sb.median;
  c.head_median = sh.median;
  c.change = sh.median / sb.median - 1;
  c.log_ratio = std::log(sh.median / sb.median);
  c.base_mad_pct = 100 * sb.mad / sb.median;
  c.head_mad_pct = 100 * sh.mad / sh.median;
  c.base_robust_cv = kMadNormalScale * sb.mad / sb.median;
  c.head_robust_cv = kMadNormalScale * sh.mad / sh.median;
  try {
    fill_processes(c, base, head, options);
    fill_paired_test(c, options);
    fill_estimators(c, b, h, options);
    fill_tests(c, b, h, options);
    fill_power(c, options);
    // With processes on both sides the interval is process-level (fill_interval): resampling
    // every sample would cost resamples x n and decide nothing.
    if (base.processes.size() < 2 || head.processes.size() < 2) {
      fill_bootstrap(c, base, head, b, h, options);
    } else {
      c.bootstrap = BootstrapInterval{.estimate = c.change + 1,
                                      .percentile_lower = kNaN,
                                      .percentile_upper = kNaN,
                                      .bca_lower = kNaN,
                                      .bca_upper = kNaN,
                                      .standard_error = kNaN};
    }
    fill_interval(c, base, head, b, h, pairing, options);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", case_label(case_name), e.what()));
  }
  if (c.mann_whitney.method == TestMethod::asymptotic && (c.base_n <= 8 || c.head_n <= 8)) {
    c.warnings.push_back("Mann-Whitney U used the normal approximation (ties present)");
  }
  c.within_process_drift = within_process_drift(base, head, options.threshold / 2);
  decide_case(c, options);
  c.p_adjusted = c.p_value;
  return c;
}

namespace {
// FNV-1a over the case name: a case keeps its bootstrap stream whatever order
// the inputs were read in (unnamed cases fall back to their index).
std::uint64_t case_stream(std::string_view name, std::size_t index) {
  if (name.empty()) return index;
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ULL;
  return h;
}
}  // namespace

std::vector<CaseComparison> compare_cases(std::span<const CaseInput> cases, const CompareOptions& options,
                                          unsigned threads) {
  std::vector<CaseComparison> out(cases.size());
  run_indexed(cases.size(), threads, [&](std::size_t i) {
    CompareOptions per_case = options;
    per_case.stream = case_stream(cases[i].name, i);
    per_case.defer_detectable = true;
    out[i] = compare_case(cases[i].base, cases[i].head, per_case, cases[i].name, cases[i].pairing);
  });
  std::vector<const LaunchNoise*> noise(cases.size(), nullptr);
  std::vector<ProcessPairing> pairing(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].launch_noise) noise[i] = &*cases[i].launch_noise;
    pairing[i] = cases[i].pairing;
  }
  apply_launch_noise(pointers_to(std::span<CaseComparison>(out)), noise, pairing, options, threads);
  moderate_cases(pointers_to(std::span<CaseComparison>(out)), options, threads);
  control_false_discoveries(out, options);
  return out;
}

}  // namespace benchreport

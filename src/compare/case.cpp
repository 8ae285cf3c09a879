#include "benchreport/compare/case.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/stats/order_stats.hpp"

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
        throw InputError(fmt::format("{}: {} process {} sample {} is {} (expected a positive value: changes are "
                                     "ratios)", case_label(name), which, p, i, v));
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
  const std::size_t pairs = std::min(base.processes.size(), head.processes.size());
  if (base.processes.size() != head.processes.size()) {
    c.warnings.push_back(fmt::format("base has {} processes and head {}: only the first {} are paired",
                                     base.processes.size(), head.processes.size(), pairs));
  }
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
    c.wilcoxon_unavailable_reason =
        fmt::format("needs at least {} process pairs, have {}", kMinWilcoxonPairs, pairs);
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
    c.warnings.push_back(fmt::format("the paired process test cannot reach alpha = {} with {} nonzero pairs",
                                     o.alpha, c.wilcoxon.n_used));
  }
}

void fill_estimators(CaseComparison& c, std::span<const double> b, std::span<const double> h,
                     const CompareOptions& o) {
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
    c.warnings.push_back(fmt::format("Hodges-Lehmann bounds cannot reach misrate {} with {} and {} samples "
                                     "(achieved {:.3g})", o.misrate, b.size(), h.size(),
                                     c.shift_bounds.achieved_misrate));
  } else if (c.disparity_bounds.achieved_misrate > o.misrate) {
    // The spread bounds (misrate/4 each) are the part that runs out: their sign test on
    // floor(n/2) pairs reaches at best 2 * 2^-pairs.
    const auto pairs = static_cast<std::size_t>(std::ceil(std::log2(8.0 / o.misrate)));
    c.warnings.push_back(fmt::format("disparity bounds cannot reach misrate {} with {} and {} samples (achieved {:.3g}; "
                                     "the spread bounds need >= {} samples per side)", o.misrate, b.size(), h.size(),
                                     c.disparity_bounds.achieved_misrate, 2 * pairs));
  }
}

void fill_tests(CaseComparison& c, std::span<const double> b, std::span<const double> h, const CompareOptions& o) {
  c.mann_whitney = mann_whitney_u(b, h);
  const double pairs = static_cast<double>(b.size()) * static_cast<double>(h.size());
  const double base_above = c.mann_whitney.u / pairs;  // P(base > head) + ties / 2
  c.prob_head_better = o.direction == Direction::lower_is_better ? base_above : 1 - base_above;
  c.brunner_munzel_available = b.size() >= 2 && h.size() >= 2;
  if (c.brunner_munzel_available) c.brunner_munzel = brunner_munzel(b, h);
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

void fill_interval(CaseComparison& c, const SideSamples& base, const SideSamples& head, const CompareOptions& o) {
  Xoshiro256 rng = Xoshiro256::for_stream(o.seed, o.stream);
  c.bootstrap = bootstrap_median_ratio_ci(base, head, BootstrapOptions{o.resamples, o.confidence}, rng);
  const bool bca_ok = std::isfinite(c.bootstrap.bca_lower) && std::isfinite(c.bootstrap.bca_upper);
  c.change_interval_method = bca_ok ? "bca" : "percentile";
  c.change_lower = (bca_ok ? c.bootstrap.bca_lower : c.bootstrap.percentile_lower) - 1;
  c.change_upper = (bca_ok ? c.bootstrap.bca_upper : c.bootstrap.percentile_upper) - 1;
}

void validate_options(const CompareOptions& o) {
  if (!(o.threshold >= 0)) throw InputError("threshold must be >= 0");
  if (!(o.alpha > 0 && o.alpha < 1)) throw InputError("alpha must be in (0, 1)");
  if (!(o.noise_limit > 0)) throw InputError("noise_limit must be > 0");
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
  }
  return "unknown";
}

std::size_t min_samples_per_side(double alpha) {
  std::size_t n = 1;
  while (best_u_test_p(n, n) > alpha) ++n;
  return n;
}

Verdict decide_verdict(double change, double change_lower, double change_upper, bool gated,
                       const CompareOptions& o) {
  const Verdict worse = Verdict::slower, better = Verdict::faster;
  if (o.exact_unit) {
    if (change == 0) return Verdict::unchanged;
    return is_worse(change, o.direction) ? worse : better;
  }
  if (std::fabs(change) >= o.threshold) {
    const bool interval_excludes_zero = change > 0 ? change_lower > 0 : change_upper < 0;
    if (!gated && interval_excludes_zero) return is_worse(change, o.direction) ? worse : better;
    return Verdict::inconclusive;
  }
  if (!gated && change_lower > -o.threshold && change_upper < o.threshold) return Verdict::equivalent;
  return Verdict::unchanged;
}

CaseComparison compare_case(const SideSamples& base, const SideSamples& head, const CompareOptions& options,
                            std::string_view case_name) {
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
    fill_interval(c, base, head, options);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", case_label(case_name), e.what()));
  }
  if (c.mann_whitney.method == TestMethod::asymptotic && (c.base_n <= 8 || c.head_n <= 8)) {
    c.warnings.push_back("Mann-Whitney U used the normal approximation (ties present)");
  }
  c.verdict = decide_verdict(c.change, c.change_lower, c.change_upper, c.too_noisy || c.too_few_samples, options);
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
    out[i] = compare_case(cases[i].base, cases[i].head, per_case, cases[i].name);
  });
  return out;
}

}  // namespace benchreport

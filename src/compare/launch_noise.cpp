#include "benchreport/compare/launch_noise.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "benchreport/compare/moderation.hpp"
#include "benchreport/compare/process_interval.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/stats/moderated_t.hpp"

namespace benchreport {
namespace {

constexpr double kPower = 0.8;

double mean_log(const std::vector<double>& medians) {
  double s = 0;
  for (double m : medians) s += std::log(m);
  return s / static_cast<double>(medians.size());
}

// The interval of a case from the store's (moderated) launch variance.
LogTInterval store_interval(const CaseComparison& c, const ModeratedVariance& launch, const CompareOptions& o) {
  const double kb = static_cast<double>(c.base_processes), kh = static_cast<double>(c.head_processes);
  if (c.base_processes >= 2 && c.head_processes >= 2) {
    // Empirical Bayes: the store's launch variance is the prior of this case's own process variance.
    const ProcessVariance own = case_process_variance(c);
    VariancePrior prior;
    prior.d0 = launch.df;
    // A paired difference of two independent launches has twice one launch's variance (an upper
    // bound when base and head share a host: the store's runs cannot show that sharing).
    prior.s0_squared = (own.paired ? 2 : 1) * launch.variance;
    prior.pooled_df = std::numeric_limits<double>::infinity();
    prior.fallback = PriorFallback::none;
    const ModeratedVariance post = moderate_variance(own.variance, own.df, prior);
    return t_interval(own.paired ? "store_moderated_paired_t" : "store_moderated_pooled_t", own.estimate, post.variance,
                      own.factor, post.df, o.confidence);
  }
  const double estimate = mean_log(c.head_process_medians) - mean_log(c.base_process_medians);
  return t_interval("store_launch_t", estimate, launch.variance, 1 / kb + 1 / kh, launch.df, o.confidence);
}

void use_store(CaseComparison& c, const LaunchNoise& noise, const ModeratedVariance& launch, const CompareOptions& o) {
  const LogTInterval t = store_interval(c, launch, o);
  set_change_interval(c, t);
  c.interval_unit = "process";
  c.within_process_only = false;
  c.prior_df = launch.df;
  c.launch_noise_runs = noise.runs;
  c.launch_noise_sd = std::sqrt(launch.variance);
  c.detectable_change =
      std::expm1(detectable_log_change(t.standard_error, t.df, o.confidence, std::log1p(o.threshold), kPower));
  std::erase_if(c.warnings, [](const std::string& w) { return w.find("within-process noise only") != w.npos; });
  decide_case(c, o);
}

}  // namespace

void apply_launch_noise(std::span<CaseComparison* const> cases, std::span<const LaunchNoise* const> noise,
                        const CompareOptions& o, unsigned threads) {
  if (noise.size() != cases.size()) throw InputError("apply_launch_noise: one launch-noise entry per case");
  std::vector<std::size_t> used;
  std::vector<double> variances, dfs;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (noise[i] == nullptr) continue;
    cases[i]->launch_noise = describe_launch_noise(*noise[i]);
    if (o.exact_unit || is_exact(cases[i]->verdict_code) || !noise[i]->usable) continue;
    used.push_back(i);
    variances.push_back(noise[i]->variance);
    dfs.push_back(noise[i]->df);
  }
  // The cases' launch variances share a prior too (Smyth 2004): a case with 10 stored runs borrows
  // the df of the others when their variances agree.
  const VariancePrior prior = o.moderate ? estimate_variance_prior(variances, dfs, o.prior_excess_z) : VariancePrior{};
  run_indexed(used.size(), threads, [&](std::size_t j) {
    const std::size_t i = used[j];
    use_store(*cases[i], *noise[i], moderate_variance(variances[j], dfs[j], prior), o);
  });
}

}  // namespace benchreport

#include "benchreport/compare/launch_noise.hpp"

#include <array>
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

// Whether the case's processes pair one to one (base_i and head_i on one host): as fill_interval
// decides for >= 2 per side; with one per side only when the caller said so (equal pair labels).
bool is_paired(const CaseComparison& c, ProcessPairing pairing) {
  if (c.base_processes != c.head_processes || pairing == ProcessPairing::unpaired) return false;
  return c.base_processes >= 2 ? c.change_interval_method == "paired_t" : pairing == ProcessPairing::paired;
}

// The interval of a case from the store's (moderated) variance of one launch: all of it, or (paired
// cases) its unshared part, which is all a difference of two processes on one host sees.
LogTInterval store_interval(const CaseComparison& c, const ModeratedVariance& launch, bool unshared,
                            const CompareOptions& o) {
  const double kb = static_cast<double>(c.base_processes), kh = static_cast<double>(c.head_processes);
  if (c.base_processes >= 2 && c.head_processes >= 2) {
    // Empirical Bayes: the store's launch variance is the prior of this case's own process variance.
    const ProcessVariance own = case_process_variance(c);
    VariancePrior prior;
    prior.d0 = launch.df;
    // A paired difference has twice one launch's variance: the unshared part when the store shows it,
    // else all of it (an upper bound when base and head share a host).
    prior.s0_squared = (own.paired ? 2 : 1) * launch.variance;
    prior.pooled_df = std::numeric_limits<double>::infinity();
    prior.fallback = PriorFallback::none;
    const ModeratedVariance post = moderate_variance(own.variance, own.df, prior);
    return t_interval(own.paired ? "store_moderated_paired_t" : "store_moderated_pooled_t", own.estimate, post.variance,
                      own.factor, post.df, o.confidence);
  }
  // One process a side; paired, kb = kh = 1 and (1/kb + 1/kh) = 2 is the difference's factor too.
  const double estimate = mean_log(c.head_process_medians) - mean_log(c.base_process_medians);
  return t_interval(unshared ? "store_paired_launch_t" : "store_launch_t", estimate, launch.variance, 1 / kb + 1 / kh,
                    launch.df, o.confidence);
}

void use_store(CaseComparison& c, std::size_t runs, const ModeratedVariance& launch, bool unshared,
               const CompareOptions& o) {
  const LogTInterval t = store_interval(c, launch, unshared, o);
  set_change_interval(c, t);
  c.interval_unit = "process";
  c.within_process_only = false;
  c.prior_df = launch.df;
  c.launch_noise_runs = runs;
  c.launch_noise_sd = std::sqrt(launch.variance);
  c.detectable_change =
      std::expm1(detectable_log_change(t.standard_error, t.df, o.confidence, std::log1p(o.threshold), kPower));
  std::erase_if(c.warnings, [](const std::string& w) { return w.find("within-process noise only") != w.npos; });
  decide_case(c, o);
}

// The cases using one kind of store variance (all of a launch's, or its unshared part): their own
// estimates, moderated together.
struct StoreGroup {
  bool unshared = false;
  std::vector<std::size_t> cases;
  std::vector<double> variances, dfs;
  VariancePrior prior;
};

}  // namespace

void apply_launch_noise(std::span<CaseComparison* const> cases, std::span<const LaunchNoise* const> noise,
                        std::span<const ProcessPairing> pairing, const CompareOptions& o, unsigned threads) {
  if (noise.size() != cases.size() || pairing.size() != cases.size())
    throw InputError("apply_launch_noise: one launch-noise entry and one pairing per case");
  std::array<StoreGroup, 2> groups;
  groups[1].unshared = true;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (noise[i] == nullptr) continue;
    const LaunchNoise& n = *noise[i];
    const bool paired = is_paired(*cases[i], pairing[i]);
    cases[i]->launch_noise = describe_launch_noise(n, paired);
    if (o.exact_unit || is_exact(cases[i]->verdict_code)) continue;
    const bool unshared = paired && n.unshared_usable;
    if (!unshared && !n.usable) continue;
    StoreGroup& g = groups[unshared ? 1 : 0];
    g.cases.push_back(i);
    g.variances.push_back(unshared ? n.unshared_variance : n.variance);
    g.dfs.push_back(unshared ? n.unshared_df : n.df);
  }
  // The cases' variances of one kind share a prior too (Smyth 2004): a case with 10 stored runs borrows
  // the df of the others when their variances agree.
  for (StoreGroup& g : groups) {
    if (o.moderate) g.prior = estimate_variance_prior(g.variances, g.dfs, o.prior_excess_z);
    run_indexed(g.cases.size(), threads, [&](std::size_t j) {
      const std::size_t i = g.cases[j];
      const std::size_t runs = g.unshared ? noise[i]->unshared_runs : noise[i]->runs;
      use_store(*cases[i], runs, moderate_variance(g.variances[j], g.dfs[j], g.prior), g.unshared, o);
    });
  }
}

}  // namespace benchreport

#include "benchreport/compare/moderation.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <map>
#include <vector>

#include "benchreport/compare/process_interval.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/stats/moderated_t.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/stats/robust_prior.hpp"

namespace benchreport {
namespace {

constexpr double kPower = 0.8;

struct Member {
  CaseComparison* c;
  ProcessVariance v;
  ProcessVariance sides;  // paired: the pooled variance of the two sides' log medians (unpaired: unused)
};

std::vector<double> logs_of(const std::vector<double>& medians) {
  std::vector<double> out(medians.size());
  std::transform(medians.begin(), medians.end(), out.begin(), [](double m) { return std::log(m); });
  return out;
}

ProcessVariance case_variance(const CaseComparison& c, bool paired) {
  const std::vector<double> lb = logs_of(c.base_process_medians), lh = logs_of(c.head_process_medians);
  const double level = std::min(*std::min_element(c.base_process_medians.begin(), c.base_process_medians.end()),
                                *std::min_element(c.head_process_medians.begin(), c.head_process_medians.end()));
  return process_variance(lb, lh, paired, process_variance_floor(c.timer_resolution, level));
}

}  // namespace

ProcessVariance case_process_variance(const CaseComparison& c) {
  return case_variance(c, c.change_interval_method == "paired_t");
}

namespace {

// The detectable change of a case that keeps its own t, read off its interval (se = half-width / q).
void own_detectable(CaseComparison& c, const CompareOptions& o) {
  if (!std::isnan(c.detectable_change) || !(c.interval_df > 0)) return;
  const double q =
      std::isinf(c.interval_df)
          ? boost::math::quantile(boost::math::normal_distribution<double>(), (1 + o.confidence) / 2)
          : boost::math::quantile(boost::math::students_t_distribution<double>(c.interval_df), (1 + o.confidence) / 2);
  const double se = (std::log1p(c.change_upper) - std::log1p(c.change_lower)) / (2 * q);
  c.detectable_change =
      std::expm1(detectable_log_change(se, c.interval_df, o.confidence, std::log1p(o.threshold), kPower));
}

void apply_prior(std::vector<Member>& members, const CompareOptions& o, unsigned threads) {
  std::vector<double> variances, dfs;
  for (const Member& m : members) {
    variances.push_back(m.v.variance);
    dfs.push_back(m.v.df);
  }
  const double z = prior_excess_z_for(dfs, o.prior_excess_z);
  VariancePrior prior = o.moderate ? estimate_robust_variance_prior(variances, dfs, z) : VariancePrior{};
  if (!(prior.d0 > 0)) {  // too few or too heterogeneous: every case keeps its own t
    run_indexed(members.size(), threads, [&](std::size_t i) { own_detectable(*members[i].c, o); });
    return;
  }
  if (!members.empty() && members.front().v.paired) {
    // A paired case's variance of d has K - 1 df, too few to tell a very noisy case whose spread
    // of d came out small; its sides' spreads (2K - 2 df, of the same launch scale) still show it.
    std::vector<double> sides, side_dfs;
    for (const Member& m : members) {
      sides.push_back(m.sides.variance);
      side_dfs.push_back(m.sides.df);
    }
    limit_case_d0(prior, outlier_shares(sides, side_dfs));
  }
  // Cases with equal own df share the moderated df, so the t quantile is computed once per df.
  std::map<double, double> quantiles;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const double df = moderate_variance(members[i].v.variance, members[i].v.df, prior, i).df;
    if (quantiles.count(df) == 0) {
      quantiles[df] =
          std::isinf(df)
              ? boost::math::quantile(boost::math::normal_distribution<double>(), (1 + o.confidence) / 2)
              : boost::math::quantile(boost::math::students_t_distribution<double>(df), (1 + o.confidence) / 2);
    }
  }
  run_indexed(members.size(), threads, [&](std::size_t i) {
    const Member& m = members[i];
    CaseComparison& c = *m.c;
    const ModeratedVariance post = moderate_variance(m.v.variance, m.v.df, prior, i);
    const double q = quantiles.at(post.df);
    const LogTInterval t = t_interval(m.v.paired ? "moderated_paired_t" : "moderated_pooled_t", m.v.estimate,
                                      post.variance, m.v.factor, post.df, o.confidence, q);
    set_change_interval(c, t);
    c.prior_df = prior.d0_of(i);
    c.detectable_change =
        std::expm1(detectable_log_change(t.standard_error, t.df, o.confidence, std::log1p(o.threshold), kPower, q));
    decide_case(c, o);
  });
}

// One launch per side: the change that would stand out from the spread of all such cases.
void one_launch_detectable(std::span<CaseComparison* const> cases, const CompareOptions& o) {
  std::vector<CaseComparison*> members;
  std::vector<double> logs;
  for (CaseComparison* c : cases) {
    if (c->inconclusive_cause != InconclusiveCause::one_launch || !std::isfinite(c->change_estimate)) continue;
    members.push_back(c);
    logs.push_back(std::log1p(c->change_estimate));
  }
  if (members.size() < 3) return;
  std::vector<double> work(logs);
  const double centre = median_inplace(work);
  const double scale = kMadNormalScale * mad_inplace(work, centre);
  if (!(scale > 0)) return;
  const double x = std::expm1(detectable_log_change(scale, std::numeric_limits<double>::infinity(), o.confidence,
                                                    std::log1p(o.threshold), kPower));
  // Its reason (report/verdict_text.hpp) says a change would have to reach x to stand out.
  for (CaseComparison* c : members) c->detectable_change = x;
}

}  // namespace

void moderate_cases(std::span<CaseComparison* const> cases, const CompareOptions& o, unsigned threads) {
  if (o.exact_unit) return;
  one_launch_detectable(cases, o);
  std::vector<Member> paired, unpaired;
  for (CaseComparison* c : cases) {
    // Cases whose interval uses the store's launch noise (apply_launch_noise) are done.
    if (c->interval_unit != "process" || is_exact(c->verdict_code) || c->launch_noise_runs > 0) continue;
    const ProcessVariance v = case_process_variance(*c);
    if (v.paired) {
      paired.push_back({c, v, case_variance(*c, false)});
    } else {
      unpaired.push_back({c, v, {}});
    }
  }
  apply_prior(paired, o, threads);
  apply_prior(unpaired, o, threads);
}

}  // namespace benchreport

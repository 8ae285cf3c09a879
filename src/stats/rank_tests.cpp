#include "benchreport/stats/rank_tests.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "benchreport/core/error.hpp"

namespace benchreport {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// scipy.stats.wilcoxon(method="auto"): exact up to 50 differences, enumeration
// of sign flips up to 13 when there are ties or zeros, otherwise asymptotic.
constexpr std::size_t kWilcoxonExactMax = 50;
constexpr std::size_t kWilcoxonEnumerateMax = 13;

double normal_sf(double z) {
  if (std::isnan(z)) return kNaN;
  if (z == std::numeric_limits<double>::infinity()) return 0.0;
  if (z == -std::numeric_limits<double>::infinity()) return 1.0;
  return boost::math::cdf(boost::math::complement(boost::math::normal_distribution<double>(), z));
}

void require_finite(std::span<const double> v, std::string_view what) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw InputError(std::string(what) + ": value at index " + std::to_string(i) + " is not finite");
    }
  }
}

void require_non_empty(std::span<const double> v, std::string_view what) {
  if (v.empty()) throw InputError(std::string(what) + ": expected at least one sample, got none");
}

// Sum over tie groups of (t^3 - t) for already sorted values.
double tie_term_sorted(std::span<const double> sorted) {
  double term = 0;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    const auto t = static_cast<double>(j - i);
    term += t * t * t - t;
    i = j;
  }
  return term;
}

std::vector<double> concat(std::span<const double> x, std::span<const double> y) {
  std::vector<double> xy(x.begin(), x.end());
  xy.insert(xy.end(), y.begin(), y.end());
  return xy;
}

double mean_of(std::span<const double> v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// Two-sided p-value of an exact discrete null given P(T <= k) and P(T >= k) style tails.
double two_sided(double p_less, double p_greater) { return std::clamp(2.0 * std::min(p_less, p_greater), 0.0, 1.0); }

}  // namespace

std::string_view to_string(TestMethod m) noexcept {
  switch (m) {
    case TestMethod::exact: return "exact";
    case TestMethod::permutation: return "permutation";
    case TestMethod::asymptotic: return "asymptotic";
  }
  return "unknown";
}

namespace {

// Average 1-based ranks and the tie term sum (t^3 - t) of one sort. Sorting (value, index)
// pairs keeps the comparisons on contiguous memory (an index sort compares through v[],
// a cache miss per comparison on large samples); order within ties does not matter.
struct RanksAndTies {
  std::vector<double> ranks;   // among all values
  std::vector<double> within;  // among values on the same side of `split` (when asked)
  double tie_term = 0;
};

// `split` > 0: values [0, split) and [split, n) are two samples, and `within` gets each
// value's average rank inside its own sample from the same sort (tied values of one
// sample are tied in the pooled order too, so they form one run there).
RanksAndTies ranks_and_ties(std::span<const double> v, std::size_t split = 0) {
  std::vector<std::pair<double, std::size_t>> order(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) order[i] = {v[i], i};
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  RanksAndTies out;
  out.ranks.resize(v.size());
  if (split > 0) out.within.resize(v.size());
  std::size_t seen_first = 0, seen_second = 0;  // values of each sample before this run
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i, first = 0;
    for (; j < order.size() && order[j].first == order[i].first; ++j) first += order[j].second < split;
    // Tied values share the mean of the 1-based ranks i+1 .. j.
    const double shared = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    const std::size_t second = j - i - first;
    const double shared_first = static_cast<double>(seen_first) + (static_cast<double>(first) + 1) / 2.0;
    const double shared_second = static_cast<double>(seen_second) + (static_cast<double>(second) + 1) / 2.0;
    for (std::size_t k = i; k < j; ++k) {
      out.ranks[order[k].second] = shared;
      if (split > 0) out.within[order[k].second] = order[k].second < split ? shared_first : shared_second;
    }
    seen_first += first;
    seen_second += second;
    const auto t = static_cast<double>(j - i);
    out.tie_term += t * t * t - t;
    i = j;
  }
  return out;
}

}  // namespace

std::vector<double> average_ranks(std::span<const double> v) { return ranks_and_ties(v).ranks; }

double log_binomial(std::size_t n, std::size_t k) {
  return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(k) + 1) -
         std::lgamma(static_cast<double>(n - k) + 1);
}

double binomial_coefficient(std::size_t n, std::size_t k) {
  if (k > n) return 0;
  k = std::min(k, n - k);
  std::uint64_t c = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    const std::uint64_t factor = n - k + i;
    if (c > std::numeric_limits<std::uint64_t>::max() / factor) return std::exp(log_binomial(n, k));
    c = c * factor / i;  // exact: C(n - k + i, i) = C(n - k + i - 1, i - 1) * (n - k + i) / i
  }
  return static_cast<double>(c);
}

std::vector<double> mann_whitney_counts(std::size_t n, std::size_t m, std::size_t u_max) {
  // U(n, m) and U(m, n) have the same distribution; the table is indexed by
  // the smaller side. f(a, b, u) = f(a-1, b, u-b) + f(a, b-1, u): the largest
  // of a+b values is either an x above all b y's (adds b to U) or a y.
  const std::size_t small = std::min(n, m);
  const std::size_t large = std::max(n, m);
  u_max = std::min(u_max, n * m);
  std::vector<std::vector<double>> f(small + 1, std::vector<double>(u_max + 1, 0.0));
  for (auto& row : f) row[0] = 1.0;  // b = 0: no y's, U = 0
  for (std::size_t b = 1; b <= large; ++b) {
    for (std::size_t a = 1; a <= small; ++a) {
      for (std::size_t u = b; u <= u_max; ++u) f[a][u] += f[a - 1][u - b];
    }
  }
  return f[small];
}

namespace {

void check_mann_whitney(std::span<const double> x, std::span<const double> y) {
  require_non_empty(x, "mann_whitney_u: x");
  require_non_empty(y, "mann_whitney_u: y");
  require_finite(x, "mann_whitney_u: x");
  require_finite(y, "mann_whitney_u: y");
}

void check_brunner_munzel(std::span<const double> x, std::span<const double> y) {
  require_finite(x, "brunner_munzel: x");
  require_finite(y, "brunner_munzel: y");
  if (x.size() < 2 || y.size() < 2) {
    throw InputError("brunner_munzel: expected at least 2 samples on each side, got " + std::to_string(x.size()) +
                     " and " + std::to_string(y.size()));
  }
}

// From the ranks of x (the first n1 values) and y pooled.
MannWhitneyResult mann_whitney_ranked(const RanksAndTies& ranked, std::size_t n1, std::size_t n2) {
  const std::vector<double>& ranks = ranked.ranks;
  const double r1 = std::accumulate(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(n1), 0.0);
  const double n1d = static_cast<double>(n1);
  const double n2d = static_cast<double>(n2);
  MannWhitneyResult result;
  result.u = r1 - n1d * (n1d + 1) / 2;
  const double u2 = n1d * n2d - result.u;
  const double u_big = std::max(result.u, u2);

  const double tie_term = ranked.tie_term;
  const bool ties = tie_term > 0;
  const bool want_exact = (n1 <= 8 || n2 <= 8) && !ties;
  const auto u_small = static_cast<std::size_t>(std::min(result.u, u2));
  const double exact_cost =
      static_cast<double>(std::min(n1, n2)) * static_cast<double>(std::max(n1, n2)) * static_cast<double>(u_small + 1);
  if (want_exact && exact_cost <= kMannWhitneyExactBudget && n1 + n2 <= 1000) {
    // P(U >= u_big) = P(U <= u_small) by symmetry.
    const std::vector<double> counts = mann_whitney_counts(n1, n2, u_small);
    const double tail = std::accumulate(counts.begin(), counts.end(), 0.0);
    result.p_value = std::clamp(2.0 * tail / binomial_coefficient(n1 + n2, n1), 0.0, 1.0);
    result.method = TestMethod::exact;
    return result;
  }
  const double n = n1d + n2d;
  const double variance = n1d * n2d / 12.0 * ((n + 1) - tie_term / (n * (n - 1)));
  result.method = TestMethod::asymptotic;
  if (!(variance > 0)) {
    result.p_value = 1.0;  // every value tied: no evidence either way
    return result;
  }
  const double z = (u_big - n1d * n2d / 2 - 0.5) / std::sqrt(variance);
  result.p_value = std::clamp(2.0 * normal_sf(z), 0.0, 1.0);
  return result;
}

// From pooled and within-sample ranks (ranks_and_ties with split = n1).
BrunnerMunzelResult brunner_munzel_ranked(const RanksAndTies& ranked, std::size_t n1, std::size_t n2) {
  const double nx = static_cast<double>(n1);
  const double ny = static_cast<double>(n2);
  const std::span<const double> rcx(ranked.ranks.data(), n1);
  const std::span<const double> rcy(ranked.ranks.data() + n1, n2);
  const std::span<const double> rx(ranked.within.data(), n1);
  const std::span<const double> ry(ranked.within.data() + n1, n2);
  const double mcx = mean_of(rcx), mcy = mean_of(rcy), mx = mean_of(rx), my = mean_of(ry);
  // Placement variances: rank among all minus rank within the own sample.
  auto placement_variance = [](std::span<const double> rc, std::span<const double> r, double mc, double m) {
    double s = 0;
    for (std::size_t i = 0; i < rc.size(); ++i) {
      const double t = rc[i] - r[i] - mc + m;
      s += t * t;
    }
    return s / static_cast<double>(rc.size() - 1);
  };
  const double sx = placement_variance(rcx, rx, mcx, mx);
  const double sy = placement_variance(rcy, ry, mcy, my);
  BrunnerMunzelResult result;
  result.statistic = nx * ny * (mcy - mcx) / ((nx + ny) * std::sqrt(nx * sx + ny * sy));
  const double df_num = (nx * sx + ny * sy) * (nx * sx + ny * sy);
  const double df_den = (nx * sx) * (nx * sx) / (nx - 1) + (ny * sy) * (ny * sy) / (ny - 1);
  result.df = df_num / df_den;
  if (!std::isfinite(result.df) || !(result.df > 0) || std::isnan(result.statistic)) {
    result.p_value = kNaN;  // degenerate (e.g. complete separation): scipy returns NaN too
    return result;
  }
  const boost::math::students_t_distribution<double> t(result.df);
  const double w = -result.statistic;
  double cdf_w = 0, sf_w = 0;
  if (std::isinf(w)) {
    cdf_w = w < 0 ? 0.0 : 1.0;
    sf_w = 1.0 - cdf_w;
  } else {
    cdf_w = boost::math::cdf(t, w);
    sf_w = boost::math::cdf(boost::math::complement(t, w));
  }
  result.p_value = two_sided(cdf_w, sf_w);
  return result;
}

}  // namespace

MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y) {
  check_mann_whitney(x, y);
  return mann_whitney_ranked(ranks_and_ties(concat(x, y)), x.size(), y.size());
}

BrunnerMunzelResult brunner_munzel(std::span<const double> x, std::span<const double> y) {
  check_brunner_munzel(x, y);
  return brunner_munzel_ranked(ranks_and_ties(concat(x, y), x.size()), x.size(), y.size());
}

PooledRankTests pooled_rank_tests(std::span<const double> x, std::span<const double> y) {
  check_mann_whitney(x, y);
  PooledRankTests out;
  out.brunner_munzel_available = x.size() >= 2 && y.size() >= 2;
  const RanksAndTies ranked = ranks_and_ties(concat(x, y), out.brunner_munzel_available ? x.size() : 0);
  out.mann_whitney = mann_whitney_ranked(ranked, x.size(), y.size());
  if (out.brunner_munzel_available) out.brunner_munzel = brunner_munzel_ranked(ranked, x.size(), y.size());
  return out;
}

std::vector<double> signed_rank_counts(std::size_t n) {
  const std::size_t total = n * (n + 1) / 2;
  std::vector<double> c(total + 1, 0.0);
  c[0] = 1.0;
  for (std::size_t k = 1; k <= n; ++k) {
    for (std::size_t s = k * (k + 1) / 2; s >= k; --s) c[s] += c[s - k];
  }
  return c;
}

namespace {

// Exact two-sided p-value by enumerating all 2^n sign assignments of `ranks`.
double signed_rank_enumerated_p(std::span<const double> ranks, double r_plus) {
  const std::size_t n = ranks.size();
  const double gamma = std::fabs(r_plus) * std::numeric_limits<double>::epsilon() * 100;
  std::size_t less = 0, greater = 0;
  const std::uint64_t combos = std::uint64_t{1} << n;
  for (std::uint64_t mask = 0; mask < combos; ++mask) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if ((mask >> i) & 1U) s += ranks[i];
    }
    less += s <= r_plus + gamma ? 1 : 0;
    greater += s >= r_plus - gamma ? 1 : 0;
  }
  const auto total = static_cast<double>(combos);
  return two_sided(static_cast<double>(less) / total, static_cast<double>(greater) / total);
}

}  // namespace

WilcoxonResult wilcoxon_signed_rank(std::span<const double> d) {
  require_finite(d, "wilcoxon_signed_rank");
  std::vector<double> abs_nonzero;
  std::vector<bool> positive;
  for (double v : d) {
    if (v == 0) continue;
    abs_nonzero.push_back(std::fabs(v));
    positive.push_back(v > 0);
  }
  if (abs_nonzero.empty()) throw InputError("wilcoxon_signed_rank: expected at least one nonzero difference");
  const std::size_t n = abs_nonzero.size();
  const bool has_zeros = n < d.size();
  const std::vector<double> ranks = average_ranks(abs_nonzero);
  WilcoxonResult result;
  result.n_used = n;
  double r_minus = 0;
  for (std::size_t i = 0; i < n; ++i) (positive[i] ? result.r_plus : r_minus) += ranks[i];
  result.statistic = std::min(result.r_plus, r_minus);
  std::vector<double> sorted = abs_nonzero;
  std::sort(sorted.begin(), sorted.end());
  const double tie_term = tie_term_sorted(sorted);
  const bool has_ties = tie_term > 0;

  if (d.size() <= kWilcoxonExactMax && !has_ties && !has_zeros) {
    const std::vector<double> counts = signed_rank_counts(n);
    const double total = std::ldexp(1.0, static_cast<int>(n));
    const auto lo = static_cast<std::size_t>(std::floor(result.r_plus));
    const auto hi = static_cast<std::size_t>(std::ceil(result.r_plus));
    const double cdf = std::accumulate(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(hi + 1), 0.0);
    const double sf = std::accumulate(counts.begin() + static_cast<std::ptrdiff_t>(lo), counts.end(), 0.0);
    result.p_value = two_sided(cdf / total, sf / total);
    result.method = TestMethod::exact;
    return result;
  }
  if (d.size() <= kWilcoxonEnumerateMax) {
    result.p_value = signed_rank_enumerated_p(ranks, result.r_plus);
    result.method = TestMethod::permutation;
    return result;
  }
  const double nd = static_cast<double>(n);
  const double mean = nd * (nd + 1) / 4;
  const double variance = nd * (nd + 1) * (2 * nd + 1) / 24 - tie_term / 48;
  result.method = TestMethod::asymptotic;
  if (!(variance > 0)) {
    result.p_value = 1.0;
    return result;
  }
  const double z = (result.r_plus - mean) / std::sqrt(variance);
  result.p_value = std::clamp(2.0 * normal_sf(std::fabs(z)), 0.0, 1.0);
  return result;
}

}  // namespace benchreport

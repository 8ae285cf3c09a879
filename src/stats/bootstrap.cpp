#include "benchreport/stats/bootstrap.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {

std::size_t SideSamples::total_samples() const noexcept {
  std::size_t n = 0;
  for (const auto& p : processes) n += p.size();
  return n;
}

std::vector<double> SideSamples::pooled() const {
  std::vector<double> all;
  all.reserve(total_samples());
  for (const auto& p : processes) all.insert(all.end(), p.begin(), p.end());
  return all;
}

double sorted_quantile(std::span<const double> sorted, double p) {
  const double h = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[lo + 1] - sorted[lo]);
}

namespace {

// Type-7 quantile by selection (same value as sorted_quantile on the sorted
// data, without sorting all B resamples); v is reordered.
double selected_quantile(std::span<double> v, double p) {
  const double h = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const double a = select_kth(v, lo);
  if (lo + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo + 1), v.end());
  return a + (h - static_cast<double>(lo)) * (b - a);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A side prepared for fast resampling: pooled values sorted once; each
// process lists the sorted positions of its samples, so a resample is a
// histogram over positions and its median is found by one cumulative walk.
struct PreparedSide {
  std::vector<double> sorted;
  std::vector<std::vector<std::size_t>> members;  // per process: positions in `sorted`
  std::vector<std::uint32_t> counts;              // scratch histogram
};

PreparedSide prepare(const SideSamples& side, const char* name) {
  if (side.processes.empty() || side.total_samples() == 0) {
    throw InputError(std::string("bootstrap: ") + name + " has no samples");
  }
  if (side.total_samples() > 0xFFFFFFFFULL || side.processes.size() > 0xFFFFFFFFULL) {
    throw InputError(std::string("bootstrap: ") + name + " has more than 2^32 - 1 samples or processes");
  }
  PreparedSide prepared;
  std::vector<std::pair<double, std::size_t>> tagged;  // value, process
  for (std::size_t p = 0; p < side.processes.size(); ++p) {
    if (side.processes[p].empty()) {
      throw InputError(std::string("bootstrap: ") + name + " process " + std::to_string(p) + " has no samples");
    }
    for (double v : side.processes[p]) {
      if (!(std::isfinite(v) && v > 0)) {
        throw InputError(std::string("bootstrap: ") + name + " process " + std::to_string(p) +
                         " has a value that is not a positive finite number: " + std::to_string(v));
      }
      tagged.emplace_back(v, p);
    }
  }
  std::sort(tagged.begin(), tagged.end());
  prepared.members.resize(side.processes.size());
  prepared.sorted.reserve(tagged.size());
  for (std::size_t i = 0; i < tagged.size(); ++i) {
    prepared.sorted.push_back(tagged[i].first);
    prepared.members[tagged[i].second].push_back(i);
  }
  prepared.counts.assign(tagged.size(), 0);
  return prepared;
}

// Median of the multiset described by `counts` over `sorted` (total drawn values),
// resetting the histogram for the next resample. The value at rank r sits at
// the number of positions whose cumulative count is <= r; counting that over
// the whole histogram has no data-dependent branch to mispredict, unlike a
// walk that stops at the median.
double median_of_histogram(PreparedSide& side, std::size_t total) {
  const std::size_t lower_rank = (total - 1) / 2, upper_rank = total / 2;
  std::size_t cumulative = 0, lower_index = 0, upper_index = 0;
  for (std::uint32_t& count : side.counts) {
    cumulative += count;
    count = 0;
    lower_index += cumulative <= lower_rank ? 1 : 0;
    upper_index += cumulative <= upper_rank ? 1 : 0;
  }
  const double lower = side.sorted[lower_index], upper = side.sorted[upper_index];
  return lower + (upper - lower) / 2;
}

// Uniform integers in [0, n): the same numbers, in the same order, as
// Xoshiro256::below32 returns from a fresh generator (32-bit halves of next(),
// high half first; Lemire's multiply-shift with rejection), but inlined here
// with one out-of-line generator call per two draws instead of one per draw.
class HalfWordDraws {
 public:
  explicit HalfWordDraws(Xoshiro256& rng) noexcept : rng_(rng) {}

  std::uint32_t below(std::uint32_t n) noexcept {
    std::uint64_t product = std::uint64_t{next32()} * n;
    auto low = static_cast<std::uint32_t>(product);
    if (low < n) [[unlikely]] {
      const std::uint32_t threshold = static_cast<std::uint32_t>(0U - n) % n;
      while (low < threshold) {
        product = std::uint64_t{next32()} * n;
        low = static_cast<std::uint32_t>(product);
      }
    }
    return static_cast<std::uint32_t>(product >> 32);
  }

  // Two consecutive below(n). When no half word is pending and neither half
  // needs Lemire's rejection test (probability about 1 - 2n / 2^32), both come
  // from one generator word without the per-half bookkeeping.
  std::pair<std::uint32_t, std::uint32_t> two_below(std::uint32_t n) noexcept {
    if (!has_spare_) {
      const std::uint64_t word = rng_.next();
      const std::uint64_t first = (word >> 32) * n, second = (word & 0xFFFFFFFFULL) * n;
      if (static_cast<std::uint32_t>(first) >= n && static_cast<std::uint32_t>(second) >= n) [[likely]] {
        return {static_cast<std::uint32_t>(first >> 32), static_cast<std::uint32_t>(second >> 32)};
      }
      // Rare: replay the word through the exact one-at-a-time path.
      pending_word_ = word;
      has_pending_word_ = true;
    }
    const std::uint32_t a = below(n);
    return {a, below(n)};
  }

 private:
  std::uint32_t next32() noexcept {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    std::uint64_t word = pending_word_;
    if (has_pending_word_) {
      has_pending_word_ = false;
    } else {
      word = rng_.next();
    }
    spare_ = static_cast<std::uint32_t>(word);
    has_spare_ = true;
    return static_cast<std::uint32_t>(word >> 32);
  }

  Xoshiro256& rng_;
  std::uint64_t pending_word_ = 0;  // a word taken by two_below, not yet split
  std::uint32_t spare_ = 0;
  bool has_pending_word_ = false;
  bool has_spare_ = false;
};

// Draws samples within the given processes into the histogram; returns how many.
// A side with one process lists every sorted position in order, so a draw is
// the position itself (no lookup).
std::size_t draw_within(PreparedSide& side, std::span<const std::size_t> chosen, HalfWordDraws& draws) {
  if (side.members.size() == 1) {
    const auto size = static_cast<std::uint32_t>(side.sorted.size());
    std::uint32_t* counts = side.counts.data();
    for (std::size_t c = 0; c < chosen.size(); ++c) {
      std::uint32_t s = 0;
      for (; s + 2 <= size; s += 2) {
        const auto [first, second] = draws.two_below(size);
        ++counts[first];
        ++counts[second];
      }
      if (s < size) ++counts[draws.below(size)];
    }
    return chosen.size() * size;
  }
  std::size_t total = 0;
  for (std::size_t p : chosen) {
    const auto& member = side.members[p];
    const auto size = static_cast<std::uint32_t>(member.size());
    for (std::uint32_t s = 0; s < size; ++s) ++side.counts[member[draws.below(size)]];
    total += member.size();
  }
  return total;
}

void draw_processes(std::vector<std::size_t>& chosen, std::size_t count, HalfWordDraws& draws) {
  chosen.resize(count);
  for (auto& c : chosen) c = draws.below(static_cast<std::uint32_t>(count));
}

// Median of the pooled samples of all processes except `skip`.
double median_without_process(const SideSamples& side, std::size_t skip) {
  std::vector<double> rest;
  for (std::size_t p = 0; p < side.processes.size(); ++p) {
    if (p != skip) rest.insert(rest.end(), side.processes[p].begin(), side.processes[p].end());
  }
  return median_inplace(rest);
}

// Leave-one-out medians of a sorted sample (n >= 2), O(1) each.
std::vector<double> leave_one_out_medians(std::span<const double> sorted) {
  const std::size_t n = sorted.size();
  std::vector<double> out(n);
  const std::size_t m = n - 1;
  auto at = [&](std::size_t skip, std::size_t r) { return r < skip ? sorted[r] : sorted[r + 1]; };
  for (std::size_t i = 0; i < n; ++i) {
    const double upper = at(i, m / 2);
    const double lower = at(i, (m - 1) / 2);
    out[i] = lower + (upper - lower) / 2;
  }
  return out;
}

// Acceleration from groups of jackknife estimates (scipy: sum over samples j).
double acceleration(const std::vector<std::vector<double>>& groups) {
  double num = 0, den = 0;
  for (const auto& theta : groups) {
    if (theta.size() < 2) continue;
    const double n = static_cast<double>(theta.size());
    const double mean = std::accumulate(theta.begin(), theta.end(), 0.0) / n;
    double s2 = 0, s3 = 0;
    for (double t : theta) {
      const double u = (n - 1) * (mean - t);
      s2 += u * u;
      s3 += u * u * u;
    }
    num += s3 / (n * n * n);
    den += s2 / (n * n);
  }
  return den > 0 ? num / (6 * std::pow(den, 1.5)) : 0.0;
}

std::vector<std::vector<double>> jackknife_groups(const SideSamples& base, const SideSamples& head,
                                                  const PreparedSide& pb, const PreparedSide& ph, bool hierarchical,
                                                  bool paired) {
  const double mb = median(pb.sorted), mh = median(ph.sorted);
  std::vector<std::vector<double>> groups;
  if (!hierarchical) {
    std::vector<double> g_base, g_head;
    if (pb.sorted.size() >= 2)
      for (double m : leave_one_out_medians(pb.sorted)) g_base.push_back(mh / m);
    if (ph.sorted.size() >= 2)
      for (double m : leave_one_out_medians(ph.sorted)) g_head.push_back(m / mb);
    groups.push_back(std::move(g_base));
    groups.push_back(std::move(g_head));
    return groups;
  }
  if (paired) {
    std::vector<double> g;
    for (std::size_t p = 0; p < base.processes.size(); ++p) {
      g.push_back(median_without_process(head, p) / median_without_process(base, p));
    }
    groups.push_back(std::move(g));
    return groups;
  }
  std::vector<double> g_base, g_head;
  if (base.processes.size() >= 2) {
    for (std::size_t p = 0; p < base.processes.size(); ++p) g_base.push_back(mh / median_without_process(base, p));
  }
  if (head.processes.size() >= 2) {
    for (std::size_t p = 0; p < head.processes.size(); ++p) g_head.push_back(median_without_process(head, p) / mb);
  }
  groups.push_back(std::move(g_base));
  groups.push_back(std::move(g_head));
  return groups;
}

// ---- Exact bootstrap distribution (no resampling) ----

// P(Bin(n, p) >= m) = I_p(m, n - m + 1).
double binomial_upper_tail(std::size_t n, double p, std::size_t m) {
  if (m == 0) return 1;
  if (m > n || p <= 0) return 0;
  if (p >= 1) return 1;
  return boost::math::ibeta(static_cast<double>(m), static_cast<double>(n - m + 1), p);
}

// Even n = 2h, resample median = midpoint of the order statistics at ranks
// h - 1 and h (0-based), positions J1 <= J2 in the sorted sample. With
// C_j = number of draws at positions <= j ~ Bin(n, (j + 1) / n), for a <= b:
//   P(J1 <= a, J2 <= b) = P(C_a >= h + 1) + P(C_a = h, C_b >= h + 1)
//                       = P(C_a >= h + 1) + C(n, h) p_a^h ((1 - p_a)^h - (1 - p_b)^h);
// for a > b it equals P(J2 <= b) = P(C_b >= h + 1).
class EvenMedianJointCdf {
 public:
  // Every factor that depends on one index alone is computed once per index
  // (n each), not in each of the four calls per support pair.
  explicit EvenMedianJointCdf(std::size_t n) : h_(n / 2), tail_(n), lead_(n), upper_power_(n) {
    const double nd = static_cast<double>(n);
    const double hd = static_cast<double>(h_);
    const double log_choose = std::lgamma(nd + 1) - 2 * std::lgamma(hd + 1);
    for (std::size_t j = 0; j < n; ++j) {
      const double p = static_cast<double>(j + 1) / nd;
      tail_[j] = binomial_upper_tail(n, p, h_ + 1);
      lead_[j] = std::exp(log_choose + hd * std::log(p));
      upper_power_[j] = std::pow(1 - p, hd);
    }
  }

  // P(J1 <= a, J2 <= b) with a, b in [-1, n - 1].
  double operator()(std::ptrdiff_t a, std::ptrdiff_t b) const {
    if (a < 0 || b < 0) return 0;
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (ua >= ub) return tail_[ub];
    return tail_[ua] + lead_[ua] * (upper_power_[ua] - upper_power_[ub]);
  }

 private:
  std::size_t h_;
  std::vector<double> tail_;         // P(J2 <= j) = P(C_j >= h + 1)
  std::vector<double> lead_;         // C(n, h) p_j^h
  std::vector<double> upper_power_;  // (1 - p_j)^h
};

// Sorts (value, probability) pairs by value and merges equal values.
MedianDistribution merge_support(std::vector<std::pair<double, double>> points) {
  std::sort(points.begin(), points.end());
  MedianDistribution out;
  for (const auto& [value, probability] : points) {
    if (!out.values.empty() && out.values.back() == value) {
      out.probabilities.back() += probability;
    } else {
      out.values.push_back(value);
      out.probabilities.push_back(probability);
    }
  }
  return out;
}

// The bootstrap distribution of median(head) / median(base), both sides
// independent: F(t) = sum_i P(H = h_i) P(B >= h_i / t), evaluated in
// O(|H| + |B|) by one merge-like pass (h_i / b_j <= t holds on a suffix of the
// ascending base values, and that suffix shrinks as h_i grows).
class ExactRatioDistribution {
 public:
  ExactRatioDistribution(MedianDistribution base, MedianDistribution head)
      : base_(std::move(base)), head_(std::move(head)), base_suffix_(base_.values.size() + 1, 0.0) {
    for (std::size_t j = base_.values.size(); j-- > 0;) base_suffix_[j] = base_suffix_[j + 1] + base_.probabilities[j];
    const std::size_t nb = base_.values.size(), nh = head_.values.size();
    if (nh * nb <= kRatioTableLimit) {
      ratios_.resize(nh * nb);
      for (std::size_t i = 0; i < nh; ++i) {
        for (std::size_t j = 0; j < nb; ++j) ratios_[i * nb + j] = head_.values[i] / base_.values[j];
      }
    }
  }

  double cdf(double t) const { return probe(t).cdf; }

  // Smallest support point r with cdf(r) >= q, found by bisection over the
  // ordered bit patterns of positive doubles, each step snapping the upper end
  // down to a support point: it stops once no support point lies between the
  // ends, after about log2 of the number of points (not 62) steps. The answer
  // is an attained ratio h_i / b_j, exactly.
  double quantile(double q) const {
    const double lowest = head_.values.front() / base_.values.back();
    Probe at = probe(lowest);
    if (at.cdf >= q) return lowest;
    auto lo = std::bit_cast<std::uint64_t>(lowest);
    double next_above_lo = at.above;                         // smallest support point above lo
    double hi = head_.values.back() / base_.values.front();  // invariant: cdf(lo) < q <= cdf(hi), hi a support point
    while (next_above_lo < hi) {
      const std::uint64_t mid = lo + (std::bit_cast<std::uint64_t>(hi) - lo) / 2;
      at = probe(std::bit_cast<double>(mid));
      if (at.cdf >= q) {
        hi = at.at_or_below;
      } else {
        lo = mid;
        next_above_lo = at.above;
      }
    }
    return hi;
  }

  // Standard deviation of the ratio: E[R^k] = E[H^k] E[B^-k] by independence.
  double standard_deviation() const {
    // First and second moments of X (or of 1 / X): products, not std::pow.
    auto moments = [](const MedianDistribution& d, bool inverse) {
      double first = 0, second = 0;
      for (std::size_t i = 0; i < d.values.size(); ++i) {
        const double x = inverse ? 1 / d.values[i] : d.values[i];
        first += d.probabilities[i] * x;
        second += d.probabilities[i] * x * x;
      }
      return std::pair(first, second);
    };
    const auto [head_first, head_second] = moments(head_, false);
    const auto [base_first, base_second] = moments(base_, true);
    const double mean = head_first * base_first;
    const double second = head_second * base_second;
    return std::sqrt(std::max(0.0, second - mean * mean));
  }

 private:
  struct Probe {
    double cdf = 0;                                                 // P(R <= t)
    double at_or_below = -std::numeric_limits<double>::infinity();  // largest support point <= t
    double above = std::numeric_limits<double>::infinity();         // smallest support point > t
  };

  // One merge-like pass: for head value h_i, the ratios h_i / b_j <= t are
  // those from the first such j on (ascending b), and that j only grows with i.
  template <class Ratio>
  Probe probe_with(double t, Ratio ratio) const {
    Probe out;
    std::size_t j = 0;
    const std::size_t nb = base_.values.size();
    for (std::size_t i = 0; i < head_.values.size(); ++i) {
      while (j < nb && ratio(i, j) > t) ++j;
      out.cdf += head_.probabilities[i] * base_suffix_[j];
      if (j < nb) out.at_or_below = std::max(out.at_or_below, ratio(i, j));
      if (j > 0) out.above = std::min(out.above, ratio(i, j - 1));
    }
    return out;
  }

  // The same quotients either way; the table only saves the divisions of the
  // ~60 probes of one interval when it is small enough to fill cheaply.
  Probe probe(double t) const {
    const std::size_t nb = base_.values.size();
    if (!ratios_.empty()) return probe_with(t, [&](std::size_t i, std::size_t j) { return ratios_[i * nb + j]; });
    return probe_with(t, [&](std::size_t i, std::size_t j) { return head_.values[i] / base_.values[j]; });
  }

  static constexpr std::size_t kRatioTableLimit = 4096;  // 32 KiB: two sides of up to 10 samples (55 points each)
  MedianDistribution base_, head_;
  std::vector<double> base_suffix_;  // base_suffix_[j] = P(B >= b_j)
  std::vector<double> ratios_;       // h_i / b_j at [i * nb + j], when nh * nb <= kRatioTableLimit
};

double normal_quantile(double p) { return boost::math::quantile(boost::math::normal_distribution<double>(), p); }
double normal_cdf(double z) { return boost::math::cdf(boost::math::normal_distribution<double>(), z); }
// Phi^-1(p), NaN at p = 0 or 1 (the BCa bias correction is then undefined).
double normal_quantile_or_nan(double p) { return p > 0 && p < 1 ? normal_quantile(p) : kNaN; }

// Percentile ends at alpha and 1 - alpha, and BCa ends (Efron & Tibshirani
// 14.3) from the bootstrap distribution's quantile function, the mean of its
// fractions strictly below and at or below the estimate (scipy's convention),
// and the jackknife acceleration (computed only when BCa is defined).
template <class Quantile, class Acceleration>
void fill_interval_ends(BootstrapInterval& out, double confidence, double mean_rank_fraction, Quantile quantile,
                        Acceleration acceleration_of) {
  const double alpha = (1 - confidence) / 2;
  out.percentile_lower = quantile(alpha);
  out.percentile_upper = quantile(1 - alpha);
  const double z0 = normal_quantile_or_nan(mean_rank_fraction);
  if (std::isnan(z0)) {
    out.bca_lower = out.bca_upper = kNaN;
    return;
  }
  const double a = acceleration_of();
  auto adjusted = [&](double z_alpha) {
    const double num = z0 + z_alpha;
    return normal_cdf(z0 + num / (1 - a * num));
  };
  const double z_alpha = normal_quantile(alpha);
  out.bca_lower = quantile(adjusted(z_alpha));
  out.bca_upper = quantile(adjusted(-z_alpha));
}
// Defined below the public exact_bootstrap_median_distribution it uses.
BootstrapInterval exact_median_ratio_ci(const SideSamples& base, const SideSamples& head, double confidence);

}  // namespace

BootstrapInterval bootstrap_median_ratio_ci(const SideSamples& base, const SideSamples& head,
                                            const BootstrapOptions& options, Xoshiro256& rng) {
  if (options.method == BootstrapMethod::exact) {
    if (!(options.confidence > 0 && options.confidence < 1))
      throw InputError("bootstrap: confidence must be in (0, 1)");
    return exact_median_ratio_ci(base, head, options.confidence);
  }
  if (options.resamples < 2) throw InputError("bootstrap: resamples must be at least 2");
  if (!(options.confidence > 0 && options.confidence < 1)) throw InputError("bootstrap: confidence must be in (0, 1)");
  PreparedSide pb = prepare(base, "base");
  PreparedSide ph = prepare(head, "head");
  BootstrapInterval out;
  out.estimate = median(ph.sorted) / median(pb.sorted);
  out.hierarchical = base.processes.size() > 1 || head.processes.size() > 1;
  out.paired_processes = out.hierarchical && base.processes.size() == head.processes.size();
  out.resamples = options.resamples;

  const auto B = static_cast<std::size_t>(options.resamples);
  std::vector<double> ratios(B);
  std::vector<std::size_t> chosen_base, chosen_head;
  std::vector<std::size_t> all_base(base.processes.size()), all_head(head.processes.size());
  std::iota(all_base.begin(), all_base.end(), std::size_t{0});
  std::iota(all_head.begin(), all_head.end(), std::size_t{0});
  HalfWordDraws draws(rng);
  for (std::size_t b = 0; b < B; ++b) {
    std::span<const std::size_t> use_base = all_base, use_head = all_head;
    if (out.hierarchical) {
      draw_processes(chosen_base, base.processes.size(), draws);
      if (out.paired_processes) {
        chosen_head = chosen_base;
      } else {
        draw_processes(chosen_head, head.processes.size(), draws);
      }
      use_base = chosen_base;
      use_head = chosen_head;
    }
    const std::size_t nb = draw_within(pb, use_base, draws);
    const std::size_t nh = draw_within(ph, use_head, draws);
    ratios[b] = median_of_histogram(ph, nh) / median_of_histogram(pb, nb);
  }

  const double mean = std::accumulate(ratios.begin(), ratios.end(), 0.0) / static_cast<double>(B);
  double ss = 0;
  for (double r : ratios) ss += (r - mean) * (r - mean);
  out.standard_error = std::sqrt(ss / static_cast<double>(B - 1));

  // Percentile of the estimate among the resamples, scipy's "mean" convention.
  std::size_t below = 0, at_or_below = 0;
  for (double r : ratios) {
    below += r < out.estimate ? 1 : 0;
    at_or_below += r <= out.estimate ? 1 : 0;
  }
  const double mean_rank_fraction = static_cast<double>(below + at_or_below) / (2.0 * static_cast<double>(B));
  fill_interval_ends(
      out, options.confidence, mean_rank_fraction, [&](double q) { return selected_quantile(ratios, q); },
      [&] { return acceleration(jackknife_groups(base, head, pb, ph, out.hierarchical, out.paired_processes)); });
  return out;
}

namespace {

// Probabilities of the resample median's sorted position: for odd n one per
// rank j, for even n one per rank pair a <= b (row by row). They depend on n
// alone, never on the values.
std::vector<double> compute_median_position_probabilities(std::size_t n) {
  std::vector<double> out;
  if (n % 2 == 1) {
    // Median = order statistic J at rank (n - 1) / 2: P(J <= j) = P(C_j >= (n + 1) / 2).
    double previous = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const double cdf = binomial_upper_tail(n, static_cast<double>(j + 1) / static_cast<double>(n), (n + 1) / 2);
      out.push_back(std::max(0.0, cdf - previous));
      previous = cdf;
    }
    return out;
  }
  const EvenMedianJointCdf joint(n);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a; b < n; ++b) {
      const auto ia = static_cast<std::ptrdiff_t>(a), ib = static_cast<std::ptrdiff_t>(b);
      out.push_back(std::max(0.0, joint(ia, ib) - joint(ia - 1, ib) - joint(ia, ib - 1) + joint(ia - 1, ib - 1)));
    }
  }
  return out;
}

// Small sizes are computed once per process and shared by every case of that
// size (a comparison of 100 000 cases usually has one n): the incomplete beta
// and powers per rank cost more than the rest of the exact interval.
constexpr std::size_t kSharedPositionSizes = 64;

const std::vector<double>& shared_median_position_probabilities(std::size_t n) {
  static std::array<std::once_flag, kSharedPositionSizes + 1> once;
  static std::array<std::vector<double>, kSharedPositionSizes + 1> table;
  std::call_once(once[n], [n] { table[n] = compute_median_position_probabilities(n); });
  return table[n];
}

}  // namespace

MedianDistribution exact_bootstrap_median_distribution(std::span<const double> sample) {
  if (sample.empty()) throw InputError("exact bootstrap: the sample is empty");
  if (sample.size() > kMaxExactSamples) {
    throw InputError("exact bootstrap: " + std::to_string(sample.size()) + " samples, more than the " +
                     std::to_string(kMaxExactSamples) +
                     " the exact method supports (n^2/2 support points); use resampling");
  }
  std::vector<double> sorted(sample.begin(), sample.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  std::vector<double> computed;
  if (n > kSharedPositionSizes) computed = compute_median_position_probabilities(n);
  const std::vector<double>& probabilities =
      n > kSharedPositionSizes ? computed : shared_median_position_probabilities(n);
  std::vector<std::pair<double, double>> points;
  points.reserve(probabilities.size());
  if (n % 2 == 1) {
    for (std::size_t j = 0; j < n; ++j) points.emplace_back(sorted[j], probabilities[j]);
  } else {
    std::size_t k = 0;
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = a; b < n; ++b)
        points.emplace_back(sorted[a] + (sorted[b] - sorted[a]) / 2, probabilities[k++]);
    }
  }
  return merge_support(std::move(points));
}

namespace {

BootstrapInterval exact_median_ratio_ci(const SideSamples& base, const SideSamples& head, double confidence) {
  if (base.processes.size() != 1 || head.processes.size() != 1) {
    throw InputError("bootstrap: the exact method needs flat samples (one process per side); use resampling");
  }
  const PreparedSide pb = prepare(base, "base");
  const PreparedSide ph = prepare(head, "head");
  BootstrapInterval out;
  out.estimate = median(ph.sorted) / median(pb.sorted);
  out.exact = true;
  const ExactRatioDistribution ratio(exact_bootstrap_median_distribution(pb.sorted),
                                     exact_bootstrap_median_distribution(ph.sorted));
  out.standard_error = ratio.standard_deviation();
  const double at_or_below = ratio.cdf(out.estimate);
  const double below = ratio.cdf(std::nextafter(out.estimate, 0.0));
  fill_interval_ends(
      out, confidence, (below + at_or_below) / 2, [&](double q) { return ratio.quantile(q); },
      [&] { return acceleration(jackknife_groups(base, head, pb, ph, false, false)); });
  return out;
}

}  // namespace

BootstrapInterval bootstrap_median_ratio_ci(std::span<const double> base, std::span<const double> head,
                                            const BootstrapOptions& options, std::uint64_t seed) {
  Xoshiro256 rng(seed);
  return bootstrap_median_ratio_ci(SideSamples{{base}}, SideSamples{{head}}, options, rng);
}

}  // namespace benchreport

#include "benchreport/stats/summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

#include "benchreport/stats/order_stats.hpp"
#include "benchreport/data/sample_check.hpp"
#include "benchreport/stats/selection_network.hpp"

namespace benchreport {
namespace {

struct StatName {
  std::string_view name;
  std::uint32_t bits;
};

constexpr std::array<StatName, 15> kStatNames{{
    {"moments", static_cast<std::uint32_t>(Stat::moments)},
    {"mean", static_cast<std::uint32_t>(Stat::moments)},
    {"std", static_cast<std::uint32_t>(Stat::moments)},
    {"cv", static_cast<std::uint32_t>(Stat::moments)},
    {"median", static_cast<std::uint32_t>(Stat::median)},
    {"quantiles", static_cast<std::uint32_t>(Stat::quantiles)},
    {"iqr", static_cast<std::uint32_t>(Stat::iqr)},
    {"mad", static_cast<std::uint32_t>(Stat::mad)},
    {"median_ci", static_cast<std::uint32_t>(Stat::median_ci)},
    {"drift", static_cast<std::uint32_t>(Stat::drift)},
    {"trend", static_cast<std::uint32_t>(Stat::trend)},
    {"outliers", static_cast<std::uint32_t>(Stat::outliers)},
    {"min", 0},
    {"max", 0},
    {"n", 0},
}};

struct Range {
  double min, max, sum;
};

// One pass; four accumulators keep the sum vectorisable and a little more accurate.
Range scan(std::span<const double> v) {
  std::array<double, 4> acc{0.0, 0.0, 0.0, 0.0};
  double lo = v[0], hi = v[0];
  std::size_t i = 0;
  for (; i + 4 <= v.size(); i += 4) {
    for (std::size_t j = 0; j < 4; ++j) {
      acc[j] += v[i + j];
      lo = std::min(lo, v[i + j]);
      hi = std::max(hi, v[i + j]);
    }
  }
  for (; i < v.size(); ++i) {
    acc[0] += v[i];
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
  }
  return {lo, hi, (acc[0] + acc[1]) + (acc[2] + acc[3])};
}

double sum_squared_deviations(std::span<const double> v, double mean) {
  std::array<double, 4> acc{0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 4 <= v.size(); i += 4) {
    for (std::size_t j = 0; j < 4; ++j) acc[j] += (v[i + j] - mean) * (v[i + j] - mean);
  }
  for (; i < v.size(); ++i) acc[0] += (v[i] - mean) * (v[i] - mean);
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

// Sum of squared deviations that neither overflows (values near 1e300) nor
// underflows (values near 1e-300): when the plain sum leaves the normal range,
// the deviations are divided by the largest |deviation| before squaring and
// the sum is reported as (scale^2) * sum((d / scale)^2) through the returned
// scale, so that std = scale * sqrt(sum / n).
struct ScaledSquares {
  double scale = 1;
  double sum = 0;
};
ScaledSquares scaled_squared_deviations(std::span<const double> v, double mean) {
  const double plain = sum_squared_deviations(v, mean);
  if (plain - plain == 0 && (plain == 0 || plain >= 1e-280)) {
    bool all_equal = true;
    if (plain == 0) {
      for (double x : v) all_equal = all_equal && x == mean;
    }
    if (all_equal || plain != 0) return {1, plain};
  }
  double scale = 0;
  for (double x : v) scale = std::max(scale, std::fabs(x / 2 - mean / 2));
  if (!(scale > 0)) return {1, plain};
  double sum = 0;
  for (double x : v) {
    const double d = (x / 2 - mean / 2) / scale;
    sum += d * d;
  }
  return {2 * scale, sum};  // x - mean = 2 scale d
}

void reset(const SummaryOptions& options, Summary& out) {
  // Keep the two vectors' capacity: no allocation per set in grouped use.
  std::vector<double> probabilities = std::move(out.probabilities);
  std::vector<double> quantiles = std::move(out.quantiles);
  out = Summary{};
  out.probabilities = std::move(probabilities);
  out.probabilities.assign(options.quantiles.begin(), options.quantiles.end());
  out.quantiles = std::move(quantiles);
  out.quantiles.assign(options.quantiles.size(), Summary::nan);
}

void compute_moments(std::span<const double> v, int ddof, Summary& out) {
  const double n = static_cast<double>(v.size());
  const ScaledSquares ss = scaled_squared_deviations(v, out.mean);
  out.std_population = ss.scale * std::sqrt(ss.sum / n);
  out.std_sample = v.size() > 1 ? ss.scale * std::sqrt(ss.sum / (n - 1.0)) : Summary::nan;
  out.cv = (ddof == 0 ? out.std_population : out.std_sample) / out.mean;
}

// Everything that depends on measurement order, before the working copy is reordered.
void compute_order_dependent(std::span<const double> v, const SummaryOptions& options, SummaryWorkspace& ws,
                             Summary& out) {
  if (options.stats.has(Stat::drift)) drift_change(v, options.drift_k, ws.scratch, out.drift);
  if (options.stats.has(Stat::trend)) {
    // The relative slope needs the median, known only later: divide afterwards.
    theil_sen(v, 1.0, options.theil_sen_max_n, ws.scratch, out.drift);
    mann_kendall(v, ws.scratch, out.drift);
  }
}

struct Needs {
  bool median, quartiles, mad, ci;
};

Needs needs_of(StatSet stats) {
  const bool outliers = stats.has(Stat::outliers);
  const bool mad = stats.has(Stat::mad) || outliers;
  return {stats.has(Stat::median) || mad || stats.has(Stat::trend), stats.has(Stat::iqr) || outliers, mad,
          stats.has(Stat::median_ci)};
}

const MedianCIPlan& ci_plan(std::size_t n, double confidence, SummaryWorkspace& ws) {
  if (ws.planned_n != n || ws.planned_confidence != confidence) {
    ws.plan = plan_median_ci(n, confidence);
    ws.planned_n = n;
    ws.planned_confidence = confidence;
  }
  return ws.plan;
}

void add_rank_pair(std::vector<std::size_t>& ranks, const QuantilePosition& pos) {
  ranks.push_back(pos.lo);
  ranks.push_back(pos.hi);
}

bool needs_full_sort(const SummaryOptions& options, const Needs& needs) {
  return options.method == QuantileMethod::harrell_davis && (options.stats.has(Stat::quantiles) || needs.quartiles);
}

// The 0-based ranks every requested statistic reads (sorted, unique), and the
// quantile positions [requested quantiles..., q1, q3] for Hyndman–Fan methods.
void collect_ranks(std::size_t n, const SummaryOptions& options, const Needs& needs, SummaryWorkspace& ws) {
  ws.ranks.clear();
  ws.positions.clear();
  if (options.stats.has(Stat::quantiles)) {
    for (double p : options.quantiles) ws.positions.push_back(quantile_position(n, p, options.method));
  }
  if (needs.quartiles) {
    ws.positions.push_back(quantile_position(n, 0.25, options.method));
    ws.positions.push_back(quantile_position(n, 0.75, options.method));
  }
  for (const auto& pos : ws.positions) add_rank_pair(ws.ranks, pos);
  if (needs.median) {
    ws.ranks.push_back((n - 1) / 2);
    ws.ranks.push_back(n / 2);
  }
  if (needs.ci) {
    const MedianCIPlan& plan = ci_plan(n, options.confidence, ws);
    if (plan.ok) {
      ws.ranks.push_back(plan.lower_rank - 1);
      ws.ranks.push_back(plan.upper_rank - 1);
    }
  }
  std::sort(ws.ranks.begin(), ws.ranks.end());
  ws.ranks.erase(std::unique(ws.ranks.begin(), ws.ranks.end()), ws.ranks.end());
}

void place_order_statistics(std::span<double> v, const SummaryOptions& options, const Needs& needs,
                            SummaryWorkspace& ws) {
  if (needs_full_sort(options, needs)) {
    std::sort(v.begin(), v.end());  // Harrell–Davis weighs every order statistic
    return;
  }
  collect_ranks(v.size(), options, needs, ws);
  select_many(v, ws.ranks);
}

double quantile_at(std::span<const double> ordered, const SummaryOptions& options, std::size_t slot, double p,
                   const SummaryWorkspace& ws) {
  if (options.method == QuantileMethod::harrell_davis) return harrell_davis_sorted(ordered, p);
  return interpolate(ordered, ws.positions[slot]);
}

void read_order_statistics(std::span<const double> v, const SummaryOptions& options, const Needs& needs,
                           SummaryWorkspace& ws, Summary& out, double& q1, double& q3) {
  const std::size_t n = v.size();
  std::size_t slot = 0;
  if (options.stats.has(Stat::quantiles)) {
    for (std::size_t i = 0; i < options.quantiles.size(); ++i, ++slot) {
      out.quantiles[i] = quantile_at(v, options, slot, options.quantiles[i], ws);
    }
  }
  if (needs.quartiles) {
    q1 = quantile_at(v, options, slot, 0.25, ws);
    q3 = quantile_at(v, options, slot + 1, 0.75, ws);
    if (options.stats.has(Stat::iqr)) out.iqr = q3 - q1;
  }
  if (needs.median) out.median = n % 2 == 1 ? v[n / 2] : midpoint(v[n / 2 - 1], v[n / 2]);
  if (needs.ci) out.median_ci = median_ci_from(ci_plan(n, options.confidence, ws), v, options.confidence);
}

// n, min, max, moments and everything that depends on measurement order (drift,
// trend): all before any reordering. `v` holds the finite values in order.
void summarize_before_order_statistics(std::span<const double> v, const SummaryOptions& options, SummaryWorkspace& ws,
                                       Summary& out) {
  reset(options, out);
  out.n = v.size();
  const Range range = scan(v);
  out.min = range.min;
  out.max = range.max;
  if (options.stats.has(Stat::moments)) {
    out.mean = range.sum / static_cast<double>(out.n);
    compute_moments(v, options.ddof, out);
  }
  compute_order_dependent(v, options, ws, out);
}

// Quantiles, IQR, median, median CI and Tukey counts once the order statistics
// are in place in `ordered`; `values` are the same samples in any order.
void summarize_from_order_statistics(std::span<const double> ordered, std::span<const double> values,
                                     const SummaryOptions& options, const Needs& needs, SummaryWorkspace& ws,
                                     Summary& out) {
  double q1 = Summary::nan, q3 = Summary::nan;
  read_order_statistics(ordered, options, needs, ws, out, q1, q3);
  if (options.stats.has(Stat::outliers)) count_tukey_outliers(values, q1, q3, out.outliers);
  if (options.stats.has(Stat::trend)) out.drift.theil_sen_relative = out.drift.theil_sen_slope / out.median;
}

// From the raw MAD and all n absolute deviations |x - median| (in any order).
void finish_mad(double raw, std::span<const double> deviations, const SummaryOptions& options, Summary& out) {
  if (options.stats.has(Stat::outliers)) count_modified_z_outliers(deviations, raw, out.outliers);
  if (!options.stats.has(Stat::mad)) return;
  out.mad = options.mad_scale == MadScale::normal ? kMadNormalScale * raw : raw;
  out.mad_over_median_pct = raw / out.median * 100.0;
  out.robust_cv = kMadNormalScale * raw / out.median;
}

}  // namespace

std::vector<std::string_view> stat_names() {
  std::vector<std::string_view> out;
  for (const auto& entry : kStatNames) out.push_back(entry.name);
  return out;
}

StatSet parse_stat(std::string_view name, StatSet into) {
  for (const auto& entry : kStatNames) {
    if (entry.name == name) return StatSet(into.bits() | entry.bits);
  }
  std::string accepted;
  for (const auto& entry : kStatNames) accepted += fmt::format("{}{}", accepted.empty() ? "" : ", ", entry.name);
  throw InputError(fmt::format("unknown statistic '{}': expected one of {}", name, accepted));
}

void check_options(const SummaryOptions& options) {
  check_probabilities(options.quantiles);
  if (options.ddof != 0 && options.ddof != 1) {
    throw InputError(fmt::format("ddof is {}: expected 0 (population) or 1 (sample)", options.ddof));
  }
  if (options.drift_k == 0) throw InputError("drift k is 0: expected at least 1 sample at each end");
  if (!(options.confidence > 0.0 && options.confidence < 1.0)) {
    throw InputError(fmt::format("median CI confidence is {}: expected a value in (0, 1)", options.confidence));
  }
}

void summarize_into(std::span<const double> x, const SummaryOptions& options, const SetLabel& set_label,
                    SummaryWorkspace& ws, Summary& out) {
  const std::size_t omitted = load_finite(x, options.nan_policy, set_label, ws.values);
  const std::span<double> v(ws.values);
  summarize_before_order_statistics(v, options, ws, out);
  out.n_omitted = omitted;
  const Needs needs = needs_of(options.stats);
  place_order_statistics(v, options, needs, ws);
  summarize_from_order_statistics(v, v, options, needs, ws, out);
  if (needs.mad) finish_mad(mad_inplace(v, out.median), v, options, out);  // v now holds |x - median|
  if (!options.stats.has(Stat::median)) out.median = Summary::nan;
}

bool block_supported(const SummaryOptions& options, std::size_t n) {
  return n >= 2 && n <= kNetworkMaxN && !needs_full_sort(options, needs_of(options.stats));
}

void summarize_block(std::span<const std::span<const double>> sets, const SummaryOptions& options, SummaryWorkspace& ws,
                     std::span<Summary> out) {
  const std::size_t n = sets[0].size();
  const Needs needs = needs_of(options.stats);
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    summarize_before_order_statistics(sets[l], options, ws, out[l]);
  }
  collect_ranks(n, options, needs, ws);
  if (ws.network_n != n || ws.network_ranks != ws.ranks) {
    ws.network = selection_network(n, ws.ranks);
    const std::array<std::size_t, 2> middle{(n - 1) / 2, n / 2};
    ws.mad_network = selection_network(n, middle);
    ws.network_ranks = ws.ranks;
    ws.network_n = n;
  }
  ws.lanes.resize(n * kNetworkLanes);
  ws.values.resize(n);
  const auto transpose_in = [&](auto value_of) {
    for (std::size_t l = 0; l < kNetworkLanes; ++l) {
      for (std::size_t w = 0; w < n; ++w) ws.lanes[w * kNetworkLanes + l] = value_of(l, w);
    }
  };
  const auto lane_row = [&](std::size_t l) {  // one set's network output, in ws.values
    for (std::size_t w = 0; w < n; ++w) ws.values[w] = ws.lanes[w * kNetworkLanes + l];
    return std::span<double>(ws.values);
  };
  transpose_in([&](std::size_t l, std::size_t w) { return sets[l][w]; });
  apply_network(ws.network, ws.lanes.data());
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    summarize_from_order_statistics(lane_row(l), sets[l], options, needs, ws, out[l]);
  }
  if (needs.mad) {
    transpose_in([&](std::size_t l, std::size_t w) { return std::fabs(sets[l][w] - out[l].median); });
    apply_network(ws.mad_network, ws.lanes.data());
    for (std::size_t l = 0; l < kNetworkLanes; ++l) {
      const std::span<double> deviations = lane_row(l);
      const double raw = n % 2 == 1 ? deviations[n / 2] : midpoint(deviations[n / 2 - 1], deviations[n / 2]);
      finish_mad(raw, deviations, options, out[l]);
    }
  }
  if (!options.stats.has(Stat::median)) {
    for (std::size_t l = 0; l < kNetworkLanes; ++l) out[l].median = Summary::nan;
  }
}

Summary summarize(std::span<const double> x, const SummaryOptions& options) {
  check_options(options);
  // A workspace per call, not thread_local: the TLS block of a dlopen'd module
  // is allocated lazily on a thread's first access, and glibc aborts the
  // process (exit 127) when that allocation fails under a memory limit.
  SummaryWorkspace ws;
  Summary out;
  summarize_into(x, options, SetLabel{}, ws, out);
  return out;
}

}  // namespace benchreport

#include "benchreport/stats/grouped.hpp"

#include <array>
#include <cmath>
#include <fmt/format.h>

#include "benchreport/stats/order_stats.hpp"
#include "benchreport/core/parallel.hpp"
#include "stats/small_sort.hpp"

namespace benchreport {
namespace {

// Sets per work chunk: large enough to amortise scheduling, small enough to balance.
constexpr std::size_t kSetsPerChunk = 256;

template <class T>
void size_column(std::vector<T>& column, bool wanted, std::size_t n, T fill) {
  if (wanted) column.assign(n, fill);
}

void allocate(GroupedSummary& g, const SummaryOptions& o, std::size_t n_sets) {
  constexpr double nan = Summary::nan;
  const StatSet s = o.stats;
  g.n_sets = n_sets;
  g.probabilities = o.quantiles;
  g.n.assign(n_sets, 0);
  g.n_omitted.assign(n_sets, 0);
  g.min.assign(n_sets, nan);
  g.max.assign(n_sets, nan);
  for (auto* c : {&g.mean, &g.std_population, &g.std_sample, &g.cv}) size_column(*c, s.has(Stat::moments), n_sets, nan);
  size_column(g.median, s.has(Stat::median), n_sets, nan);
  size_column(g.quantiles, s.has(Stat::quantiles), n_sets * o.quantiles.size(), nan);
  size_column(g.iqr, s.has(Stat::iqr), n_sets, nan);
  for (auto* c : {&g.mad, &g.mad_over_median_pct, &g.robust_cv}) size_column(*c, s.has(Stat::mad), n_sets, nan);
  const bool ci = s.has(Stat::median_ci);
  for (auto* c : {&g.ci_lower, &g.ci_upper, &g.ci_achieved}) size_column(*c, ci, n_sets, nan);
  for (auto* c : {&g.ci_lower_rank, &g.ci_upper_rank}) size_column(*c, ci, n_sets, std::int64_t{0});
  size_column(g.ci_ok, ci, n_sets, std::uint8_t{0});
  size_column(g.ci_reason, ci, n_sets, std::string{});
  size_column(g.drift, s.has(Stat::drift), n_sets, nan);
  size_column(g.drift_ok, s.has(Stat::drift), n_sets, std::uint8_t{0});
  size_column(g.drift_reason, s.has(Stat::drift), n_sets, std::string{});
  const bool trend = s.has(Stat::trend);
  for (auto* c : {&g.theil_sen_slope, &g.theil_sen_relative, &g.mann_kendall_s, &g.mann_kendall_z, &g.mann_kendall_p,
                  &g.kendall_tau}) {
    size_column(*c, trend, n_sets, nan);
  }
  for (auto* c : {&g.theil_sen_ok, &g.mann_kendall_ok}) size_column(*c, trend, n_sets, std::uint8_t{0});
  for (auto* c : {&g.theil_sen_reason, &g.mann_kendall_reason}) size_column(*c, trend, n_sets, std::string{});
  for (auto* c : {&g.tukey_mild, &g.tukey_severe, &g.modified_z}) {
    size_column(*c, s.has(Stat::outliers), n_sets, std::int64_t{0});
  }
}

void store_availability(const Availability& a, std::size_t i, std::vector<std::uint8_t>& ok,
                        std::vector<std::string>& reason) {
  ok[i] = a.ok ? 1 : 0;
  if (!a.ok) reason[i] = a.reason;
}

void store_drift(const Drift& d, StatSet s, std::size_t i, GroupedSummary& g) {
  if (s.has(Stat::drift)) {
    g.drift[i] = d.change;
    store_availability(d.change_availability, i, g.drift_ok, g.drift_reason);
  }
  if (!s.has(Stat::trend)) return;
  g.theil_sen_slope[i] = d.theil_sen_slope;
  g.theil_sen_relative[i] = d.theil_sen_relative;
  store_availability(d.theil_sen_availability, i, g.theil_sen_ok, g.theil_sen_reason);
  g.mann_kendall_s[i] = d.mann_kendall_s;
  g.mann_kendall_z[i] = d.mann_kendall_z;
  g.mann_kendall_p[i] = d.mann_kendall_p;
  g.kendall_tau[i] = d.kendall_tau;
  store_availability(d.mann_kendall_availability, i, g.mann_kendall_ok, g.mann_kendall_reason);
}

void store(const Summary& r, StatSet s, std::size_t i, GroupedSummary& g) {
  g.n[i] = static_cast<std::int64_t>(r.n);
  g.n_omitted[i] = static_cast<std::int64_t>(r.n_omitted);
  g.min[i] = r.min;
  g.max[i] = r.max;
  if (s.has(Stat::moments)) {
    g.mean[i] = r.mean;
    g.std_population[i] = r.std_population;
    g.std_sample[i] = r.std_sample;
    g.cv[i] = r.cv;
  }
  if (s.has(Stat::median)) g.median[i] = r.median;
  if (s.has(Stat::quantiles))
    std::copy(r.quantiles.begin(), r.quantiles.end(),
              g.quantiles.begin() + static_cast<std::ptrdiff_t>(i * r.quantiles.size()));
  if (s.has(Stat::iqr)) g.iqr[i] = r.iqr;
  if (s.has(Stat::mad)) {
    g.mad[i] = r.mad;
    g.mad_over_median_pct[i] = r.mad_over_median_pct;
    g.robust_cv[i] = r.robust_cv;
  }
  if (s.has(Stat::median_ci)) {
    g.ci_lower[i] = r.median_ci.lower;
    g.ci_upper[i] = r.median_ci.upper;
    g.ci_achieved[i] = r.median_ci.achieved;
    g.ci_lower_rank[i] = static_cast<std::int64_t>(r.median_ci.lower_rank);
    g.ci_upper_rank[i] = static_cast<std::int64_t>(r.median_ci.upper_rank);
    store_availability(r.median_ci.availability, i, g.ci_ok, g.ci_reason);
  }
  store_drift(r.drift, s, i, g);
  if (s.has(Stat::outliers)) {
    g.tukey_mild[i] = static_cast<std::int64_t>(r.outliers.tukey_mild);
    g.tukey_severe[i] = static_cast<std::int64_t>(r.outliers.tukey_severe);
    g.modified_z[i] = static_cast<std::int64_t>(r.outliers.modified_z);
  }
}

std::span<const double> set_at(std::span<const double> values, std::span<const std::int64_t> offsets, std::size_t i) {
  const auto first = static_cast<std::size_t>(offsets[i]);
  return values.subspan(first, static_cast<std::size_t>(offsets[i + 1]) - first);
}

bool all_finite(std::span<const double> x) {
  bool finite = true;
  for (double v : x) finite &= std::isfinite(v);
  return finite;
}

// Sets i .. i+kNetworkLanes-1 can go through the network together when they
// have one size the network serves and nothing non-finite (those take the
// per-set path, which raises or omits with the right message). The sorted-block
// kernel checks finiteness itself, on the interleaved copy it makes anyway.
bool fill_block(std::span<const double> values, std::span<const std::int64_t> offsets, std::size_t i,
                const SummaryOptions& options, bool check_finite,
                std::array<std::span<const double>, kNetworkLanes>& sets) {
  const std::size_t n = static_cast<std::size_t>(offsets[i + 1] - offsets[i]);
  if (!block_supported(options, n)) return false;
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    sets[l] = set_at(values, offsets, i + l);
    if (sets[l].size() != n || (check_finite && !all_finite(sets[l]))) return false;
  }
  return true;
}

// The statistics a fully sorted block serves directly: every order statistic is
// read off the sorted rows and the MAD is a merge (mad_of_sorted). The median
// CI, trend and outlier statistics keep the per-set code.
constexpr std::uint32_t kSortedBlockStats =
    static_cast<std::uint32_t>(Stat::moments) | static_cast<std::uint32_t>(Stat::median) |
    static_cast<std::uint32_t>(Stat::quantiles) | static_cast<std::uint32_t>(Stat::iqr) |
    static_cast<std::uint32_t>(Stat::mad) | static_cast<std::uint32_t>(Stat::drift);

bool sorted_block_serves(const SummaryOptions& options) {
  return (options.stats.bits() & ~kSortedBlockStats) == 0 && options.method != QuantileMethod::harrell_davis;
}

// Per-worker memory of the sorted-block kernel; networks and quantile
// positions depend only on the set size n.
struct SortedBlockWorkspace {
  std::size_t n = 0;
  std::vector<Comparator> sort_network, end_median_network;
  std::vector<QuantilePosition> positions;  // requested quantiles, then q1 and q3
  LaneBuffer lanes, ends, deviations;
  std::vector<double> scratch;
};

void plan_sorted_block(std::size_t n, const SummaryOptions& o, SortedBlockWorkspace& ws) {
  if (ws.n == n) return;
  ws.n = n;
  ws.sort_network = sorting_network(n);
  const std::size_t k = o.drift_k;
  if (o.stats.has(Stat::drift) && n >= 2 * k) {
    const std::array<std::size_t, 2> middle{(k - 1) / 2, k / 2};
    ws.end_median_network = selection_network(k, std::span<const std::size_t>(middle.data(), k == 1 ? 1 : 2));
    ws.ends.resize(k * kNetworkLanes);
  }
  ws.positions.clear();
  for (double p : o.quantiles) ws.positions.push_back(quantile_position(n, p, o.method));
  ws.positions.push_back(quantile_position(n, 0.25, o.method));
  ws.positions.push_back(quantile_position(n, 0.75, o.method));
  ws.lanes.resize(n * kNetworkLanes);
  ws.deviations.resize(n * kNetworkLanes);
}

void store_moments(const LaneScan& scan, const double* lanes, std::size_t n, int ddof, std::size_t first,
                   GroupedSummary& g) {
  const double nd = static_cast<double>(n);
  LaneValues mean;
  for (std::size_t l = 0; l < kNetworkLanes; ++l) mean[l] = scan.sum[l] / nd;
  const LaneValues ss = squared_deviations_lanes(lanes, n, mean);
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    const std::size_t i = first + l;
    g.mean[i] = mean[l];
    double scale = 1;
    double sum = ss[l];
    if (!(sum - sum == 0) || sum < 1e-280) {
      // Overflow (values near 1e300) or underflow (near 1e-300): divide the
      // deviations by the largest one before squaring, as summarize() does.
      double largest = 0;
      for (std::size_t j = 0; j < n; ++j) {
        largest = std::max(largest, std::fabs(lanes[j * kNetworkLanes + l] / 2 - mean[l] / 2));
      }
      if (largest > 0) {
        sum = 0;
        for (std::size_t j = 0; j < n; ++j) {
          const double d = (lanes[j * kNetworkLanes + l] / 2 - mean[l] / 2) / largest;
          sum += d * d;
        }
        scale = 2 * largest;
      }
    }
    g.std_population[i] = scale * std::sqrt(sum / nd);
    g.std_sample[i] = scale * std::sqrt(sum / (nd - 1.0));  // n >= 2 in a block
    g.cv[i] = (ddof == 0 ? g.std_population[i] : g.std_sample[i]) / mean[l];
  }
}

// Drift from the medians of the first and last k samples in measurement order
// (a small selection network per end). An unavailable drift (too few samples,
// non-positive baseline) is rare and takes drift_change for its reason.
void store_drift_block(std::span<const std::span<const double>> sets, std::size_t k, std::size_t first,
                       SortedBlockWorkspace& ws, GroupedSummary& g) {
  const std::size_t n = sets[0].size();
  const auto end_medians = [&](std::size_t from_row) {
    std::copy_n(ws.lanes.data() + from_row * kNetworkLanes, k * kNetworkLanes, ws.ends.data());
    apply_network(ws.end_median_network, ws.ends.data());
    return median_of_sorted_lanes(ws.ends.data(), k);
  };
  LaneValues head{}, tail{};
  if (n >= 2 * k) {
    head = end_medians(0);
    tail = end_medians(n - k);
  }
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    const std::size_t i = first + l;
    if (n >= 2 * k && head[l] > 0.0) {
      g.drift[i] = tail[l] / head[l] - 1.0;
      g.drift_ok[i] = 1;
      continue;
    }
    Drift d;
    drift_change(sets[l], k, ws.scratch, d);
    g.drift[i] = d.change;
    store_availability(d.change_availability, i, g.drift_ok, g.drift_reason);
  }
}

// Quantile `pos` of lane l of sorted interleaved rows, through interpolate()
// itself (on the two order statistics it reads) so the arithmetic is shared.
double lane_quantile(const double* sorted, std::size_t l, const QuantilePosition& pos) {
  const std::array<double, 2> ends{sorted[pos.lo * kNetworkLanes + l], sorted[pos.hi * kNetworkLanes + l]};
  return interpolate(ends, {0, pos.lo == pos.hi ? 0u : 1u, pos.weight});
}

void store_order_statistics(const SummaryOptions& o, std::size_t first, SortedBlockWorkspace& ws, GroupedSummary& g) {
  const StatSet s = o.stats;
  const std::size_t n_q = o.quantiles.size();
  const double* sorted = ws.lanes.data();
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    const std::size_t i = first + l;
    if (s.has(Stat::quantiles)) {
      for (std::size_t q = 0; q < n_q; ++q) g.quantiles[i * n_q + q] = lane_quantile(sorted, l, ws.positions[q]);
    }
    if (s.has(Stat::iqr)) {
      g.iqr[i] = lane_quantile(sorted, l, ws.positions[n_q + 1]) - lane_quantile(sorted, l, ws.positions[n_q]);
    }
  }
  if (!s.has(Stat::median) && !s.has(Stat::mad)) return;
  const LaneValues median = median_of_sorted_lanes(sorted, ws.n);
  if (s.has(Stat::median))
    std::copy(median.begin(), median.end(), g.median.begin() + static_cast<std::ptrdiff_t>(first));
  if (!s.has(Stat::mad)) return;
  const LaneValues mad = mad_of_sorted_lanes(sorted, ws.n, median, ws.deviations.data());
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    const std::size_t i = first + l;
    const double raw = mad[l];
    g.mad[i] = o.mad_scale == MadScale::normal ? kMadNormalScale * raw : raw;
    g.mad_over_median_pct[i] = raw / median[l] * 100.0;
    g.robust_cv[i] = kMadNormalScale * raw / median[l];
  }
}

// kNetworkLanes finite sets of one size n (2 <= n <= kNetworkMaxN) starting at
// set `first`: one vectorised sorting network, then every statistic read off
// the sorted lanes. Same arithmetic as summarize_into, so identical results.
// Returns false, having stored nothing, when a set holds NaN/±inf.
bool summarize_sorted_block(std::span<const std::span<const double>> sets, const SummaryOptions& o, std::size_t first,
                            SortedBlockWorkspace& ws, GroupedSummary& g) {
  const std::size_t n = sets[0].size();
  plan_sorted_block(n, o, ws);
  interleave(sets, ws.lanes.data());
  // In CSR order the next block's sets follow this block's: start loading them
  // now, so the network below hides the memory latency (a prefetch never faults).
  const char* next = reinterpret_cast<const char*>(sets[kNetworkLanes - 1].data() + n);
  for (std::size_t byte = 0; byte < n * kNetworkLanes * sizeof(double); byte += 64) __builtin_prefetch(next + byte);
  if (!all_finite_lanes(ws.lanes.data(), n)) return false;
  const LaneScan scan = scan_lanes(ws.lanes.data(), n);
  for (std::size_t l = 0; l < kNetworkLanes; ++l) {
    g.n[first + l] = static_cast<std::int64_t>(n);
    g.min[first + l] = scan.min[l];
    g.max[first + l] = scan.max[l];
  }
  if (o.stats.has(Stat::moments)) store_moments(scan, ws.lanes.data(), n, o.ddof, first, g);
  if (o.stats.has(Stat::drift)) store_drift_block(sets, o.drift_k, first, ws, g);
  apply_network(ws.sort_network, ws.lanes.data());
  store_order_statistics(o, first, ws, g);
  return true;
}

// Everything one worker reuses across its chunks.
struct Worker {
  SummaryWorkspace summary;
  SortedBlockWorkspace sorted;
};

}  // namespace

GroupedSummary summarize_grouped(std::span<const double> values, std::span<const std::int64_t> offsets,
                                 const SummaryOptions& options, unsigned threads) {
  check_options(options);
  check_offsets(offsets, values.size());
  const std::size_t n_sets = offsets.size() - 1;
  GroupedSummary g;
  allocate(g, options, n_sets);
  const bool sorted_blocks = sorted_block_serves(options);
  // One workspace per worker: buffers and networks survive across chunks.
  std::vector<Worker> workers(resolve_thread_count(threads, (n_sets + kSetsPerChunk - 1) / kSetsPerChunk));
  parallel_for_chunks(n_sets, kSetsPerChunk, threads, [&](std::size_t begin, std::size_t end, unsigned worker) {
    SummaryWorkspace& ws = workers[worker].summary;
    std::array<Summary, kNetworkLanes> results;
    std::array<std::span<const double>, kNetworkLanes> sets;
    for (std::size_t i = begin; i < end;) {
      if (i + kNetworkLanes <= end && fill_block(values, offsets, i, options, !sorted_blocks, sets)) {
        if (!sorted_blocks) {
          summarize_block(sets, options, ws, results);
          for (std::size_t l = 0; l < kNetworkLanes; ++l) store(results[l], options.stats, i + l, g);
          i += kNetworkLanes;
          continue;
        }
        if (summarize_sorted_block(sets, options, i, workers[worker].sorted, g)) {
          i += kNetworkLanes;
          continue;
        }
      }
      summarize_into(set_at(values, offsets, i), options, SetLabel::numbered(i), ws, results[0]);
      store(results[0], options.stats, i, g);
      ++i;
    }
  });
  return g;
}

}  // namespace benchreport

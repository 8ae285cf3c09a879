#pragma once
// Summary statistics of one ordered sample set, in one call.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "benchreport/stats/drift.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/stats/median_ci.hpp"
#include "benchreport/stats/outliers.hpp"
#include "benchreport/stats/quantile.hpp"
#include "benchreport/data/sample_check.hpp"
#include "benchreport/stats/selection_network.hpp"

namespace benchreport {

// Groups of statistics that can be requested (bit flags). n, n_omitted, min
// and max are always computed; a group that another needs is computed
// internally but only requested groups are reported.
enum class Stat : std::uint32_t {
  moments = 1u << 0,    // mean, std (ddof 0 and 1), cv
  median = 1u << 1,     // median
  quantiles = 1u << 2,  // the requested quantiles
  iqr = 1u << 3,        // interquartile range (selected quantile method)
  mad = 1u << 4,        // MAD, MAD / p50 %, robust CV
  median_ci = 1u << 5,  // distribution-free CI of the median
  drift = 1u << 6,      // median(last k) / median(first k) - 1
  trend = 1u << 7,      // Theil–Sen slope and Mann–Kendall test
  outliers = 1u << 8,   // Tukey and modified z-score counts
};

class StatSet {
 public:
  constexpr StatSet() = default;
  constexpr explicit StatSet(std::uint32_t bits) : bits_(bits) {}
  static constexpr StatSet all() { return StatSet((1u << 9) - 1); }
  constexpr StatSet with(Stat s) const { return StatSet(bits_ | static_cast<std::uint32_t>(s)); }
  constexpr bool has(Stat s) const { return (bits_ & static_cast<std::uint32_t>(s)) != 0; }
  constexpr std::uint32_t bits() const { return bits_; }

 private:
  std::uint32_t bits_ = 0;
};

// Names accepted by parse_stat: moments (aliases mean, std, cv), median,
// quantiles, iqr, mad, median_ci, drift, trend, outliers; min, max and n are
// always reported and accepted as no-ops. Throws InputError otherwise.
StatSet parse_stat(std::string_view name, StatSet into);
// Every name parse_stat accepts, in documentation order.
std::vector<std::string_view> stat_names();

enum class MadScale { raw, normal };

struct SummaryOptions {
  std::vector<double> quantiles{0.05, 0.25, 0.75, 0.95};
  QuantileMethod method = QuantileMethod::linear;  // requested quantiles and IQR
  int ddof = 0;                                    // for cv: 0 population (default), 1 sample
  std::size_t drift_k = 5;
  double confidence = 0.95;            // nominal confidence of the median CI
  MadScale mad_scale = MadScale::raw;  // scale of the reported `mad` field
  NanPolicy nan_policy = NanPolicy::raise;
  std::size_t theil_sen_max_n = DriftOptions{}.theil_sen_max_n;
  StatSet stats = StatSet::all();
};

// Throws InputError for a bad option (p outside [0, 1], ddof not 0/1, k = 0,
// confidence outside (0, 1), no statistics requested).
void check_options(const SummaryOptions& options);

struct Summary {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  std::size_t n = 0;          // finite samples used
  std::size_t n_omitted = 0;  // NaN/±inf dropped under NanPolicy::omit
  double min = nan, max = nan;
  double mean = nan;
  double std_population = nan;  // ddof 0
  double std_sample = nan;      // ddof 1 (NaN for n = 1)
  double cv = nan;              // std(ddof) / mean
  double median = nan;
  std::vector<double> probabilities;  // as requested
  std::vector<double> quantiles;      // same length
  double iqr = nan;
  double mad = nan;                  // raw, or × kMadNormalScale when MadScale::normal
  double mad_over_median_pct = nan;  // raw MAD / median × 100
  double robust_cv = nan;            // kMadNormalScale × raw MAD / median
  MedianCI median_ci;
  Drift drift;
  OutlierCounts outliers;
};

// Reusable working memory: summarising many sets with one workspace allocates
// nothing per set once warmed up.
struct SummaryWorkspace {
  std::vector<double> values;   // the one working copy of the set
  std::vector<double> scratch;  // ends for drift, pairwise slopes, merge buffer
  std::vector<std::size_t> ranks;
  std::vector<QuantilePosition> positions;
  std::size_t planned_n = 0;  // cache of the median-CI plan for the last (n, confidence)
  double planned_confidence = 0.0;
  MedianCIPlan plan;
  // Selection networks for summarize_block, cached for the last (n, ranks).
  std::size_t network_n = 0;
  std::vector<std::size_t> network_ranks;
  std::vector<Comparator> network, mad_network;
  std::vector<double> lanes;  // kNetworkLanes interleaved sets
};

// Options must have passed check_options. `set_label` names the set in errors.
void summarize_into(std::span<const double> x, const SummaryOptions& options, const SetLabel& set_label,
                    SummaryWorkspace& workspace, Summary& out);

// Whether summarize_block serves sets of n samples with these options
// (2 <= n <= kNetworkMaxN; not Harrell–Davis, which needs a full sort).
bool block_supported(const SummaryOptions& options, std::size_t n);

// Summaries of kNetworkLanes sets of equal size n, all finite, with one
// vectorised selection network instead of per-set quickselects. Results are
// identical to summarize_into on each set (same code reads the same order
// statistics). Requires block_supported(options, n) and check_options.
void summarize_block(std::span<const std::span<const double>> sets, const SummaryOptions& options,
                     SummaryWorkspace& workspace, std::span<Summary> out);

Summary summarize(std::span<const double> x, const SummaryOptions& options = {});

}  // namespace benchreport

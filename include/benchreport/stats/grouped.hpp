#pragma once
// Summary statistics of many sample sets in CSR layout, in one call.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "benchreport/data/csr.hpp"
#include "benchreport/stats/summary.hpp"

namespace benchreport {

// Struct of arrays: one entry per set (quantiles: row-major n_sets × n_probabilities).
// Statistics that were not requested keep NaN (counts: 0); `*_ok`/`*_reason`
// columns say why an optional statistic is unavailable.
struct GroupedSummary {
  std::size_t n_sets = 0;
  std::vector<double> probabilities;
  std::vector<std::int64_t> n, n_omitted;
  std::vector<double> min, max, mean, std_population, std_sample, cv, median, quantiles, iqr;
  std::vector<double> mad, mad_over_median_pct, robust_cv;
  std::vector<double> ci_lower, ci_upper, ci_achieved;
  std::vector<std::int64_t> ci_lower_rank, ci_upper_rank;
  std::vector<std::uint8_t> ci_ok;
  std::vector<std::string> ci_reason;
  std::vector<double> drift;
  std::vector<std::uint8_t> drift_ok;
  std::vector<std::string> drift_reason;
  std::vector<double> theil_sen_slope, theil_sen_relative;
  std::vector<std::uint8_t> theil_sen_ok;
  std::vector<std::string> theil_sen_reason;
  std::vector<double> mann_kendall_s, mann_kendall_z, mann_kendall_p, kendall_tau;
  std::vector<std::uint8_t> mann_kendall_ok;
  std::vector<std::string> mann_kendall_reason;
  std::vector<std::int64_t> tukey_mild, tukey_severe, modified_z;
};

// Set i is values[offsets[i] .. offsets[i+1]). threads: 0 = one per
// usable CPU. Results are identical for every thread count. The first bad set
// (lowest index) is reported as "set i: ...".
GroupedSummary summarize_grouped(std::span<const double> values, std::span<const std::int64_t> offsets,
                                 const SummaryOptions& options, unsigned threads = 0);

}  // namespace benchreport

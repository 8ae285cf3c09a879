#pragma once
// Inference kernels over many cases at once (threads over cases). Inputs use
// the CSR layout (data/csr.hpp): values of all cases back to back,
// offsets[i]..offsets[i+1] for case i.
#include <cstdint>
#include <span>
#include <vector>

#include "benchreport/data/csr.hpp"
#include "benchreport/stats/bootstrap.hpp"
#include "benchreport/stats/hodges_lehmann.hpp"
#include "benchreport/stats/pvalues.hpp"
#include "benchreport/stats/rank_tests.hpp"

namespace benchreport {

std::vector<MannWhitneyResult> mann_whitney_u_batch(std::span<const double> x_values,
                                                    std::span<const std::int64_t> x_offsets,
                                                    std::span<const double> y_values,
                                                    std::span<const std::int64_t> y_offsets, unsigned threads = 0);

// Case i uses Xoshiro256::for_stream(seed, i): identical for any thread count.
std::vector<BootstrapInterval> bootstrap_median_ratio_ci_batch(std::span<const double> base_values,
                                                               std::span<const std::int64_t> base_offsets,
                                                               std::span<const double> head_values,
                                                               std::span<const std::int64_t> head_offsets,
                                                               const BootstrapOptions& options, std::uint64_t seed,
                                                               unsigned threads = 0);

}  // namespace benchreport

#pragma once
// Inference kernels over many cases at once, plus the umbrella of the
// single-case estimators and tests. Batched inputs use the CSR layout of
// Dataset: values of all cases back to back, offsets[i]..offsets[i+1] for case i.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "benchreport/stats/bootstrap.hpp"
#include "benchreport/stats/hodges_lehmann.hpp"
#include "benchreport/stats/pvalues.hpp"
#include "benchreport/stats/rank_tests.hpp"

namespace benchreport {

// Calls task(i) for i in [0, n) on up to `threads` threads (0 = hardware
// concurrency). Work is split by index, so results written per index do not
// depend on the thread count. Rethrows the exception of the lowest failing index.
void run_indexed(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& task);

// Case i of a CSR batch (validates offsets; InputError naming the case otherwise).
std::span<const double> csr_case(std::span<const double> values, std::span<const std::int64_t> offsets, std::size_t i);
// Number of cases of a CSR batch (offsets.size() - 1) after validating the offsets.
std::size_t csr_cases(std::span<const double> values, std::span<const std::int64_t> offsets);

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

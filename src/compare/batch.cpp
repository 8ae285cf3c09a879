#include "benchreport/compare/batch.hpp"

#include <algorithm>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"

namespace benchreport {

namespace {
std::size_t matching_case_count(std::span<const double> xv, std::span<const std::int64_t> xo,
                                std::span<const double> yv, std::span<const std::int64_t> yo) {
  const std::size_t n = csr_cases(xv, xo);
  if (csr_cases(yv, yo) != n) throw InputError("both sides must have the same number of cases");
  return n;
}
}  // namespace

std::vector<MannWhitneyResult> mann_whitney_u_batch(std::span<const double> x_values,
                                                    std::span<const std::int64_t> x_offsets,
                                                    std::span<const double> y_values,
                                                    std::span<const std::int64_t> y_offsets, unsigned threads) {
  const std::size_t n = matching_case_count(x_values, x_offsets, y_values, y_offsets);
  std::vector<MannWhitneyResult> out(n);
  run_indexed(n, threads, [&](std::size_t i) {
    try {
      out[i] = mann_whitney_u(csr_case(x_values, x_offsets, i), csr_case(y_values, y_offsets, i));
    } catch (const InputError& e) {
      throw InputError("case " + std::to_string(i) + ": " + e.what());
    }
  });
  return out;
}

std::vector<BootstrapInterval> bootstrap_median_ratio_ci_batch(std::span<const double> base_values,
                                                               std::span<const std::int64_t> base_offsets,
                                                               std::span<const double> head_values,
                                                               std::span<const std::int64_t> head_offsets,
                                                               const BootstrapOptions& options, std::uint64_t seed,
                                                               unsigned threads) {
  const std::size_t n = matching_case_count(base_values, base_offsets, head_values, head_offsets);
  std::vector<BootstrapInterval> out(n);
  run_indexed(n, threads, [&](std::size_t i) {
    Xoshiro256 rng = Xoshiro256::for_stream(seed, i);
    try {
      out[i] = bootstrap_median_ratio_ci(SideSamples{{csr_case(base_values, base_offsets, i)}},
                                         SideSamples{{csr_case(head_values, head_offsets, i)}}, options, rng);
    } catch (const InputError& e) {
      throw InputError("case " + std::to_string(i) + ": " + e.what());
    }
  });
  return out;
}

}  // namespace benchreport

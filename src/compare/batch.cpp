#include "benchreport/compare/batch.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <thread>

#include "benchreport/core/error.hpp"

namespace benchreport {

void run_indexed(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& task) {
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(threads, n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        task(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  if (workers <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w) pool.emplace_back(work);
    for (auto& t : pool) t.join();
  }
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

std::size_t csr_cases(std::span<const double> values, std::span<const std::int64_t> offsets) {
  if (offsets.empty() || offsets.front() != 0 ||
      offsets.back() != static_cast<std::int64_t>(values.size())) {
    throw InputError("offsets must start at 0 and end at the number of values (" + std::to_string(values.size()) + ")");
  }
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
    if (offsets[i + 1] < offsets[i]) throw InputError("offsets must be nondecreasing (case " + std::to_string(i) + ")");
  }
  return offsets.size() - 1;
}

std::span<const double> csr_case(std::span<const double> values, std::span<const std::int64_t> offsets, std::size_t i) {
  const auto begin = static_cast<std::size_t>(offsets[i]);
  const auto end = static_cast<std::size_t>(offsets[i + 1]);
  return values.subspan(begin, end - begin);
}

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

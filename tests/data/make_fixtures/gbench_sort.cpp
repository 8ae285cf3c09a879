// Sorting at 8 sizes for the scaling fixtures (tests/data/google_benchmark/scaling,
// see make_google_benchmark_scaling.sh). The base build uses std::sort; built with
// -DQUADRATIC_SORT the same benchmark uses insertion sort, the growth regression
// the scaling comparison must flag.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace {

void sort_values(std::vector<std::uint32_t>& v) {
#ifdef QUADRATIC_SORT
  for (std::size_t i = 1; i < v.size(); ++i) {
    const std::uint32_t x = v[i];
    std::size_t j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
#else
  std::sort(v.begin(), v.end());
#endif
}

// Distinct inputs cycled through: sorting one array again and again lets the
// branch predictor learn it at small sizes, which bends the curve.
constexpr std::size_t kInputs = 64;

void BM_sort(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::mt19937 rng(42);
  std::vector<std::vector<std::uint32_t>> inputs(kInputs, std::vector<std::uint32_t>(n));
  for (auto& input : inputs) {
    for (auto& x : input) x = static_cast<std::uint32_t>(rng());
  }
  std::vector<std::uint32_t> work(n);
  std::size_t next = 0;
  for (auto _ : state) {
    work = inputs[next];  // an O(n) copy inside the timing: each iteration sorts unsorted data
    next = (next + 1) % kInputs;
    sort_values(work);
    benchmark::DoNotOptimize(work.data());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_sort)->RangeMultiplier(2)->Range(256, 32768)->Complexity();

}  // namespace

BENCHMARK_MAIN();

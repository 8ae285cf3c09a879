// A tiny Google Benchmark program whose JSON output is the fixture
// tests/data/google_benchmark/repetitions.json (see make_google_benchmark.sh).
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

static void BM_Accumulate(benchmark::State& state) {
  std::vector<int> v(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0));
  }
  state.SetBytesProcessed(state.iterations() * state.range(0) * static_cast<int64_t>(sizeof(int)));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Accumulate)->Arg(64)->Arg(512);

static void BM_Counter(benchmark::State& state) {
  int x = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x += 1);
  }
  state.counters["hits"] = 42;
}
BENCHMARK(BM_Counter);

BENCHMARK_MAIN();

// A Google Benchmark program where one benchmark reports aggregates only
// (ReportAggregatesOnly): its JSON holds mean/median/stddev/cv rows and no
// per-repetition rows for it. Writes tests/data/google_benchmark/
// some_aggregates_only.json; built with -DALL_SAMPLES (the change a head
// revision might make) it reports every repetition: all_samples.json (see
// make_google_benchmark.sh).
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

static void BM_Sum(benchmark::State& state) {
  std::vector<int> v(256, 1);
  for (auto _ : state) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0));
}
BENCHMARK(BM_Sum);
#ifdef ALL_SAMPLES
BENCHMARK(BM_Sum)->Name("BM_SumAggregatesOnly");
#else
BENCHMARK(BM_Sum)->Name("BM_SumAggregatesOnly")->ReportAggregatesOnly(true);
#endif

BENCHMARK_MAIN();

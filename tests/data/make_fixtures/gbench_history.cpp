// A small Google Benchmark program whose history make_google_benchmark_history.sh
// replays: kExtraRounds is 0, then a regression sets it, then a fix clears it.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

constexpr int kExtraRounds = 0;  // the line the history edits

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  return x ^ (x >> 33);
}

void BM_Hash(benchmark::State& state) {
  std::vector<std::uint64_t> data(4096);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = i;
  for (auto _ : state) {
    std::uint64_t acc = 0;
    for (int round = 0; round <= kExtraRounds; ++round) {
      for (const auto v : data) acc += mix(v + static_cast<std::uint64_t>(round));
    }
    benchmark::DoNotOptimize(acc);
  }
}

void BM_Copy(benchmark::State& state) {
  std::vector<int> from(8192, 1), to(8192);
  for (auto _ : state) {
    std::copy(from.begin(), from.end(), to.begin());
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
}

}  // namespace

BENCHMARK(BM_Hash);
BENCHMARK(BM_Copy);
BENCHMARK_MAIN();

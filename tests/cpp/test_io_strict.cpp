// Hardening regressions of the readers: linear-time shapes, folder walks,
// byte order marks, truncated last lines, empty results, duplicate keys,
// typed fields, bounded detection.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

TEST_CASE("Google Benchmark: one row with many counters reads in linear time", "[io][google-benchmark][hostile]") {
  // F3: counters were looked up linearly per row (100 000 counters: 19 s).
  constexpr int kCounters = 100000;
  std::string text = R"({"context":{},"benchmarks":[)";
  for (const char* type : {"iteration", "aggregate"}) {
    text += fmt::format(R"({{"name":"BM_x","run_name":"BM_x","run_type":"{}","aggregate_name":"mean","iterations":1,)"
                        R"("real_time":1,"cpu_time":1,"time_unit":"ns")", type);
    for (int i = 0; i < kCounters; ++i) text += fmt::format(",\"k{}\":{}", i, i);
    text += type[0] == 'i' ? "}," : "}";
  }
  text += "]}";
  const auto start = std::chrono::steady_clock::now();
  const Dataset ds = read_buffer(text, "counters.json");
  CHECK(seconds_since(start) < 10.0);
  CHECK(ds.n_sets() == kCounters + 2);
  const auto last = ds.select({{"metric", "k99999"}});
  REQUIRE(last.size() == 1);
  CHECK(ds.samples(last[0])[0] == 99999.0);
}

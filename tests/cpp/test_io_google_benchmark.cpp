#include <catch2/catch.hpp>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;

namespace {
const std::string kData = BENCHREPORT_TEST_DATA;

std::string metadata_value(const Dataset& ds, std::size_t set, std::string_view key) {
  for (const auto& [k, v] : ds.set_metadata(set)) {
    if (k == key) return v;
  }
  return {};
}
}  // namespace

TEST_CASE("Google Benchmark: repetitions become samples, aggregates are kept apart", "[io][google-benchmark]") {
  const Dataset ds = read(kData + "/google_benchmark/repetitions.json");
  // BM_Accumulate/64 and /512: real, cpu, bytes/s, items/s; BM_Counter: real, cpu, hits.
  REQUIRE(ds.n_sets() == 11);
  const auto real64 = ds.select({{"benchmark", "BM_Accumulate/64"}, {"metric", "real_time"}});
  REQUIRE(real64.size() == 1);
  CHECK(ds.base_samples(real64[0]).size() == 5);  // 5 repetitions, no aggregate mixed in
  CHECK(ds.unit(real64[0]).symbol == "ns");
  CHECK(ds.base_samples(real64[0])[0] == Approx(1.4980876050614693e+01 * 1e-9).epsilon(1e-15));
  const std::string aggregates = metadata_value(ds, real64[0], "aggregates");
  CHECK(aggregates.find("\"mean\"") != std::string::npos);
  CHECK(aggregates.find("\"cv\"") != std::string::npos);
  CHECK(metadata_value(ds, real64[0], "iterations").front() == '[');
  const auto bps = ds.select({{"benchmark", "BM_Accumulate/64"}, {"metric", "bytes_per_second"}});
  REQUIRE(bps.size() == 1);
  CHECK(ds.unit(bps[0]).symbol == "B/s");
  CHECK(ds.direction(bps[0]) == Direction::higher_is_better);
  const auto hits = ds.select({{"benchmark", "BM_Counter"}, {"metric", "hits"}});
  REQUIRE(hits.size() == 1);
  CHECK(ds.base_samples(hits[0])[0] == 42.0);
  REQUIRE(ds.runs().size() == 1);
  CHECK(ds.runs()[0].metadata_json.find("\"num_cpus\"") != std::string::npos);
  CHECK(ds.warnings().empty());  // aggregate rows kept apart are normal: a note, not a warning
  REQUIRE(ds.notes().size() == 1);
  CHECK(ds.notes()[0].find("kept 12 aggregate rows") != std::string::npos);
}

TEST_CASE("Google Benchmark: single run file", "[io][google-benchmark]") {
  const Dataset ds = read(kData + "/google_benchmark/single.json");
  REQUIRE(ds.n_sets() == 3);
  CHECK(ds.base_samples(0).size() == 1);
  CHECK(ds.warnings().empty());
}

TEST_CASE("Google Benchmark: errors and skipped rows", "[io][google-benchmark][errors]") {
  const std::string with_error = R"({"context":{},"benchmarks":[
    {"name":"BM_ok","run_name":"BM_ok","run_type":"iteration","iterations":1,"real_time":2,"cpu_time":1,"time_unit":"us"},
    {"name":"BM_bad","run_name":"BM_bad","run_type":"iteration","error_occurred":true,"error_message":"boom","iterations":0,"real_time":0,"cpu_time":0,"time_unit":"ns"}]})";
  const Dataset ds = read_buffer(with_error, "e.json");
  REQUIRE(ds.n_sets() == 2);
  CHECK(ds.base_samples(0)[0] == 2e-6);
  REQUIRE(ds.warnings().size() == 1);
  CHECK(ds.warnings()[0].find("BM_bad (boom)") != std::string::npos);

  auto fails_with = [](const std::string& text, const std::string& needle) {
    INFO(text);
    CHECK_THROWS_WITH(read_buffer(text, "g.json", "google-benchmark"),
                      Catch::Contains(needle) && Catch::Contains("g.json"));
  };
  fails_with(R"({"context":{}})", "missing \"benchmarks\"");
  fails_with(R"({"context":{},"benchmarks":[{"name":"a","run_type":"iteration","real_time":"x","cpu_time":1}]})",
             "benchmarks[0].real_time: expected a number, found a string");
  fails_with(R"({"context":{},"benchmarks":[{"name":"a","run_type":"iteration","cpu_time":1}]})",
             "benchmarks[0]: missing \"real_time\"");
  fails_with(R"({"context":{},"benchmarks":[{"name":"a","run_type":"iteration","real_time":-1,"cpu_time":1}]})",
             "benchmarks[0].real_time");
  fails_with(R"({"context":{},"benchmarks":[{"name":"a","real_time":1,"cpu_time":1,"time_unit":"fortnights"}]})",
             "fortnights");
  fails_with(R"({"context":{},"benchmarks":[{"run_type":"iteration","real_time":1,"cpu_time":1}]})",
             "missing \"name\"");
  fails_with(R"({"context":{},"benchmarks":[{"name":"a","real_time":1,"cpu_time":1}, )", "g.json");
}

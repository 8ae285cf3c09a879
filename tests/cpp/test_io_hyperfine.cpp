#include <catch2/catch.hpp>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;

namespace {
const std::string kData = BENCHREPORT_TEST_DATA;
}

TEST_CASE("hyperfine: one set per command, times in seconds, the rest in metadata", "[io][hyperfine]") {
  const Dataset ds = read(kData + "/hyperfine/commands.json");
  REQUIRE(ds.n_sets() == 2);
  CHECK(ds.label(0, "benchmark") == "sleep 0.001");
  CHECK(ds.label(1, "benchmark") == "true");
  CHECK(ds.base_samples(0).size() == 5);
  CHECK(ds.unit(0).symbol == "s");
  bool has_exit_codes = false;
  for (const auto& [k, v] : ds.set_metadata(0)) has_exit_codes |= k == "exit_codes";
  CHECK(has_exit_codes);
}

TEST_CASE("hyperfine: parameter scans become labels", "[io][hyperfine]") {
  const Dataset ds = read(kData + "/hyperfine/parameter_scan.json");
  REQUIRE(ds.n_sets() == 2);
  CHECK(ds.label(0, "delay") == "0.001");
  CHECK(ds.label(1, "delay") == "0.002");
  CHECK(ds.base_samples(1).size() == 3);
}

TEST_CASE("hyperfine: bad input", "[io][hyperfine][errors]") {
  auto fails_with = [](const std::string& text, const std::string& needle) {
    INFO(text);
    CHECK_THROWS_WITH(read_buffer(text, "h.json", "hyperfine"), Catch::Contains(needle) && Catch::Contains("h.json"));
  };
  fails_with(R"({"results":[{"command":"x","times":[]}]})", "results[0].times: empty sample list");
  fails_with(R"({"results":[{"command":"x"}]})", "results[0]: missing \"times\"");
  fails_with(R"({"results":[{"times":[1]}]})", "results[0]: missing \"command\"");
  fails_with(R"({"results":[{"command":"x","times":[1,-2]}]})", "results[0].times[1]");
  fails_with(R"({"results":[{"command":"x","times":[1,null]}]})", "results[0].times[1]: expected a number, found null");
  fails_with(R"({"results":{}})", "results: expected an array, found an object");
  fails_with(R"({"other":1})", "missing \"results\"");
}

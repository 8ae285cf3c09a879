#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;

namespace {
const std::string kHyperfine = std::string(BENCHREPORT_TEST_DATA) + "/hyperfine/";
}  // namespace

TEST_CASE("read_each reads one Dataset per file, globs expanded in natural order", "[io][inputs]") {
  const std::vector<Dataset> parts = read_each({kHyperfine + "commands.json", kHyperfine + "parameter_*.json"});
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].n_sets() == read(kHyperfine + "commands.json").n_sets());
  CHECK(parts[1].n_sets() == read(kHyperfine + "parameter_named_n.json").n_sets());
  CHECK(parts[2].n_sets() == read(kHyperfine + "parameter_scan.json").n_sets());
  CHECK(read_each({}).empty());
  CHECK_THROWS_AS(read_each({kHyperfine + "no_such_*.json"}), InputError);
}

TEST_CASE("read_inputs concatenates the files in order and refuses an empty list", "[io][inputs]") {
  const Dataset one = read_inputs({kHyperfine + "commands.json"});
  const Dataset alone = read(kHyperfine + "commands.json");
  CHECK(one.n_sets() == alone.n_sets());
  CHECK(one.n_values() == alone.n_values());
  const Dataset both = read_inputs({kHyperfine + "commands.json", kHyperfine + "parameter_scan.json"});
  const Dataset scan = read(kHyperfine + "parameter_scan.json");
  REQUIRE(both.n_sets() == alone.n_sets() + scan.n_sets());
  CHECK(both.n_values() == alone.n_values() + scan.n_values());
  CHECK(both.samples(alone.n_sets())[0] == scan.samples(0)[0]);
  CHECK(both.runs().size() == alone.runs().size() + scan.runs().size());
  CHECK_THROWS_WITH(read_inputs({}), "no input files given");
}

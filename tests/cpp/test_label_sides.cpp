#include <catch2/catch.hpp>

#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/data/label_sides.hpp"

using namespace benchreport;

namespace {

// One file: a set per (benchmark, process); no process label when `processes` is empty.
Dataset file(const std::vector<std::string>& processes) {
  Dataset ds;
  const std::vector<double> x{1.0, 2.0};
  for (const char* benchmark : {"a", "b"}) {
    if (processes.empty()) ds.add_set({{"benchmark", benchmark}}, x, parse_unit("ms"));
    for (const auto& p : processes) ds.add_set({{"benchmark", benchmark}, {"process", p}}, x, parse_unit("ms"));
  }
  return ds;
}

std::vector<std::string> column(const Dataset& ds, std::string_view name) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ds.n_sets(); ++i) out.emplace_back(ds.label(i, name));
  return out;
}

}  // namespace

TEST_CASE("label_sides: side and pair per file, per process when a file has several", "[label_sides]") {
  const Dataset one = file({}), same = file({"7"}), two = file({"1", "2"});
  const std::vector<const Dataset*> base{&one, &two}, head{&same};
  const Dataset ds = label_sides(base, head, {"side", "old", "new"});
  CHECK(column(ds, "side") == std::vector<std::string>{"old", "old", "old", "old", "old", "old", "new", "new"});
  // The two-process file is regrouped by process: process 1's sets, then process 2's.
  CHECK(column(ds, "pair") == std::vector<std::string>{"1", "1", "2.1", "2.1", "2.2", "2.2", "1", "1"});
  CHECK(column(ds, "benchmark") == std::vector<std::string>{"a", "b", "a", "b", "a", "b", "a", "b"});
}

TEST_CASE("label_sides needs a file on each side", "[label_sides]") {
  const Dataset one = file({});
  const std::vector<const Dataset*> base{&one};
  CHECK_THROWS_AS(label_sides(base, {}), InputError);
}

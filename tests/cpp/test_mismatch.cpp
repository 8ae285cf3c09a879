// Cases that do not line up between base and head (issue 35): edit distance,
// the refusal's diagnosis, Go's procs label, metadata absent on one side.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "benchreport/compare/dataset.hpp"
#include "benchreport/compare/mismatch.hpp"
#include "benchreport/core/edit_distance.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/report/format.hpp"

using namespace benchreport;

namespace {

// The textbook recursion, exponential but independent of the one-row table.
std::size_t naive_distance(std::string_view a, std::string_view b) {
  if (a.empty()) return b.size();
  if (b.empty()) return a.size();
  const std::size_t cost = a.back() == b.back() ? 0 : 1;
  const auto a1 = a.substr(0, a.size() - 1);
  const auto b1 = b.substr(0, b.size() - 1);
  return std::min({naive_distance(a1, b) + 1, naive_distance(a, b1) + 1, naive_distance(a1, b1) + cost});
}

const std::vector<double> kSamples{1.0, 1.1, 0.9, 1.05, 0.95};

std::string refusal(const Dataset& ds, const DatasetCompareOptions& o = {}) {
  try {
    compare(ds, o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("edit distance against the textbook recursion", "[mismatch]") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("flaw", "lawn") == 2);
  CHECK(normalized_edit_distance("", "") == 0.0);
  CHECK(normalized_edit_distance("kitten", "sitting") == Approx(3.0 / 7.0));
  const std::vector<std::string> words{"", "a", "ab", "sleep 0.001", "sleep 0.002", "BenchX-8", "BenchX", "xBench"};
  for (const auto& a : words) {
    for (const auto& b : words) {
      INFO(a << " / " << b);
      CHECK(edit_distance(a, b) == naive_distance(a, b));
      CHECK(edit_distance(a, b) == edit_distance(b, a));
    }
  }
}

TEST_CASE("nearest matches pair each base-only case with its closest head-only case", "[mismatch]") {
  const std::vector<std::vector<std::string>> base{{"sleep 0.001"}, {"grep foo"}};
  const std::vector<std::vector<std::string>> head{{"rg foo"}, {"sleep 0.002"}};
  const auto near = nearest_matches(base, head, 5);
  REQUIRE(near.size() == 2);
  CHECK(near[0].base == std::vector<std::string>{"sleep 0.001"});
  CHECK(near[0].head == std::vector<std::string>{"sleep 0.002"});
  CHECK(near[0].distance == Approx(1.0 / 11.0));
  CHECK(near[1].head == std::vector<std::string>{"rg foo"});
  CHECK(nearest_matches(base, head, 1).size() == 1);
  CHECK(nearest_matches(base, {}, 5).empty());
}

TEST_CASE("no matching case: the refusal names both sides, the nearest match and the fix", "[mismatch]") {
  Dataset ds;
  ds.add_set({{"benchmark", "sleep 0.001"}, {"metric", "time"}, {"revision", "base"}}, kSamples, parse_unit("s"));
  ds.add_set({{"benchmark", "sleep 0.002"}, {"metric", "time"}, {"revision", "head"}}, kSamples, parse_unit("s"));
  const std::string message = refusal(ds);
  CHECK(message.find("no case has sets on both sides") != std::string::npos);
  CHECK(message.find("only in base (1): sleep 0.001 / time") != std::string::npos);
  CHECK(message.find("only in head (1): sleep 0.002 / time") != std::string::npos);
  CHECK(message.find("sleep 0.001 / time ~ sleep 0.002 / time (0.06)") != std::string::npos);
  CHECK(message.find("--by metric") != std::string::npos);

  MismatchContext hyperfine{{"benchmark", "metric"},
                            {{"sleep 0.001", "time"}},
                            {{"sleep 0.002", "time"}},
                            "revision",
                            "base",
                            "head",
                            {"hyperfine"}};
  CHECK(explain_no_match(hyperfine).find("hyperfine -n NAME") != std::string::npos);
  MismatchContext go{{"benchmark", "procs", "metric"},
                     {{"BenchmarkSort", "1", "ns/op"}},
                     {{"BenchmarkSort", "8", "ns/op"}},
                     "revision",
                     "base",
                     "head",
                     {"go"}};
  const std::string go_fix = explain_no_match(go);
  CHECK(go_fix.find("GOMAXPROCS") != std::string::npos);
  CHECK(go_fix.find("--by benchmark,metric") != std::string::npos);
  MismatchContext unrelated{{"benchmark"}, {{"a"}, {"b"}}, {{"xyz"}}, "revision", "base", "head", {}};
  const std::string only_names = explain_no_match(unrelated);  // no other label could tell the cases apart
  CHECK(only_names.find("differ only in the \"benchmark\" label: give both sides the same values.") !=
        std::string::npos);
  CHECK(only_names.find("--by benchmark") == std::string::npos);
}

TEST_CASE("the refusal lists five cases per side and counts the rest", "[mismatch]") {
  MismatchContext many{{"benchmark"}, {}, {{"z"}}, "revision", "base", "head", {}};
  for (int i = 0; i < 7; ++i) many.base_only.push_back({"case" + std::to_string(i)});
  const std::string message = explain_no_match(many);
  CHECK(message.find("only in base (7): case0; case1; case2; case3; case4; and 2 more") != std::string::npos);
}

TEST_CASE("Go's procs label: -8 against -4 matches by name, several -cpu values keep it in the case", "[mismatch]") {
  Dataset ds;
  for (const auto& [side, procs] : {std::pair{"base", "8"}, std::pair{"head", "4"}}) {
    for (const char* name : {"BenchmarkA", "BenchmarkB"}) {
      ds.add_set({{"benchmark", name}, {"procs", procs}, {"metric", "ns/op"}, {"revision", side}}, kSamples,
                 parse_unit("ns"));
    }
  }
  DatasetCompareOptions o;
  o.resamples = 200;
  const DatasetComparison c = compare(ds, o);
  CHECK(c.by == std::vector<std::string>{"benchmark", "metric"});
  CHECK(c.cases.size() == 2);
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0].find("procs 8 in base, 4 in head") != std::string::npos);

  // -cpu 1,2 on the base side: procs names a case, and the refusal names the suffix.
  Dataset several;
  for (const char* procs : {"1", "2"}) {
    several.add_set({{"benchmark", "BenchmarkA"}, {"procs", procs}, {"metric", "ns/op"}, {"revision", "base"}},
                    kSamples, parse_unit("ns"));
  }
  several.add_set({{"benchmark", "BenchmarkA"}, {"procs", "4"}, {"metric", "ns/op"}, {"revision", "head"}}, kSamples,
                  parse_unit("ns"));
  const std::string message = refusal(several, o);
  CHECK(message.find("GOMAXPROCS") != std::string::npos);
  CHECK(message.find("same -cpu") != std::string::npos);
  CHECK(message.find("or compare with --by") == std::string::npos);  // it would pool procs 1 and 2
}

TEST_CASE("metadata absent on one side is unknown, not different, and a refusal names --no-check", "[mismatch]") {
  const auto with_iterations = [](const char* head_iterations) {
    Dataset ds;
    SetOptions known;
    known.metadata = {{"iterations", "100"}};
    ds.add_set({{"benchmark", "a"}, {"revision", "base"}}, kSamples, parse_unit("ns"), known);
    SetOptions head;
    if (head_iterations != nullptr) head.metadata = {{"iterations", head_iterations}};
    ds.add_set({{"benchmark", "a"}, {"revision", "head"}}, kSamples, parse_unit("ns"), head);
    return ds;
  };
  DatasetCompareOptions o;
  o.resamples = 200;
  o.work_checks = {"iterations"};
  CHECK(refusal(with_iterations(nullptr), o).empty());
  CHECK(refusal(with_iterations("100"), o).empty());
  const std::string message = refusal(with_iterations("200"), o);
  CHECK(message.find("iterations differs") != std::string::npos);
  CHECK(message.find("--no-check") != std::string::npos);
}

TEST_CASE("format_count says 1 commit and 6 commits", "[mismatch]") {
  CHECK(format_count(1, "commit", "commits") == "1 commit");
  CHECK(format_count(0, "commit", "commits") == "0 commits");
  CHECK(format_count(6, "case", "cases") == "6 cases");
}

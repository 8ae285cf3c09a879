// store/run_context.hpp against the Python store it replaced: every expected text below was
// printed by that code (json.dumps of its tool context, its messages) for the same metadata.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "benchreport/core/python_text.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/store/run_context.hpp"

using benchreport::Dataset;
using benchreport::repr_text;
using namespace benchreport::store;

namespace {

Dataset with_runs(const std::vector<std::pair<std::string, std::string>>& runs, bool with_set = true) {
  Dataset ds;
  for (const auto& [id, metadata] : runs) ds.add_run(id, metadata);
  if (with_set) ds.add_set({{"benchmark", "x"}}, std::vector<double>{1.0}, benchreport::parse_unit("s"));
  return ds;
}

const benchreport::Labels kCi{{"B", "1"}, {"A", "\t"}};
const benchreport::Labels kEnv{{"k", "v"}};

}  // namespace

TEST_CASE("environment_json: the context every file agrees on, Python's canonical JSON", "[store]") {
  const Dataset two = with_runs({
      {"a.json",
       R"({"x": 1.5, "y": [1, 2.0, {"b": 1, "a": 1e20}], "z": {"date": "x"}, "w": 1e-5, "v": 123456789012.25,)"
       R"( "big": 1e16, "n": null, "t": true, "s": "caf\u00e9\n", "k.dot": {"q": 3}})"},
      {"b.json", R"({"x": 1.5, "y": [1, 2, {"a": 1e20, "b": true}], "z": {}, "w": 0.00001, "v": 123456789012.25,)"
                 R"( "big": 1e16, "n": null, "t": 1, "s": "caf\u00e9\n", "k.dot": {"q": 3}, "extra": 1})"},
  });
  CHECK(environment_json(two, kCi, kEnv) ==
        "{\"ci\":{\"A\":\"\\t\",\"B\":\"1\"},\"env\":{\"k\":\"v\"},\"tool\":{\"big\":1e+16,\"k\":{\"dot\":{\"q\":3}},"
        "\"n\":null,\"s\":\"caf\xc3\xa9\\n\",\"t\":true,\"v\":123456789012.25,\"w\":1e-05,\"x\":1.5,"
        "\"y\":[1,2.0,{\"a\":1e+20,\"b\":1}],\"z\":{}}}");
  const Dataset floats = with_runs({{"a.json", R"({"commit": "abc", "c": {"commitSha": "x", "m": -0.0, "e": 0.1,)"
                                               R"( "f": 100.0, "g": 5e-324}})"}});
  CHECK(environment_json(floats, kCi, kEnv) ==
        R"({"ci":{"A":"\t","B":"1"},"env":{"k":"v"},"tool":{"c":{"e":0.1,"f":100.0,"g":5e-324,"m":-0.0}}})");
  const Dataset repeated = with_runs({{"a.json", R"({"a": {"a": 1, "a": 2}, "p": [], "q": {}})"}});
  CHECK(environment_json(repeated, {}, {}) == R"({"ci":{},"env":{},"tool":{"a":{"a":2},"p":[],"q":{}}})");
}

TEST_CASE("json_float and repr_text print as Python does", "[store]") {
  CHECK(json_float(1e16) == "1e+16");
  CHECK(json_float(1e15) == "1000000000000000.0");
  CHECK(json_float(0.0001) == "0.0001");
  CHECK(json_float(1.5e-7) == "1.5e-07");
  CHECK(json_float(-2.5) == "-2.5");
  CHECK(json_float(1.7976931348623157e308) == "1.7976931348623157e+308");
  CHECK(repr_text("abc") == "'abc'");
  CHECK(repr_text("ab'c") == "\"ab'c\"");
  CHECK(repr_text("a'\"\\\n\x01") == "'a\\'\"\\\\\\n\\x01'");
}

TEST_CASE("run_identity: the files' commit wins, disagreement and absence are errors", "[store]") {
  const Dataset disagree =
      with_runs({{"a.json", R"({"commitSha": "abc"})"}, {"b.json", R"({"x": {"commit_id": "ab'c"}})"}});
  CHECK_THROWS_WITH(run_identity(disagree, std::nullopt, std::string("main"), "a\nb\nc"),
                    "a.json: commit 'abc' but b.json: commit \"ab'c\"; record one commit at a time");
  const Dataset number = with_runs({{"a.json", R"({"commit_id": 12, "z": [{"commit_branch": true}]})"}});
  const RunIdentity identity = run_identity(number, std::nullopt, std::nullopt, "a.json");
  CHECK(identity.commit_sha == "12");
  CHECK(identity.branch == "True");
  const Dataset named = with_runs({{"a.json", R"({"commitSha": "abc"})"}});
  CHECK_THROWS_WITH(run_identity(named, std::string(" abd "), std::string("main"), "a\nb\nc"),
                    "a (and 2 more): the file's metadata says commit 'abc' but --commit says 'abd'");
  CHECK(run_identity(named, std::string(" abc "), std::string(" main "), "a").branch == "main");
  const Dataset none = with_runs({{"a.json", "{}"}});
  CHECK_THROWS_WITH(run_identity(none, std::string("  "), std::string("main"), "a\nb\nc"),
                    "a (and 2 more): no commit: the files do not name one; pass --commit");
  CHECK_THROWS_WITH(run_identity(with_runs({}, false), std::nullopt, std::nullopt, ""),
                    "record: no sample sets to record");
}

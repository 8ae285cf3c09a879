#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;

namespace {

Dataset sample_dataset() {
  Dataset ds;
  ds.add_run("run \"1\"", R"({"device":"Pixel 8","nested":{"a":[1,2]}})");
  const std::vector<double> a{851.2, 900.1, 1e-3, 123456789.125}, b{1.5, 2.5}, w{3, 4};
  SetOptions options;
  options.run = "run \"1\"";
  options.metadata = {{"iterations", "100"}, {"note", "\"x,y\""}};
  ds.add_set({{"benchmark", "a|b,\"c\"\nd"}, {"revision", "base"}}, a, parse_unit("ns"), options);
  SetOptions weighted;
  weighted.weights = w;
  weighted.direction = Direction::lower_is_better;  // an override: MiB/s is higher-is-better
  ds.add_set({{"benchmark", "x"}, {"platform", "ios"}}, b, parse_unit("MiB/s"), weighted);
  ds.warn("something was skipped");
  return ds;
}

std::string to_json(const Dataset& ds) {
  std::ostringstream out;
  write_canonical_json(ds, out);
  return out.str();
}

std::string to_csv(const Dataset& ds, std::vector<std::string>* notes = nullptr) {
  std::ostringstream out;
  auto n = write_canonical_csv(ds, out);
  if (notes) *notes = n;
  return out.str();
}

void require_same_sets(const Dataset& a, const Dataset& b) {
  REQUIRE(a.n_sets() == b.n_sets());
  for (std::size_t i = 0; i < a.n_sets(); ++i) {
    CHECK(a.labels(i) == b.labels(i));
    CHECK(a.unit(i).symbol == b.unit(i).symbol);
    const auto x = a.base_samples(i), y = b.base_samples(i);
    REQUIRE(x.size() == y.size());
    for (std::size_t k = 0; k < x.size(); ++k) CHECK(x[k] == y[k]);  // bit-exact
  }
}

}  // namespace

TEST_CASE("canonical JSON round-trips everything", "[io][canonical]") {
  const Dataset ds = sample_dataset();
  const std::string text = to_json(ds);
  CHECK(text.find("\"schema\":\"benchreport/1\"") != std::string::npos);
  CHECK(text.find("851.2") != std::string::npos);  // written in the set's unit
  const Dataset back = read_buffer(text, "mem.json");
  require_same_sets(ds, back);
  CHECK(back.runs() == ds.runs());
  CHECK(back.run_id(0) == "run \"1\"");
  CHECK(back.set_metadata(0) == ds.set_metadata(0));
  CHECK(back.direction(1) == Direction::lower_is_better);
  CHECK(back.sample_weights(1)[1] == 4.0);
  CHECK(back.warnings() == ds.warnings());
  CHECK(to_json(back) == text);  // byte-identical second time
}

TEST_CASE("canonical CSV round-trips samples, labels and units and says what it drops", "[io][canonical]") {
  const Dataset ds = sample_dataset();
  std::vector<std::string> notes;
  const std::string csv = to_csv(ds, &notes);
  CHECK(csv.substr(0, csv.find('\n')) == "benchmark,revision,platform,unit,value,weight");
  const Dataset back = read_buffer(csv, "mem.csv");
  require_same_sets(ds, back);
  CHECK(back.sample_weights(1)[0] == 3.0);
  REQUIRE(notes.size() == 4);
  CHECK(notes[0].find("run metadata") != std::string::npos);
  CHECK(notes[1].find("set metadata") != std::string::npos);
  CHECK(notes[2].find("direction") != std::string::npos);
  CHECK(notes[3].find("warnings") != std::string::npos);
  // JSON -> CSV -> JSON keeps the samples bit for bit.
  const Dataset again = read_buffer(to_json(read_buffer(csv, "x.csv")), "x.json");
  require_same_sets(ds, again);
}

TEST_CASE("CSV warns when consecutive sets would merge", "[io][canonical]") {
  Dataset ds;
  const std::vector<double> v{1};
  ds.add_set({{"benchmark", "a"}}, v, parse_unit("s"));
  ds.add_set({{"benchmark", "a"}}, v, parse_unit("s"));
  std::vector<std::string> notes;
  const auto csv = to_csv(ds, &notes);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("merged") != std::string::npos);
  CHECK(read_buffer(csv, "m.csv").n_sets() == 1);
}

TEST_CASE("CSV reader: sets are runs of equal labels, quoting, CRLF, BOM", "[io][canonical]") {
  const std::string csv =
      "\xEF\xBB\xBF"
      "benchmark,revision,unit,value\r\n"
      "\"a,\"\"b\"\"\",base,ms,1\r\n"
      "\"a,\"\"b\"\"\",base,ms,2\r\n"
      "a,,ms,3\r\n"
      "a,head,ms,4\r\n";
  const Dataset ds = read_buffer(csv, "q.csv");
  REQUIRE(ds.n_sets() == 3);
  CHECK(ds.label(0, "benchmark") == "a,\"b\"");
  CHECK(ds.base_samples(0).size() == 2);
  CHECK_FALSE(ds.has_label(1, "revision"));  // empty cell = no label
  CHECK(ds.base_samples(2)[0] == 4e-3);
}

TEST_CASE("CSV reader errors name the file and line", "[io][canonical][errors]") {
  CHECK_THROWS_WITH(read_buffer("benchmark,value\na,1\n", "f.csv"),
                    Catch::Contains("f.csv:1") && Catch::Contains("unit"));
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\na,ms,1\na,ms\n", "f.csv"),
                    Catch::Contains("f.csv:3") && Catch::Contains("2 fields"));
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\na,ms,1\na,ms,x1\n", "f.csv"),
                    Catch::Contains("f.csv:3") && Catch::Contains("\"x1\" is not a number"));
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\na,parsecs,1\n", "f.csv"),
                    Catch::Contains("f.csv:2") && Catch::Contains("parsecs"));
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\na,ms,nan\n", "f.csv"),
                    Catch::Contains("f.csv:2") && Catch::Contains("finite"));
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\n\"a,ms,1\n", "f.csv"), Catch::Contains("unterminated"));
  CHECK_THROWS_WITH(read_buffer("a,a,unit,value\n", "f.csv"), Catch::Contains("appears twice"));
  CHECK_THROWS_WITH(read_buffer("", "f.csv", "csv"), Catch::Contains("empty CSV"));
}

TEST_CASE("canonical JSON reader: runs may follow sets - errors name the JSON path", "[io][canonical][errors]") {
  const std::string late_runs =
      R"({"schema":"benchreport/1","sets":[{"labels":{"b":"x"},"unit":"s","run":"r","values":[1]}],"runs":[{"id":"r","metadata":{}}]})";
  CHECK(read_buffer(late_runs, "a.json").run_id(0) == "r");

  auto fails_with = [](const std::string& text, const std::string& needle) {
    INFO(text);
    CHECK_THROWS_WITH(read_buffer(text, "bad.json", "json"), Catch::Contains(needle) && Catch::Contains("bad.json"));
  };
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","values":[1,"x"]}]})",
             "sets[0].values[1]: expected a number, found a string");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","values":[]}]})",
             "sets[0].values: empty sample list");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"values":[1]}]})", "sets[0]: missing \"unit\"");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s"}]})", "missing \"values\"");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"fortnights","values":[1]}]})",
             "sets[0].unit: unknown unit \"fortnights\"");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{"a":1},"unit":"s","values":[1]}]})",
             "sets[0].labels.a: expected a string, found a number");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","direction":"up","values":[1]}]})",
             "sets[0].direction");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","values":[1],"colour":1}]})",
             "sets[0].colour: unknown member");
  fails_with(R"({"schema":"benchreport/2","sets":[]})", "unsupported schema");
  fails_with(R"({"sets":[]})", "missing \"schema\"");
  fails_with(R"({"schema":"benchreport/1","runs":[{"id":"r"},{"id":"r"}],"sets":[]})",
             "runs[1]: duplicate run id \"r\"");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","run":"q","values":[1]}]})",
             "unknown run id \"q\"");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","values":[1],"weights":[1,2]}]})",
             "1 samples");
  fails_with(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","values":[1,2)", "sets[0].values");
  fails_with(R"({"schema":"benchreport/1","sets":[]} trailing)", "after the end");
  fails_with("[1,2]", "expected an object, found an array");
  fails_with("", "not valid JSON");
}

TEST_CASE("JSON nesting and size limits are enforced with a message naming the limit", "[io][canonical][errors]") {
  std::string deep = R"({"schema":"benchreport/1","runs":[{"id":"r","metadata":)";
  for (int i = 0; i < 300; ++i) deep += "[";
  for (int i = 0; i < 300; ++i) deep += "]";
  deep += "}],\"sets\":[]}";
  CHECK_THROWS_WITH(read_buffer(deep, "deep.json", "json"), Catch::Contains("max_depth"));
  ReadOptions relaxed;
  relaxed.max_depth = 1000;
  CHECK_THROWS_WITH(read_buffer(deep, "deep.json", "json", relaxed), Catch::Contains("expected an object"));
  ReadOptions tiny;
  tiny.max_file_size = 10;
  CHECK_THROWS_WITH(read_buffer(R"({"schema":"benchreport/1","sets":[]})", "big.json", "json", tiny),
                    Catch::Contains("max_file_size"));
  ReadOptions few;
  few.max_samples = 2;
  CHECK_THROWS_WITH(read_buffer(R"({"schema":"benchreport/1","sets":[{"labels":{},"unit":"s","values":[1,2,3]}]})",
                                "n.json", "json", few),
                    Catch::Contains("max_samples"));
}

TEST_CASE("format detection and names", "[io][detect]") {
  CHECK(detect_format("x.json", R"({"schema": "benchreport/1"})") == "json");
  CHECK(detect_format("x.csv", "benchmark,unit,value\n") == "csv");
  CHECK(detect_format("x", "benchmark,unit,value\n") == "csv");
  CHECK(detect_format("x.json", R"({"context": {}, "benchmarks": []})") == "google-benchmark");
  CHECK(detect_format("x.json", R"({"results": [{"command": "true"}]})") == "hyperfine");
  CHECK(detect_format("x.txt", "goos: linux\nBenchmarkFoo-8  100  12 ns/op\n") == "go");
  CHECK(detect_format("log.txt", "noise\nZFH_BENCHMARK_RESULT {}\n") == "zfh");
  CHECK_THROWS_WITH(detect_format("x.bin", "hello"), Catch::Contains("x.bin") && Catch::Contains("google-benchmark"));
  CHECK_THROWS_WITH(detect_format("x.gz", "\x1f\x8b\x08"), Catch::Contains("gzip"));
  CHECK_THROWS_WITH(read_buffer("{}", "x.json", "yaml"), Catch::Contains("unknown format \"yaml\""));
  CHECK(reader_names().size() == 11);
}

TEST_CASE("custom units round-trip as custom:<symbol>", "[io][canonical]") {
  Dataset ds;
  const std::vector<double> v{3, 4};
  ds.add_set({{"benchmark", "a"}}, v, parse_unit_or_custom("commas/op"));
  std::ostringstream json, csv;
  write_canonical_json(ds, json);
  write_canonical_csv(ds, csv);
  CHECK(json.str().find("\"unit\":\"custom:commas/op\"") != std::string::npos);
  for (const auto& [text, name] : {std::pair{json.str(), "c.json"}, std::pair{csv.str(), "c.csv"}}) {
    const Dataset back = read_buffer(text, name);
    CHECK(back.unit(0).symbol == "commas/op");
    CHECK(back.unit(0).dimension == Dimension::custom);
    CHECK(back.base_samples(0)[1] == 4.0);
  }
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\na,custom:,1\n", "e.csv"),
                    Catch::Contains("e.csv:2") && Catch::Contains("empty custom unit"));
}

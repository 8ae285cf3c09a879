// pyperf, pytest-benchmark, Go, Nitro, criterion and ZFH readers on their fixtures.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;

namespace {
const std::string kData = BENCHREPORT_TEST_DATA;

bool any_warning(const Dataset& ds, std::string_view text) {
  for (const auto& w : ds.warnings()) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

void fails_with(const std::string& text, const std::string& format, const std::string& needle) {
  INFO(text);
  CHECK_THROWS_WITH(read_buffer(text, "in.x", format), Catch::Contains(needle) && Catch::Contains("in.x"));
}
}  // namespace

TEST_CASE("pyperf: one set per worker process - calibration runs counted", "[io][pyperf]") {
  const Dataset ds = read(kData + "/pyperf/two_benchmarks.json");
  REQUIRE(ds.n_sets() == 6);  // 2 benchmarks x 3 processes
  CHECK(ds.label(0, "benchmark") == "sort_small");
  CHECK(ds.label(0, "process") == "1");
  CHECK(ds.label(2, "process") == "3");
  CHECK(ds.base_samples(0).size() == 4);
  CHECK(ds.unit(0).symbol == "s");
  CHECK(ds.warnings().empty());  // calibration runs are normal: a note, not a warning
  REQUIRE(ds.notes().size() == 1);
  CHECK(ds.notes()[0].find("2 calibration runs") != std::string::npos);
  CHECK(ds.runs()[0].metadata_json.find("\"cpu_count\"") != std::string::npos);
}

TEST_CASE("pyperf: member order is free - the name may be in the file's metadata", "[io][pyperf]") {
  // `pyperf timeit -o` writes the name in the file-level metadata, after "benchmarks" (keys sorted).
  const Dataset timeit = read_buffer(
      R"({"benchmarks":[{"runs":[{"values":[1,2]},{"values":[3]}]}],"metadata":{"name":"timeit","unit":"second"},"version":"1.0"})",
      "t.json", "pyperf");
  REQUIRE(timeit.n_sets() == 2);
  CHECK(timeit.label(1, "benchmark") == "timeit");
  CHECK(timeit.label(1, "process") == "2");
  // A benchmark's own metadata after its runs, and its name over the file's.
  const Dataset reordered = read_buffer(
      R"({"metadata":{"name":"file","unit":"byte"},"benchmarks":[{"runs":[{"values":[4]}],"metadata":{"name":"own"}}]})",
      "r.json", "pyperf");
  REQUIRE(reordered.n_sets() == 1);
  CHECK(reordered.label(0, "benchmark") == "own");
  CHECK(reordered.unit(0).symbol == "B");
  // The same real suite, members reversed by make_pyperf.sh, reads the same sets.
  const Dataset sorted = read(kData + "/pyperf/two_benchmarks.json");
  const Dataset reversed = read(kData + "/pyperf/reordered.json");
  REQUIRE(reversed.n_sets() == sorted.n_sets());
  for (std::size_t i = 0; i < sorted.n_sets(); ++i) {
    CHECK(reversed.labels(i) == sorted.labels(i));
    CHECK(std::vector<double>(reversed.samples(i).begin(), reversed.samples(i).end()) ==
          std::vector<double>(sorted.samples(i).begin(), sorted.samples(i).end()));
  }
}

TEST_CASE("pyperf: errors", "[io][pyperf][errors]") {
  fails_with(R"({"version":"1.0","benchmarks":[{"runs":[{"values":[1]}]}]})", "pyperf",
             "benchmarks[0]: no benchmark \"name\"");
  fails_with(R"({"version":"1.0","benchmarks":[{"metadata":{"name":"a","unit":"parsec"},"runs":[{"values":[1]}]}]})",
             "pyperf", "parsec");
  fails_with(R"({"version":"1.0","benchmarks":[{"metadata":{"name":"a"},"runs":[{"values":[1,"x"]}]}]})", "pyperf",
             "runs[0].values[1]");
  fails_with(R"({"version":"1.0"})", "pyperf", "missing \"benchmarks\"");
}

TEST_CASE("pytest-benchmark: stats.data are the samples - labels from name, group, params", "[io][pytest-benchmark]") {
  const Dataset ds = read(kData + "/pytest_benchmark/with_data.json");
  REQUIRE(ds.n_sets() == 3);
  const auto sum10 = ds.select({{"benchmark", "test_sum[10]"}, {"n", "10"}});
  REQUIRE(sum10.size() == 1);
  CHECK(ds.unit(sum10[0]).symbol == "s");
  const auto join = ds.select({{"group", "strings"}});
  REQUIRE(join.size() == 1);
  CHECK_THROWS_WITH(read(kData + "/pytest_benchmark/no_data.json"), Catch::Contains("test_join") &&
                                                                        Catch::Contains("--benchmark-save-data") &&
                                                                        Catch::Contains("benchmarks[0]"));
}

TEST_CASE("Go: config lines, procs suffix, one set per (name, procs, unit)", "[io][go]") {
  const Dataset ds = read(kData + "/go/bench.txt");
  const auto sort16 = ds.select({{"benchmark", "BenchmarkSort/n=16"}, {"procs", "2"}, {"metric", "ns/op"}});
  REQUIRE(sort16.size() == 1);
  CHECK(ds.base_samples(sort16[0]).size() == 3);
  CHECK(ds.base_samples(sort16[0])[0] == Approx(208.9e-9).epsilon(1e-12));
  const auto join_mb = ds.select({{"benchmark", "BenchmarkJoin"}, {"procs", "1"}, {"metric", "MB/s"}});
  REQUIRE(join_mb.size() == 1);
  CHECK(ds.direction(join_mb[0]) == Direction::higher_is_better);
  const auto commas = ds.select({{"benchmark", "BenchmarkJoin"}, {"procs", "1"}, {"metric", "commas/op"}});
  REQUIRE(commas.size() == 1);
  CHECK(ds.unit(commas[0]).dimension == Dimension::custom);
  CHECK(any_warning(ds, "commas/op"));
  CHECK(ds.label(0, "pkg") == "example.com/brfixture");
  CHECK(ds.runs()[0].metadata_json.find("\"goarch\":\"amd64\"") != std::string::npos);
  // 2 benchmarks x 2 sizes + 1 benchmark x 5 units, each for procs 1 and 2.
  CHECK(ds.n_sets() == 2 * 2 + 5 * 2);
}

TEST_CASE("Go: errors name the line", "[io][go][errors]") {
  fails_with("goos: linux\nBenchmarkA-8 100 12 ns/op\nBenchmarkB-8 100 x ns/op\n", "go", "in.x:3");
  fails_with("BenchmarkA-8 100 12\n", "go", "in.x:1");
  fails_with("PASS\n", "go", "no benchmark result lines");
}

TEST_CASE("Nitro: a process folder with pairs, orders and case files", "[io][nitro]") {
  const Dataset ds = read(kData + "/nitro/raw/android");
  // 3 processes x 2 revisions x 3 metrics
  REQUIRE(ds.n_sets() == 18);
  const auto head2 = ds.select({{"revision", "head"}, {"process", "2"}, {"benchmark", "nitro-cpp/array/large-1024"}});
  REQUIRE(head2.size() == 1);
  const std::size_t s = head2[0];
  CHECK(ds.label(s, "platform") == "android");
  CHECK(ds.label(s, "pair") == "2");
  CHECK(ds.label(s, "order") == "BA");  // configuration.reverse
  CHECK(ds.label(s, "implementation") == "nitro-cpp");
  CHECK(ds.label(s, "family") == "array");
  CHECK(ds.label(s, "operation") == "large-1024");
  CHECK(ds.base_samples(s).size() == 5);
  CHECK(ds.unit(s).symbol == "ns");
  bool has_iterations = false;
  for (const auto& [k, v] : ds.set_metadata(s)) has_iterations |= (k == "iterations" && v == "1024");
  CHECK(has_iterations);
  CHECK(ds.select({{"revision", "base"}, {"process", "3"}}).size() == 3);  // concatenated from case files
  CHECK(ds.find_run(kData + "/nitro/raw/android/suite.json") != nullptr);
  const Run* run = ds.find_run(ds.run_id(s));
  REQUIRE(run != nullptr);
  CHECK(run->metadata_json.find("\"suiteHash\"") != std::string::npos);
  CHECK(run->metadata_json.find("\"samplesNsPerOp\"") == std::string::npos);
}

TEST_CASE("Nitro: bad input", "[io][nitro][errors]") {
  const std::string head =
      R"({"schemaVersion":2,"runner":{"sampleCount":2},"configuration":{"runId":"ios-base-1","platform":"ios"},"metrics":[)";
  fails_with(head + R"({"id":"a/b/c","samplesNsPerOp":[1,0]}]})", "nitro", "metrics[0].samplesNsPerOp[1]");
  fails_with(head + R"({"id":"a/b/c","samplesNsPerOp":[1,2,3]}]})", "nitro", "sampleCount = 2");
  fails_with(head + R"({"id":"a/b/c","samplesNsPerOp":[1,2]},{"id":"a/b/c","samplesNsPerOp":[1,2]}]})", "nitro",
             "duplicate metric id");
  fails_with(head + R"({"samplesNsPerOp":[1,2]}]})", "nitro", "metrics[0]: missing \"id\"");
  fails_with(R"({"schemaVersion":1,"metrics":[]})", "nitro", "schemaVersion: 1 is not supported");
  fails_with(R"({"schemaVersion":2,"configuration":{"runId":"x","platform":"ios"},"metrics":[]})", "nitro",
             "cannot tell base/head");
}

TEST_CASE("criterion: per-iteration times weighted by iterations, labels from benchmark.json", "[io][criterion]") {
  const std::string dir = kData + "/criterion/target/criterion/fib_20";
  const Dataset ds = read(dir + "/new/sample.json");
  REQUIRE(ds.n_sets() == 1);
  CHECK(ds.label(0, "benchmark") == "fib/recursive/20");
  CHECK(ds.label(0, "group") == "fib");
  CHECK(ds.label(0, "function") == "recursive");
  CHECK(ds.label(0, "parameter") == "20");
  CHECK(ds.label(0, "baseline") == "new");
  REQUIRE(ds.has_weights());
  CHECK(ds.sample_weights(0)[0] == 100.0);
  std::ifstream in(dir + "/new/sample.json");
  std::stringstream text;
  text << in.rdbuf();
  // Without benchmark.json (read from memory) the folder names the benchmark.
  const Dataset bare = read_buffer(text.str(), "target/criterion/fib_20/new/sample.json");
  CHECK(bare.label(0, "benchmark") == "fib_20");
  CHECK(bare.base_samples(0)[3] == ds.base_samples(0)[3]);
  const Dataset folder = read(dir);
  CHECK(folder.n_sets() == 2);  // new and base; estimates.json reported as skipped
  CHECK(any_warning(folder, "estimates.json"));
  fails_with(R"({"iters":[1,2],"times":[1]})", "criterion", "1 times for 2 iters");
  fails_with(R"({"iters":[0],"times":[1]})", "criterion", "iters[0]");
  fails_with(R"({"group_id":"g","function_id":null})", "criterion", "benchmark.json");
}

TEST_CASE("ZFH: lines in a log, repeated runs labelled, errors reported", "[io][zfh]") {
  const Dataset ds = read(kData + "/zfh/ios.log");
  // 2 runs x 2 engines x 2 algorithms
  REQUIRE(ds.n_sets() == 8);
  const auto sha = ds.select({{"engine", "zig"}, {"algorithm", "SHA-256"}});
  REQUIRE(sha.size() == 2);
  CHECK(ds.label(sha[0], "run") == "1");
  CHECK(ds.label(sha[1], "run") == "2");
  CHECK(ds.label(sha[0], "size") == "16 MiB");
  CHECK(ds.label(sha[0], "platform") == "ios");
  CHECK(ds.unit(sha[0]).symbol == "ms");
  CHECK(any_warning(ds, "BLAKE3"));
  CHECK(any_warning(ds, "unsupported on this engine"));
  fails_with("x ZFH_BENCHMARK_RESULT {\"platform\":\"ios\"}\n", "zfh", "missing \"engine\"");
  fails_with(
      "x\nZFH_BENCHMARK_RESULT "
      "{\"platform\":\"ios\",\"engine\":\"a\",\"sizeMiB\":1,\"results\":[{\"algorithm\":\"A\",\"samplesMs\":[1,\"2\"]}]"
      "}\n",
      "zfh", "results[0].samplesMs[1]");
  fails_with("nothing here\n", "zfh", "no ZFH_BENCHMARK_RESULT lines");
}

TEST_CASE("auto-detection picks the right reader for every fixture", "[io][detect]") {
  const std::pair<std::string, std::string> cases[] = {
      {"/pyperf/two_benchmarks.json", "pyperf"},
      {"/pytest_benchmark/with_data.json", "pytest-benchmark"},
      {"/go/bench.txt", "go"},
      {"/nitro/raw/android/base-1.json", "nitro"},
      {"/nitro/raw/android/suite.json", "nitro"},
      {"/criterion/target/criterion/fib_20/new/sample.json", "criterion"},
      {"/zfh/ios.log", "zfh"},
      {"/google_benchmark/repetitions.json", "google-benchmark"},
      {"/hyperfine/commands.json", "hyperfine"},
  };
  for (const auto& [file, format] : cases) {
    std::ifstream in(kData + file);
    std::stringstream text;
    text << in.rdbuf();
    INFO(file);
    CHECK(detect_format(file, text.str()) == format);
  }
}

TEST_CASE("read() parses files in place: same Dataset as read_buffer() of a copy of the bytes", "[io][padded]") {
  const char* files[] = {"/google_benchmark/repetitions.json",
                         "/hyperfine/commands.json",
                         "/pyperf/two_benchmarks.json",
                         "/pytest_benchmark/with_data.json",
                         "/go/bench.txt",
                         "/zfh/ios.log",
                         "/hostile/hostile_names.json"};
  for (const char* file : files) {
    const std::string path = kData + file;
    INFO(path);
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const Dataset from_file = read(path);
    const Dataset from_buffer = read_buffer(bytes.str(), path);
    REQUIRE(from_file.n_sets() == from_buffer.n_sets());
    CHECK(std::vector<double>(from_file.values().begin(), from_file.values().end()) ==
          std::vector<double>(from_buffer.values().begin(), from_buffer.values().end()));
    for (std::size_t set = 0; set < from_file.n_sets(); ++set) {
      CHECK(from_file.labels(set) == from_buffer.labels(set));
      CHECK(from_file.set_metadata(set) == from_buffer.set_metadata(set));
    }
  }
}

TEST_CASE("read(): errors from the in-place path still name the file and line", "[io][padded][errors]") {
  const std::string path = kData + "/hostile/trailing_garbage.json";
  CHECK_THROWS_WITH(read(path), Catch::Contains("trailing_garbage.json:15:") && Catch::Contains("unexpected content"));
  CHECK_THROWS_WITH(read(kData + "/hostile/truncated.json"),
                    Catch::Contains("truncated.json") && Catch::Contains("not valid JSON"));
}

// Hardening regressions of the readers: linear-time shapes, folder walks,
// byte order marks, truncated last lines, empty results, duplicate keys,
// typed fields, bounded detection.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {
// Peak resident memory of this process in bytes (Linux reports KiB).
std::uint64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}
}  // namespace

TEST_CASE("Google Benchmark: one row with many counters reads in linear time", "[io][google-benchmark][hostile]") {
  // F3: counters were looked up linearly per row (100 000 counters: 19 s).
  constexpr int kCounters = 100000;
  std::string text = R"({"context":{},"benchmarks":[)";
  for (const char* type : {"iteration", "aggregate"}) {
    text += fmt::format(R"({{"name":"BM_x","run_name":"BM_x","run_type":"{}","aggregate_name":"mean","iterations":1,)"
                        R"("real_time":1,"cpu_time":1,"time_unit":"ns")",
                        type);
    for (int i = 0; i < kCounters; ++i) text += fmt::format(",\"k{}\":{}", i, i);
    text += type[0] == 'i' ? "}," : "}";
  }
  text += "]}";
  // The speed (linear in the counters) is measured in bench/bench_hostile.py; here, that it reads right.
  const Dataset ds = read_buffer(text, "counters.json");
  CHECK(ds.n_sets() == kCounters + 2);
  const auto last = ds.select({{"metric", "k99999"}});
  REQUIRE(last.size() == 1);
  CHECK(ds.base_samples(last[0])[0] == 99999.0);
}

namespace {
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / fmt::format("br_strict_{}_{}", name, ::getpid())) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write_file(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

const char* const kGo = "goos: linux\nBenchmarkA-8 100 12 ns/op\nBenchmarkA-8 100 13 ns/op\n";
}  // namespace

TEST_CASE("folders: symlink loops, dangling symlinks, FIFOs are skipped and listed, never opened",
          "[io][folders][hostile]") {
  // F1: a symlink loop raised std::filesystem_error (a Python traceback); the others were skipped silently.
  TempDir dir("special");
  write_file(dir.path / "bench.txt", kGo);
  fs::create_symlink("s1", dir.path / "s2");
  fs::create_symlink("s2", dir.path / "s1");
  fs::create_symlink("nowhere", dir.path / "dangling");
  REQUIRE(::mkfifo((dir.path / "pipe").c_str(), 0600) == 0);  // opening it would wait for a writer
  fs::create_directories(dir.path / "sub");
  fs::create_directory_symlink(dir.path / "sub", dir.path / "sub_link");
  fs::create_directories(dir.path / ".git" / "objects");
  write_file(dir.path / ".git" / "objects" / "x", "not read");
  write_file(dir.path / ".DS_Store", "not read");
  const Dataset ds = read(dir.path);
  CHECK(ds.n_values() == 2);
  REQUIRE(ds.warnings().size() == 2);
  CHECK_THAT(ds.warnings()[1],
             Contains("skipped 2 hidden entries (names starting with \".\"; folders not entered): .DS_Store, .git"));
  CHECK_THAT(
      ds.warnings()[0],
      Contains("skipped 5 entries that are not regular files: dangling (dangling symlink), "
               "pipe (FIFO), s1 (symlink loop), s2 (symlink loop), sub_link (symlink to a folder, not followed)"));
  fs::remove(dir.path / "bench.txt");
  CHECK_THROWS_WITH(read(dir.path),
                    Contains("no benchmark results found in this folder (skipped 5 entries that are not regular "
                             "files: dangling (dangling symlink), pipe (FIFO)"));
  // Named directly, a symlink loop or a FIFO is an InputError too.
  CHECK_THROWS_AS(read(dir.path / "s1"), InputError);
  CHECK_THROWS_WITH(read(dir.path / "pipe"), Contains("pipe: not a regular file (a FIFO): nothing is read from it"));
}

TEST_CASE("folders: format detection reads a bounded prefix, not the whole file", "[io][folders][limits]") {
  TempDir dir("sparse");
  write_file(dir.path / "bench.txt", kGo);
  {
    std::ofstream big(dir.path / "big.bin", std::ios::binary);
    big.seekp((std::int64_t{2} << 30) - 1);  // 2 GiB, sparse: mapping it whole would fault 2 GiB in
    big.put('\0');
  }
  ReadOptions options;
  options.max_file_size = std::uint64_t{4} << 30;
  const std::uint64_t before = peak_resident_bytes();
  const Dataset ds = read(dir.path, "auto", options);
  // Detection saw a 64 KiB prefix: the 2 GiB file was never faulted in (peak memory, not time, is the check).
  CHECK(peak_resident_bytes() - before < (std::uint64_t{256} << 20));
  CHECK(ds.n_values() == 2);
  REQUIRE(ds.warnings().size() == 1);
  CHECK_THAT(ds.warnings()[0], Contains("skipped 1 files no reader recognises: big.bin"));
}

TEST_CASE("byte order marks: a UTF-8 BOM is dropped before detection and reading - UTF-16 is refused by name",
          "[io][bom]") {
  // F5: a BOM before Go text dropped the first line; before JSON it gave a "scalar document" error.
  const std::string bom = "\xEF\xBB\xBF";
  CHECK(read_buffer(bom + "BenchmarkA-8 100 12 ns/op\nBenchmarkA-8 100 13 ns/op\n", "go.txt").n_values() == 2);
  CHECK(read_buffer(bom + "BenchmarkA-8 100 12 ns/op\nBenchmarkA-8 100 13 ns/op\n", "go.txt", "go").n_values() == 2);
  const std::string gb =
      R"({"context":{},"benchmarks":[{"name":"a","iterations":1,"real_time":1,"cpu_time":1,"time_unit":"ns"}]})";
  CHECK(read_buffer(bom + gb, "gb.json").n_values() == 2);
  CHECK(read_buffer(bom + gb, "gb.json", "google-benchmark").n_values() == 2);
  CHECK(read_buffer(bom + R"({"schema":"benchreport/1","runs":[],"sets":[],"warnings":[]})", "c.json", "json").empty());
  CHECK(read_buffer(bom + "benchmark,unit,value\na,s,1\n", "c.csv").n_values() == 1);
  TempDir dir("bom");
  write_file(dir.path / "go.txt", bom + kGo);
  CHECK(read(dir.path / "go.txt").n_values() == 2);
  CHECK(read(dir.path).n_values() == 2);
  CHECK_THROWS_WITH(read_buffer(std::string("\xFF\xFE{\0", 4), "w.json"),
                    Contains("w.json: starts with a UTF-16LE byte order mark: benchreport reads UTF-8 text only"));
  CHECK_THROWS_WITH(read_buffer(std::string("\xFE\xFF\0{", 4), "w.json", "json"), Contains("UTF-16BE byte order mark"));
}

TEST_CASE("truncated last lines: a data line without its line break is refused", "[io][strict]") {
  // 0.0012 cut to 0.00 read as 0.
  CHECK_THROWS_WITH(read_buffer("BenchmarkA-8 100 0.0012 ns/op\nBenchmarkA-8 100 0.00", "go.txt"),
                    Contains("go.txt:2: the last line has no line break, so it may be cut short"));
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\na,s,0.0012\na,s,0.00", "c.csv"),
                    Contains("c.csv:3: the last line has no line break"));
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\r\na,s,0.0012\r\na,s,0.00", "c.csv"), Contains("c.csv:3:"));
  // Not data, or a file of one line: read.
  CHECK(read_buffer("BenchmarkA-8 100 12 ns/op\nPASS\nok  \tpkg\t1.2s", "go.txt").n_values() == 1);
  CHECK(read_buffer("BenchmarkA-8 100 12 ns/op", "go.txt").n_values() == 1);
  CHECK(read_buffer("benchmark,unit,value\na,s,1\n", "c.csv").n_values() == 1);
  // ZFH lines are JSON: a cut line does not parse.
  CHECK_THROWS_WITH(read_buffer("ZFH_BENCHMARK_RESULT {\"platform\":\"ios\",\"engine\":\"a\",\"sizeMiB\":1,\"results\":"
                                "[{\"algorithm\":\"x\",\"samplesMs\":[1.5,0.00",
                                "z.log"),
                    Contains("z.log:1"));
}

TEST_CASE("no samples: a tool's file that yields no sample set is an error naming the file", "[io][strict]") {
  CHECK_THROWS_WITH(read_buffer("benchmark,unit,value\n", "c.csv"), Contains("c.csv: no samples"));
  CHECK_THROWS_WITH(read_buffer(R"({"context":{},"benchmarks":[]})", "gb.json"), Contains("gb.json: no samples"));
  CHECK_THROWS_WITH(
      read_buffer(R"({"context":{},"benchmarks":[{"name":"a","error_occurred":true,"error_message":"boom"}]})",
                  "gb.json"),
      Contains("gb.json: no samples (the file holds no benchmark results); 1 benchmarks reported an error "
               "and have no samples: a (boom)"));
  CHECK_THROWS_WITH(read_buffer(R"({"results":[]})", "h.json", "hyperfine"), Contains("h.json: no samples"));
  // Canonical JSON of an empty dataset reads back empty.
  CHECK(read_buffer(R"({"schema":"benchreport/1","runs":[],"sets":[],"warnings":[]})", "c.json").empty());
}

TEST_CASE("duplicate JSON keys are an error naming the path", "[io][strict][json]") {
  const std::string row = R"({"name":"a","iterations":1,"real_time":1,"cpu_time":1,"time_unit":"ns"})";
  CHECK_THROWS_WITH(
      read_buffer(R"({"context":{},"benchmarks":[)" + row + R"(],"benchmarks":[)" + row + "]}", "gb.json"),
      Contains("gb.json:1: benchmarks: this member appears twice in one object (duplicate key)"));
  CHECK_THROWS_WITH(
      read_buffer(
          R"({"context":{},"benchmarks":[{"name":"a","real_time":1,"real_time":2,"cpu_time":1,"iterations":1}]})",
          "gb.json"),
      Contains("benchmarks[0].real_time: this member appears twice"));
  // Past the in-place comparison (24 names), the hashed set.
  std::string wide = R"({"context":{},"benchmarks":[{"name":"a","iterations":1,"real_time":1,"cpu_time":1)";
  for (int i = 0; i < 40; ++i) wide += fmt::format(",\"c{}\":1", i);
  CHECK(read_buffer(wide + "}]}", "gb.json").n_sets() == 42);
  CHECK_THROWS_WITH(read_buffer(wide + ",\"c33\":2}]}", "gb.json"),
                    Contains("benchmarks[0].c33: this member appears twice"));
  CHECK_THROWS_WITH(read_buffer(R"({"results":[{"command":"a","command":"b","times":[1]}]})", "h.json", "hyperfine"),
                    Contains("results[0].command: this member appears twice"));
}

TEST_CASE("Google Benchmark: typed fields are type-checked", "[io][google-benchmark][strict]") {
  const auto row = [](std::string_view extra) {
    return fmt::format(R"({{"context":{{}},"benchmarks":[{{"name":"a","real_time":1,"cpu_time":1,{}}}]}})", extra);
  };
  CHECK(read_buffer(row(R"("iterations":10,"threads":1,"repetitions":2,"label":"x")"), "gb.json").n_sets() == 2);
  CHECK_THROWS_WITH(read_buffer(row(R"("iterations":"10")"), "gb.json"),
                    Contains("gb.json:1: benchmarks[0].iterations: a string (expected a number)"));
  CHECK_THROWS_WITH(read_buffer(row(R"("iterations":[10])"), "gb.json"),
                    Contains("benchmarks[0].iterations: an array (expected a number)"));
  CHECK_THROWS_WITH(read_buffer(row(R"("iterations":1,"threads":"1")"), "gb.json"),
                    Contains("benchmarks[0].threads: a string (expected a number)"));
  CHECK_THROWS_WITH(read_buffer(row(R"("iterations":1,"repetition_index":{})"), "gb.json"),
                    Contains("benchmarks[0].repetition_index: an object (expected a number)"));
  CHECK_THROWS_WITH(read_buffer(row(R"("iterations":1,"label":3)"), "gb.json"),
                    Contains("benchmarks[0].label: a number (expected a string)"));
}

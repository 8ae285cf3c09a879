// Inputs the fuzz targets (fuzz/) found, kept as files under
// tests/data/fuzz_regressions/<target>/ and replayed through the same API with
// the outcome that is now expected.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/render/render.hpp"

using namespace benchreport;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path regressions(const std::string& target) {
  return fs::path(BENCHREPORT_TEST_DATA) / "fuzz_regressions" / target;
}

// Seeds named strict-* are hardening regressions with their own expected outcome (see the table below).
bool is_strict_seed(const fs::directory_entry& entry) {
  return entry.path().filename().string().starts_with("strict-");
}

bool is_valid_utf8(std::string_view text) { return sanitize_utf8(text) == text; }

// What fuzz/reader_target.hpp checks: an accepted dataset's canonical JSON is
// valid UTF-8 and reads back with the same values.
void check_round_trip(const Dataset& dataset) {
  std::ostringstream json;
  write_canonical_json(dataset, json);
  CHECK(is_valid_utf8(json.str()));
  const Dataset again = read_buffer(json.str(), "roundtrip.json", "json");
  REQUIRE(again.n_values() == dataset.n_values());
  for (std::size_t i = 0; i < dataset.n_values(); ++i) CHECK(again.values()[i] == dataset.values()[i]);
}

}  // namespace

TEST_CASE("fuzz_go: invalid UTF-8 in configuration lines becomes U+FFFD in run metadata", "[fuzz_regressions]") {
  // Found by fuzz_go: "goos: lin\xffux" was copied into the run metadata JSON
  // verbatim, so the canonical JSON did not parse and Python could not decode runs.
  for (const auto& entry : fs::directory_iterator(regressions("fuzz_go"))) {
    if (is_strict_seed(entry)) continue;  // checked in "strict readers" below
    CAPTURE(entry.path().string());
    const Dataset dataset = read_buffer(slurp(entry.path()), "bench.txt", "go");
    REQUIRE(!dataset.runs().empty());
    for (const auto& run : dataset.runs()) CHECK(is_valid_utf8(run.metadata_json));
    check_round_trip(dataset);
  }
  const Dataset hand_made = read_buffer(slurp(regressions("fuzz_go") / "invalid_utf8_config.txt"), "bench.txt", "go");
  CHECK(hand_made.runs().front().metadata_json.find("lin\xEF\xBF\xBDux") != std::string::npos);
}

TEST_CASE("Dataset refuses run or set metadata that is not valid UTF-8", "[fuzz_regressions]") {
  Dataset dataset;
  CHECK_THROWS_WITH(dataset.add_run("r", "{\"cpu\":\"\xff\"}"), Catch::Contains("metadata is not valid UTF-8"));
  dataset.add_run("r");
  CHECK_THROWS_WITH(dataset.set_run_metadata("r", "{\"cpu\":\"\xc3\"}"),
                    Catch::Contains("metadata is not valid UTF-8"));
  const std::vector<double> one{1.0};
  SetOptions options;
  options.metadata = {{"note", "\"\xff\""}};
  CHECK_THROWS_WITH(dataset.add_set({{"b", "x"}}, one, parse_unit("s"), options),
                    Catch::Contains("metadata \"note\" is not valid UTF-8"));
  CHECK(dataset.empty());
}

TEST_CASE("fuzz_render: C1 control characters are escaped in JSON output", "[fuzz_regressions]") {
  // Found by fuzz_render: a paragraph holding U+0082 came out of render_json raw.
  Report report;
  report.add_paragraph("a\xC2\x82z \x7F");
  const std::string json = render_json(report, RenderOptions{});
  CHECK(json.find("\xC2\x82") == std::string::npos);
  CHECK(json.find('\x7F') == std::string::npos);
  CHECK_THAT(json, Catch::Contains("a\\u0082z \\u007f") || Catch::Contains("a\\u0082z \\u007F"));
}

TEST_CASE("fuzz_google_benchmark: malformed values kept as raw metadata are an error", "[fuzz_regressions]") {
  // Found by fuzz_google_benchmark: on-demand parsing skips a member's value
  // without checking it, so `{"":{"":}}` was kept verbatim as metadata and the
  // canonical JSON written from the dataset did not parse.
  for (const auto& entry : fs::directory_iterator(regressions("fuzz_google_benchmark"))) {
    if (is_strict_seed(entry)) continue;  // checked in "strict readers" below
    CAPTURE(entry.path().string());
    CHECK_THROWS_WITH(read_buffer(slurp(entry.path()), "gb.json", "google-benchmark"),
                      Catch::Contains("gb.json:") &&
                          (Catch::Contains("malformed JSON value") || Catch::Contains("is beyond the range of a")));
  }
  // Found by the 60 s run: an integer beyond 64 bits passed as a lone value (on-demand parses
  // it as a double) but not inside the array the reader writes it into, so the dataset's
  // canonical JSON did not read back. Lone values now follow the containers' rule.
  CHECK_THROWS_WITH(
      read_buffer(slurp(regressions("fuzz_google_benchmark") / "integer-beyond-64-bits.json"), "gb.json",
                  "google-benchmark"),
      Catch::Contains("gb.json:2: benchmarks[0].iterations: 79670000000000000000 is beyond the range of a "
                      "64-bit integer"));
}

TEST_CASE("strict readers: hardening seeds read or fail as the table says", "[fuzz_regressions][hostile]") {
  // Hardening regressions (docs/hardening.md), kept as seeds of their fuzz targets.
  struct Case {
    const char* target;
    const char* file;
    const char* format;
    const char* expected;  // a substring of the error, or "" when the file reads
    std::size_t samples;
  };
  const Case cases[] = {
      {"fuzz_go", "strict-bom.txt", "go", "", 2},
      {"fuzz_go", "strict-truncated-last-line.txt", "go", "in:3: the last line has no line break", 0},
      {"fuzz_google_benchmark", "strict-bom.json", "google-benchmark", "", 2},
      {"fuzz_google_benchmark", "strict-duplicate-benchmarks.json", "google-benchmark",
       "in:2: benchmarks: this member appears twice in one object (duplicate key)", 0},
      {"fuzz_google_benchmark", "strict-empty-benchmarks.json", "google-benchmark", "in: no samples", 0},
      {"fuzz_google_benchmark", "strict-string-iterations.json", "google-benchmark",
       "in:1: benchmarks[0].iterations: a string (expected a number)", 0},
      {"fuzz_google_benchmark", "strict-array-threads.json", "google-benchmark",
       "in:1: benchmarks[0].threads: an array (expected a number)", 0},
      {"fuzz_canonical_csv", "strict-header-only.csv", "csv", "in: no samples", 0},
      {"fuzz_canonical_csv", "strict-truncated-last-line.csv", "csv", "in:3: the last line has no line break", 0},
      {"fuzz_zfh", "strict-truncated-last-line.txt", "zfh", "in:2", 0},
  };
  std::size_t seen = 0;
  for (const char* target : {"fuzz_go", "fuzz_google_benchmark", "fuzz_canonical_csv", "fuzz_zfh"}) {
    for (const auto& entry : fs::directory_iterator(regressions(target))) seen += is_strict_seed(entry) ? 1 : 0;
  }
  CHECK(seen == std::size(cases));  // every seed is in the table
  for (const Case& c : cases) {
    CAPTURE(c.target, c.file);
    const std::string bytes = slurp(regressions(c.target) / c.file);
    for (const char* format : {c.format, "auto"}) {
      if (std::string_view(c.expected).empty()) {
        const Dataset dataset = read_buffer(bytes, "in", format);
        CHECK(dataset.n_values() == c.samples);
        check_round_trip(dataset);
      } else {
        CHECK_THROWS_WITH(read_buffer(bytes, "in", format), Catch::Contains(c.expected));
      }
    }
  }
}

// Hostile input through the C++ API: each file of tests/data/hostile/ gives the
// outcome documented in docs/hardening.md, limits name themselves and how to
// raise them, and hostile names render without breaking Markdown tables.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/render/render.hpp"
#include "benchreport/data/units.hpp"

using namespace benchreport;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

fs::path hostile(const std::string& name) { return fs::path(BENCHREPORT_TEST_DATA) / "hostile" / name; }

// The message of the InputError that reading `path` throws ("" if none).
std::string read_error(const fs::path& path, const ReadOptions& options = {}) {
  try {
    (void)read(path, "auto", options);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

// GFM cell count of a Markdown table row: every `|` not preceded by `\` splits.
int gfm_cells(const std::string& row) {
  int pipes = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '|' && (i == 0 || row[i - 1] != '\\')) ++pipes;
  }
  return pipes - 1;
}

// A scratch folder removed at the end of the test.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("benchreport-hostile-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("hostile files are refused with errors naming the file and the problem", "[hostile]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> refused = {
      {"empty.json", {"empty file (0 bytes)"}},
      {"truncated.json", {"not valid JSON"}},
      {"deep_nesting.json", {"nesting deeper than the limit of 256 levels", "ReadOptions::max_depth"}},
      {"number_overflow.json", {"sets[0].values[1]", "number"}},
      {"invalid_utf8.json", {"UTF-8"}},
      {"invalid_utf8.csv", {":2:", "UTF-8"}},
      {"negative_times.hyperfine.json", {"results[0].times[1]", "negative"}},
      {"trailing_garbage.json", {"unexpected content after the end"}},
      {"unknown_schema.json", {"unsupported schema \"benchreport/99\""}},
      {"nan_value.csv", {":2:", "nan", "finite"}},
      {"wrong_field_count.csv", {":3:", "2 fields (expected 3"}},
  };
  for (const auto& [name, words] : refused) {
    CAPTURE(name);
    const std::string message = read_error(hostile(name));
    CHECK_THAT(message, Contains(hostile(name).string()));
    for (const auto& w : words) CHECK_THAT(message, Contains(w));
  }
}

TEST_CASE("extreme but finite numbers are read bit for bit", "[hostile]") {
  const std::vector<std::pair<std::string, std::vector<double>>> accepted = {
      {"huge_numbers.json", {1e308, 1.7976931348623157e308, 1.5e308}},
      {"tiny_numbers.json", {1e-300, 2.2250738585072014e-308, 3e-300}},
      {"denormals.json", {5e-324, 1e-310, 2.5e-320}},
  };
  for (const auto& [name, expected] : accepted) {
    CAPTURE(name);
    const Dataset ds = read(hostile(name));
    REQUIRE(ds.n_sets() == 1);
    const auto samples = ds.base_samples(0);
    CHECK(std::vector<double>(samples.begin(), samples.end()) == expected);
  }
}

TEST_CASE("duplicate case ids stay separate sets, nothing merged or dropped", "[hostile]") {
  const Dataset ds = read(hostile("duplicate_case_ids.json"));
  REQUIRE(ds.n_sets() == 2);
  CHECK(ds.labels(0) == ds.labels(1));
  CHECK(ds.n_values() == 4);
  CHECK(read(hostile("duplicate_commands.hyperfine.json")).n_sets() == 2);
}

TEST_CASE("a 1 GiB file is refused by its size before it is read", "[hostile][limits]") {
  TempDir dir;
  const fs::path big = dir.path / "big.json";
  { std::ofstream(big, std::ios::binary).put('{'); }
  fs::resize_file(big, (std::uint64_t{1} << 30) + 1);  // sparse: no disk space, no time
  const std::string message = read_error(big);
  CHECK_THAT(message, Contains(big.string()));
  CHECK_THAT(message, Contains("1073741825 bytes exceeds the input size limit of 1073741824 bytes"));
  CHECK_THAT(message, Contains("ReadOptions::max_file_size"));
}

TEST_CASE("each limit names itself and can be lowered or raised", "[hostile][limits]") {
  ReadOptions small;
  small.max_file_size = 100;
  CHECK_THAT(read_error(hostile("hostile_names.json"), small), Contains("exceeds the input size limit of 100 bytes"));

  ReadOptions shallow;
  shallow.max_depth = 100;
  CHECK_THAT(read_error(hostile("deep_nesting.json"), shallow), Contains("limit of 100 levels"));
  ReadOptions deep;
  deep.max_depth = 6000;
  CHECK(read(hostile("deep_nesting.json"), "auto", deep).n_sets() == 1);

  ReadOptions few;
  few.max_samples = 10;
  for (const char* name : {"hostile_names.json", "hostile_names.csv"}) {
    CAPTURE(name);
    const std::string message = read_error(hostile(name), few);
    CHECK_THAT(message, Contains("more than 10 samples"));
    CHECK_THAT(message, Contains("ReadOptions::max_samples"));
  }
  ReadOptions enough;
  enough.max_samples = 160;
  CHECK(read(hostile("hostile_names.json"), "auto", enough).n_sets() == 20);
}

TEST_CASE("hostile names keep every Markdown table row at the header's cell count", "[hostile][render]") {
  const Dataset ds = read(hostile("hostile_names.json"));
  Report report("Hostile names");
  Table& table = report.add_table({"Benchmark", "Revision", {"Samples", Align::right}}, "names", "names");
  for (std::size_t set = 0; set < ds.n_sets(); ++set) {
    table.add_row({Cell(std::string(ds.label(set, "benchmark"))),
                   Cell(std::string(ds.label(set, "revision")), CellRole::code),
                   Cell(std::to_string(ds.base_samples(set).size()))});
  }
  const std::string md = render_markdown(report);
  std::size_t rows = 0;
  std::size_t start = 0;
  while (start < md.size()) {
    const std::size_t end = std::min(md.find('\n', start), md.size());
    const std::string line = md.substr(start, end - start);
    if (line.starts_with("|")) {
      CAPTURE(line);
      CHECK(gfm_cells(line) == 3);
      ++rows;
    }
    start = end + 1;
  }
  CHECK(rows == ds.n_sets() + 2);  // header, delimiter, one row per set: nothing dropped
  CHECK(md.find("<script") == std::string::npos);
  CHECK(md.find("@octocat") == std::string::npos);
  CHECK(md.find("\xE2\x80\xAE") == std::string::npos);  // U+202E RIGHT-TO-LEFT OVERRIDE
  const std::string html = render_html(report);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK_THAT(html, Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

TEST_CASE("labels, unit symbols and run ids must be valid UTF-8 - messages stay valid UTF-8", "[hostile][dataset]") {
  const std::vector<double> one{1.0};
  Dataset ds;
  try {
    ds.add_set({{"benchmark", "bad \xFF name"}}, one, parse_unit("s"));
    FAIL("accepted invalid UTF-8 in a label value");
  } catch (const InputError& e) {
    const std::string message = e.what();
    CHECK_THAT(message, Contains("label \"benchmark\" is not valid UTF-8"));
    CHECK_THAT(message, Contains("bad \xEF\xBF\xBD name"));  // shown with U+FFFD, never the raw byte
    CHECK(message.find('\xFF') == std::string::npos);
  }
  CHECK_THROWS_WITH(ds.add_set({{"bench\xC3", "x"}}, one, parse_unit("s")), Contains("is not valid UTF-8"));
  CHECK_THROWS_WITH(ds.add_set({{"benchmark", "x"}}, one, parse_unit_or_custom("op\xE2\x82")), Contains("unit symbol"));
  CHECK_THROWS_WITH(ds.add_run("run \xFF"), Contains("not valid UTF-8"));
  CHECK(ds.empty());
  ds.warn("file \xFF.json skipped");
  CHECK(ds.warnings().back() == "file \xEF\xBF\xBD.json skipped");
}

TEST_CASE("label columns are limited so a small file cannot ask for columns x sets codes",
          "[hostile][dataset][limits]") {
  const std::vector<double> one{1.0};
  Labels wide;
  for (int i = 0; i < 256; ++i) wide.emplace_back("c" + std::to_string(i), "x");
  Dataset ds;
  ds.add_set(wide, one, parse_unit("s"));
  CHECK(ds.columns().size() == 256);
  CHECK_THROWS_WITH(ds.add_set({{"one more", "x"}}, one, parse_unit("s")),
                    Contains("more than 256 label columns") && Contains("kMaxLabelColumns"));
  CHECK(ds.n_sets() == 1);
  ds.add_set({{"c7", "y"}, {"c3", "z"}}, one, parse_unit("s"));  // existing columns, any order
  CHECK(ds.label(1, "c7") == "y");
  CHECK(ds.label(1, "c3") == "z");
  CHECK_THROWS_WITH(ds.add_set({{"c1", "a"}, {"c2", "b"}, {"c1", "c"}}, one, parse_unit("s")),
                    Contains("label \"c1\" given twice"));
}

TEST_CASE("many runs: every set finds its own run", "[hostile][dataset]") {
  const std::vector<double> one{1.0};
  Dataset ds;
  for (int i = 0; i < 3000; ++i) ds.add_run("r" + std::to_string(i), fmt::format("{{\"i\":{}}}", i));
  for (int i = 2999; i >= 0; --i) {
    SetOptions options;
    options.run = "r" + std::to_string(i);
    ds.add_set({{"b", "x"}}, one, parse_unit("s"), options);
  }
  CHECK(ds.run_id(0) == "r2999");
  CHECK(ds.run_id(2999) == "r0");
  CHECK(ds.find_run("r1234")->metadata_json == "{\"i\":1234}");
  CHECK(ds.find_run("r3000") == nullptr);
  ds.add_run("r5", "{\"i\":5}");  // identical duplicate: accepted once
  CHECK(ds.runs().size() == 3000);
  CHECK_THROWS_WITH(ds.add_run("r5", "{}"), Contains("duplicate run id \"r5\""));
  const Dataset copy = ds.subset(std::vector<std::size_t>{2999, 0});
  CHECK(copy.runs().size() == 2);
  CHECK(copy.run_id(1) == "r2999");
}

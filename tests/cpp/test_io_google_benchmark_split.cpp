// The two-thread path of the Google Benchmark reader (src/io/array_split.*,
// read_google_benchmark_in_two_parts): wherever it answers, its dataset must
// be exactly the one-pass dataset; wherever the cut is not clean, it must
// decline so that one pass reads the file (and reports its error).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "io/array_split.hpp"
#include "io/source.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

using namespace benchreport;

namespace {

// One element of "benchmarks", laid out as Google Benchmark writes it.
std::string row(std::string_view name, std::string_view run_type, std::string_view unit, double real, double cpu,
                std::string_view more = "", std::string_view run_name = "") {
  return fmt::format(
      "    {{\n      \"name\": \"{0}\",\n      \"family_index\": 0,\n      \"run_name\": \"{6}\",\n"
      "      \"run_type\": \"{1}\",\n      \"repetitions\": 50,\n      \"threads\": 1,\n      \"iterations\": 1000,\n"
      "      \"real_time\": {2},\n      \"cpu_time\": {3},\n      \"time_unit\": \"{4}\"{5}\n    }}",
      name, run_type, real, cpu, unit, more, run_name.empty() ? name : run_name);
}

std::string document(const std::vector<std::string>& rows, std::string_view after_benchmarks = "") {
  std::string out =
      "{\n  \"context\": {\n    \"host_name\": \"split-test\",\n    \"caches\": [\n      {\"level\": 1},\n      "
      "{\"level\": 2}\n    ]\n  },\n  \"benchmarks\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) out += rows[i] + (i + 1 < rows.size() ? ",\n" : "\n");
  out += "  ]";
  out += after_benchmarks;
  out += "\n}\n";
  return out;
}

// Series of repetitions with aggregates, counters that appear only in later
// repetitions, an error row, and one series whose rows are at both ends.
std::vector<std::string> mixed_rows(std::size_t n_series) {
  std::vector<std::string> rows;
  rows.push_back(row("BM_Both/ends", "iteration", "us", 7.25, 7.0, ",\n      \"label\": \"first\""));
  for (std::size_t b = 0; b < n_series; ++b) {
    const std::string name = fmt::format("BM_Case/{}", b);
    for (int r = 0; r < 30; ++r) {
      std::string more = fmt::format(",\n      \"items_per_second\": {}", 1e6 + 17.0 * r + b);
      if (b % 3 == 1 && r >= 20) more += fmt::format(",\n      \"hits\": {}", r);
      rows.push_back(row(name, "iteration", b % 2 == 0 ? "ns" : "ms", 100.0 + b + 0.5 * r, 99.0 + b + 0.25 * r, more));
    }
    for (const char* aggregate : {"mean", "median", "stddev"}) {
      rows.push_back(row(name + "_" + aggregate, "aggregate", "ns", 101.0 + b, 100.0 + b,
                         fmt::format(",\n      \"aggregate_name\": \"{}\"", aggregate), name));
    }
    if (b == n_series / 2) {
      rows.push_back(row("BM_Broken", "iteration", "ns", 0, 0,
                         ",\n      \"error_occurred\": true,\n      \"error_message\": \"boom\""));
    }
  }
  rows.push_back(row("BM_Both/ends", "iteration", "us", 7.5, 7.125));
  return rows;
}

// A writable, padded copy of a text (as read() gives a file to the readers).
struct Buffer {
  explicit Buffer(const std::string& text) : bytes(text + std::string(64, '\0')), size(text.size()) {}
  std::string bytes;
  std::size_t size;
  std::string_view view() const { return std::string_view(bytes).substr(0, size); }
};

std::optional<Dataset> two_parts(Buffer& buffer, const ReadOptions& options = {}) {
  const io::Source source{"split.json", buffer.view(),
                          options,      {},
                          true,         [&buffer](std::size_t, std::size_t) { return buffer.bytes.data(); }};
  return io::read_google_benchmark_in_two_parts(source);
}

std::string canonical(const Dataset& ds) {
  std::ostringstream out;
  write_canonical_json(ds, out);
  std::string text = out.str();
  for (const auto& w : ds.warnings()) text += "\nwarning: " + w;
  return text;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("Array split: a cut between two elements of the last member's array", "[io][split]") {
  const std::string text = document(
      {row("a", "iteration", "ns", 1, 1), row("b", "iteration", "ns", 2, 2), row("c", "iteration", "ns", 3, 3)});
  const auto cut = io::find_array_split(text, text.find("\"b\""));
  REQUIRE(cut.has_value());
  CHECK(text.substr(cut->comma - 1, 4) == "},\n ");
  CHECK(cut->boundary == cut->comma + 2);
  CHECK(cut->edit_length() == 3);
  CHECK(text[cut->tail_end - 1] == ']');
  CHECK(text.find("\"c\"") > cut->boundary);  // the first cut at or after `near`: between b and c
  CHECK(text.find("\"b\"") < cut->comma);

  Buffer buffer(text);
  {
    const io::SplitEdit edit(buffer.bytes.data(), *cut);
    const std::string head(buffer.view().substr(0, cut->boundary));
    CHECK(head.ends_with("}]}"));
    CHECK(buffer.view().substr(cut->boundary, cut->tail_end - cut->boundary).starts_with("[   {"));
  }
  CHECK(buffer.view() == text);  // restored

  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(io::find_array_split(crlf, crlf.size() / 2).has_value());

  // Objects nested deeper in a row (more indent) are not rows.
  const std::string nested = document(
      {row("a", "iteration", "ns", 1, 1, ",\n      \"list\": [\n        {\"x\": 1},\n        {\"y\": 2}\n      ]"),
       row("b", "iteration", "ns", 2, 2)});
  const auto between_rows = io::find_array_split(nested, 0);
  REQUIRE(between_rows.has_value());
  CHECK(between_rows->comma > nested.find("\"y\""));

  // No cut: minified, another member after the array, nothing after `near`, not an object, rows at column 0.
  CHECK_FALSE(io::find_array_split(R"({"benchmarks":[{"a":1},{"a":2},{"a":3}]})", 0).has_value());
  CHECK_FALSE(io::find_array_split(
                  document({row("a", "iteration", "ns", 1, 1), row("b", "iteration", "ns", 2, 2)}, ",\n  \"x\": 1"), 0)
                  .has_value());
  CHECK_FALSE(io::find_array_split(text, text.find("\"c\"")).has_value());
  CHECK_FALSE(io::find_array_split("[\n  {\"a\": 1},\n  {\"a\": 2}\n]", 0).has_value());
  CHECK_FALSE(io::find_array_split("", 0).has_value());
  CHECK_FALSE(io::find_array_split("{\"b\": [\n{\"a\": 1},\n{\"a\": 2}\n]}", 0).has_value());
}

TEST_CASE("Google Benchmark in two parts: the same dataset as one pass", "[io][split][google-benchmark]") {
  for (std::size_t n_series : {1u, 2u, 7u, 40u}) {
    const std::string text = document(mixed_rows(n_series));
    INFO("series: " << n_series);
    const std::string expected = canonical(read_buffer(text, "split.json", "google-benchmark"));
    Buffer buffer(text);
    const auto split = two_parts(buffer);
    REQUIRE(split.has_value());
    CHECK(canonical(*split) == expected);
    CHECK(buffer.view() == text);
  }
  // A series cut in the middle of its repetitions, with a counter only after the cut.
  const std::string text = document(mixed_rows(1));
  const Dataset ds = *[&] {
    Buffer b(text);
    return two_parts(b);
  }();
  const auto hits = ds.select({{"benchmark", "BM_Case/0"}, {"metric", "real_time"}});
  REQUIRE(hits.size() == 1);
  CHECK(ds.base_samples(hits[0]).size() == 30);
  const auto ends = ds.select({{"benchmark", "BM_Both/ends"}, {"metric", "real_time"}});
  REQUIRE(ends.size() == 1);
  CHECK(ds.base_samples(ends[0]).size() == 2);
  CHECK(ds.base_samples(ends[0])[0] == Approx(7.25e-6));
  CHECK(ds.base_samples(ends[0])[1] == Approx(7.5e-6));
}

TEST_CASE("Google Benchmark in two parts: declines where one pass must decide", "[io][split][google-benchmark]") {
  const auto declines = [](const std::string& text, const ReadOptions& options = {}) {
    Buffer buffer(text);
    CHECK_FALSE(two_parts(buffer, options).has_value());
    CHECK(buffer.view() == text);
  };
  std::vector<std::string> rows = mixed_rows(6);
  SECTION("one series in two time units, one per part") {
    rows.back() = row("BM_Both/ends", "iteration", "ns", 7.5, 7.125);
    const std::string text = document(rows);
    declines(text);
    CHECK_THAT(error_of([&] { read_buffer(text, "split.json", "google-benchmark"); }),
               Catch::Contains("\"ns\" differs from \"us\" in earlier rows of BM_Both/ends"));
  }
  SECTION("a malformed value in the tail") {
    rows[rows.size() - 3].replace(rows[rows.size() - 3].find("\"real_time\": ") + 13, 1, "x");
    declines(document(rows));
  }
  SECTION("a member after the array") { declines(document(rows, ",\n  \"after\": {\"kept\": true}")); }
  SECTION("lists inside rows are not cuts") {
    const std::size_t middle = rows.size() / 2;
    for (std::size_t i = middle - 3; i <= middle + 3; ++i) {
      rows[i].insert(rows[i].rfind('\n'), ",\n      \"list\": [\n        {\"a\": 1},\n        {\"b\": 2}\n      ]");
    }
    const std::string text = document(rows);
    Buffer buffer(text);
    const auto split = two_parts(buffer);
    REQUIRE(split.has_value());
    CHECK(canonical(*split) == canonical(read_buffer(text, "split.json", "google-benchmark")));
  }
  SECTION("a place laid out like a cut inside a row") {
    // Row-level indent inside a member's value: the head does not parse, one pass reads it.
    const std::size_t middle = rows.size() / 2;
    for (std::size_t i = middle - 3; i <= middle + 3; ++i) {
      rows[i].insert(rows[i].rfind('\n'), ",\n      \"list\": [{\"a\": 1\n    },\n    {\"b\": 2}]");
    }
    const std::string text = document(rows);
    declines(text);
    CHECK_NOTHROW(read_buffer(text, "split.json", "google-benchmark"));
  }
  SECTION("a file over the size limit") {
    ReadOptions options;
    options.max_file_size = document(rows).size() - 1;
    declines(document(rows), options);
  }
  SECTION("more samples than the limit, counting both parts") {
    const Dataset whole = read_buffer(document(rows), "split.json", "google-benchmark");
    std::size_t total = 0;
    for (std::size_t s = 0; s < whole.n_sets(); ++s) total += whole.base_samples(s).size();
    ReadOptions options;
    options.max_samples = total - 1;
    declines(document(rows), options);
    options.max_samples = total;
    Buffer buffer(document(rows));
    CHECK(two_parts(buffer, options).has_value());
  }
  SECTION("nesting at the depth limit, and one level deeper") {
    // Root {, benchmarks [, row {, then the list: 5 levels in one pass.
    rows.back().insert(rows.back().rfind('\n'), ",\n      \"deep\": [[1]]");
    ReadOptions options;
    options.max_depth = 5;
    Buffer buffer(document(rows));
    const auto split = two_parts(buffer, options);
    REQUIRE(split.has_value());
    CHECK(canonical(*split) == canonical(read_buffer(document(rows), "split.json", "google-benchmark", options)));
    options.max_depth = 4;
    declines(document(rows), options);
    CHECK_THROWS_AS(read_buffer(document(rows), "split.json", "google-benchmark", options), InputError);
  }
}

TEST_CASE("Google Benchmark: a large file gives the same result with one thread or two",
          "[io][split][google-benchmark]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("benchreport-split-test-{}", ::getpid());
  fs::create_directories(dir);
  std::vector<std::string> rows = mixed_rows(200);
  while (document(rows).size() < (std::size_t{5} << 20)) {
    for (int i = 0; i < 1000; ++i)
      rows.insert(rows.end() - 1, row(fmt::format("BM_Fill/{}", rows.size() % 97), "iteration", "ns", 1.0 + i, 1.0));
  }
  const auto write = [&](const std::string& name, const std::string& text) {
    const fs::path path = dir / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  };
  ReadOptions serial, parallel;
  serial.threads = 1;
  parallel.threads = 2;
  const fs::path good = write("good.json", document(rows));
  CHECK(canonical(read(good, "auto", parallel)) == canonical(read(good, "auto", serial)));
  {
    Buffer buffer(document(rows));
    CHECK(two_parts(buffer).has_value());  // so the line above compared the two-part path
  }
  // An error in either part: the message one pass gives (file, line, path).
  for (std::size_t at : {rows.size() / 4, rows.size() * 3 / 4}) {
    std::vector<std::string> bad = rows;
    bad[at].replace(bad[at].find("\"cpu_time\": ") + 12, 1, "\"");
    bad[at].insert(bad[at].find("\"cpu_time\": \"") + 13, "slow\", \"x\": 1");
    const fs::path path = write("bad.json", document(bad));
    const std::string one = error_of([&] { read(path, "auto", serial); });
    INFO(one);
    CHECK_THAT(one, Catch::Contains(fmt::format("benchmarks[{}].cpu_time: expected a number, found a string", at)));
    CHECK(error_of([&] { read(path, "auto", parallel); }) == one);
  }
  fs::remove_all(dir);
}

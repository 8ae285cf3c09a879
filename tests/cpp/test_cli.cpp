// The command line's C++ stage (include/benchreport/cli/). Expected texts are
// what the Python command line printed before these moved (Python's repr()
// and float() are the references for python_text.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "benchreport/cli/budget.hpp"
#include "benchreport/cli/commands.hpp"
#include "benchreport/cli/gate.hpp"
#include "benchreport/cli/inputs.hpp"
#include "benchreport/cli/load.hpp"
#include "benchreport/cli/options.hpp"
#include "benchreport/cli/progress.hpp"
#include "benchreport/core/python_text.hpp"
#include "benchreport/cli/usage_error.hpp"
#include "benchreport/core/error.hpp"
#include "usage_message.hpp"

using namespace benchreport;
using namespace benchreport::cli;
namespace fs = std::filesystem;

TEST_CASE("repr_number matches Python's repr of a float", "[cli]") {
  const std::vector<std::pair<double, std::string>> cases{{5.0, "5.0"},
                                                          {0.05, "0.05"},
                                                          {1e-05, "1e-05"},
                                                          {1e16, "1e+16"},
                                                          {123456.789, "123456.789"},
                                                          {100000.0, "100000.0"},
                                                          {1.5e-4, "0.00015"},
                                                          {-2.5, "-2.5"},
                                                          {0.1 + 0.2, "0.30000000000000004"},
                                                          {1e22, "1e+22"},
                                                          {12.0, "12.0"}};
  for (const auto& [value, expected] : cases) CHECK(repr_number(value) == expected);
}

TEST_CASE("repr_text matches Python's repr of a str", "[cli]") {
  CHECK(repr_text("abc") == "'abc'");
  CHECK(repr_text("it's") == "\"it's\"");
  CHECK(repr_text("a\"b'c") == "'a\"b\\'c'");
  CHECK(repr_text("tab\there") == "'tab\\there'");
  CHECK(repr_text("x\x1by") == "'x\\x1by'");
  CHECK(repr_text("a\u00a0b\u00adc\u200bd") == "'a\\xa0b\\xadc\\u200bd'");  // Python: \xhh below U+0100
  CHECK(repr_text("bidi\u202e") == "'bidi\\u202e'");
  CHECK(repr_text("\xc3\xa9") == "'\xc3\xa9'");
  CHECK(repr_text("a\xff") == "'a\\udcff'");  // an undecodable argv byte, as Python shows it
}

TEST_CASE("parse_float reads what Python's float() reads", "[cli]") {
  CHECK(parse_float(" 1_000.5 ") == 1000.5);
  CHECK(parse_float("+inf") == std::numeric_limits<double>::infinity());
  CHECK(parse_float("1e999") == std::numeric_limits<double>::infinity());
  CHECK(parse_float("-0.25") == -0.25);
  CHECK_FALSE(parse_float("1__0"));
  CHECK_FALSE(parse_float("5 %"));
  CHECK_FALSE(parse_float(""));
  CHECK_FALSE(parse_float("--1"));
}

TEST_CASE("thresholds and fractions", "[cli]") {
  CHECK(parse_threshold("5%") == 0.05);
  CHECK(parse_threshold(" 0.05 ") == 0.05);
  CHECK(parse_threshold("250%") == 2.5);
  CHECK(usage_message([] { parse_threshold("5"); }) == "--threshold 5: a fraction must be below 1; did you mean 5%?");
  CHECK(usage_message([] { parse_threshold("five"); }) ==
        "--threshold 'five': expected a percentage such as 5% or a fraction such as 0.05");
  CHECK(usage_message([] { parse_threshold("2000%"); }) ==
        "--threshold 20.0: expected a fraction between 0 and 10, e.g. 0.05 for 5%");
  CHECK(usage_message([] { check_fraction(1.5, "--alpha"); }) ==
        "--alpha 1.5: expected a fraction between 0 and 1, e.g. 0.05 for 5%");
  CHECK(check_fraction(0.95, "--confidence") == 0.95);
  CHECK(parse_size("1e6") == 1e6);
  CHECK(usage_message([] { parse_size("-1"); }) == "--at -1: expected a size > 0");
  CHECK(usage_message([] { parse_size("big"); }) == "--at 'big': expected a size such as 1e6");
}

TEST_CASE("labels, baselines and columns", "[cli]") {
  CHECK(parse_baseline(" revision = base ") == std::pair<std::string, std::string>{"revision", "base"});
  CHECK(usage_message([] { parse_baseline("revision="); }) ==
        "--baseline 'revision=': expected LABEL=VALUE, e.g. revision=base");
  const auto labels = parse_labels({"runner=a", "os=linux", "runner= b "});
  REQUIRE(labels.size() == 2);
  CHECK(labels[0] == std::pair<std::string, std::string>{"runner", "b"});  // first place, last value
  CHECK(labels[1] == std::pair<std::string, std::string>{"os", "linux"});
  CHECK(usage_message([] { parse_labels({"=x"}); }) == "--label '=x': expected KEY=VALUE, e.g. runner=ubuntu-24");
  const auto environment = parse_key_values({"compiler = gcc-14", "os=linux", "compiler=clang"}, "--env", "cc=gcc");
  CHECK(environment == std::vector<std::pair<std::string, std::string>>{{"compiler", "clang"}, {"os", "linux"}});
  CHECK(usage_message([] { parse_key_values({"nokey"}, "--env", "compiler=gcc-14"); }) ==
        "--env 'nokey': expected KEY=VALUE, e.g. compiler=gcc-14");
  CHECK(usage_message([] { parse_key_values({" =v"}, "--env", "compiler=gcc-14"); }) ==
        "--env ' =v': expected KEY=VALUE, e.g. compiler=gcc-14");
  CHECK(split_columns({"a, b", ",c,,", " "}) == std::vector<std::string>{"a", "b", "c"});
  CHECK_NOTHROW(check_columns({"benchmark", "revision"}, {"revision"}, "--by"));
  CHECK(usage_message([] {
          check_columns({"benchmark"}, {"revision", "x"}, "--baseline/--by");
        }) ==
        "--baseline/--by revision,x: no such label; the inputs have benchmark; add one with --label KEY=VALUE "
        "(for files without side labels: benchreport compare OLD NEW, or --base ... --head ...)");
  CHECK(usage_message([] { check_columns({}, {"size"}, "--rows"); }) ==
        "--rows size: no such label; the inputs have no labels; add one with --label KEY=VALUE");
}

TEST_CASE("integer options are held to the range the core takes", "[cli]") {
  CHECK_NOTHROW(check_integer_option("seed", "18446744073709551615"));
  CHECK(usage_message([] { check_integer_option("seed", "18446744073709551616"); }) ==
        "--seed 18446744073709551616: expected a seed from 0 to 2^64-1");
  CHECK(usage_message([] { check_integer_option("k", "-1"); }) == "-k -1: expected a count from 0 to 2^31-1");
  CHECK(usage_message([] { check_integer_option("max_samples", "0"); }) ==
        "--max-samples 0: expected a count of samples from 1 to 2^63-1");
  CHECK_NOTHROW(check_integer_option("resamples", "0"));
  CHECK_NOTHROW(check_integer_option("not_an_integer_option", "-5"));
}

TEST_CASE("one_line: the whole InputError, else the first line", "[cli]") {
  CHECK(one_line("  a\nb\x1b ", true, "InputError") == "a b ");  // ESC is no whitespace: it becomes a space
  CHECK(one_line("first\nsecond", false, "OSError") == "first");
  CHECK(one_line("  ", false, "KeyError") == "KeyError");
}

TEST_CASE("stdin is read once, within its limit", "[cli]") {
  const auto reader = [](std::string data) { return [data](std::uint64_t limit) { return data.substr(0, limit); }; };
  const auto sources = expand_inputs({"-"}, reader("BenchmarkA 1 2 ns/op\n"), 100);
  REQUIRE(sources.size() == 1);
  CHECK(sources[0].name == "<stdin>");
  CHECK(*sources[0].data == "BenchmarkA 1 2 ns/op\n");
  CHECK(usage_message([&] { expand_inputs({"-"}, reader("0123456789ab"), 10); }) ==
        "<stdin>: more than 10 bytes exceeds the input size limit (the readers' max_file_size; pass a file instead)");
  CHECK(usage_message([&] { expand_inputs({"-"}, reader(" \n\t"), 10); }) == "<stdin>: empty input");
  CHECK(usage_message([&] { expand_inputs({"-", "-"}, reader("x"), 10); }) == "-: stdin can be given only once");
  CHECK(usage_message([&] { expand_inputs({}, reader("x"), 10); }) == "no input files given");
  CHECK(usage_message([&] { expand_inputs({"/no/such/file-*.json"}, reader("x"), 10); }) ==
        "/no/such/file-*.json: no such file, folder or glob match");
}

TEST_CASE("input bytes: folders summed, a .gz by its gzip trailer", "[cli]") {
  const fs::path root = fs::temp_directory_path() / ("benchreport-cli-" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "sub");
  std::ofstream(root / "a.json") << std::string(100, 'x');
  std::ofstream(root / "sub" / "b.json") << std::string(50, 'y');
  {
    // 20 bytes whose last four (little-endian ISIZE) say 1000: the decompressed size.
    std::ofstream gz(root / "c.json.gz", std::ios::binary);
    gz << std::string(16, 'z');
    const unsigned char isize[4] = {0xE8, 0x03, 0, 0};
    gz.write(reinterpret_cast<const char*>(isize), 4);
  }
  const std::vector<Source> sources{{root.string(), nullptr}};
  CHECK(input_bytes(sources) == 170);
  CHECK(source_bytes(sources[0]) == 1150);
  CHECK(source_bytes({(root / "c.json.gz").string(), nullptr}) == 1000);
  CHECK(source_bytes({(root / "missing").string(), nullptr}) == 0);
  fs::remove_all(root);
}

TEST_CASE("the input budget counts every input of a command", "[cli]") {
  const Source stdin_source{"<stdin>", std::make_shared<const std::string>(std::string(60, 'x'))};
  InputBudget budget(100, 100);
  CHECK(budget.limits().max_samples == 100u);
  budget.before(stdin_source);
  budget.after(stdin_source, 70);
  CHECK(budget.limits().max_samples == 30u);
  CHECK(budget.limits().max_file_size == 40u);
  CHECK(usage_message([&] { budget.before(stdin_source); }) ==
        "<stdin>: the inputs so far hold 120 bytes, more than --max-input-bytes 100");
  CHECK(usage_message([&] { budget.after(stdin_source, 40); }) ==
        "<stdin>: the inputs so far hold 110 samples, more than --max-samples 100");
  CHECK(budget.explain("too many (raise ReadOptions::max_samples); big (raise max_file_size)") ==
        "too many (--max-samples 100 in all; 110 read before this input); big (--max-input-bytes 100 in all)");
  InputBudget memory(std::nullopt, std::nullopt,
                     MemoryBudget{1000, "the cgroup limit", [](std::uint64_t bytes) { return bytes * 20; }});
  CHECK(usage_message([&] { memory.before(stdin_source); }) ==
        "<stdin>: the inputs so far (60 bytes after decompression) need about 1200 bytes, more than the cgroup limit; "
        "give the job more memory, or fewer inputs at once");
}

TEST_CASE("load_sources: bar, budget and the reader's limit errors", "[cli]") {
  std::string drawn;
  Progress progress(2, [&](std::string_view text) { drawn += text; }, "reading", 0, false, true, {2, 1 << 20});
  const auto data = std::make_shared<const std::string>("x");
  const std::vector<Source> sources{{"one", data}, {"two", data}};
  InputBudget budget(5);
  std::vector<std::uint64_t> allowed;
  load_sources(sources, budget, progress, [&](const Source&, const ReadLimits& limits) {
    allowed.push_back(*limits.max_samples);
    return std::uint64_t{2};
  });
  CHECK(allowed == std::vector<std::uint64_t>{5, 3});
  CHECK(drawn ==
        "\r\x1b[Kreading [........................] 0/2 one\r\x1b[Kreading [############............] 1/2 two"
        "\r\x1b[Kreading [########################] 2/2\r\x1b[K");
  InputBudget limited(5);
  drawn.clear();
  CHECK_THROWS_WITH(load_sources(sources, limited, progress,
                                 [](const Source&, const ReadLimits&) -> std::uint64_t {
                                   throw InputError("x: 9 samples (raise ReadOptions::max_samples)");
                                 }),
                    "x: 9 samples (--max-samples 5 in all; 0 read before this input)");
  CHECK(drawn.ends_with("\r\x1b[K"));  // erased on the way out
}

TEST_CASE("the progress bar: only when wanted, names safe and short", "[cli]") {
  std::string drawn;
  const auto write = [&](std::string_view text) { drawn += text; };
  Progress few(3, write, "reading", 0, false, true);
  few.update(1, "x");
  few.close();
  CHECK_FALSE(few.enabled());
  Progress large(3, write, "reading", std::uint64_t{64} << 20, false, true);
  CHECK(large.enabled());
  CHECK_FALSE(Progress(10, write, "reading", 0, true, true).enabled());    // --quiet
  CHECK_FALSE(Progress(10, write, "reading", 0, false, false).enabled());  // not a terminal
  Progress many(10, write, "reading", 0, false, true);
  many.update(3, "a\x1b[31mb\u202e.json");
  CHECK(drawn == "\r\x1b[Kreading [#######.................] 3/10 a [31mb\ufffd.json");
  drawn.clear();
  many.update(5, std::string(50, 'n') + "\xc3\xa9");
  CHECK(drawn == "\r\x1b[Kreading [############............] 5/10 …" + std::string(37, 'n') + "\xc3\xa9");
  CHECK(status_text("comparing\n") == "\r\x1b[Kcomparing ");
}

TEST_CASE("the gate names each slower measurement once", "[cli]") {
  const std::vector<GateCase> cases{{"slower", {{"benchmark", "a"}, {"metric", "real_time"}}, "a real_time"},
                                    {"slower", {{"benchmark", "a"}, {"metric", "cpu_time"}}, "a cpu_time"},
                                    {"faster", {{"benchmark", "b"}}, "b"},
                                    {"slower", {{"benchmark", "c\x1b"}}, "c\x1b"}};
  CHECK(slower_measurements(cases) == std::vector<std::string>{"a real_time", "c\x1b"});
  CHECK(gate_message(cases) == "benchreport: gate tripped: 2 case(s) slower: a real_time, c ");
  std::vector<GateCase> seven;
  for (int i = 0; i < 7; ++i) seven.push_back({"slower", {{"benchmark", std::to_string(i)}}, std::to_string(i)});
  CHECK(gate_message(seven) == "benchreport: gate tripped: 7 case(s) slower: 0, 1, 2, 3, 4 and 2 more");
  CHECK_FALSE(gate_message({cases[2]}));
}

TEST_CASE("every command declares its options, the input options first", "[cli]") {
  for (const char* command :
       {"compare", "summary", "scaling", "history", "runners", "matrix", "convert", "validate", "record"}) {
    const auto entries = command_options(command);
    REQUIRE_FALSE(entries.empty());
    CHECK(entries.front().flags == std::vector<std::string>{"inputs"});
  }
  CHECK(command_options("demo").front().flags == std::vector<std::string>{"--format", "-f"});
  // history reads a store too: its --fail-on offers the alert states
  const auto history = command_options("history");
  CHECK(history.back().choices == std::vector<std::string>{"regressed", "open-regression", "confirmed-regression"});
  // the store's commands: positionals first, required options marked
  const auto ack = command_options("ack");
  REQUIRE(ack.size() == 5);
  CHECK(ack[0].flags == std::vector<std::string>{"case"});
  CHECK(ack[2].required);
  CHECK_FALSE(ack[4].required);
  const auto record = command_options("record");
  const auto store =
      std::find_if(record.begin(), record.end(), [](const Option& o) { return o.flags[0] == "--store"; });
  REQUIRE(store != record.end());
  CHECK(store->required);
  CHECK(command_options("store export")[1].help == "new or empty folder to write");
  CHECK(command_options("store import")[1].help == "a folder written by 'store export'");
  CHECK_THROWS_AS(command_options("store"), InputError);
  CHECK(input_options(true).front().nargs == "+");
  CHECK(input_options(false).front().nargs == "*");
  CHECK_THROWS_AS(command_options("nope"), InputError);
}

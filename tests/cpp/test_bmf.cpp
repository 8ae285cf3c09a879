// Bencher Metric Format: the reader (io) on Bencher's documented examples,
// the writer (presets/bmf) and the round trip writer -> reader.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>

#include "benchreport/core/error.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/presets/bmf.hpp"
#include "benchreport/stats/summary.hpp"

using namespace benchreport;

namespace {

const std::string kData = BENCHREPORT_TEST_DATA;

std::size_t find_set(const Dataset& ds, std::string_view benchmark, std::string_view metric) {
  const auto sets = ds.select({{"benchmark", std::string(benchmark)}, {"metric", std::string(metric)}});
  REQUIRE(sets.size() == 1);
  return sets.front();
}

std::string meta(const Dataset& ds, std::size_t set, std::string_view key) {
  for (const auto& [k, v] : ds.set_metadata(set)) {
    if (k == key) return v;
  }
  return "";
}

std::string bmf_text(const Dataset& ds, const BmfOptions& options = {}) {
  std::ostringstream out;
  write_bmf(ds, out, options);
  return out.str();
}

}  // namespace

TEST_CASE("BMF reader: Bencher's reference example, field for field") {
  const Dataset ds = read(kData + "/bmf/reference-example.json");
  REQUIRE(ds.n_sets() == 4);
  const auto latency = find_set(ds, "benchmark_name", "latency");
  CHECK(ds.unit(latency).symbol == "ns");
  CHECK(ds.base_samples(latency)[0] == 88.0 * 1e-9);
  CHECK(from_base(ds.base_samples(latency)[0], ds.unit(latency)) == 88.0);
  CHECK(meta(ds, latency, "lower_value") == "87.42");
  CHECK(meta(ds, latency, "upper_value") == "88.88");
  const auto throughput = find_set(ds, "benchmark_name", "throughput");
  CHECK(ds.unit(throughput).symbol == "ops/s");
  CHECK(ds.direction(throughput) == Direction::higher_is_better);
  CHECK(ds.base_samples(throughput)[0] == 5.55);
  CHECK(meta(ds, throughput, "lower_value") == "3.14");
  CHECK(meta(ds, throughput, "upper_value") == "6.3");
  const auto build = find_set(ds, "/bin/sh -c ./my_build_script.sh", "build-time");
  CHECK(ds.base_samples(build)[0] == 87.0);
  CHECK(ds.set_metadata(build).empty());
  const auto size = find_set(ds, "my_binary", "file-size");
  CHECK(ds.base_samples(size)[0] == 42.0);
  CHECK(ds.direction(size) == Direction::lower_is_better);
}

TEST_CASE("BMF reader: the custom-benchmarks example - detection") {
  const Dataset ds = read(kData + "/bmf/custom-benchmarks-example.json");
  REQUIRE(ds.n_sets() == 1);
  CHECK(ds.label(0, "benchmark") == "benchmark_name");
  CHECK(ds.label(0, "metric") == "latency");
  CHECK(detect_format("x.json", R"({ "a b": {"latency": {"value": 1}}})") == "bmf");
  CHECK(detect_format("x.json", R"({"a": {"m": {"lower_value": 1, "value": 2}}})") == "bmf");
  CHECK_THROWS_AS(detect_format("x.json", R"({"a": {"m": {"other": 1}}})"), InputError);
}

TEST_CASE("BMF reader: errors name the JSON path") {
  CHECK_THROWS_WITH(read_buffer(R"({"a": {"latency": {"lower_value": 1}}})", "x.json", "bmf"),
                    Catch::Contains("missing \"value\""));
  CHECK_THROWS_WITH(read_buffer(R"({"a": {"latency": {"value": "fast"}}})", "x.json", "bmf"),
                    Catch::Contains("x.json"));
  CHECK_THROWS_AS(read_buffer(R"({})", "x.json", "bmf"), InputError);
}

TEST_CASE("BMF writer: median and median CI per case, in ns - round trip through the reader") {
  Dataset ds;
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> dist(0.0, 0.1);
  std::vector<std::vector<double>> samples(3);
  const char* names[] = {"alpha", "beta", "gamma"};
  for (std::size_t i = 0; i < 3; ++i) {
    for (int k = 0; k < 40; ++k) samples[i].push_back(100.0 * (i + 1) * dist(rng));
    ds.add_set({{"benchmark", names[i]}, {"revision", "head"}, {"metric", "time"}}, samples[i], parse_unit("us"));
  }
  const std::vector<double> rate{10, 12, 11, 13, 12, 11, 12, 10, 11, 12};
  ds.add_set({{"benchmark", "alpha"}, {"revision", "head"}, {"metric", "items"}}, rate, parse_unit("ops/s"));

  const std::string text = bmf_text(ds);
  const Dataset back = read_buffer(text, "bencher.json");  // auto-detected
  REQUIRE(back.n_sets() == 4);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto s = summarize(ds.base_samples(i));
    const auto set = find_set(back, names[i], "latency");
    CHECK(back.base_samples(set)[0] == Approx(s.median).epsilon(1e-15));
    CHECK(from_base(back.base_samples(set)[0], back.unit(set)) == from_base(s.median, parse_unit("ns")));
    REQUIRE(s.median_ci.availability.ok);
    // the bounds read back to the base values the plain conversion gives, written no longer than it
    for (const auto& [key, bound] : {std::pair{"lower_value", s.median_ci.lower}, {"upper_value", s.median_ci.upper}}) {
      const std::string written = meta(back, set, key);
      const double plain = from_base(bound, parse_unit("ns"));
      CHECK(std::stod(written) * parse_unit("ns").to_base == plain * parse_unit("ns").to_base);
      CHECK(written.size() <= json_number(from_base(bound, parse_unit("ns"))).size());
    }
  }
  const auto tp = find_set(back, "alpha", "throughput");
  CHECK(back.base_samples(tp)[0] == summarize(ds.base_samples(3)).median);
  // BMF -> Dataset -> BMF gives the same text.
  CHECK(bmf_text(back) == text);
}

TEST_CASE("BMF writer: the reference example written back is the same document") {
  const Dataset ds = read(kData + "/bmf/reference-example.json");
  const Json out = bmf_json(ds);
  const Json* latency = out.find("benchmark_name")->find("latency");
  REQUIRE(latency != nullptr);
  CHECK(latency->find("value")->as_double() == 88.0);
  CHECK(latency->find("lower_value")->as_double() == 87.42);
  CHECK(latency->find("upper_value")->as_double() == 88.88);
  CHECK(out.find("benchmark_name")->find("throughput")->find("upper_value")->as_double() == 6.30);
  CHECK(out.find("/bin/sh -c ./my_build_script.sh")->find("build-time")->find("value")->as_double() == 87.0);
  CHECK(out.find("/bin/sh -c ./my_build_script.sh")->find("build-time")->find("lower_value") == nullptr);
  CHECK(out.find("my_binary")->find("file-size")->find("value")->as_double() == 42.0);
}

TEST_CASE("BMF writer: pooling, names, metric collisions, errors") {
  Dataset ds;
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  // two processes of one case pool; implementation follows from benchmark and stays out of the name
  ds.add_set({{"benchmark", "x"}, {"implementation", "cpp"}, {"pair", "1"}, {"metric", "real_time"}}, a,
             parse_unit("ns"));
  ds.add_set({{"benchmark", "x"}, {"implementation", "cpp"}, {"pair", "2"}, {"metric", "real_time"}}, b,
             parse_unit("ns"));
  ds.add_set({{"benchmark", "x"}, {"implementation", "cpp"}, {"pair", "1"}, {"metric", "cpu_time"}}, a,
             parse_unit("ns"));
  ds.add_set({{"benchmark", "y"}, {"implementation", "js"}, {"pair", "1"}, {"metric", "real_time"}}, a,
             parse_unit("ns"));
  const Json out = bmf_json(ds);
  // the first time metric of a benchmark is its latency (Bencher's Google Benchmark adapter: real_time), the
  // second its own measure on the same benchmark
  REQUIRE(out.as_object().size() == 2);
  CHECK(out.find("x")->find("latency")->find("value")->as_double() == 3.5);
  CHECK(out.find("x")->find("cpu-time")->find("value")->as_double() == 2.0);
  CHECK(out.find("y")->find("latency")->find("value")->as_double() == 2.0);
  // two metrics with one measure slug: the metric joins the name
  ds.add_set({{"benchmark", "y"}, {"implementation", "js"}, {"pair", "1"}, {"metric", "B/op"}}, a, parse_unit("B"));
  ds.add_set({{"benchmark", "y"}, {"implementation", "js"}, {"pair", "1"}, {"metric", "b_per_op"}}, b, parse_unit("B"));
  const Json slugs = bmf_json(ds);
  CHECK(slugs.find("y / B/op")->find("b-per-op")->find("value")->as_double() == 2.0);
  CHECK(slugs.find("y / b_per_op")->find("b-per-op")->find("value")->as_double() == 5.0);
  CHECK_THROWS_AS(bmf_json(Dataset{}), InputError);
  BmfOptions bad;
  bad.by = {"nope"};
  CHECK_THROWS_WITH(bmf_json(ds, bad), Catch::Contains("nope"));
}

namespace {

// Base and head sets of one benchmark per platform value; the platform "" is a value of its own.
Dataset two_sided(const std::vector<std::string>& platforms, bool head_only_last) {
  Dataset ds;
  const std::vector<double> base{1.0, 1.1, 1.2}, head{2.0, 2.1, 2.2};
  for (std::size_t i = 0; i < platforms.size(); ++i) {
    const bool base_too = !(head_only_last && i + 1 == platforms.size());
    if (base_too)
      ds.add_set({{"benchmark", "b"}, {"platform", platforms[i]}, {"revision", "base"}}, base, parse_unit("ms"));
    ds.add_set({{"benchmark", "b"}, {"platform", platforms[i]}, {"revision", "head"}}, head, parse_unit("ms"));
  }
  return ds;
}

DatasetComparison sides(const std::vector<std::string>& by) {
  DatasetComparison c;
  c.by = by;
  c.baseline_column = "revision";
  c.base_value = "base";
  c.head_value = "head";
  return c;
}

}  // namespace

TEST_CASE("BMF of one side of a comparison: the side's sets with the labels, named without them") {
  const Dataset ds = two_sided({"ios", "android"}, false);
  const auto head_ios = side_bmf(ds, "revision", "head", {{"platform", "ios"}}, {"benchmark", "platform"}, 0.95);
  REQUIRE(head_ios);
  BmfOptions expected;
  expected.by = {"benchmark"};  // platform was given: it names nothing
  CHECK(*head_ios == bmf_text(ds.subset(ds.select({{"revision", "head"}, {"platform", "ios"}})), expected));
  CHECK(head_ios->find("\"b\"") != std::string::npos);
  CHECK_FALSE(side_bmf(ds, "revision", "head", {{"platform", "windows"}}, {"benchmark"}, 0.95));
  // Without labels every set of the side is named by `by`.
  const auto base = side_bmf(ds, "revision", "base", {}, {"benchmark", "platform"}, 0.95);
  REQUIRE(base);
  BmfOptions both;
  both.by = {"benchmark", "platform"};
  CHECK(*base == bmf_text(ds.subset(ds.select({{"revision", "base"}})), both));
}

TEST_CASE("BMF files of a comparison: Nitro's names per split value, a side without sets gets none") {
  const Dataset ds = two_sided({"ios", "a b/c", "", "empty", "new"}, true);
  std::vector<std::string> names;
  for (const BmfFile& f : comparison_bmf_files(ds, sides({"benchmark", "platform"}), "platform", 0.95)) {
    names.push_back(f.name);
    CHECK_FALSE(f.text.empty());
  }
  // Sorted values: "", "a b/c", "empty", "ios", "new"; "" is "empty_" since "empty" exists; "new" has no base.
  CHECK(names == std::vector<std::string>{"bencher-empty_.json", "bencher-base-empty_.json", "bencher-a_b_c.json",
                                          "bencher-base-a_b_c.json", "bencher-empty.json", "bencher-base-empty.json",
                                          "bencher-ios.json", "bencher-base-ios.json", "bencher-new.json"});
  // No such label: one file per side.
  const Dataset plain = two_sided({"x"}, false);
  std::vector<std::string> plain_names;
  for (const BmfFile& f : comparison_bmf_files(plain, sides({"benchmark"}), "device", 0.95)) {
    plain_names.push_back(f.name);
  }
  CHECK(plain_names == std::vector<std::string>{"bencher.json", "bencher-base.json"});
}

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/data/pooled.hpp"
#include "benchreport/core/error.hpp"

using namespace benchreport;

namespace {

Dataset three_sets() {
  Dataset ds;
  ds.add_run("r1", R"({"device":"x"})");
  const std::vector<double> a{1, 2, 3}, b{4, 5}, c{6};
  SetOptions with_run;
  with_run.run = "r1";
  ds.add_set({{"benchmark", "a"}, {"revision", "base"}}, a, parse_unit("ms"), with_run);
  ds.add_set({{"benchmark", "a"}, {"revision", "head"}}, b, parse_unit("ms"));
  ds.add_set({{"benchmark", "b"}, {"revision", "base"}, {"platform", "ios"}}, c, parse_unit("MiB/s"));
  return ds;
}

}  // namespace

TEST_CASE("CSR layout, base units and labels", "[dataset]") {
  const Dataset ds = three_sets();
  REQUIRE(ds.n_sets() == 3);
  REQUIRE(ds.n_values() == 6);
  CHECK(std::vector<std::int64_t>(ds.offsets().begin(), ds.offsets().end()) == std::vector<std::int64_t>{0, 3, 5, 6});
  CHECK(ds.samples(0)[2] == 3.0);  // stored as read, in the set's unit
  CHECK(ds.base_samples(0)[2] == 3 * 1e-3);
  CHECK(ds.base_samples(0).span().data() != ds.samples(0).data());  // scaled: a copy
  CHECK(ds.base_samples(2)[0] == 6 * 1048576.0);
  CHECK(ds.label(0, "benchmark") == "a");
  CHECK(ds.label(1, "revision") == "head");
  CHECK(ds.label(0, "platform").empty());
  CHECK_FALSE(ds.has_label(0, "platform"));
  CHECK(ds.has_label(2, "platform"));
  CHECK(ds.label(0, "no-such-column").empty());
  CHECK(ds.columns() == std::vector<std::string>{"benchmark", "revision", "platform"});
  CHECK(ds.labels(2) == Labels{{"benchmark", "b"}, {"revision", "base"}, {"platform", "ios"}});
  // Dictionary encoding: "a" stored once.
  const LabelColumn* bench = ds.column("benchmark");
  REQUIRE(bench != nullptr);
  CHECK(bench->dictionary == std::vector<std::string>{"a", "b"});
  CHECK(bench->codes == std::vector<std::int32_t>{0, 0, 1});
  CHECK(ds.column("platform")->codes == std::vector<std::int32_t>{-1, -1, 0});
}

TEST_CASE("units, directions, runs and metadata per set", "[dataset]") {
  Dataset ds = three_sets();
  CHECK(ds.unit(0).symbol == "ms");
  CHECK(ds.direction(0) == Direction::lower_is_better);
  CHECK(ds.direction(2) == Direction::higher_is_better);
  ds.set_direction(0, Direction::higher_is_better);
  CHECK(ds.direction(0) == Direction::higher_is_better);
  CHECK(ds.run_id(0) == "r1");
  CHECK(ds.run_id(1).empty());
  CHECK(ds.find_run("r1")->metadata_json == R"({"device":"x"})");
  CHECK(ds.set_metadata(0).empty());
  CHECK_FALSE(ds.has_weights());
  CHECK(ds.sample_weights(0).empty());
  CHECK_THROWS_AS(ds.base_samples(3), std::out_of_range);
}

TEST_CASE("add_set rejects bad input naming the set", "[dataset]") {
  Dataset ds;
  const std::vector<double> empty, nan{1, NAN}, inf{INFINITY}, ok{1, 2};
  const Labels labels{{"benchmark", "x"}};
  CHECK_THROWS_WITH(ds.add_set(labels, empty, parse_unit("s")),
                    Catch::Contains("benchmark=x") && Catch::Contains("empty"));
  CHECK_THROWS_WITH(ds.add_set(labels, nan, parse_unit("s")), Catch::Contains("sample 1"));
  CHECK_THROWS_AS(ds.add_set(labels, inf, parse_unit("s")), InputError);
  SetOptions bad_run;
  bad_run.run = "nope";
  CHECK_THROWS_WITH(ds.add_set(labels, ok, parse_unit("s"), bad_run), Catch::Contains("nope"));
  const std::vector<double> short_weights{1}, zero_weights{1, 0};
  SetOptions w1;
  w1.weights = short_weights;
  CHECK_THROWS_WITH(ds.add_set(labels, ok, parse_unit("s"), w1), Catch::Contains("1 weights for 2 samples"));
  SetOptions w2;
  w2.weights = zero_weights;
  CHECK_THROWS_WITH(ds.add_set(labels, ok, parse_unit("s"), w2), Catch::Contains("weight 1"));
  CHECK_THROWS_WITH(ds.add_set({{"a", "1"}, {"a", "2"}}, ok, parse_unit("s")), Catch::Contains("given twice"));
  // A failed add leaves the dataset untouched.
  CHECK(ds.n_sets() == 0);
  CHECK(ds.n_values() == 0);
  CHECK(ds.columns().empty());
}

TEST_CASE("weights: unweighted sets get weight 1 once any set has weights", "[dataset]") {
  Dataset ds;
  const std::vector<double> x{1, 2}, y{3, 4, 5}, w{10, 20, 30};
  ds.add_set({{"b", "x"}}, x, parse_unit("ns"));
  SetOptions options;
  options.weights = w;
  ds.add_set({{"b", "y"}}, y, parse_unit("ns"), options);
  REQUIRE(ds.has_weights());
  CHECK(std::vector<double>(ds.weights().begin(), ds.weights().end()) == std::vector<double>{1, 1, 10, 20, 30});
  CHECK(ds.sample_weights(1)[2] == 30);
}

TEST_CASE("duplicate run ids", "[dataset]") {
  Dataset ds;
  ds.add_run("r", "{}");
  CHECK_NOTHROW(ds.add_run("r", "{}"));
  CHECK_THROWS_WITH(ds.add_run("r", R"({"a":1})"), Catch::Contains("duplicate run id"));
  CHECK(ds.runs().size() == 1);
  ds.set_run_metadata("r", R"({"b":2})");
  CHECK(ds.runs()[0].metadata_json == R"({"b":2})");
  CHECK_THROWS_AS(ds.set_run_metadata("q", "{}"), InputError);
}

TEST_CASE("select, filter and group_by", "[dataset]") {
  const Dataset ds = three_sets();
  CHECK(ds.select({{"benchmark", "a"}}) == std::vector<std::size_t>{0, 1});
  CHECK(ds.select({{"benchmark", "a"}, {"revision", "base"}}) == std::vector<std::size_t>{0});
  CHECK(ds.select({{"benchmark", "zzz"}}).empty());
  CHECK(ds.select({{"nocolumn", "a"}}).empty());
  CHECK(ds.select({}).size() == 3);
  CHECK(ds.select_if([](const Dataset& d, std::size_t i) { return d.base_samples(i).size() > 1; }) ==
        std::vector<std::size_t>{0, 1});

  const Dataset base = ds.filter({{"revision", "base"}});
  REQUIRE(base.n_sets() == 2);
  CHECK(base.base_samples(0)[0] == ds.base_samples(0)[0]);
  CHECK(base.base_samples(1)[0] == ds.base_samples(2)[0]);
  CHECK(base.unit(1).symbol == "MiB/s");
  CHECK(base.run_id(0) == "r1");
  CHECK(base.runs().size() == 1);

  const std::vector<std::string> by{"revision"};
  const auto groups = ds.group_by(by);
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].key == std::vector<std::string>{"base"});
  CHECK(groups[0].sets == std::vector<std::size_t>{0, 2});
  CHECK(groups[1].key == std::vector<std::string>{"head"});
  const std::vector<std::string> by_platform{"platform", "benchmark"};
  const auto g2 = ds.group_by(by_platform);
  REQUIRE(g2.size() == 2);
  CHECK(g2[0].key == std::vector<std::string>{"", "a"});
  CHECK(g2[0].sets == std::vector<std::size_t>{0, 1});
  CHECK(g2[1].key == std::vector<std::string>{"ios", "b"});
}

TEST_CASE("append merges dictionaries, runs and warnings", "[dataset]") {
  Dataset a = three_sets();
  a.warn("from a");
  Dataset b;
  b.add_run("r2", "{}");
  const std::vector<double> v{7, 8}, w{2, 3};
  SetOptions options;
  options.run = "r2";
  options.weights = w;
  options.metadata = {{"iterations", "100"}};
  b.add_set({{"engine", "zig"}, {"benchmark", "b"}}, v, parse_unit("s"), options);
  b.warn("from b");
  a.append(b);
  REQUIRE(a.n_sets() == 4);
  CHECK(a.label(3, "benchmark") == "b");
  CHECK(a.label(3, "engine") == "zig");
  CHECK(a.label(0, "engine").empty());
  CHECK(a.column("benchmark")->dictionary.size() == 2);
  CHECK(a.base_samples(3)[1] == 8.0);
  CHECK(a.run_id(3) == "r2");
  CHECK(a.set_metadata(3) == Metadata{{"iterations", "100"}});
  CHECK(a.has_weights());
  CHECK(a.sample_weights(0)[0] == 1.0);
  CHECK(a.sample_weights(3)[1] == 3.0);
  CHECK(a.warnings() == std::vector<std::string>{"from a", "from b"});
  a.append(a);
  CHECK(a.n_sets() == 8);
  CHECK(a.base_samples(7)[1] == 8.0);
}

TEST_CASE("format_labels", "[dataset]") {
  CHECK(format_labels({{"a", "1"}, {"b", "2"}}) == "a=1, b=2");
  CHECK(format_labels({}) == "(no labels)");
}

TEST_CASE("Values are kept bit for bit as read - base units only on demand", "[dataset]") {
  // 30559.43256159456 ns: x * 1e-9 / 1e-9 is one ulp off, so base-unit storage could not give it back.
  const std::vector<double> ns{30559.43256159456, 1.0 / 3.0, 5e-324, 1.7e308};
  Dataset ds;
  ds.add_set({{"benchmark", "a"}}, ns, parse_unit("ns"));
  const std::vector<double> seconds{0.25, 1e-9};
  ds.add_set({{"benchmark", "b"}}, seconds, parse_unit("s"));
  const auto as_read = ds.samples(0);
  CHECK(std::vector<double>(as_read.begin(), as_read.end()) == ns);
  const auto base = ds.base_samples(0);
  for (std::size_t i = 0; i < ns.size(); ++i) CHECK(base[i] == ns[i] * 1e-9);
  // A set already in its base unit is a view, not a copy.
  CHECK(ds.base_samples(1).span().data() == ds.samples(1).data());
  // subset/append copy values as read.
  const std::vector<std::size_t> first{0};
  const Dataset sub = ds.subset(first);
  CHECK(std::vector<double>(sub.samples(0).begin(), sub.samples(0).end()) == ns);
  // Finite as read but infinite in base units is refused (every computation scales).
  const std::vector<double> huge{1e307};
  CHECK_THROWS_AS(ds.add_set({{"benchmark", "c"}}, huge, parse_unit("min")), InputError);
}

TEST_CASE("pool_by: groups concatenated in set order, in the first set's unit", "[dataset]") {
  Dataset ds;
  const std::vector<double> a{1, 2}, b{3000}, c{5};
  ds.add_set({{"benchmark", "x"}, {"process", "1"}}, a, parse_unit("ms"));
  ds.add_set({{"benchmark", "y"}}, c, parse_unit("s"));
  ds.add_set({{"benchmark", "x"}, {"process", "2"}}, b, parse_unit("us"));
  const std::vector<std::string> by{"benchmark"};
  const PooledSets pooled = pool_by(ds, by);
  CHECK(pooled.offsets == std::vector<std::int64_t>{0, 3, 4});
  CHECK(pooled.first_set == std::vector<std::size_t>{0, 1});
  CHECK(pooled.keys == std::vector<std::vector<std::string>>{{"x"}, {"y"}});
  REQUIRE(pooled.values.size() == 4);
  CHECK(pooled.values[0] == 1.0);
  CHECK(pooled.values[2] == Approx(3.0).epsilon(1e-15));  // 3000 us in ms
  CHECK(pooled.values[3] == 5.0);
}

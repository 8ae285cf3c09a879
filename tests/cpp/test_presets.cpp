// Presets: matrix, dataset comparison glue and the three report presets on
// small hand-built datasets whose answers can be checked by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/compare/dataset.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/fingerprint.hpp"
#include "benchreport/io/nitro.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/compare/rollup.hpp"
#include "benchreport/render/render.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/presets/matrix.hpp"
#include "benchreport/presets/runners.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/data/units.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

std::size_t add(Dataset& ds, Labels labels, std::vector<double> values, const char* unit, std::string run = {},
                Metadata metadata = {}) {
  SetOptions options;
  options.run = std::move(run);
  options.metadata = std::move(metadata);
  return ds.add_set(labels, values, parse_unit(unit), options);
}

// Two engines × two algorithms, two runs per cell (ms).
Dataset engine_dataset() {
  Dataset ds;
  const auto cell = [&](const char* algorithm, const char* engine, std::vector<double> run1, std::vector<double> run2,
                        std::vector<double> run3) {
    add(ds, {{"algorithm", algorithm}, {"engine", engine}, {"run", "1"}}, std::move(run1), "ms");
    add(ds, {{"algorithm", algorithm}, {"engine", engine}, {"run", "2"}}, std::move(run2), "ms");
    add(ds, {{"algorithm", algorithm}, {"engine", engine}, {"run", "3"}}, std::move(run3), "ms");
  };
  cell("SHA-256", "native", {220, 221, 219}, {218, 230, 225}, {222, 224, 223});  // run medians 220, 225, 223
  cell("SHA-256", "zig", {12818, 12800, 12900}, {12700, 12750, 12760}, {12810, 12820, 12830});
  cell("BLAKE3", "native", {298, 299, 297}, {300, 301, 302}, {296, 295, 294});
  cell("BLAKE3", "zig", {555, 556, 554}, {550, 551, 552}, {560, 561, 562});
  return ds;
}

// Run metadata shaped like a Nitro file's configuration.
std::string fmt_run(const std::string& platform, const std::string& device, const std::string& suite,
                    const std::string& commit) {
  return "{\"configuration\":{\"platform\":\"" + platform + "\",\"device\":\"" + device + "\",\"suiteHash\":\"" +
         suite + "\",\"commitSha\":\"" + commit + "\"},\"runner\":{\"warmupCount\":5,\"sampleCount\":12}}";
}

// A Nitro-like dataset: 2 platforms × 3 cases × base/head × 2 process pairs.
struct NitroOptions {
  std::string head_device = "Pixel";
  std::string head_suite = "abc";
  int head_iterations = 64;
  std::string head_commit = "2222";
  bool drop_head_case = false;
  bool extra_head_case = false;
};

// Runs marked as read by the Nitro reader (as read() marks them), unless `nitro` is false.
Dataset nitro_dataset(const NitroOptions& o = {}, bool nitro = true) {
  Dataset ds;
  for (const std::string platform : {"android", "ios"}) {
    for (const std::string side : {"base", "head"}) {
      for (const std::string pair : {"1", "2"}) {
        const std::string run = platform + "-" + side + "-" + pair;
        const bool head = side == "head";
        ds.add_run(run, fmt_run(platform, head ? o.head_device : "Pixel", head ? o.head_suite : "abc",
                                head ? o.head_commit : "1111"));
        if (nitro) ds.set_run_format(run, "nitro");
        const auto metric = [&](const std::string& id, double scale, const char* display) {
          Metadata metadata{{"iterations", std::to_string(head ? o.head_iterations : 64)}, {"chunkIterations", "8"}};
          if (display != nullptr) metadata.emplace_back("displayName", display);
          std::vector<double> values;
          for (int i = 0; i < 12; ++i) values.push_back(scale * (100.0 + (i % 4) + (pair == "2" ? 1.0 : 0.0)));
          add(ds, {{"platform", platform}, {"revision", side}, {"pair", pair}, {"benchmark", id}}, values, "ns", run,
              metadata);
        };
        metric("nitro-cpp/function/add-numbers", 1.0, nullptr);
        metric("nitro-platform/variant/number-or-string", head ? 1.5 : 1.0, "\"number | string variant\"");
        if (!(head && o.drop_head_case)) metric("javascript/function/simple-func", 2.0, nullptr);
        if (head && o.extra_head_case) metric("turbo-module/function/add-numbers", 3.0, nullptr);
      }
    }
  }
  return ds;
}

}  // namespace

TEST_CASE("compare: cases by label, processes paired by pair label", "[presets][compare]") {
  const Dataset ds = nitro_dataset();
  DatasetCompareOptions o;
  o.resamples = 200;
  const DatasetComparison c = compare(ds, o);
  CHECK(c.head_value == "head");
  CHECK(c.by == std::vector<std::string>{"platform", "benchmark"});
  REQUIRE(c.cases.size() == 6);
  CHECK_FALSE(c.same_revision);
  CHECK(c.base_commit == "1111");
  CHECK(c.head_commit == "2222");
  const auto& variant = c.cases[1];
  CHECK(variant.key == std::vector<std::string>{"android", "nitro-platform/variant/number-or-string"});
  CHECK(variant.pairs == std::vector<std::string>{"1", "2"});
  REQUIRE(variant.comparison.base_process_medians.size() == 2);
  // Pair 1 samples 100..103 (median 101.5 ns), pair 2 one higher; head is 1.5×.
  CHECK(variant.comparison.base_process_medians[0] == Approx(101.5e-9));
  CHECK(variant.comparison.base_process_medians[1] == Approx(102.5e-9));
  CHECK(variant.comparison.change == Approx(0.5));
  CHECK(variant.comparison.process_changes[0] == Approx(0.5));
  CHECK(c.cases[0].comparison.change == Approx(0.0).margin(1e-12));
}

TEST_CASE("compare: refuses different devices, suite hashes and per-case work, naming both values",
          "[presets][compare]") {
  DatasetCompareOptions o;
  o.resamples = 100;
  NitroOptions device;
  device.head_device = "Galaxy";
  CHECK_THROWS_WITH(compare(nitro_dataset(device), o), Contains("device differs") && Contains("\"Pixel\"") &&
                                                           Contains("\"Galaxy\"") && Contains("refusing"));
  NitroOptions suite;
  suite.head_suite = "def";
  CHECK_THROWS_WITH(compare(nitro_dataset(suite), o), Contains("suiteHash differs") && Contains("\"def\""));
  NitroOptions work;
  work.head_iterations = 128;
  CHECK_THROWS_WITH(compare(nitro_dataset(work), o), Contains("iterations differs") && Contains("\"64\"") &&
                                                         Contains("\"128\"") && Contains("unequal work"));
  o.check_comparability = false;
  CHECK_NOTHROW(compare(nitro_dataset(work), o));
}

TEST_CASE("compare: new and removed cases are listed, or refused on request", "[presets][compare]") {
  NitroOptions changed;
  changed.drop_head_case = true;
  changed.extra_head_case = true;
  DatasetCompareOptions o;
  o.resamples = 100;
  const DatasetComparison c = compare(nitro_dataset(changed), o);
  CHECK(c.cases.size() == 4);
  REQUIRE(c.removed_cases.size() == 2);
  CHECK(c.removed_cases[0] == std::vector<std::string>{"android", "javascript/function/simple-func"});
  REQUIRE(c.new_cases.size() == 2);
  CHECK(c.new_cases[1] == std::vector<std::string>{"ios", "turbo-module/function/add-numbers"});
  o.allow_new_and_removed = false;
  CHECK_THROWS_WITH(compare(nitro_dataset(changed), o), Contains("case sets differ") && Contains("turbo-module"));
}

TEST_CASE("compare: A/A runs, baseline and head selection errors", "[presets][compare]") {
  NitroOptions same;
  same.head_commit = "1111";
  DatasetCompareOptions o;
  o.resamples = 100;
  CHECK(compare(nitro_dataset(same), o).same_revision);
  o.baseline_value = "main";
  CHECK_THROWS_WITH(compare(nitro_dataset(), o), Contains("no set has revision=main"));
  o.baseline_value = "base";
  o.baseline_column = "branch";
  CHECK_THROWS_WITH(compare(nitro_dataset(), o), Contains("no \"branch\" label"));
  Dataset three;
  for (const char* rev : {"a", "b", "c"}) add(three, {{"revision", rev}, {"benchmark", "x"}}, {1, 2, 3}, "ns");
  DatasetCompareOptions ambiguous;
  ambiguous.baseline_value = "a";
  CHECK_THROWS_WITH(compare(three, ambiguous), Contains("2 other value(s)") && Contains("b, c"));
  ambiguous.head_value = "c";
  ambiguous.resamples = 100;
  CHECK(compare(three, ambiguous).cases.size() == 1);
  ambiguous.by = {"nope"};
  CHECK_THROWS_WITH(compare(three, ambiguous), Contains("`by` column \"nope\""));
}

TEST_CASE("nitro_case_name: implementation names, camelCase calls and display names", "[presets][names]") {
  CHECK(nitro_case_name("nitro-cpp/function/add-numbers", "ios") == "C++ addNumbers()");
  CHECK(nitro_case_name("nitro-platform/function/simple-func", "ios") == "Swift simpleFunc()");
  CHECK(nitro_case_name("nitro-platform/function/simple-func", "android") == "Kotlin simpleFunc()");
  CHECK(nitro_case_name("javascript/function/add-numbers", "android") == "JavaScript addNumbers()");
  CHECK(nitro_case_name("turbo-module/function/add-numbers", "ios") == "TurboModule addNumbers()");
  CHECK(nitro_case_name("nitro-cpp/callback/synchronous-callback", "ios") == "C++ synchronousCallback()");
  CHECK(nitro_case_name("nitro-cpp/variant/number-or-string", "ios", "number | string variant") ==
        "C++ number | string variant");
  CHECK(nitro_case_name("plain-name", "ios") == "plain-name");
  // Ids of other tools keep their slashes: only known Nitro implementations are reworded.
  CHECK(nitro_case_name("BM_Sort/1024/8", "") == "BM_Sort/1024/8");
  CHECK(nitro_case_name("a/b|c/<script>", "ios") == "a/b|c/<script>");
  CHECK(nitro_case_name("BM_Sort/1024/8", "", "sort") == "sort");
}

TEST_CASE("comparability keys are declared by the readers and merged in reader order", "[presets][compare]") {
  const Comparability& keys = reader_comparability();
  CHECK(keys.run_keys == std::vector<std::string>{"suiteHash", "device", "osVersion", "architecture", "toolchain",
                                                  "warmupCount", "sampleCount"});
  CHECK(keys.work_keys == std::vector<std::string>{"iterations", "chunkIterations"});
  CHECK(keys.commit_keys == std::vector<std::string>{"commitSha", "commit"});
  CHECK(keys.side_declarations == std::vector<SideDeclaration>{nitro_suite_declaration()});
  const DatasetCompareOptions o;
  CHECK(o.run_checks == keys.run_keys);
  CHECK(o.work_checks == keys.work_keys);
  CHECK(o.commit_keys == keys.commit_keys);
}

TEST_CASE("comparison_report: Nitro's sections and names apply to Nitro data, not to others", "[presets][report]") {
  ComparisonReportOptions o;
  o.resamples = 200;
  const std::string nitro = render_markdown(comparison_report(nitro_dataset(), o), {});
  CHECK_THAT(nitro, Contains("## iOS") && Contains("C++ addNumbers()"));
  const std::string other = render_markdown(comparison_report(nitro_dataset({}, false), o), {});
  CHECK_THAT(other, Contains("## android") && Contains("nitro-cpp/function/add-numbers"));
  CHECK(other.find("## android") < other.find("## ios"));  // order of appearance
  CHECK(other.find("iOS") == std::string::npos);
  o.section_order = {"ios"};
  o.section_titles = {{"ios", "Apple"}};
  o.case_name = [](std::string_view id, std::string_view, std::string_view) { return "case " + std::string(id); };
  const std::string chosen = render_markdown(comparison_report(nitro_dataset(), o), {});
  CHECK_THAT(chosen, Contains("## Apple") && Contains("case nitro-cpp/function/add-numbers"));
  // Given options replace the conventions as a whole: android has no title here.
  CHECK(chosen.find("## Apple") < chosen.find("## android"));
}

TEST_CASE("comparison_report: sections in iOS-first order, notable tables, details, A/A label", "[presets][report]") {
  ComparisonReportOptions o;
  o.resamples = 200;
  const Report report = comparison_report(nitro_dataset(), o);
  REQUIRE_NOTHROW(report.validate());
  const std::string md = render_markdown(report, {});
  const auto ios = md.find("## iOS");
  const auto android = md.find("## Android");
  REQUIRE(ios != std::string::npos);
  REQUIRE(android != std::string::npos);
  CHECK(ios < android);
  CHECK_THAT(md, Contains("Performance Report") && Contains("Report only:") && Contains("<details>"));
  CHECK_THAT(md, Contains("Kotlin number \\| string variant"));
  CHECK_THAT(md, Contains("| +50.00% (+"));  // the change with its interval
  CHECK_THAT(md, Contains("**2 slower, 0 faster, 4 unchanged (within ±5%), 0 inconclusive; no drift.**"));
  CHECK(md.find("**2 slower") < md.find("Report only:"));  // the headline first
  // The method right under the headline, collapsed, before the first section.
  CHECK(md.find("<summary>How to read this</summary>") < md.find("Report only:"));
  CHECK(md.find("<summary>How to read this</summary>") < md.find("## iOS"));
  CHECK_THAT(md, Contains("Cases with an absolute change of at least 5%"));
  CHECK_THAT(md, !Contains("Same-code (A/A) run"));
  NitroOptions same;
  same.head_commit = "1111";
  const std::string aa = render_markdown(comparison_report(nitro_dataset(same), o), {});
  CHECK_THAT(aa, Contains("Same-code (A/A) run") && Contains("Same-code base/head differences"));
  CHECK_THAT(aa, Contains("Suggested threshold from this A/A run"));
  o.gate = true;
  CHECK_THAT(render_markdown(comparison_report(nitro_dataset(), o), {}), Contains("Gate:"));
}

// The rows of the table with this id, anywhere in the report (tables inside details too).
const Table* find_table(const Blocks& blocks, const std::string& id) {
  for (const Block& block : blocks.items()) {
    if (const auto* t = std::get_if<Table>(&block.content); t != nullptr && t->id == id) return t;
    if (const auto* d = std::get_if<Details>(&block.content); d != nullptr) {
      if (const Table* inner = find_table(d->blocks, id)) return inner;
    }
  }
  return nullptr;
}

TEST_CASE("comparison_report: cases on one side only are rows in the stable order", "[presets][report][one-sided]") {
  // Base ran c, b, a (in that order); head ran a, c and a new d: b was removed, d added.
  Dataset ds;
  for (const char* name : {"c", "b", "a"}) add(ds, {{"revision", "base"}, {"benchmark", name}}, {10, 12, 11}, "ns");
  add(ds, {{"revision", "head"}, {"benchmark", "a"}}, {10, 12, 11}, "ns");
  add(ds, {{"revision", "head"}, {"benchmark", "d"}}, {20, 40, 30, 50}, "ns");
  add(ds, {{"revision", "head"}, {"benchmark", "c"}}, {10, 12, 11}, "ns");
  ComparisonReportOptions o;
  o.resamples = 100;
  const auto shared = std::make_shared<const ComparisonView>(comparison_view(ds, o));
  const ComparisonView& view = *shared;
  REQUIRE(view.comparison.cases.size() == 2);
  CHECK(view.comparison.cases[0].key == std::vector<std::string>{"c"});
  REQUIRE(view.one_sided.size() == 2);
  // b has a place in the base order (between c and a); d has none: after every case, by name.
  CHECK(view.one_sided[0].name == "b");
  CHECK(view.one_sided[0].before == 1);
  CHECK(view.one_sided[0].result.comparison.verdict == Verdict::removed);
  CHECK(view.one_sided[0].result.comparison.base_median ==
        Approx(11e-9).epsilon(1e-12));  // median of 10, 12, 11 ns in seconds
  CHECK(std::isnan(view.one_sided[0].result.comparison.head_median));
  CHECK(view.one_sided[1].name == "d");
  CHECK(view.one_sided[1].before == 2);
  CHECK(view.one_sided[1].result.comparison.head_median == Approx(35e-9).epsilon(1e-12));  // (30 + 40) / 2
  CHECK(std::isnan(view.one_sided[1].result.comparison.base_median));

  const Report report = comparison_report(ds, shared, o);
  const Table* all = find_table(report.blocks, "all-");
  REQUIRE(all != nullptr);
  std::vector<std::string> names, verdicts;
  for (const auto& row : all->rows) {
    names.push_back(row[0].text);
    verdicts.push_back(row[4].text);
  }
  CHECK(names == std::vector<std::string>{"c", "b", "a", "d"});
  CHECK(verdicts[1] == "removed");
  CHECK(verdicts[3] == "added");
  CHECK(all->rows[1][2].text.empty());  // removed: no head p50
  CHECK(all->rows[1][3].text.empty());  // ... and no change
  CHECK(all->rows[3][1].text.empty());  // added: no base p50
  CHECK(all->rows[3][2].text == "35.00 ns");
  CHECK(all->rows[3][5].text == "head only");
  // The notable table lists them too, since a reader should see them without opening the details.
  const Table* notable = find_table(report.blocks, "notable-");
  REQUIRE(notable != nullptr);
  CHECK(notable->caption == "Changes of at least 5%, added and removed cases");
  CHECK(notable->rows.size() == 2);

  const std::string md = render_markdown(report, {});
  CHECK_THAT(md, Contains("; 1 added, 1 removed; no drift.**"));
  CHECK_THAT(md, Contains("| \u2796 removed | base only |") && Contains("| \u2795 added | head only |"));
  CHECK_THAT(md, !Contains("New cases") && !Contains("Removed cases"));
  // How to read this comes right after the headline, before the mode note.
  CHECK(md.find("<summary>How to read this</summary>") < md.find("Report only:"));

  // The columnar view and the JSON payload hold the same rows in the same order.
  const Columns columns = comparison_columns(ds, view);
  REQUIRE(columns.rows() == 4);
  const auto column = [&](const std::string& name) -> const DataColumn& {
    const auto& all_columns = columns.columns();
    return *std::find_if(all_columns.begin(), all_columns.end(), [&](const auto& c) { return c.name == name; });
  };
  CHECK(column("name").texts == std::vector<std::string>{"c", "b", "a", "d"});
  CHECK(column("verdict").texts[1] == "removed");
  CHECK(column("verdict").texts[3] == "added");
  CHECK(column("verdict_code").texts[3] == "head_only");
  CHECK(std::isnan(column("change").reals[3]));
  CHECK(std::isnan(column("base_median").reals[3]));
  CHECK(column("head_n").counts[3] == 4);
  const Json& section = report.data.find("sections")->as_array().at(0);
  const Json cases_tree = section.find("cases")->as_source().tree();  // written from the view when rendered
  const Json::Array& cases = cases_tree.as_array();
  REQUIRE(cases.size() == 4);
  CHECK(cases.at(3).find("verdict")->as_string() == "added");
  CHECK(section.find("cases_compared")->as_integer() == 2);

  // A rollup is of matched cases only: one side alone has no change to roll up.
  CHECK_THROWS_WITH(rollup(std::vector<CaseComparison>{view.one_sided[0].result.comparison}),
                    Contains("one side only"));
}

TEST_CASE("comparison_report: the per-case payload written from the view is the text of its tree",
          "[presets][report]") {
  // More cases than two runs of JsonStream::kItemsPerTask, so the threaded writer splits them; one removed
  // and one added case among them, and a unit of another dimension.
  Dataset ds;
  const std::size_t n = 2 * JsonStream::kItemsPerTask + 37;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = "b" + std::to_string(i);
    const double x = 10.0 + static_cast<double>(i % 17);
    const char* unit = i % 5 == 0 ? "B" : "ns";
    if (i != 3) add(ds, {{"revision", "base"}, {"benchmark", name}}, {x, x + 1, x + 2, x + 1}, unit);
    if (i != 7) add(ds, {{"revision", "head"}, {"benchmark", name}}, {x * 1.1, x + 2, x + 3, x + 1}, unit);
  }
  ComparisonReportOptions o;
  o.resamples = 50;
  const Report report = comparison_report(ds, o);
  const Json& cases = *report.data.find("sections")->as_array().at(0).find("cases");
  REQUIRE(cases.is_source());
  const Json tree = cases.as_source().tree();
  REQUIRE(tree.as_array().size() == n);
  const auto named = [&](const std::string& name) {
    const auto& all = tree.as_array();
    return *std::find_if(all.begin(), all.end(), [&](const Json& c) { return c.find("name")->as_string() == name; });
  };
  CHECK(named("b3").find("verdict")->as_string() == "added");  // no base set
  CHECK(named("b7").find("verdict")->as_string() == "removed");
  CHECK(named("b5").find("unit_base")->as_string() == "B");
  CHECK(named("b6").find("unit_base")->as_string() == "s");
  for (const int indent : {0, 2}) {
    for (const unsigned threads : {1U, 2U}) {
      const JsonWriteOptions options{indent, false, threads};
      CHECK(to_json(cases, options) == to_json(tree, options));
    }
  }
  CHECK(to_json(cases, {2, true, 1}) == to_json(tree, {2, true, 1}));  // sorted keys go through the tree
}

TEST_CASE("comparison_report: nothing above the threshold gives the sentence instead of a table", "[presets][report]") {
  Dataset ds;
  for (const char* rev : {"base", "head"}) add(ds, {{"revision", rev}, {"benchmark", "x"}}, {10, 11, 12, 10, 11}, "ns");
  ComparisonReportOptions o;
  o.resamples = 100;
  const std::string md = render_markdown(comparison_report(ds, o), {});
  CHECK_THAT(md, Contains("No benchmark reached the 5% threshold."));
  CHECK_THAT(md, Contains("| 0.00% (") && !Contains("-0.00%"));
}

TEST_CASE("comparison_report: drift beyond the limit is reported in words", "[presets][report]") {
  Dataset ds;
  std::vector<double> steady;
  std::vector<double> ramp;
  for (int i = 0; i < 20; ++i) {
    steady.push_back(100.0 + (i % 3));
    ramp.push_back(100.0 * std::pow(1.92, i / 15.0));  // median(last 5) / median(first 5) = 1.92
  }
  add(ds, {{"revision", "base"}, {"benchmark", "nitro-cpp/function/simple-func"}}, steady, "ns");
  add(ds, {{"revision", "head"}, {"benchmark", "nitro-cpp/function/simple-func"}}, ramp, "ns");
  ComparisonReportOptions o;
  o.case_name = nitro_case_name;  // Nitro ids in a dataset not read by the Nitro reader
  o.resamples = 100;
  const std::string md = render_markdown(comparison_report(ds, o), {});
  CHECK_THAT(md, Contains("C++ simpleFunc() head samples slowing \\~92% between the first and last five"));
}

namespace {
std::string runner_meta(const char* affinity, int protocol, const char* cpu) {
  return std::string("{\"protocol\":{\"protocol\":") + std::to_string(protocol) +
         ",\"cpu_samples\":5},\"affinity\":\"" + affinity +
         "\",\"cpu_group\":\"0 / 0\",\"binary\":\"x64\",\"cpu_model\":\"" + cpu +
         "\",\"notices\":[{\"stage\":\"internet\",\"message\":\"HTTPS 403\"}]}";
}
}  // namespace

TEST_CASE("runners_report: fingerprint table, pinned/unpinned split, CV, cache MiB/s", "[presets][runners]") {
  Dataset ds;
  ds.add_run("linux", runner_meta("pinned", 5, "EPYC"));
  ds.add_run("mac", runner_meta("unpinned", 5, "M4"));
  ds.add_run("old", runner_meta("pinned", 4, "Xeon"));
  add(ds, {{"runner", "linux"}, {"suite", "cpu"}, {"metric", "coremark"}}, {100, 110, 90, 105, 95}, "iterations/s",
      "linux");
  add(ds, {{"runner", "mac"}, {"suite", "cpu"}, {"metric", "coremark"}}, {80, 81, 79}, "iterations/s", "mac");
  add(ds, {{"runner", "old"}, {"suite", "cpu"}, {"metric", "coremark"}}, {500, 501, 502}, "iterations/s", "old");
  add(ds, {{"runner", "linux"}, {"suite", "cache"}, {"service", "svc"}, {"backend", "fast"}, {"metric", "cache_save"}},
      {4, 5, 6}, "s", "linux", {{"payload_mib", "512.0"}, {"verified_pairs", "3"}, {"trials", "3"}});
  const Report report = runners_report(ds);
  REQUIRE_NOTHROW(report.validate());
  const std::string md = render_markdown(report, {});
  const std::string print5 = fingerprint("{\"protocol\":5,\"cpu_samples\":5}");
  CHECK_THAT(md, Contains(print5) && Contains("Pinned results") && Contains("Unpinned results"));
  CHECK_THAT(md, Contains("Not compared (different parameter fingerprint): old"));
  CHECK_THAT(md, !Contains("500.00"));  // the other profile's result is not compared
  // linux: median 100, range 90–110, population CV = sqrt(50)/100 = 7.07%.
  CHECK_THAT(md, Contains("100.00") && Contains("90.00–110.00") && Contains("7.07%"));
  // cache: median 5 s; 512 / 5 = 102.40 MiB/s; CV sqrt(2/3)/5 = 16.33%.
  CHECK_THAT(md, Contains("5.00; 4.00–6.00") && Contains("102.40") && Contains("16.33%") && Contains("3/3"));
  CHECK_THAT(md, Contains("linux / internet"));
  RunnersReportOptions pick;
  pick.fingerprint = fingerprint("{\"protocol\":4,\"cpu_samples\":5}");
  CHECK_THAT(render_markdown(runners_report(ds, pick), {}), Contains("500.00"));
  pick.fingerprint = "000000000000";
  CHECK_THROWS_WITH(runners_report(ds, pick), Contains("no runner has the parameter fingerprint 000000000000"));
  CHECK_THROWS_WITH(runners_report(engine_dataset()), Contains("no \"runner\" label"));
}

TEST_CASE("matrix_report: ratio column, best per row, take-aways from the data", "[presets][matrix-report]") {
  MatrixReportOptions o;
  o.tables = {};
  o.names = {{"native", "Native"}, {"zig", "Zig"}};
  const Report report = matrix_report(engine_dataset(), o);
  REQUIRE_NOTHROW(report.validate());
  const std::string md = render_markdown(report, {});
  CHECK_THAT(md, Contains("Key take-aways") && Contains("Quick comparison") && Contains("Full matrix"));
  CHECK_THAT(md, Contains("Zig ÷ Native") && Contains("57.48×"));  // 12818 / 223
  CHECK_THAT(md, Contains("largest gap") && Contains("SHA-256"));
  CHECK_THAT(md, Contains("Native best on 2"));
  CHECK_THAT(md, Contains("**223**"));
}

TEST_CASE("comparison_report: a window change within the case's noise and without a trend is not drift",
          "[presets][report]") {
  // Window change +11.9% (limit 10%), MAD / p50 10.4%, Mann–Kendall p = 0.60 (scipy kendalltau, asymptotic).
  const std::vector<double> noisy{100, 118, 95, 117, 101, 92,  124, 93,  121, 110,
                                  88,  123, 99, 125, 97,  113, 96,  119, 112, 114};
  std::vector<double> steady;
  for (int i = 0; i < 20; ++i) steady.push_back(100.0 + (i % 3));
  Dataset ds;
  add(ds, {{"revision", "base"}, {"benchmark", "nitro-cpp/function/simple-func"}}, noisy, "ns");
  add(ds, {{"revision", "head"}, {"benchmark", "nitro-cpp/function/simple-func"}}, steady, "ns");
  ComparisonReportOptions o;
  o.case_name = nitro_case_name;  // Nitro ids in a dataset not read by the Nitro reader
  o.resamples = 100;
  const std::string md = render_markdown(comparison_report(ds, o), {});
  CHECK_THAT(md, Contains("none (largest: C++ simpleFunc() base +11.88%"));
  CHECK_THAT(md, !Contains("base samples"));
}

TEST_CASE("comparison_report: a significant trend is drift even when the change is within the noise",
          "[presets][report]") {
  // 100 * 1.12^(i/20) ± 9 alternating, n = 21: window change +10.4%, MAD / p50 8.6%, Mann–Kendall p = 0.0025.
  std::vector<double> ramp;
  std::vector<double> steady;
  for (int i = 0; i < 21; ++i) {
    ramp.push_back(100.0 * std::pow(1.12, i / 20.0) + (i % 2 == 0 ? -9.0 : 9.0));
    steady.push_back(100.0 + (i % 3));
  }
  Dataset ds;
  add(ds, {{"revision", "base"}, {"benchmark", "nitro-cpp/function/simple-func"}}, steady, "ns");
  add(ds, {{"revision", "head"}, {"benchmark", "nitro-cpp/function/simple-func"}}, ramp, "ns");
  ComparisonReportOptions o;
  o.case_name = nitro_case_name;  // Nitro ids in a dataset not read by the Nitro reader
  o.resamples = 100;
  const std::string md = render_markdown(comparison_report(ds, o), {});
  CHECK_THAT(md, Contains("C++ simpleFunc() head samples slowing \\~10% between the first and last five"));
}

TEST_CASE("matrix_report: display names come with the data (ZFH labelNames), options override them",
          "[presets][matrix-report]") {
  const Dataset zfh = read(std::string(BENCHREPORT_TEST_DATA) + "/zfh/ios.log");
  const std::string md = render_markdown(matrix_report(zfh), {});
  CHECK_THAT(md, Contains("## Full matrix: iOS, 16 MiB") && Contains("Zig \u00f7 Native"));
  MatrixReportOptions o;
  o.names = {{"zig", "Zig 0.14"}};
  CHECK_THAT(render_markdown(matrix_report(zfh, o), {}), Contains("Zig 0.14 \u00f7 Native"));
  o.names = {};
  o.label_names_key = "";  // the data's names ignored
  CHECK_THAT(render_markdown(matrix_report(zfh, o), {}), Contains("zig \u00f7 native"));
  // Generic data names nothing.
  MatrixReportOptions plain;
  plain.tables = {};
  CHECK_THAT(render_markdown(matrix_report(engine_dataset(), plain), {}), Contains("zig \u00f7 native"));
}

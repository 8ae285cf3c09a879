#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/render/render.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

Report hostile_report() {
  Report report("Runs <b>&</b>");
  report.add_note("watch @octocat", NoteKind::warning);
  Table& table = report.add_table({{"Runner"}, {"Median", Align::right}, {"Hash", Align::center}}, "Pinned, \"x\"",
                                  "pinned \"><script>");
  table.add_row(
      {"<script>alert(1)</script>", Cell("45851.10", 45851.1, CellRole::best), Cell("866df6f892c3", CellRole::code)});
  table.add_row({"=HYPERLINK(\"http://x\")", Cell("2.25 \u00b5s", CellRole::slower), "a\nb"});
  table.footnote = "Variation is the population CV.";
  Details& details = report.add_details("More \u202Erows");
  details.blocks.add_table({"Name", "Value"}, "", "more").add_row({"\x1b[31mred", "-5.01%"});
  report.add_paragraph(
      {Span::link("bad", "javascript:alert(1)"), Span::plain(" "), Span::link("ok", "https://x.test/?a=1&b=\"2\"")});
  return report;
}

}  // namespace

TEST_CASE("HTML is one standalone, escaped document", "[render][html]") {
  const std::string html = render_html(hostile_report());
  CHECK(html.rfind("<!doctype html>\n<html lang=\"en\">", 0) == 0);
  CHECK(html.find("<title>Runs &lt;b&gt;&amp;&lt;/b&gt;</title>") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("javascript:") != std::string::npos);        // shown as text only...
  CHECK(html.find("href=\"javascript") == std::string::npos);  // ...never as a link
  CHECK(html.find("<a href=\"https://x.test/?a=1&amp;b=%222%22\">ok</a>") != std::string::npos);
  CHECK(html.find("<table id=\"table-pinned----script--20496f26\">") != std::string::npos);  // lossy: hash of the id
  CHECK(html.find("<caption>Pinned, &quot;x&quot;</caption>") != std::string::npos);
  CHECK(html.find("<td class=\"al-right num role-best\" data-value=\"45851.1\">45851.10</td>") != std::string::npos);
  CHECK(html.find("<td class=\"al-center\"><code>866df6f892c3</code></td>") != std::string::npos);
  CHECK(html.find("<summary>More \uFFFDrows</summary>") != std::string::npos);
  CHECK(html.find("\x1b") == std::string::npos);
  for (const char* external : {"src=", "<link", "@import", "url("}) CHECK(html.find(external) == std::string::npos);
  CHECK(html.find("<aside class=\"note warning\"><strong>Warning:</strong> watch @octocat</aside>") !=
        std::string::npos);
}

TEST_CASE("HTML fragment has no document wrapper and scoped CSS", "[render][html]") {
  const std::string fragment = render_html_fragment(hostile_report());
  CHECK(fragment.rfind("<div class=\"benchreport\">\n<style>", 0) == 0);
  CHECK(fragment.find("<html") == std::string::npos);
  CHECK(fragment.find("<body") == std::string::npos);
  CHECK(fragment.substr(fragment.size() - 7) == "</div>\n");
  // In a host page (Jupyter right-aligns every cell) the alignment is inline; the page has its own CSS only.
  CHECK_THAT(fragment, Contains("<td class=\"al-right num role-best\" style=\"text-align:right\" "
                                "data-value=\"45851.1\">45851.10</td>") &&
                           Contains("<td class=\"al-center\" style=\"text-align:center\"><code>"));
  CHECK_THAT(render_html(hostile_report()), !Contains("style=\"text-align"));
}

TEST_CASE("HTML sparklines are fixed-size SVG polylines", "[render][html]") {
  Report report;
  report.add_table({"Case", "Samples"}).add_row({"a", Cell("1").with_samples({1.0, 3.0, 2.0})});
  const std::string html = render_html(report);
  CHECK(html.find("<svg class=\"spark\" width=\"80\" height=\"18\" viewBox=\"0 0 80 18\" role=\"img\" "
                  "aria-label=\"3 samples\"><polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.2\" "
                  "points=\"2.00,16.00 40.00,2.00 78.00,9.00\"/></svg>") != std::string::npos);
  Report flat;
  flat.add_table({"Case"}).add_row({Cell("x").with_samples({5.0})});
  CHECK(render_html(flat).find("points=\"2.00,9.00 78.00,9.00\"") != std::string::npos);
}

TEST_CASE("text aligns by display width and neutralises escapes", "[render][text]") {
  Report report("Title");
  Table& table = report.add_table({{"Case"}, {"p50", Align::right}, {"Mid", Align::center}});
  table.add_row({"a", "2.25 \u00b5s", "x"});
  table.add_row({"longer", "851.2 ns", "wide"});
  table.add_row({"\x1b[2Jclear", "1\u20132", "y"});
  CHECK(render_text(report) ==
        "Title\n=====\n\n"
        "Case            p50  Mid\n"
        "---------  --------  ----\n"
        "a           2.25 \u00b5s   x\n"
        "longer     851.2 ns  wide\n"
        " [2Jclear       1\u20132   y\n");
}

TEST_CASE("text colour only on request", "[render][text]") {
  Report report;
  report.add_table({"Change"}).add_row({Cell("+9.18% slower", CellRole::slower)});
  CHECK(render_text(report).find('\x1b') == std::string::npos);
  RenderOptions options;
  options.color = true;
  const std::string coloured = render_text(report, options);
  CHECK(coloured.find("\x1b[1;31m+9.18% slower\x1b[0m") != std::string::npos);
  CHECK(coloured.find("\x1b[1mChange\x1b[0m") != std::string::npos);
}

TEST_CASE("text expands details under their summary", "[render][text]") {
  Report report;
  Details& details = report.add_details("All cases");
  details.blocks.add_paragraph("inside");
  CHECK(render_text(report) == "All cases\n---------\n\ninside\n");
}

TEST_CASE("CSV: RFC 4180 tables with caption comments and the formula guard", "[render][csv]") {
  const std::string csv = render_csv(hostile_report());
  CHECK(csv ==
        "# Pinned, \"x\"\r\n"
        "Runner,Median,Median (number),Hash\r\n"
        "<script>alert(1)</script>,45851.10,45851.1,866df6f892c3\r\n"
        "\"'=HYPERLINK(\"\"http://x\"\")\",2.25 \u00b5s,,a b\r\n"
        "\r\n"
        "# more\r\n"
        "Name,Value\r\n"
        "\" [31mred\",-5.01%\r\n");
}

TEST_CASE("text writes a table wider than 160 columns as one record per row", "[render][text]") {
  Report report;
  Table& table = report.add_table(std::vector<Column>{{"Benchmark"}, {"Base", Align::right}, {"Head", Align::right}});
  const std::string wide(80, '1');
  table.add_row({"BM_x", wide, wide});  // 4 + 2 + 80 + 2 + 80 = 168 columns
  table.add_row({"BM_y", "2", "3"});
  CHECK(render_text(report) == "BM_x\n  Base: " + wide + "\n  Head: " + wide + "\nBM_y\n  Base: 2\n  Head: 3\n");
  Report narrow;
  narrow.add_table(std::vector<Column>{{"A"}, {"B"}}).add_row({"a", std::string(90, 'b')});
  CHECK_THAT(render_text(narrow), Contains("A  B\n-  ---"));
  table.records_when_wide = false;  // a listing (the summary's) stays one line per row
  CHECK_THAT(render_text(report), Contains(wide + "  " + wide + "\n"));
}

TEST_CASE("Markdown marks verdict words with a coloured circle and keeps the word", "[render][markdown]") {
  Report report;
  Table& table = report.add_table(std::vector<Column>{{"Change"}, {"Verdict"}});
  table.add_row({Cell("+9.22% (+8.55% to +9.90%)", 0.0922, CellRole::slower), Cell("slower", CellRole::slower)});
  table.add_row({"-5.11%", Cell("faster", CellRole::faster)});
  table.add_row({"+4.54%", Cell("inconclusive", CellRole::inconclusive)});
  table.add_row({"+0.26%", Cell("equivalent", CellRole::equivalent)});
  table.add_row({"+0.00%", Cell("steeper", CellRole::slower)});  // not a verdict word: no marker
  const std::string md = render_markdown(report);
  CHECK_THAT(md, Contains("| +9.22% (+8.55% to +9.90%) | \U0001F534 slower |"));
  CHECK_THAT(md, Contains("| \U0001F7E2 faster |") && Contains("| \U0001F7E1 inconclusive |") &&
                     Contains("| \u26AA equivalent |") && Contains("| steeper |"));
  CHECK_THAT(render_html(report) + render_text(report), !Contains("\U0001F534"));
}

TEST_CASE("HTML keeps a number and its unit on one line", "[render][html]") {
  Report report;
  report.add_table(std::vector<Column>{{"p50s"}}).add_row({"22.75 ns, 1.5 \u00b5s, 3 MiB (x 2)"});
  CHECK_THAT(render_html(report), Contains("22.75\u00a0ns, 1.5\u00a0\u00b5s, 3\u00a0MiB (x 2)"));
}

TEST_CASE("CSV gives every figure of a cell a numeric column, unguarded", "[render][csv]") {
  Report report;
  Table& table = report.add_table(std::vector<Column>{{"Case"}, {"Change", Align::right}});
  table.add_row(
      {"=a", Cell("-5.11% (-6.16% to -4.06%)", -0.0511).with_figure("lower", -0.0616).with_figure("upper", -0.0406)});
  table.add_row({"b", Cell("n/a")});
  CHECK(render_csv(report) ==
        "# table 1\r\n"
        "Case,Change,Change (number),Change (lower),Change (upper)\r\n"
        "'=a,'-5.11% (-6.16% to -4.06%),-0.0511,-0.0616,-0.0406\r\n"
        "b,n/a,,,\r\n");
}

TEST_CASE("CSV selects one table by id", "[render][csv]") {
  RenderOptions options;
  options.csv_table = "more";
  CHECK(render_csv(hostile_report(), options) == "Name,Value\r\n\" [31mred\",-5.01%\r\n");
  options.csv_table = "missing";
  CHECK_THROWS_WITH(render_csv(hostile_report(), options),
                    "csv_table: no table with id 'missing' (ids in this report: pinned \"><script>, more)");
}

TEST_CASE("JSON carries the schema, every block and the data payload", "[render][json]") {
  Report report("T");
  report.add_table({"a"}).add_row({Cell("1.5", 1.5)});
  report.data.set("nan", std::numeric_limits<double>::quiet_NaN()).set("tenth", 0.1).set("n", 3);
  RenderOptions compact;
  compact.json_indent = 0;
  CHECK(render_json(report, compact) ==
        "{\"schema\":\"benchreport-report/1\",\"title\":\"T\",\"blocks\":[{\"type\":\"table\",\"columns\":"
        "[{\"title\":\"a\",\"align\":\"left\"}],\"rows\":[[{\"text\":\"1.5\",\"value\":1.5}]]}],"
        "\"data\":{\"nan\":null,\"tenth\":0.1,\"n\":3}}\n");
}

// Every block type and every optional member, for the read-back test.
Report every_block_report() {
  Report report = hostile_report();
  report.add_heading(3, "Section");
  report.add_list(std::vector<Spans>{{Span::plain("one")}, {Span::bold("two"), Span::code("x")}});
  report.add_footnote("small print");
  Table& wide = report.add_table({"a", {"b", Align::center}});
  wide.records_when_wide = false;
  wide.add_row({Cell("1.5 s", 1.5, CellRole::slower)
                    .with_samples({1.0, 2.0, 1.5})
                    .with_figure("lower", 1.25)
                    .with_figure("upper", std::numeric_limits<double>::quiet_NaN()),
                Cell("nan", std::numeric_limits<double>::quiet_NaN())});
  Plot plot;
  plot.title = "p";
  plot.log_x = false;
  plot.x_unit = "s";
  plot.x_names = {"c1", "c2"};
  plot.series.push_back({"fit", {0, 1}, {1.0, std::numeric_limits<double>::quiet_NaN()}, true, PlotTone::worse});
  plot.markers.push_back({0.5, "change", PlotTone::better});
  report.add_details("nested", true).blocks.add_plot(plot);
  report.data.set("x", 0.1).set("n", 3);
  return report;
}

TEST_CASE("JSON report reads back as the same report, plots included", "[render][json]") {
  const Report report = every_block_report();
  RenderOptions compact;
  compact.json_indent = 0;
  const std::string json = render_json(report, compact);
  const Report back = read_report_json(metadata::parse_json(json, "report"));
  CHECK(back.title == report.title);
  CHECK(back.blocks.size() == report.blocks.size());
  CHECK(render_json(back, compact) == json);
  CHECK(render_html(back) == render_html(report));  // the plot's SVG and the cells' data-value too
  CHECK(render_text(back) == render_text(report));
}

TEST_CASE("JSON report: a tree that is not a report names the block and member", "[render][json]") {
  const auto read = [](std::string_view text) { return read_report_json(metadata::parse_json(text, "t")); };
  CHECK_THROWS_WITH(read(R"({"blocks":[{"type":"heading","text":"x"},{"type":"poem"}]})"),
                    Contains("report JSON $.blocks[0]: no \"level\""));
  CHECK_THROWS_WITH(read(R"({"blocks":[{"type":"poem"}]})"), Contains("$.blocks[0]: unknown block type 'poem'"));
  CHECK_THROWS_WITH(read(R"({"blocks":[{"type":"details","summary":"s","blocks":[{"type":"list","items":[1]}]}]})"),
                    Contains("$.blocks[0].blocks[0]: a list item is not an array of spans"));
  CHECK_THROWS_WITH(
      read(R"({"blocks":[{"type":"table","columns":[{"title":"a"}],"rows":[[{"text":"x"},{"text":"y"}]]}]})"),
      Contains("row 1: 2 cells, expected 1"));
  CHECK_THROWS_WITH(read("[]"), Contains("report JSON $: not an object"));
}

TEST_CASE("JSON writer: shortest round-trip numbers, escapes, key order", "[render][json]") {
  CHECK(json_number(0.1) == "0.1");
  CHECK(json_number(1.0) == "1.0");
  CHECK(json_number(-0.0) == "-0.0");
  CHECK(json_number(123456789.0) == "123456789.0");
  CHECK(json_number(1e21) == "1e+21");
  CHECK(json_number(5e-324) == "5e-324");
  CHECK(json_number(std::numeric_limits<double>::infinity()) == "null");
  CHECK(json_number(-std::numeric_limits<double>::infinity()) == "null");
  CHECK(json_string("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
  CHECK(json_string("\u202E\u2028\u00b5\xff") == "\"\\u202e\\u2028\u00b5\uFFFD\"");
  Json object;
  object.set("b", 1).set("a", Json::Array{true, nullptr, "x"}).set("b", 2);
  CHECK(to_json(object) == "{\"b\":2,\"a\":[true,null,\"x\"]}");
  CHECK(to_json(object, JsonWriteOptions{0, true}) == "{\"a\":[true,null,\"x\"],\"b\":2}");
  CHECK(to_json(object, JsonWriteOptions{1, false}) == "{\n \"b\": 2,\n \"a\": [true, null, \"x\"]\n}");
  CHECK(to_json(Json::object()) == "{}");
  CHECK(to_json(Json::array()) == "[]");
  REQUIRE(object.find("a") != nullptr);
  CHECK(object.find("zzz") == nullptr);
  Json number = 3;
  CHECK_THROWS_AS(number.set("k", 1), std::logic_error);
  CHECK_THROWS_AS(number.push_back(1), std::logic_error);
}

TEST_CASE("JSON writer: pretty layout keeps scalar-only containers on one line", "[render][json]") {
  const JsonWriteOptions pretty{2, false};
  // Scalars, then a nested container: the members before it move to their own lines.
  Json cell;
  cell.set("text", "1.0 ms").set("value", 0.001);
  CHECK(to_json(cell, pretty) == "{\"text\": \"1.0 ms\", \"value\": 0.001}");
  cell.set("samples", Json::Array{1.0, 2.0});
  CHECK(to_json(cell, pretty) == "{\n  \"text\": \"1.0 ms\",\n  \"value\": 0.001,\n  \"samples\": [1.0, 2.0]\n}");
  // A scalar after a nested container stays on its own line; empty containers stay "[]" / "{}".
  const Json mixed = Json::Array{Json::Array{}, 1, Json::object(), Json::Array{Json::Array{2}}, "x"};
  CHECK(to_json(mixed, pretty) == "[\n  [],\n  1,\n  {},\n  [\n    [2]\n  ],\n  \"x\"\n]");
  // Strings holding the separator are not split when a container is re-laid out.
  const Json tricky = Json::Array{"a, b", "c\", d", Json::Array{}};
  CHECK(to_json(tricky, pretty) == "[\n  \"a, b\",\n  \"c\\\", d\",\n  []\n]");
  // Compact output is unchanged by the layout rule.
  CHECK(to_json(mixed) == "[[],1,{},[[2]],\"x\"]");
}

TEST_CASE("JSON writer: a sink receives the same bytes in pieces of bounded size", "[render][json]") {
  // Cells past the flush size, a one-line array far longer than it (kept whole
  // until it closes), then a one-line array re-laid out when a container follows.
  Json rows = Json::array();
  for (int i = 0; i < 40000; ++i) {
    Json cell;
    cell.set("text", "case " + std::to_string(i)).set("value", i * 0.5);
    rows.push_back(std::move(cell));
  }
  Json long_array = Json::array();
  for (int i = 0; i < 150000; ++i) long_array.push_back(i * 0.25);
  Json relaid = long_array;
  relaid.push_back(Json::object());
  Json doc;
  doc.set("rows", std::move(rows)).set("long", std::move(long_array)).set("relaid", std::move(relaid));
  for (const int indent : {0, 2}) {
    const JsonWriteOptions options{indent, false};
    const std::string whole = to_json(doc, options);
    std::string buffer, joined;
    std::size_t pieces = 0;
    JsonStream stream(buffer, options, [&](std::string_view piece) {
      joined += piece;
      ++pieces;
    });
    stream.value(doc);
    stream.finish();
    CHECK(joined == whole);
    CHECK(buffer.empty());
    CHECK(pieces > 2);
    CHECK(whole.size() > 3 * JsonStream::kFlushBytes);
  }
}

TEST_CASE("JSON writer: long arrays of containers give the same text on any thread count", "[render][json]") {
  // Arrays long enough to be split over threads: one-line objects, multi-line
  // objects, arrays of objects (nested in a worker's part), an array whose
  // scalars come first (written on one thread) and an empty one.
  Json cells = Json::array(), deep = Json::array(), scalars_first = Json::Array{1, "two"};
  for (int i = 0; i < 3 * static_cast<int>(JsonStream::kItemsPerTask) + 17; ++i) {
    Json cell;
    cell.set("text", "case \"" + std::to_string(i) + "\"").set("value", i * 0.5);
    if (i % 7 == 0) cell.set("samples", Json::Array{1.0, i * 0.25});
    Json pair = Json::Array{cell, Json::object()};
    cells.push_back(cell);
    deep.push_back(std::move(pair));
    scalars_first.push_back(std::move(cell));
  }
  Json doc;
  doc.set("cells", std::move(cells)).set("deep", std::move(deep)).set("scalars_first", std::move(scalars_first));
  doc.set("empty", Json::array());
  for (const int indent : {0, 2, 3}) {
    const std::string serial = to_json(doc, JsonWriteOptions{indent, false, 1});
    for (const unsigned threads : {2u, 3u, 0u}) {
      const JsonWriteOptions options{indent, false, threads};
      CHECK(to_json(doc, options) == serial);
      std::string buffer, joined;
      JsonStream stream(buffer, options, [&](std::string_view piece) { joined += piece; });
      stream.value(doc);
      stream.finish();
      CHECK(joined == serial);
    }
  }
}

TEST_CASE("JSON report: a long table renders the same bytes on any thread count", "[render][json]") {
  Report report("Many rows");
  Table& table = report.add_table({{"name"}, {"value", Align::right}}, "rows", "many");
  for (std::size_t i = 0; i < 2 * JsonStream::kItemsPerTask + 3; ++i) {
    table.add_row({Cell("row|" + std::to_string(i)), Cell(std::to_string(i), static_cast<double>(i))});
  }
  RenderOptions one;
  one.threads = 1;
  const std::string serial = render(report, Format::json, one);
  for (const unsigned threads : {2u, 0u}) {
    RenderOptions options;
    options.threads = threads;
    CHECK(render(report, Format::json, options) == serial);
    std::string joined;
    render_into(report, Format::json, options, [&](std::string_view piece) { joined += piece; });
    CHECK(joined == serial);
  }
}

TEST_CASE("every format is deterministic and reachable through render()", "[render]") {
  const Report report = hostile_report();
  for (const Format format : {Format::markdown, Format::html, Format::text, Format::csv, Format::json}) {
    const std::string first = render(report, format);
    CHECK(!first.empty());
    CHECK(render(report, format) == first);
    CHECK(render(report, format_from_name(format_name(format))) == first);
  }
  CHECK(render(report, Format::html) == render_html(report));
}

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sstream>
#include <string>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/core/report_markers.hpp"
#include "benchreport/render/render.hpp"

using namespace benchreport;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Cells in a GFM table row. cmark-gfm's cell scanner takes the longest match
// of (backslash + punctuation | other), so a `|` directly after a backslash is
// always an escaped pipe; every other `|` delimits.
std::size_t cell_count(const std::string& row) {
  std::size_t pipes = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '|' && (i == 0 || row[i - 1] != '\\')) ++pipes;
  }
  return pipes - 1;
}

// The Markdown report after its first line, which must be the report marker.
std::string markdown_body(const Report& report, const RenderOptions& options = {}) {
  const std::string md = render_markdown(report, options);
  REQUIRE(md.rfind(kMarkdownReportMarker, 0) == 0);
  return md.substr(kMarkdownReportMarker.size());
}

RenderOptions with_budget(std::size_t budget) {
  RenderOptions options;
  options.markdown_budget = budget;
  return options;
}

Report comparison_like(std::size_t rows) {
  Report report("Performance Report");
  report.add_note({Span::bold("Report only:"), Span::plain(" Measurements do not fail this PR.")});
  report.add_heading(2, "iOS");
  Table& notable = report.add_table(
      {{"Benchmark"}, {"Base p50", Align::right}, {"Head p50", Align::right}, {"Observed change", Align::right}});
  notable.add_row({"C++ small array (16)", "851.2 ns", "808.5 ns", Cell("-5.01% faster", CellRole::faster)});
  Details& all = report.add_details("All benchmarks and sample variation");
  Table& table = all.blocks.add_table({{"Benchmark"}, {"Base p50", Align::right}, {"Head p50", Align::right}});
  for (std::size_t i = 0; i < rows; ++i) {
    table.add_row({fmt::format("C++ number | string variant {}", i), "113.0 ns", "112.3 ns"});
  }
  all.blocks.add_footnote("p50 is the median of timed batch averages in ns/op.");
  return report;
}

}  // namespace

TEST_CASE("Markdown renders blocks in GitHub-flavoured syntax", "[render][markdown]") {
  const std::string md = markdown_body(comparison_like(2));
  CHECK(md ==
        "# Performance Report\n\n"
        "> **Report only:** Measurements do not fail this PR.\n\n"
        "## iOS\n\n"
        "| Benchmark | Base p50 | Head p50 | Observed change |\n"
        "| --- | ---: | ---: | ---: |\n"
        "| C++ small array (16) | 851.2 ns | 808.5 ns | -5.01% faster |\n\n"
        "<details>\n<summary>All benchmarks and sample variation</summary>\n\n"
        "| Benchmark | Base p50 | Head p50 |\n"
        "| --- | ---: | ---: |\n"
        "| C++ number \\| string variant 0 | 113.0 ns | 112.3 ns |\n"
        "| C++ number \\| string variant 1 | 113.0 ns | 112.3 ns |\n\n"
        "<sub>p50 is the median of timed batch averages in ns/op.</sub>\n\n"
        "</details>\n");
}

TEST_CASE("Markdown table rows keep the header's cell count with hostile names", "[render][markdown]") {
  Report report;
  Table& table = report.add_table({"Name", "Code", "Value"});
  const std::vector<std::string> hostile{
      "C++ number | string variant", "<script>alert(1)</script>", "@octocat", "back`tick``s", "new\nline\r\n",
      "rtl \u202Eevil\u202C",        "bad \xff\xfe utf8",         "a\\|b",    "| leading",    "trailing \\"};
  Report plain;
  Table& plain_table = plain.add_table({"Name"});
  for (const std::string& name : hostile) {
    table.add_row({name, Cell(name, CellRole::code), "1"});
    plain_table.add_row({name});
  }
  // Code spans may show <script> verbatim (inert there); plain cells never do.
  const std::string plain_md = render_markdown(plain);
  CHECK(plain_md.find("<script") == std::string::npos);
  CHECK(plain_md.find("@octocat") == std::string::npos);
  const std::string md = markdown_body(report);
  CHECK(md.find("\u202E") == std::string::npos);
  CHECK(md.find('\r') == std::string::npos);
  CHECK(md.find("\xff") == std::string::npos);
  const auto lines = lines_of(md);
  REQUIRE(lines.size() == 2 + hostile.size());
  for (const std::string& line : lines) CHECK(cell_count(line) == 3);
}

TEST_CASE("Markdown paragraphs, lists and links stay inert", "[render][markdown]") {
  Report report;
  report.add_paragraph("- not a list <b>bold</b>");
  report.add_list(std::vector<std::string>{"1. first", "*star*"});
  report.add_paragraph({Span::link("run", "https://example.com/a b"), Span::plain(" and "),
                        Span::link("bad", "javascript:alert(1)"), Span::plain(" "), Span::code("x|y")});
  report.add_note("careful", NoteKind::warning);
  const std::string md = markdown_body(report);
  CHECK(md ==
        "\\- not a list &lt;b&gt;bold&lt;/b&gt;\n\n"
        "- 1\\. first\n- \\*star\\*\n\n"
        "[run](https://example.com/a%20b) and bad (javascript:alert(1)) `x|y`\n\n"
        "> **Warning:** careful\n");
}

TEST_CASE("Markdown marks best cells and draws sparklines", "[render][markdown]") {
  Report report;
  Table& table = report.add_table({"Algorithm", {"Native", Align::right}, {"Zig", Align::center}});
  table.add_row({"SHA-256", Cell("220", 220.0, CellRole::best), Cell("12818", 12818.0, CellRole::worse)});
  table.rows.back()[2].with_samples({1, 2, 3});
  CHECK(markdown_body(report) ==
        "| Algorithm | Native | Zig |\n| --- | ---: | :---: |\n| SHA-256 | **220** | 12818 \u2581\u2585\u2588 |\n");
  RenderOptions plain;
  plain.sparklines = false;
  CHECK(render_markdown(report, plain).find("\u2581") == std::string::npos);
}

TEST_CASE("Markdown budget: never exceeded, cut at row boundaries, note present", "[render][markdown][budget]") {
  const Report report = comparison_like(400);
  const std::string full = render_markdown(report, with_budget(0));
  REQUIRE(full.size() > 10000);
  CHECK(render_markdown(report, with_budget(full.size())) == full);

  for (const std::size_t budget : {400u, 1000u, 2500u, 5000u, 9999u}) {
    RenderOptions options;
    options.markdown_budget = budget;
    const std::string md = render_markdown(report, options);
    INFO("budget " << budget);
    CHECK(md.size() <= budget);
    CHECK(md.find("Report truncated:") != std::string::npos);
    CHECK(md.find(" of 401 table rows shown; full report in the HTML or JSON report.") != std::string::npos);
    for (const std::string& line : lines_of(md)) {
      if (!line.empty() && line.front() == '|') CHECK(line.back() == '|');
      if (line.rfind("| C++ number", 0) == 0) CHECK(cell_count(line) == 3);
    }
    // The summary comes first; a cut <details> is still closed.
    CHECK(md.rfind(fmt::format("{}# Performance Report", kMarkdownReportMarker), 0) == 0);
    const auto opened = md.find("<details>");
    if (opened != std::string::npos) CHECK(md.find("</details>", opened) != std::string::npos);
  }
}

TEST_CASE("Markdown budget counts shown rows exactly", "[render][markdown][budget]") {
  const Report report = comparison_like(50);
  RenderOptions options;
  options.markdown_budget = 1200;
  const std::string md = render_markdown(report, options);
  std::size_t shown = 0;
  for (const std::string& line : lines_of(md)) {
    if (line.rfind("| C++ ", 0) == 0) ++shown;
  }
  CHECK(md.find(fmt::format("**Report truncated:** {} of 51 table rows shown", shown)) != std::string::npos);
  CHECK(shown > 1);
  CHECK(shown < 51);
}

TEST_CASE("Markdown budget drops headings whose whole section was cut", "[render][markdown][budget]") {
  Report report("R");
  report.add_heading(2, "Platform");
  report.add_heading(3, "Summary");
  report.add_paragraph("short");
  report.add_heading(2, "Big");
  report.add_paragraph(std::string(3000, 'x'));
  report.add_heading(2, "Tail");
  report.add_paragraph("end");
  const std::string md = render_markdown(report, with_budget(400));
  CHECK(md.size() <= 400);
  CHECK(md.substr(kMarkdownReportMarker.size()) ==
        "# R\n\n## Platform\n\n### Summary\n\nshort\n\n## Tail\n\nend\n\n"
        "> **Report truncated:** later sections omitted; full report in the HTML or JSON report.\n");
  // Unbudgeted output keeps every heading, even an empty trailing one.
  report.add_heading(2, "Empty");
  CHECK(render_markdown(report, with_budget(0)).find("## Empty") != std::string::npos);
}

TEST_CASE("Markdown budget too small for the note is an InputError", "[render][markdown][budget]") {
  RenderOptions options;
  options.markdown_budget = 20;
  CHECK_THROWS_AS(render_markdown(comparison_like(10), options), InputError);
  // An empty report within a budget the marker alone exceeds (fuzz_render): refused, never over budget.
  options.markdown_budget = 10;
  CHECK_THROWS_AS(render_markdown(Report{}, options), InputError);
  options.markdown_budget = kMarkdownReportMarker.size() + 1;
  CHECK(render_markdown(Report{}, options).size() <= options.markdown_budget);
  options.markdown_budget = 100000;
  CHECK_NOTHROW(render_markdown(comparison_like(10), options));
}

TEST_CASE("Markdown rendering is deterministic", "[render][markdown]") {
  const Report report = comparison_like(30);
  CHECK(render_markdown(report) == render_markdown(report));
  const Report copy = report;
  CHECK(render_markdown(copy) == render_markdown(report));
}

TEST_CASE("malformed tables and headings are InputErrors naming the culprit", "[render][markdown]") {
  Report report;
  Table& table = report.add_table({"a", "b"}, "results");
  CHECK_THROWS_WITH(table.add_row({"only one"}), "table 'results' row 1: 1 cells, expected 2 (one per column)");
  table.rows.push_back({"x"});
  CHECK_THROWS_WITH(render_markdown(report), "table 'results' row 1: 1 cells, expected 2 (one per column)");
  Report bad_heading;
  bad_heading.add_heading(7, "deep");
  CHECK_THROWS_AS(render_markdown(bad_heading), InputError);
  Report no_columns;
  no_columns.add_table(Table{});
  CHECK_THROWS_WITH(render_markdown(no_columns), "table: no columns");
  CHECK_THROWS_AS(format_from_name("pdf"), InputError);
  CHECK(format_from_name("md") == Format::markdown);
  CHECK(format_name(Format::csv) == "csv");
  CHECK_THROWS_AS(role_from_name("fastest"), InputError);
  CHECK(role_from_name("inconclusive") == CellRole::inconclusive);
}

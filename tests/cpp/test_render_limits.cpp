// Renderer limits against hostile layout: unique HTML ids, long names cut
// for display in Markdown and text, the Markdown budget with a huge name.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "benchreport/core/escape.hpp"
#include "benchreport/render/render.hpp"

using namespace benchreport;

namespace {

std::vector<std::string> table_ids(const std::string& html) {
  std::vector<std::string> ids;
  const std::string marker = "<table id=\"";
  for (auto at = html.find(marker); at != std::string::npos; at = html.find(marker, at + 1)) {
    const auto start = at + marker.size();
    ids.push_back(html.substr(start, html.find('"', start) - start));
  }
  return ids;
}

Report report_with_ids(const std::vector<std::string>& ids) {
  Report report("ids");
  for (const std::string& id : ids) report.add_table({"Name"}, "", id).add_row({id});
  return report;
}

// A comparison-like report: one huge name that sorts first, then a slower row.
Report long_name_report(std::size_t name_length) {
  Report report("Performance Report");
  Table& table = report.add_table({{"Benchmark"}, {"Change", Align::right}}, "Changes of at least 5%", "notable");
  table.add_row({Cell(std::string(name_length, 'a'), CellRole::code), Cell("+1.00% slower", CellRole::slower)});
  table.add_row({Cell("regressed()", CellRole::code), Cell("+60.03% slower", CellRole::slower)});
  return report;
}

}  // namespace

TEST_CASE("HTML table ids are unique and stable for hostile and duplicate ids", "[render][html]") {
  const std::vector<std::string> hostile = {"a|b", "a-b", "a b", "a-b", "a-b", "a-b-2", "x\"><script>"};
  const auto ids = table_ids(render_html(report_with_ids(hostile)));
  REQUIRE(ids.size() == hostile.size());
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  CHECK(ids[1] == "table-a-b");    // safe ids are kept as they are
  CHECK(ids[3] == "table-a-b-2");  // a repeat is numbered
  CHECK(ids[4] == "table-a-b-3");
  CHECK(ids[5] == "table-a-b-2-2");           // and never takes an id already given
  CHECK(ids[0].rfind("table-a-b-", 0) == 0);  // lossy: 8 hex digits of the id's hash follow
  CHECK(ids[0].size() == std::string("table-a-b-").size() + 8);
  CHECK(ids[0] != ids[2]);
  for (const std::string& id : ids)
    CHECK(id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
  // Stable: an id does not depend on the other tables of the report.
  CHECK(table_ids(render_html(report_with_ids({"a b"})))[0] == ids[2]);
  CHECK(table_ids(render_html(report_with_ids({std::string(5000, 'n')})))[0].size() == 6 + 64 + 9);
}

TEST_CASE("Markdown cuts very long cell text and keeps the regression rows in budget", "[render][markdown][budget]") {
  const Report report = long_name_report(70000);
  RenderOptions options;  // the default GitHub comment budget
  const std::string md = render_markdown(report, options);
  CHECK(md.size() <= options.markdown_budget);
  CHECK(md.find("regressed()") != std::string::npos);
  CHECK(md.find("+60.03% slower") != std::string::npos);
  CHECK(md.find("Report truncated") == std::string::npos);  // nothing had to be cut
  CHECK(md.find(std::string(99, 'a') + "\u2026") != std::string::npos);
  CHECK(md.find(std::string(100, 'a')) == std::string::npos);
  options.max_cell_width = 0;  // no cap: the name does not fit, the note says so
  CHECK(render_markdown(report, options).find("Report truncated") != std::string::npos);
  // JSON and CSV keep the whole name.
  CHECK(render_json(report).find(std::string(70000, 'a')) != std::string::npos);
  CHECK(render_csv(report).find(std::string(70000, 'a')) != std::string::npos);
}

TEST_CASE("text caps column width so a huge name does not widen every row", "[render][text]") {
  Report report = long_name_report(10000);
  Table& more = report.add_table({"Benchmark", "Change"}, "", "all");
  for (int i = 0; i < 200; ++i) more.add_row({std::string(10000, 'b'), "x"});
  const std::string text = render_text(report);
  CHECK(text.size() < 200 * 200);
  std::size_t longest = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    longest = std::max(longest, display_width(text.substr(start, end - start)));
    start = end + 1;
  }
  CHECK(longest <= 100 + 2 + 100);
  CHECK(text.find(std::string(99, 'b') + "\u2026") != std::string::npos);
  CHECK(text.find("regressed()") != std::string::npos);
}

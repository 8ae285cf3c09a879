#pragma once
// How benchreport's own reports say what they are: the renderers write these
// signatures and io/detect recognises them, so that a folder read can tell
// reports from benchmark results. One declaration per output format.
#include <string_view>

namespace benchreport {

// JSON reports: the "schema" member (the report model's kReportSchema) begins
// with kReportSchemaPrefix.
inline constexpr std::string_view kReportSchemaPrefix = "benchreport-report/";
inline constexpr std::string_view kReportSchema = "benchreport-report/1";
static_assert(kReportSchema.starts_with(kReportSchemaPrefix));

// The first line of every Markdown report: an HTML comment, invisible on
// GitHub and in notebooks.
inline constexpr std::string_view kMarkdownReportMarker = "<!-- benchreport report -->\n";

// HTML pages begin with kHtmlDoctype (detection ignores its case); pages and
// fragments wrap the report in an element of class kHtmlReportClass.
inline constexpr std::string_view kHtmlDoctype = "<!doctype html>";
inline constexpr std::string_view kHtmlReportClass = "benchreport";

// Text reports begin with the title underlined with kTextTitleRule to its display width.
inline constexpr char kTextTitleRule = '=';

// CSV reports: each table begins with a comment line, kCsvCommentPrefix and the table's label.
inline constexpr std::string_view kCsvCommentPrefix = "# ";

}  // namespace benchreport

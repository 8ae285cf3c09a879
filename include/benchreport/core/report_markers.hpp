#pragma once
// How benchreport's own reports say what they are, so that a folder read can
// tell them from benchmark results (io/detect) while the renderers write them.
#include <string_view>

namespace benchreport {

// The first line of every Markdown report: an HTML comment, invisible on
// GitHub and in notebooks.
inline constexpr std::string_view kMarkdownReportMarker = "<!-- benchreport report -->\n";

}  // namespace benchreport

#pragma once
// Renderers: one Report to GitHub-flavoured Markdown, standalone HTML (or a
// notebook fragment), aligned plain text, CSV and versioned JSON. Renderers
// never compute statistics; they escape every string for their target.
#include <cstddef>
#include <string>
#include <string_view>

#include "benchreport/report/report.hpp"

namespace benchreport {

enum class Format { markdown, html, text, csv, json };

std::string_view format_name(Format format);
// "markdown"/"md", "html", "text"/"txt", "csv", "json"; throws InputError otherwise.
Format format_from_name(std::string_view name);

struct RenderOptions {
  // Markdown size limit in UTF-8 bytes (never fewer than the characters a host
  // counts); 0 = unlimited. Default: a GitHub comment.
  std::size_t markdown_budget = 65536;
  // Where the truncation note sends readers for everything that was cut.
  std::string full_report_location = "the HTML or JSON report";
  bool color = false;      // text: ANSI colours (the CLI sets this on a TTY)
  bool sparklines = true;  // draw cells' samples (SVG in HTML, block characters elsewhere)
  int json_indent = 2;     // 0 = compact JSON
  std::string csv_table;   // CSV: only the table with this id, as a plain RFC 4180 file
  // Markdown and text: a table cell wider than this many display columns is
  // cut and ends with … (0 = no cap). The full text stays in JSON and CSV.
  std::size_t max_cell_width = 100;
  // JSON: long tables and payload arrays are written on this many threads
  // (0 = one per usable CPU); the bytes are the same for any count.
  unsigned threads = 0;
};

std::string render(const Report& report, Format format, const RenderOptions& options = {});

std::string render_markdown(const Report& report, const RenderOptions& options = {});
std::string render_html(const Report& report, const RenderOptions& options = {});
// No <html> wrapper: one <div class="benchreport"> with CSS scoped to it, for notebooks.
std::string render_html_fragment(const Report& report, const RenderOptions& options = {});
std::string render_text(const Report& report, const RenderOptions& options = {});
std::string render_csv(const Report& report, const RenderOptions& options = {});
std::string render_json(const Report& report, const RenderOptions& options = {});
// The same bytes as render(), handed to `sink` in pieces: JSON through a buffer
// of about JsonStream::kFlushBytes (a report of any size is written to a file
// without being held whole), the other formats as one piece.
void render_into(const Report& report, Format format, const RenderOptions& options, const JsonSink& sink);
void render_json_into(const Report& report, const RenderOptions& options, const JsonSink& sink);

}  // namespace benchreport

// GitHub-flavoured Markdown with a size budget. Blocks render in order; when
// the whole report does not fit, blocks are kept while they fit, a table that
// does not fit keeps the rows that do (never part of a row), a <details>
// keeps what fits inside it, and a truncation note (sized in advance) closes
// the output.
#include <fmt/format.h>

#include <limits>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/core/report_markers.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/report/verdict_text.hpp"
#include "benchreport/render/render.hpp"

namespace benchreport {
namespace {

constexpr std::string_view kBlockSeparator = "\n\n";
constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

std::string inline_spans(const Spans& spans) {
  std::string out;
  for (const Span& span : spans) {
    switch (span.kind) {
      case Span::Kind::text: out += escape_markdown(span.text); break;
      case Span::Kind::strong: {
        const std::string body = escape_markdown(span.text);
        if (!body.empty()) out += fmt::format("**{}**", body);
        break;
      }
      case Span::Kind::code: out += markdown_code_span(span.text, false); break;
      case Span::Kind::link:
        if (is_safe_url(span.url)) {
          out += fmt::format("[{}]({})", escape_markdown(span.text), encode_url(span.url));
        } else {
          out += fmt::format("{} ({})", escape_markdown(span.text), escape_markdown(span.url));
        }
        break;
    }
  }
  return out;
}

// A cell's text, cut to options.max_cell_width so that one very long name
// cannot take the budget from every other row.
std::string shown_text(std::string_view text, const RenderOptions& options) {
  return options.max_cell_width > 0 ? truncate_display(text, options.max_cell_width) : std::string(text);
}

// A coloured marker for a cell that is a verdict word ("slower", with the slower role): seen at a glance
// in a long table; the word stays beside it for screen readers and for text search.
std::string_view verdict_marker(const Cell& cell) {
  for (const Verdict v : {Verdict::faster, Verdict::slower, Verdict::inconclusive, Verdict::equivalent,
                          Verdict::unchanged, Verdict::added, Verdict::removed}) {
    if (cell.role != verdict_role(v) || cell.text != verdict_label(v)) continue;
    switch (v) {
      case Verdict::slower: return "\U0001F534";        // red circle
      case Verdict::faster: return "\U0001F7E2";        // green circle
      case Verdict::inconclusive: return "\U0001F7E1";  // yellow circle
      case Verdict::equivalent:
      case Verdict::unchanged: return "\u26AA";  // white circle
      case Verdict::added: return "\u2795";      // heavy plus sign
      case Verdict::removed: return "\u2796";    // heavy minus sign
    }
  }
  return {};
}

std::string cell_text(const Cell& cell, const RenderOptions& options) {
  const std::string text = shown_text(cell.text, options);
  std::string body = cell.role == CellRole::code ? markdown_code_span(text, true) : escape_markdown(text);
  if (cell.role == CellRole::best && !body.empty()) body = fmt::format("**{}**", body);
  if (const std::string_view marker = verdict_marker(cell); !marker.empty()) body = fmt::format("{} {}", marker, body);
  if (options.sparklines && !cell.samples.empty()) {
    const std::string spark = format_sparkline(cell.samples);
    body = body.empty() ? spark : fmt::format("{} {}", body, spark);
  }
  return body;
}

std::string_view align_marker(Align align) {
  switch (align) {
    case Align::right: return "---:";
    case Align::center: return ":---:";
    case Align::left: break;
  }
  return "---";
}

// A table split into the parts a budget may cut between.
struct TableParts {
  std::string head;               // caption, header and alignment rows
  std::vector<std::string> rows;  // one line each, no trailing newline
  std::string tail;               // footnote (with its leading blank line) or empty
};

TableParts table_parts(const Table& table, const RenderOptions& options) {
  table.validate();
  TableParts parts;
  if (!table.caption.empty()) {
    parts.head = fmt::format("**{}**\n\n", protect_markdown_line_start(escape_markdown(table.caption)));
  }
  std::string header = "|";
  std::string rule = "|";
  for (const Column& column : table.columns) {
    header += fmt::format(" {} |", escape_markdown(shown_text(column.title, options)));
    rule += fmt::format(" {} |", align_marker(column.align));
  }
  parts.head += header + "\n" + rule;
  for (const auto& row : table.rows) {
    std::string line = "|";
    for (const Cell& cell : row) line += fmt::format(" {} |", cell_text(cell, options));
    parts.rows.push_back(std::move(line));
  }
  if (!table.footnote.empty()) parts.tail = fmt::format("\n\n<sub>{}</sub>", escape_markdown(table.footnote));
  return parts;
}

struct Budget {
  std::size_t rows_shown = 0;
  std::size_t rows_total = 0;
};

std::size_t count_rows(const Blocks& blocks);

std::size_t count_rows(const Block& block) {
  if (const auto* table = std::get_if<Table>(&block.content)) return table->rows.size();
  if (const auto* details = std::get_if<Details>(&block.content)) return count_rows(details->blocks);
  return 0;
}

std::size_t count_rows(const Blocks& blocks) {
  std::size_t rows = 0;
  for (const Block& block : blocks.items()) rows += count_rows(block);
  return rows;
}

class MarkdownWriter {
 public:
  MarkdownWriter(const RenderOptions& options, bool cutting) : options_(options), cutting_(cutting) {}

  // Renders blocks into at most `limit` bytes; counts the table rows kept.
  // When cutting, a heading whose section lost every block is dropped too.
  std::string fit(const Blocks& blocks, std::size_t limit, std::size_t& rows_shown) const {
    std::string out;
    std::size_t size_before_heading = 0;
    int open_heading_level = 0;  // level of the last kept block if it is a heading, else 0
    for (const Block& block : blocks.items()) {
      const std::size_t separator = out.empty() ? 0 : kBlockSeparator.size();
      if (out.size() + separator >= limit) break;
      const std::string piece = fit_block(block, limit - out.size() - separator, rows_shown);
      if (piece.empty()) continue;
      const auto* heading = std::get_if<Heading>(&block.content);
      if (cutting_ && heading != nullptr && open_heading_level >= heading->level) out.resize(size_before_heading);
      const std::size_t before = out.size();
      if (!out.empty()) out += kBlockSeparator;
      out += piece;
      open_heading_level = heading != nullptr ? heading->level : 0;
      size_before_heading = before;
    }
    if (cutting_ && open_heading_level > 0) out.resize(size_before_heading);
    return out;
  }

  std::string heading(int level, std::string_view text) const {
    return fmt::format("{} {}", std::string(static_cast<std::size_t>(level), '#'),
                       protect_markdown_line_start(escape_markdown(text)));
  }

 private:
  // The block if it fits whole; else the part of it that fits (tables,
  // details); else "".
  std::string fit_block(const Block& block, std::size_t limit, std::size_t& rows_shown) const {
    if (const auto* table = std::get_if<Table>(&block.content)) return fit_table(*table, limit, rows_shown);
    if (const auto* details = std::get_if<Details>(&block.content)) return fit_details(*details, limit, rows_shown);
    std::string piece = std::visit([this](const auto& b) { return render(b); }, block.content);
    return piece.size() <= limit ? piece : std::string();
  }

  std::string fit_table(const Table& table, std::size_t limit, std::size_t& rows_shown) const {
    const TableParts parts = table_parts(table, options_);
    std::string out = parts.head;
    std::size_t kept = 0;
    for (const std::string& row : parts.rows) {
      if (out.size() + 1 + row.size() + parts.tail.size() > limit) break;
      out += '\n';
      out += row;
      ++kept;
    }
    if (kept == 0 && !parts.rows.empty()) return {};
    if (out.size() + parts.tail.size() > limit) return {};
    rows_shown += kept;
    return out + parts.tail;
  }

  std::string fit_details(const Details& details, std::size_t limit, std::size_t& rows_shown) const {
    const std::string open = fmt::format("<details{}>\n<summary>{}</summary>\n\n", details.open ? " open" : "",
                                         escape_html_in_markdown(details.summary));
    const std::string close = "\n\n</details>";
    if (open.size() + close.size() >= limit) return {};
    std::size_t inner_rows = 0;
    const std::string inner = fit(details.blocks, limit - open.size() - close.size(), inner_rows);
    if (inner.empty() && !details.blocks.empty()) return {};
    rows_shown += inner_rows;
    return open + inner + close;
  }

  std::string render(const Heading& h) const { return heading(h.level, h.text); }
  std::string render(const Paragraph& p) const { return protect_markdown_line_start(inline_spans(p.spans)); }
  std::string render(const Note& n) const {
    const char* label = n.kind == NoteKind::warning ? "**Warning:** " : "";
    return fmt::format("> {}{}", label, protect_markdown_line_start(inline_spans(n.spans)));
  }
  std::string render(const BulletList& l) const {
    std::string out;
    for (const Spans& item : l.items) {
      if (!out.empty()) out += '\n';
      out += fmt::format("- {}", protect_markdown_line_start(inline_spans(item)));
    }
    return out;
  }
  std::string render(const Footnote& f) const { return fmt::format("<sub>{}</sub>", escape_markdown(f.text)); }
  std::string render(const Table&) const { return {}; }    // fit_table handles tables
  std::string render(const Details&) const { return {}; }  // fit_details handles details
  std::string render(const Plot&) const { return {}; }     // drawn in HTML only; its numbers are in a table

  const RenderOptions& options_;
  bool cutting_;  // rendering under a budget that the whole report exceeds
};

std::string truncation_note(std::size_t shown, std::size_t total, std::string_view location) {
  if (total == 0) {
    return fmt::format("> **Report truncated:** later sections omitted; full report in {}.", escape_markdown(location));
  }
  return fmt::format("> **Report truncated:** {} of {} table rows shown; full report in {}.", shown, total,
                     escape_markdown(location));
}

std::string render_within(const Report& report, const MarkdownWriter& writer, std::size_t limit,
                          std::size_t& rows_shown) {
  std::string out;
  if (!report.title.empty()) {
    out = writer.heading(1, report.title);
    if (out.size() > limit) out.clear();
  }
  const std::size_t separator = out.empty() ? 0 : kBlockSeparator.size();
  if (out.size() + separator < limit) {
    const std::string body = writer.fit(report.blocks, limit - out.size() - separator, rows_shown);
    if (!body.empty()) out += (out.empty() ? "" : std::string(kBlockSeparator)) + body;
  }
  return out;
}

// The report without the marker, within `budget` bytes (0 = unlimited).
std::string markdown_within(const Report& report, const RenderOptions& options, std::size_t budget) {
  std::size_t rows_shown = 0;
  std::string full = render_within(report, MarkdownWriter(options, false), kUnlimited, rows_shown) + "\n";
  if (budget == 0 || full.size() <= budget) return full;

  // Reserve room for the note with its widest possible numbers.
  const std::size_t total = count_rows(report.blocks);
  const std::size_t reserve =
      truncation_note(total, total, options.full_report_location).size() + kBlockSeparator.size() + 1;
  if (reserve > budget) {
    throw InputError(fmt::format("markdown_budget {} is too small: the truncation note alone needs {} bytes",
                                 options.markdown_budget, reserve + kMarkdownReportMarker.size()));
  }
  rows_shown = 0;
  std::string out = render_within(report, MarkdownWriter(options, true), budget - reserve, rows_shown);
  if (!out.empty()) out += kBlockSeparator;
  out += truncation_note(rows_shown, total, options.full_report_location);
  out += '\n';
  return out;
}

}  // namespace

std::string render_markdown(const Report& report, const RenderOptions& options) {
  report.validate();
  const std::size_t budget = options.markdown_budget;
  const std::size_t marker = kMarkdownReportMarker.size();
  if (budget != 0 && budget <= marker) {
    throw InputError(
        fmt::format("markdown_budget {} is too small: the report marker alone needs {} bytes", budget, marker));
  }
  return std::string(kMarkdownReportMarker) + markdown_within(report, options, budget == 0 ? 0 : budget - marker);
}

}  // namespace benchreport

// Plain text for terminals and logs: headings underlined, tables in aligned
// columns (display width, so µ and – count as one column; a table wider than
// 160 columns as one record per row), details expanded
// under their summary. ANSI colour only when RenderOptions::color is set; all
// input is neutralised first, so no escape sequence from input reaches a terminal.
#include <fmt/format.h>

#include <algorithm>

#include "benchreport/core/escape.hpp"
#include "benchreport/core/report_markers.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/render/render.hpp"

namespace benchreport {
namespace {

constexpr std::string_view kColumnGap = "  ";
// Widest table drawn as a grid; a wider one is written as one record per row (records()).
constexpr std::size_t kMaxTableWidth = 160;
constexpr std::string_view kReset = "\x1b[0m";

std::string_view role_color(CellRole role) {
  switch (role) {
    case CellRole::faster: return "\x1b[32m";
    case CellRole::slower: return "\x1b[1;31m";
    case CellRole::inconclusive: return "\x1b[33m";
    case CellRole::equivalent: return "\x1b[36m";
    case CellRole::best: return "\x1b[1;32m";
    case CellRole::unchanged:
    case CellRole::worse:
    case CellRole::muted: return "\x1b[2m";
    case CellRole::none:
    case CellRole::code: break;
  }
  return {};
}

std::string inline_spans(const Spans& spans) {
  std::string out;
  for (const Span& span : spans) {
    out += neutralize_text(span.text);
    if (span.kind == Span::Kind::link && !span.url.empty()) out += fmt::format(" <{}>", neutralize_text(span.url));
  }
  return out;
}

std::string trim_right(std::string line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

// Pads `text` (of the given display width) to `width` columns.
std::string pad(const std::string& text, std::size_t text_width, std::size_t width, Align align) {
  const std::size_t fill = width > text_width ? width - text_width : 0;
  switch (align) {
    case Align::right: return std::string(fill, ' ') + text;
    case Align::center: return std::string(fill / 2, ' ') + text + std::string(fill - fill / 2, ' ');
    case Align::left: break;
  }
  return text + std::string(fill, ' ');
}

class TextWriter {
 public:
  explicit TextWriter(const RenderOptions& options) : options_(options) {}

  void blocks(const Blocks& list) {
    for (const Block& block : list.items()) std::visit([this](const auto& b) { write(b); }, block.content);
  }

  void heading(int level, std::string_view raw) {
    const std::string text = neutralize_text(raw);
    const char rule = level <= 1 ? kTextTitleRule : '-';
    separate();
    out_ += fmt::format("{}\n{}\n", styled(text, "\x1b[1m"),
                        std::string(std::max<std::size_t>(display_width(text), 1), rule));
  }

  std::string take() { return std::move(out_); }

 private:
  void separate() {
    if (!out_.empty()) out_ += '\n';
  }
  // Without colour nothing is bold: best cells carry a trailing "*" (cell_text)
  // and prose that points at bold says "marked *" instead.
  std::string without_bold(std::string text) const {
    if (options_.color) return text;
    for (std::size_t at = text.find(" in bold"); at != std::string::npos; at = text.find(" in bold", at)) {
      text.replace(at, 8, " marked *");
    }
    return text;
  }
  std::string styled(const std::string& text, std::string_view code) const {
    if (!options_.color || code.empty() || text.empty()) return text;
    return fmt::format("{}{}{}", code, text, kReset);
  }

  void write(const Heading& h) { heading(h.level, h.text); }
  void write(const Plot&) {}  // drawn in HTML only; its numbers are in a table
  void write(const Paragraph& p) {
    separate();
    out_ += without_bold(inline_spans(p.spans)) + "\n";
  }
  void write(const Note& n) {
    separate();
    const std::string label = n.kind == NoteKind::warning ? styled("Warning:", "\x1b[1;33m") + " " : "";
    out_ += fmt::format("> {}{}\n", label, inline_spans(n.spans));
  }
  void write(const BulletList& l) {
    separate();
    for (const Spans& item : l.items) out_ += fmt::format("  - {}\n", inline_spans(item));
  }
  void write(const Footnote& f) {
    separate();
    out_ += styled(without_bold(neutralize_text(f.text)), "\x1b[2m") + "\n";
  }
  void write(const Details& d) {
    heading(3, d.summary);
    blocks(d.blocks);
  }
  void write(const Table& t) {
    t.validate();
    separate();
    if (!t.caption.empty()) out_ += styled(neutralize_text(t.caption), "\x1b[1m") + "\n";
    std::vector<std::string> titles;
    for (const Column& column : t.columns) titles.push_back(shown(column.title));
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : t.rows) {
      std::vector<std::string> texts;
      for (const Cell& cell : row) texts.push_back(cell_text(cell));
      cells.push_back(std::move(texts));
    }
    std::vector<std::size_t> widths(t.columns.size());
    for (std::size_t c = 0; c < widths.size(); ++c) {
      widths[c] = display_width(titles[c]);
      for (const auto& row : cells) widths[c] = std::max(widths[c], display_width(row[c]));
    }
    std::size_t total = 0;
    for (const std::size_t w : widths) total += w + kColumnGap.size();
    if (t.records_when_wide && widths.size() > 1 && total - kColumnGap.size() > kMaxTableWidth) {
      records(titles, cells, t);
    } else {
      grid(titles, cells, widths, t);
    }
    if (!t.footnote.empty())
      out_ += fmt::format("\n{}\n", styled(without_bold(neutralize_text(t.footnote)), "\x1b[2m"));
  }

  void grid(const std::vector<std::string>& titles, const std::vector<std::vector<std::string>>& cells,
            const std::vector<std::size_t>& widths, const Table& t) {
    line(titles, widths, t.columns, nullptr);
    for (std::size_t c = 0; c < widths.size(); ++c) {
      if (c > 0) out_ += kColumnGap;
      out_.append(widths[c], '-');
    }
    out_ += '\n';
    for (std::size_t r = 0; r < cells.size(); ++r) line(cells[r], widths, t.columns, &t.rows[r]);
  }

  // A table too wide for a terminal (many processes, long lists): one record per row, its first
  // cell on a line of its own and every other cell below it as "title: value", titles aligned.
  void records(const std::vector<std::string>& titles, const std::vector<std::vector<std::string>>& cells,
               const Table& t) {
    std::size_t title_width = 0;
    for (std::size_t c = 1; c < titles.size(); ++c) title_width = std::max(title_width, display_width(titles[c]));
    for (std::size_t r = 0; r < cells.size(); ++r) {
      out_ += styled(cells[r][0], role_color(t.rows[r][0].role)) + "\n";
      for (std::size_t c = 1; c < titles.size(); ++c) {
        const std::string label = pad(titles[c] + ":", display_width(titles[c]) + 1, title_width + 1, Align::left);
        out_ += trim_right(fmt::format("  {} {}", label, styled(cells[r][c], role_color(t.rows[r][c].role)))) + "\n";
      }
    }
  }

  // Cut to options.max_cell_width: one very long name must not widen every row.
  std::string shown(std::string_view text) const {
    return options_.max_cell_width > 0 ? truncate_display(text, options_.max_cell_width) : neutralize_text(text);
  }

  std::string cell_text(const Cell& cell) const {
    std::string text = shown(cell.text);
    if (options_.sparklines && !cell.samples.empty()) {
      const std::string spark = format_sparkline(cell.samples);
      text = text.empty() ? spark : fmt::format("{} {}", text, spark);
    }
    if (!options_.color && cell.role == CellRole::best) text += " *";
    return text;
  }

  // One aligned row; colour wraps only the text so padding stays measurable.
  void line(const std::vector<std::string>& texts, const std::vector<std::size_t>& widths,
            const std::vector<Column>& columns, const std::vector<Cell>* row) {
    std::string text;
    for (std::size_t c = 0; c < texts.size(); ++c) {
      if (c > 0) text += kColumnGap;
      const std::size_t width = display_width(texts[c]);
      const std::string shown = styled(texts[c], row ? role_color((*row)[c].role) : "\x1b[1m");
      text += pad(shown, width, widths[c], columns[c].align);
    }
    out_ += trim_right(std::move(text)) + "\n";
  }

  const RenderOptions& options_;
  std::string out_;
};

}  // namespace

std::string render_text(const Report& report, const RenderOptions& options) {
  report.validate();
  TextWriter writer(options);
  if (!report.title.empty()) writer.heading(1, report.title);
  writer.blocks(report.blocks);
  return writer.take();
}

}  // namespace benchreport

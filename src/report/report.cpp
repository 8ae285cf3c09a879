#include "benchreport/report/report.hpp"

#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

template <typename T>
T& emplace(std::list<Block>& items, T value) {
  items.push_back(Block{std::move(value)});
  return std::get<T>(items.back().content);
}

void validate_blocks(const Blocks& blocks);

struct BlockValidator {
  void operator()(const Heading& h) const {
    if (h.level < 1 || h.level > 6) {
      throw InputError(fmt::format("heading '{}': level {} is outside 1..6", h.text, h.level));
    }
  }
  void operator()(const Table& t) const { t.validate(); }
  void operator()(const Details& d) const { validate_blocks(d.blocks); }
  void operator()(const Plot& p) const { p.validate(); }
  void operator()(const auto&) const {}
};

void validate_blocks(const Blocks& blocks) {
  for (const Block& block : blocks.items()) std::visit(BlockValidator{}, block.content);
}

void write_spans(JsonStream& out, const Spans& spans) {
  static constexpr std::string_view kKinds[] = {"text", "strong", "code", "link"};
  out.begin_array();
  for (const Span& span : spans) {
    out.begin_object();
    out.member("type", kKinds[static_cast<int>(span.kind)]);
    out.member("text", std::string_view(span.text));
    if (span.kind == Span::Kind::link) out.member("url", std::string_view(span.url));
    out.end_object();
  }
  out.end_array();
}

std::string_view tone_name(PlotTone tone) {
  switch (tone) {
    case PlotTone::worse: return "worse";
    case PlotTone::better: return "better";
    case PlotTone::neutral: break;
  }
  return "neutral";
}

void write_numbers(JsonStream& out, const std::vector<double>& values) {
  out.begin_array();
  for (const double v : values) out.value(v);
  out.end_array();
}

void write_cell(JsonStream& out, const Cell& cell) {
  out.begin_object();
  out.member("text", std::string_view(cell.text));
  if (cell.role != CellRole::none) out.member("role", role_name(cell.role));
  if (cell.value) out.member("value", *cell.value);
  if (!cell.samples.empty()) {
    out.key("samples");
    write_numbers(out, cell.samples);
  }
  if (!cell.figures.empty()) {
    out.key("figures");
    out.begin_object();
    for (const auto& [name, number] : cell.figures) out.member(name, number);
    out.end_object();
  }
  out.end_object();
}

void write_table(JsonStream& out, const Table& table) {
  out.begin_object();
  out.member("type", "table");
  if (!table.id.empty()) out.member("id", std::string_view(table.id));
  if (!table.caption.empty()) out.member("caption", std::string_view(table.caption));
  out.key("columns");
  out.begin_array();
  for (const Column& column : table.columns) {
    out.begin_object();
    out.member("title", std::string_view(column.title));
    out.member("align", align_name(column.align));
    out.end_object();
  }
  out.end_array();
  out.key("rows");
  out.begin_array();
  out.container_items(table.rows.size(), [&](JsonStream& part, std::size_t r) {
    part.begin_array();
    for (const Cell& cell : table.rows[r]) write_cell(part, cell);
    part.end_array();
  });
  out.end_array();
  if (!table.footnote.empty()) out.member("footnote", std::string_view(table.footnote));
  if (!table.records_when_wide) out.member("records_when_wide", false);  // written only when not the default
  out.end_object();
}

void write_blocks(JsonStream& out, const Blocks& blocks);

// Each block as one object, "type" first, members in a fixed order.
struct BlockWriter {
  JsonStream& out;
  void begin(std::string_view type) const {
    out.begin_object();
    out.member("type", type);
  }
  void operator()(const Heading& h) const {
    begin("heading");
    out.member("level", h.level);
    out.member("text", std::string_view(h.text));
    out.end_object();
  }
  void operator()(const Paragraph& p) const {
    begin("paragraph");
    out.key("spans");
    write_spans(out, p.spans);
    out.end_object();
  }
  void operator()(const Note& n) const {
    begin("note");
    out.member("kind", n.kind == NoteKind::warning ? "warning" : "note");
    out.key("spans");
    write_spans(out, n.spans);
    out.end_object();
  }
  void operator()(const BulletList& l) const {
    begin("list");
    out.key("items");
    out.begin_array();
    for (const Spans& item : l.items) write_spans(out, item);
    out.end_array();
    out.end_object();
  }
  void operator()(const Table& t) const { write_table(out, t); }
  void operator()(const Details& d) const {
    begin("details");
    out.member("summary", std::string_view(d.summary));
    out.member("open", d.open);
    out.key("blocks");
    write_blocks(out, d.blocks);
    out.end_object();
  }
  void operator()(const Footnote& f) const {
    begin("footnote");
    out.member("text", std::string_view(f.text));
    out.end_object();
  }
  void operator()(const Plot& p) const {
    begin("plot");
    out.member("title", std::string_view(p.title));
    out.member("x_label", std::string_view(p.x_label));
    out.member("y_label", std::string_view(p.y_label));
    out.member("log_x", p.log_x);
    out.member("log_y", p.log_y);
    out.member("x_unit", std::string_view(p.x_unit));
    out.member("y_unit", std::string_view(p.y_unit));
    if (!p.x_names.empty()) {
      out.key("x_names");
      out.begin_array();
      for (const std::string& name : p.x_names) out.value(std::string_view(name));
      out.end_array();
    }
    out.key("series");
    out.begin_array();
    for (const PlotSeries& s : p.series) {
      out.begin_object();
      out.member("name", std::string_view(s.name));
      out.member("line", s.line);
      out.member("tone", tone_name(s.tone));
      out.key("x");
      write_numbers(out, s.x);
      out.key("y");
      write_numbers(out, s.y);
      out.end_object();
    }
    out.end_array();
    out.key("markers");
    out.begin_array();
    for (const PlotMarker& m : p.markers) {
      out.begin_object();
      out.member("x", m.x);
      out.member("label", std::string_view(m.label));
      out.member("tone", tone_name(m.tone));
      out.end_object();
    }
    out.end_array();
    out.end_object();
  }
};

void write_blocks(JsonStream& out, const Blocks& blocks) {
  out.begin_array();
  for (const Block& block : blocks.items()) std::visit(BlockWriter{out}, block.content);
  out.end_array();
}

}  // namespace

Heading& Blocks::add_heading(int level, std::string text) { return emplace(items_, Heading{level, std::move(text)}); }

Paragraph& Blocks::add_paragraph(std::string text) {
  return emplace(items_, Paragraph{{Span::plain(std::move(text))}});
}

Paragraph& Blocks::add_paragraph(Spans spans) { return emplace(items_, Paragraph{std::move(spans)}); }

Note& Blocks::add_note(std::string text, NoteKind kind) {
  return emplace(items_, Note{kind, {Span::plain(std::move(text))}});
}

Note& Blocks::add_note(Spans spans, NoteKind kind) { return emplace(items_, Note{kind, std::move(spans)}); }

BulletList& Blocks::add_list(std::vector<Spans> items) { return emplace(items_, BulletList{std::move(items)}); }

BulletList& Blocks::add_list(const std::vector<std::string>& items) {
  BulletList list;
  for (const std::string& item : items) list.items.push_back({Span::plain(item)});
  return emplace(items_, std::move(list));
}

Table& Blocks::add_table(Table table) { return emplace(items_, std::move(table)); }

Table& Blocks::add_table(std::vector<Column> columns, std::string caption, std::string id) {
  return emplace(items_, Table(std::move(columns), std::move(caption), std::move(id)));
}

Details& Blocks::add_details(std::string summary, bool open) {
  Details details;
  details.summary = std::move(summary);
  details.open = open;
  return emplace(items_, std::move(details));
}

Footnote& Blocks::add_footnote(std::string text) { return emplace(items_, Footnote{std::move(text)}); }
Plot& Blocks::add_plot(Plot plot) { return emplace(items_, std::move(plot)); }

Block& Blocks::add(Block block) {
  items_.push_back(std::move(block));
  return items_.back();
}

void Report::validate() const { validate_blocks(blocks); }

void write_report_json(const Report& report, JsonStream& out) {
  report.validate();
  out.begin_object();
  out.member("schema", kReportSchema);
  out.member("title", std::string_view(report.title));
  out.key("blocks");
  write_blocks(out, report.blocks);
  out.member("data", report.data);
  out.end_object();
}

}  // namespace benchreport

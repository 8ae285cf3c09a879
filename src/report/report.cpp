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

Json spans_to_json(const Spans& spans) {
  static constexpr std::string_view kKinds[] = {"text", "strong", "code", "link"};
  Json out = Json::array();
  for (const Span& span : spans) {
    Json item = Json::object();
    item.set("type", kKinds[static_cast<int>(span.kind)]);
    item.set("text", span.text);
    if (span.kind == Span::Kind::link) item.set("url", span.url);
    out.push_back(std::move(item));
  }
  return out;
}

Json cell_to_json(const Cell& cell) {
  Json out = Json::object();
  out.set("text", cell.text);
  if (cell.role != CellRole::none) out.set("role", role_name(cell.role));
  if (cell.value) out.set("value", *cell.value);
  if (!cell.samples.empty()) out.set("samples", Json::Array(cell.samples.begin(), cell.samples.end()));
  return out;
}

Json table_to_json(const Table& table) {
  Json out = Json::object();
  out.set("type", "table");
  if (!table.id.empty()) out.set("id", table.id);
  if (!table.caption.empty()) out.set("caption", table.caption);
  Json columns = Json::array();
  for (const Column& column : table.columns) {
    columns.push_back(Json::Object{{"title", column.title}, {"align", align_name(column.align)}});
  }
  out.set("columns", std::move(columns));
  Json rows = Json::array();
  for (const auto& row : table.rows) {
    Json cells = Json::array();
    for (const Cell& cell : row) cells.push_back(cell_to_json(cell));
    rows.push_back(std::move(cells));
  }
  out.set("rows", std::move(rows));
  if (!table.footnote.empty()) out.set("footnote", table.footnote);
  return out;
}

Json blocks_to_json(const Blocks& blocks);

struct BlockToJson {
  Json operator()(const Heading& h) const {
    return Json::Object{{"type", "heading"}, {"level", h.level}, {"text", h.text}};
  }
  Json operator()(const Paragraph& p) const {
    return Json::Object{{"type", "paragraph"}, {"spans", spans_to_json(p.spans)}};
  }
  Json operator()(const Note& n) const {
    return Json::Object{{"type", "note"},
                        {"kind", n.kind == NoteKind::warning ? "warning" : "note"},
                        {"spans", spans_to_json(n.spans)}};
  }
  Json operator()(const BulletList& l) const {
    Json items = Json::array();
    for (const Spans& item : l.items) items.push_back(spans_to_json(item));
    return Json::Object{{"type", "list"}, {"items", std::move(items)}};
  }
  Json operator()(const Table& t) const { return table_to_json(t); }
  Json operator()(const Details& d) const {
    return Json::Object{{"type", "details"}, {"summary", d.summary}, {"open", d.open},
                        {"blocks", blocks_to_json(d.blocks)}};
  }
  Json operator()(const Footnote& f) const { return Json::Object{{"type", "footnote"}, {"text", f.text}}; }
  Json operator()(const Plot& p) const {
    Json series = Json::array();
    for (const PlotSeries& s : p.series) {
      Json x = Json::array(), y = Json::array();
      for (const double v : s.x) x.push_back(v);
      for (const double v : s.y) y.push_back(v);
      series.push_back(Json::Object{{"name", s.name}, {"line", s.line}, {"x", std::move(x)}, {"y", std::move(y)}});
    }
    return Json::Object{{"type", "plot"},       {"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label},
                        {"log_x", p.log_x},     {"log_y", p.log_y}, {"series", std::move(series)}};
  }
};

Json blocks_to_json(const Blocks& blocks) {
  Json out = Json::array();
  for (const Block& block : blocks.items()) out.push_back(std::visit(BlockToJson{}, block.content));
  return out;
}

}  // namespace

Heading& Blocks::add_heading(int level, std::string text) {
  return emplace(items_, Heading{level, std::move(text)});
}

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

Json report_to_json(const Report& report) {
  report.validate();
  return Json::Object{{"schema", kReportSchema},
                      {"title", report.title},
                      {"blocks", blocks_to_json(report.blocks)},
                      {"data", report.data}};
}

}  // namespace benchreport

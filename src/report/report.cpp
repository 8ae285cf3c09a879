#include "benchreport/report/report.hpp"

#include <fmt/format.h>

#include <cmath>

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

// Reading the tree back (read_report_json): each reader takes an object write_blocks wrote.
namespace benchreport {
namespace {

[[noreturn]] void malformed(std::string_view where, std::string_view what) {
  throw InputError(fmt::format("report JSON {}: {}", where, what));
}

const Json& member(const Json& object, std::string_view key, std::string_view where) {
  const Json* found = object.find(key);
  if (found == nullptr) malformed(where, fmt::format("no \"{}\"", key));
  return *found;
}

const Json::Array& array_member(const Json& object, std::string_view key, std::string_view where) {
  const Json& value = member(object, key, where);
  if (!value.is_array()) malformed(where, fmt::format("\"{}\" is not an array", key));
  return value.as_array();
}

// Optional members are absent when they hold the default (write_cell, write_table).
std::string text_member(const Json& object, std::string_view key, std::string_view where,
                        std::string_view fallback = {}) {
  const Json* found = object.find(key);
  if (found == nullptr) return std::string(fallback);
  if (!found->is_string()) malformed(where, fmt::format("\"{}\" is not a string", key));
  return found->as_string();
}

bool bool_member(const Json& object, std::string_view key, bool fallback, std::string_view where) {
  const Json* found = object.find(key);
  if (found == nullptr) return fallback;
  if (!found->is_bool()) malformed(where, fmt::format("\"{}\" is not true or false", key));
  return found->as_bool();
}

double number(const Json& value, std::string_view where) {
  if (value.is_double()) return value.as_double();
  if (value.is_integer()) return static_cast<double>(value.as_integer());
  if (value.is_null()) return std::nan("");  // how a non-finite number is written
  malformed(where, "a number was expected");
}

std::vector<double> numbers(const Json::Array& values, std::string_view where) {
  std::vector<double> out;
  out.reserve(values.size());
  for (const Json& v : values) out.push_back(number(v, where));
  return out;
}

Spans read_spans(const Json::Array& items, std::string_view where) {
  Spans spans;
  for (const Json& item : items) {
    const std::string kind = text_member(item, "type", where);
    std::string text = text_member(item, "text", where);
    if (kind == "text") {
      spans.push_back(Span::plain(std::move(text)));
    } else if (kind == "strong") {
      spans.push_back(Span::bold(std::move(text)));
    } else if (kind == "code") {
      spans.push_back(Span::code(std::move(text)));
    } else if (kind == "link") {
      spans.push_back(Span::link(std::move(text), text_member(item, "url", where)));
    } else {
      malformed(where, fmt::format("unknown span type '{}'", kind));
    }
  }
  return spans;
}

Cell read_cell(const Json& object, std::string_view where) {
  Cell cell(text_member(object, "text", where), role_from_name(text_member(object, "role", where, "none")));
  if (const Json* value = object.find("value")) cell.value = number(*value, where);
  if (object.find("samples") != nullptr) cell.samples = numbers(array_member(object, "samples", where), where);
  if (const Json* figures = object.find("figures")) {
    if (!figures->is_object()) malformed(where, "\"figures\" is not an object");
    for (const auto& [name, value] : figures->as_object()) cell.figures.emplace_back(name, number(value, where));
  }
  return cell;
}

Table read_table(const Json& object, std::string_view where) {
  std::vector<Column> columns;
  for (const Json& column : array_member(object, "columns", where)) {
    columns.emplace_back(text_member(column, "title", where),
                         align_from_name(text_member(column, "align", where, "left")));
  }
  Table table(std::move(columns), text_member(object, "caption", where), text_member(object, "id", where));
  for (const Json& row : array_member(object, "rows", where)) {
    if (!row.is_array()) malformed(where, "a row is not an array");
    std::vector<Cell> cells;
    for (const Json& cell : row.as_array()) cells.push_back(read_cell(cell, where));
    table.add_row(std::move(cells));
  }
  table.footnote = text_member(object, "footnote", where);
  table.records_when_wide = bool_member(object, "records_when_wide", true, where);
  return table;
}

PlotTone tone_from_name(std::string_view name, std::string_view where) {
  for (const PlotTone tone : {PlotTone::neutral, PlotTone::worse, PlotTone::better}) {
    if (tone_name(tone) == name) return tone;
  }
  malformed(where, fmt::format("unknown tone '{}'", name));
}

Plot read_plot(const Json& object, std::string_view where) {
  Plot plot;
  plot.title = text_member(object, "title", where);
  plot.x_label = text_member(object, "x_label", where);
  plot.y_label = text_member(object, "y_label", where);
  plot.log_x = bool_member(object, "log_x", true, where);
  plot.log_y = bool_member(object, "log_y", true, where);
  plot.x_unit = text_member(object, "x_unit", where);
  plot.y_unit = text_member(object, "y_unit", where);
  if (const Json* names = object.find("x_names"); names != nullptr && names->is_array()) {
    for (const Json& name : names->as_array()) plot.x_names.push_back(name.is_string() ? name.as_string() : "");
  }
  for (const Json& s : array_member(object, "series", where)) {
    plot.series.push_back({text_member(s, "name", where), numbers(array_member(s, "x", where), where),
                           numbers(array_member(s, "y", where), where), bool_member(s, "line", false, where),
                           tone_from_name(text_member(s, "tone", where, "neutral"), where)});
  }
  for (const Json& m : array_member(object, "markers", where)) {
    plot.markers.push_back({number(member(m, "x", where), where), text_member(m, "label", where),
                            tone_from_name(text_member(m, "tone", where, "neutral"), where)});
  }
  return plot;
}

void read_blocks(const Json::Array& items, Blocks& into, const std::string& where) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Json& b = items[i];
    const std::string at = fmt::format("{}[{}]", where, i);
    const std::string type = text_member(b, "type", at);
    if (type == "heading") {
      const Json& level = member(b, "level", at);
      if (!level.is_integer()) malformed(at, "\"level\" is not an integer");
      into.add_heading(static_cast<int>(level.as_integer()), text_member(b, "text", at));
    } else if (type == "paragraph") {
      into.add_paragraph(read_spans(array_member(b, "spans", at), at));
    } else if (type == "note") {
      const std::string kind = text_member(b, "kind", at, "note");
      if (kind != "note" && kind != "warning") malformed(at, fmt::format("unknown note kind '{}'", kind));
      into.add_note(read_spans(array_member(b, "spans", at), at),
                    kind == "warning" ? NoteKind::warning : NoteKind::note);
    } else if (type == "list") {
      std::vector<Spans> list;
      for (const Json& item : array_member(b, "items", at)) {
        if (!item.is_array()) malformed(at, "a list item is not an array of spans");
        list.push_back(read_spans(item.as_array(), at));
      }
      into.add_list(std::move(list));
    } else if (type == "table") {
      into.add_table(read_table(b, at));
    } else if (type == "details") {
      Details& details = into.add_details(text_member(b, "summary", at), bool_member(b, "open", false, at));
      read_blocks(array_member(b, "blocks", at), details.blocks, at + ".blocks");
    } else if (type == "footnote") {
      into.add_footnote(text_member(b, "text", at));
    } else if (type == "plot") {
      into.add_plot(read_plot(b, at));
    } else {
      malformed(at, fmt::format("unknown block type '{}'", type));
    }
  }
}

}  // namespace

Report read_report_json(const Json& tree) {
  if (!tree.is_object()) malformed("$", "not an object");
  Report report(text_member(tree, "title", "$"));
  read_blocks(array_member(tree, "blocks", "$"), report.blocks, "$.blocks");
  if (const Json* data = tree.find("data")) report.data = *data;
  return report;
}

}  // namespace benchreport

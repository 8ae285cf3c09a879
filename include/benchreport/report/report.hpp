#pragma once
// The report model shared by every renderer: a title, an ordered list of
// blocks (earlier blocks matter more: a size budget keeps them first) and a
// machine-readable JSON payload carried by the JSON renderer.
#include <list>
#include <string>
#include <variant>
#include <vector>

#include "benchreport/core/json_writer.hpp"
#include "benchreport/core/report_markers.hpp"  // kReportSchema
#include "benchreport/report/plot.hpp"
#include "benchreport/report/table.hpp"

namespace benchreport {

// A run of inline text. All text is untrusted: renderers escape it.
struct Span {
  enum class Kind { text, strong, code, link };
  Kind kind = Kind::text;
  std::string text;
  std::string url;  // links only; unsafe schemes render as plain text

  static Span plain(std::string text) { return {Kind::text, std::move(text), {}}; }
  static Span bold(std::string text) { return {Kind::strong, std::move(text), {}}; }
  static Span code(std::string text) { return {Kind::code, std::move(text), {}}; }
  static Span link(std::string text, std::string url) { return {Kind::link, std::move(text), std::move(url)}; }
};
using Spans = std::vector<Span>;

struct Heading {
  int level = 2;  // 1..6
  std::string text;
};

struct Paragraph {
  Spans spans;
};

enum class NoteKind { note, warning };

// A callout (Markdown blockquote, HTML aside).
struct Note {
  NoteKind kind = NoteKind::note;
  Spans spans;
};

struct BulletList {
  std::vector<Spans> items;
};

// Small print (e.g. what p50 means).
struct Footnote {
  std::string text;
};

struct Block;
struct Details;

// An ordered list of blocks with builders. Builders return references that
// stay valid while the list lives (std::list never moves its elements).
class Blocks {
 public:
  Heading& add_heading(int level, std::string text);
  Paragraph& add_paragraph(std::string text);
  Paragraph& add_paragraph(Spans spans);
  Note& add_note(std::string text, NoteKind kind = NoteKind::note);
  Note& add_note(Spans spans, NoteKind kind = NoteKind::note);
  BulletList& add_list(std::vector<Spans> items);
  BulletList& add_list(const std::vector<std::string>& items);
  Table& add_table(Table table);
  Table& add_table(std::vector<Column> columns, std::string caption = {}, std::string id = {});
  Details& add_details(std::string summary, bool open = false);
  Footnote& add_footnote(std::string text);
  Plot& add_plot(Plot plot);
  Block& add(Block block);

  std::list<Block>& items() { return items_; }
  const std::list<Block>& items() const { return items_; }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

 private:
  std::list<Block> items_;
};

// A collapsible section (<details>); text and CSV expand it.
struct Details {
  std::string summary;
  bool open = false;
  Blocks blocks;
};

struct Block {
  std::variant<Heading, Paragraph, Note, BulletList, Table, Details, Footnote, Plot> content;
};

struct Report {
  std::string title;  // rendered as the level-1 heading when non-empty
  Blocks blocks;
  Json data;  // machine-readable payload (statistics, methods, parameters, warnings, metadata)

  Report() = default;
  explicit Report(std::string title_) : title(std::move(title_)) {}

  // Convenience forwarding to blocks.
  Heading& add_heading(int level, std::string text) { return blocks.add_heading(level, std::move(text)); }
  Paragraph& add_paragraph(std::string text) { return blocks.add_paragraph(std::move(text)); }
  Paragraph& add_paragraph(Spans spans) { return blocks.add_paragraph(std::move(spans)); }
  Note& add_note(std::string text, NoteKind kind = NoteKind::note) { return blocks.add_note(std::move(text), kind); }
  Note& add_note(Spans spans, NoteKind kind = NoteKind::note) { return blocks.add_note(std::move(spans), kind); }
  BulletList& add_list(std::vector<Spans> items) { return blocks.add_list(std::move(items)); }
  BulletList& add_list(const std::vector<std::string>& items) { return blocks.add_list(items); }
  Table& add_table(Table table) { return blocks.add_table(std::move(table)); }
  Table& add_table(std::vector<Column> columns, std::string caption = {}, std::string id = {}) {
    return blocks.add_table(std::move(columns), std::move(caption), std::move(id));
  }
  Details& add_details(std::string summary, bool open = false) { return blocks.add_details(std::move(summary), open); }
  Footnote& add_footnote(std::string text) { return blocks.add_footnote(std::move(text)); }
  Plot& add_plot(Plot plot) { return blocks.add_plot(std::move(plot)); }

  // Throws InputError for malformed content (row cell counts, heading levels).
  void validate() const;
};

// The report as JSON: {"schema": kReportSchema, "title", "blocks", "data"},
// written straight into `out` (no tree of the blocks is built).
void write_report_json(const Report& report, JsonStream& out);

// The inverse of write_report_json for a parsed tree: title, every block and data. A
// non-finite number was written as null and comes back NaN (a cell value, a plot point).
// Throws InputError naming the block and member when the tree is not such a report.
Report read_report_json(const Json& tree);

}  // namespace benchreport

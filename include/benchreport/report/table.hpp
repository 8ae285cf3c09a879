#pragma once
// A report table: columns with alignment and rows of cells that carry their
// display text plus what renderers need to colour, sort or plot them.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchreport {

enum class Align { left, right, center };

// What a cell means, for verdict colouring (HTML classes, ANSI colours).
enum class CellRole {
  none,
  faster,        // improvement (also "better" for higher-is-better metrics)
  slower,        // regression (also "worse")
  inconclusive,  // large change without enough evidence
  equivalent,    // CI inside the equivalence band
  unchanged,     // below the threshold
  best,          // best value in its row or column (bold)
  worse,         // worse than the best (e.g. a losing engine)
  muted,         // secondary information
  code,          // identifiers/hashes shown verbatim (code span)
};

// Stable lower-case name ("faster", "none", ...) used by JSON and HTML classes.
std::string_view role_name(CellRole role);
// Inverse of role_name; throws InputError naming the unknown role.
CellRole role_from_name(std::string_view name);
std::string_view align_name(Align align);
Align align_from_name(std::string_view name);

struct Cell {
  std::string text;  // exactly what is shown (already formatted)
  CellRole role = CellRole::none;
  std::optional<double> value;  // the number behind the text, for JSON/CSV consumers
  std::vector<double> samples;  // optional: drawn as a sparkline (HTML SVG, text/Markdown blocks)
  // More numbers behind the text, each with a short name (an interval's "lower" and "upper", a
  // verdict's "p"): CSV gives each its own numeric column "<title> (<name>)"; JSON keeps them.
  std::vector<std::pair<std::string, double>> figures;

  Cell() = default;
  Cell(std::string text_, CellRole role_ = CellRole::none)  // NOLINT: implicit from text is the point
      : text(std::move(text_)), role(role_) {}
  Cell(const char* text_, CellRole role_ = CellRole::none) : text(text_), role(role_) {}  // NOLINT
  Cell(std::string text_, double value_, CellRole role_ = CellRole::none)
      : text(std::move(text_)), role(role_), value(value_) {}

  Cell& with_samples(std::vector<double> values) {
    samples = std::move(values);
    return *this;
  }
  Cell& with_figure(std::string name, double number) {
    figures.emplace_back(std::move(name), number);
    return *this;
  }
};

struct Column {
  std::string title;
  Align align = Align::left;
  Column() = default;
  Column(std::string title_, Align align_ = Align::left)  // NOLINT: implicit from a title
      : title(std::move(title_)), align(align_) {}
  Column(const char* title_, Align align_ = Align::left) : title(title_), align(align_) {}  // NOLINT
};

struct Table {
  std::string id;       // optional stable identifier (HTML id, CSV selection)
  std::string caption;  // optional; shown above the table
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  std::string footnote;  // optional; shown under the table
  // Text renderer: a table wider than 160 columns is written as one record per row, unless
  // this is false (a listing of many rows, such as the summary's, stays one line per row).
  bool records_when_wide = true;

  Table() = default;
  explicit Table(std::vector<Column> columns_, std::string caption_ = {}, std::string id_ = {})
      : id(std::move(id_)), caption(std::move(caption_)), columns(std::move(columns_)) {}

  // Appends a row; throws InputError when its cell count differs from the columns'.
  Table& add_row(std::vector<Cell> cells);

  // Throws InputError naming the table and row when a row has the wrong cell count.
  void validate() const;

  // A name for messages: the caption, else the id, else "table".
  std::string display_name() const;
};

}  // namespace benchreport

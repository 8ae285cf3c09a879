// CSV (RFC 4180, CRLF line ends): every table of the report in block order,
// details expanded, each preceded by a "# <caption>" comment line and
// separated by an empty line; other blocks are prose and are left out.
// RenderOptions::csv_table selects one table by id and writes it alone, with
// no comment line, as a plain RFC 4180 file.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/core/report_markers.hpp"
#include "benchreport/render/render.hpp"

namespace benchreport {
namespace {

constexpr std::string_view kLineEnd = "\r\n";

void collect_tables(const Blocks& blocks, std::vector<const Table*>& tables) {
  for (const Block& block : blocks.items()) {
    if (const auto* table = std::get_if<Table>(&block.content)) tables.push_back(table);
    if (const auto* details = std::get_if<Details>(&block.content)) collect_tables(details->blocks, tables);
  }
}

// Fields already escaped (text) or written by a program (numbers).
void write_fields(std::string& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += fields[i];
  }
  out += kLineEnd;
}

// Columns whose cells carry the number behind their text get a second column
// with that number as written by a program ("<title> (number)"), so that a
// spreadsheet reads numbers, not formatted text such as "-5.01% faster".
// Shortest text that reads back to the same double ("46", "0.0109"); empty when not finite.
std::string csv_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : std::string(); }

std::vector<bool> numeric_columns(const Table& table) {
  std::vector<bool> numeric(table.columns.size(), false);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) numeric[c] = numeric[c] || row[c].value.has_value();
  }
  return numeric;
}

// The names of a column's figures (Cell::figures), in order of first appearance.
std::vector<std::vector<std::string>> figure_columns(const Table& table) {
  std::vector<std::vector<std::string>> names(table.columns.size());
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      for (const auto& figure : row[c].figures) {
        if (std::find(names[c].begin(), names[c].end(), figure.first) == names[c].end())
          names[c].push_back(figure.first);
      }
    }
  }
  return names;
}

std::string figure_of(const Cell& cell, const std::string& name) {
  for (const auto& [own, number] : cell.figures) {
    if (own == name) return csv_number(number);
  }
  return {};
}

// Numbers are written as they are: the formula guard of escape_csv_field is for text cells, and a
// number such as "-0.0511" must stay a number in a spreadsheet.
void write_table(std::string& out, const Table& table) {
  table.validate();
  const std::vector<bool> numeric = numeric_columns(table);
  const std::vector<std::vector<std::string>> figures = figure_columns(table);
  std::vector<std::string> header;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    header.push_back(escape_csv_field(table.columns[c].title));
    if (numeric[c]) header.push_back(escape_csv_field(fmt::format("{} (number)", table.columns[c].title)));
    for (const auto& name : figures[c])
      header.push_back(escape_csv_field(fmt::format("{} ({})", table.columns[c].title, name)));
  }
  write_fields(out, header);
  std::vector<std::string> fields;
  for (const auto& row : table.rows) {
    fields.clear();
    for (std::size_t c = 0; c < row.size(); ++c) {
      fields.push_back(escape_csv_field(row[c].text));
      if (numeric[c]) fields.push_back(row[c].value ? csv_number(*row[c].value) : std::string());
      for (const auto& name : figures[c]) fields.push_back(figure_of(row[c], name));
    }
    write_fields(out, fields);
  }
}

std::string comment_label(const Table& table, std::size_t index) {
  if (!table.caption.empty()) return neutralize_text(table.caption);
  if (!table.id.empty()) return neutralize_text(table.id);
  return fmt::format("table {}", index + 1);
}

const Table& find_table(const std::vector<const Table*>& tables, const std::string& id) {
  std::vector<std::string> ids;
  for (const Table* table : tables) {
    if (table->id == id) return *table;
    if (!table->id.empty()) ids.push_back(table->id);
  }
  throw InputError(fmt::format("csv_table: no table with id '{}' (ids in this report: {})", id,
                               ids.empty() ? std::string("none") : fmt::format("{}", fmt::join(ids, ", "))));
}

}  // namespace

std::string render_csv(const Report& report, const RenderOptions& options) {
  report.validate();
  std::vector<const Table*> tables;
  collect_tables(report.blocks, tables);
  std::string out;
  if (!options.csv_table.empty()) {
    write_table(out, find_table(tables, options.csv_table));
    return out;
  }
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (i > 0) out += kLineEnd;
    out += fmt::format("{}{}{}", kCsvCommentPrefix, comment_label(*tables[i], i), kLineEnd);
    write_table(out, *tables[i]);
  }
  return out;
}

}  // namespace benchreport

// CSV (RFC 4180, CRLF line ends): every table of the report in block order,
// details expanded, each preceded by a "# <caption>" comment line and
// separated by an empty line; other blocks are prose and are left out.
// RenderOptions::csv_table selects one table by id and writes it alone, with
// no comment line, as a plain RFC 4180 file.
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
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

void write_row(std::string& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += escape_csv_field(fields[i]);
  }
  out += kLineEnd;
}

void write_table(std::string& out, const Table& table) {
  table.validate();
  std::vector<std::string> fields;
  for (const Column& column : table.columns) fields.push_back(column.title);
  write_row(out, fields);
  for (const auto& row : table.rows) {
    fields.clear();
    for (const Cell& cell : row) fields.push_back(cell.text);
    write_row(out, fields);
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
    out += fmt::format("# {}{}", comment_label(*tables[i], i), kLineEnd);
    write_table(out, *tables[i]);
  }
  return out;
}

}  // namespace benchreport

// The `matrix` preset: rows × columns of medians per table (e.g. algorithm ×
// engine per platform and input size), quick comparison and take-aways.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "benchreport/core/error.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/presets/matrix.hpp"
#include "benchreport/report/fields.hpp"
#include "benchreport/report/format.hpp"

namespace benchreport {
namespace {

struct MatrixTable {
  std::vector<std::string> key;  // values of MatrixReportOptions::tables
  Matrix matrix;
};

class MatrixBuilder {
 public:
  MatrixBuilder(const Dataset& dataset, const MatrixReportOptions& options) : opt_(options) {
    for (const auto& column : options.tables) {
      if (dataset.column(column) != nullptr) table_columns_.push_back(column);
    }
    for (const auto& group : dataset.group_by(table_columns_)) {
      const Dataset part = dataset.subset(group.sets);
      tables_.push_back({group.key, matrix(part, {options.rows, options.cols, options.stat})});
    }
    if (tables_.empty()) throw InputError("matrix report: the dataset has no sets");
    read_label_names(dataset);
    choose_format();
  }

  PresetResult build(bool with_columns) {
    Report report(opt_.title);
    report.add_paragraph(
        fmt::format("Values are the {} per cell ({}){}; best per row in bold.", stat_words(), unit_words(),
                    tables_.front().matrix.higher_is_better ? ", higher is better" : ", lower is better"));
    add_takeaways(report);
    add_quick(report);
    Json tables = Json::array();
    for (const auto& t : tables_) tables.push_back(add_full(report, t));
    report.data = Json::object();
    report.data.set("preset", "matrix");
    report.data.set("stat", std::string(matrix_stat_name(opt_.stat)));
    report.data.set("unit", display_unit_);
    report.data.set("tables", std::move(tables));
    report.data.set("cells", cells_json());
    return {std::move(report), with_columns ? cell_columns() : Columns{}};
  }

 private:
  std::string name(const std::string& value) const {
    if (const auto it = opt_.names.find(value); it != opt_.names.end()) return it->second;
    if (const auto it = data_names_.find(value); it != data_names_.end()) return it->second;
    return value;
  }

  // Display names the data brings (set metadata under label_names_key); the first set to name a value wins.
  void read_label_names(const Dataset& dataset) {
    if (opt_.label_names_key.empty()) return;
    for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
      const auto text = metadata::set_metadata_text(dataset, set, opt_.label_names_key);
      if (!text) continue;
      const Json names = metadata::parse_json(*text, fmt::format("metadata \"{}\"", opt_.label_names_key));
      if (!names.is_object()) continue;
      for (const auto& [column, display] : names.as_object()) {
        const std::string_view value = dataset.label(set, column);
        if (!value.empty() && display.is_string()) data_names_.emplace(std::string(value), display.as_string());
      }
    }
  }

  std::string key_name(const std::vector<std::string>& key) const {
    std::vector<std::string> parts;
    for (const auto& v : key) parts.push_back(name(v));
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  std::string stat_words() const {
    switch (opt_.stat) {
      case MatrixStat::median: return "median of run medians";
      case MatrixStat::pooled_median: return "median of all samples";
      case MatrixStat::mean: return "mean of all samples";
      case MatrixStat::min: return "smallest sample";
    }
    return "median";
  }

  std::string unit_words() const { return display_unit_; }

  // Times print as integer ms when every cell is at least 1 ms (the engine-matrix convention).
  void choose_format() {
    const Unit& unit = tables_.front().matrix.unit;
    bool all_ms = unit.dimension == Dimension::time;
    for (const auto& t : tables_) {
      for (const auto& v : t.matrix.values) {
        if (v && *v < 1e-3) all_ms = false;
      }
    }
    integer_ms_ = all_ms;
    display_unit_ = all_ms ? "ms" : unit.symbol;
  }

  // Cell text: the unit is in the header (integer ms, or fixed decimals in the set's unit; times scale otherwise).
  std::string value_text(double base_value, const Unit& unit) const {
    return format_value(base_value, unit, {.integer_ms = integer_ms_, .symbol = ValueStyle::Symbol::hidden});
  }

  // Value text with its unit, for sentences.
  std::string with_unit(double base_value, const Unit& unit) const {
    return format_value(base_value, unit, {.integer_ms = integer_ms_});
  }

  double display_value(double base_value, const Unit& unit) const {
    return integer_ms_ ? base_value * 1e3 : from_base(base_value, unit);
  }

  std::size_t ratio_base_col(const Matrix& m) const {
    if (opt_.ratio_baseline.empty()) return 0;
    if (const auto c = m.find_col(opt_.ratio_baseline)) return *c;
    throw InputError(fmt::format("matrix report: ratio baseline column \"{}\" does not exist", opt_.ratio_baseline));
  }

  // worst / best of a row (≥ 1), or nullopt with fewer than two values.
  static std::optional<double> row_gap(const Matrix& m, std::size_t r) {
    std::optional<double> lo;
    std::optional<double> hi;
    std::size_t n = 0;
    for (std::size_t c = 0; c < m.n_cols(); ++c) {
      if (const auto& v = m.at(r, c)) {
        lo = lo ? std::min(*lo, *v) : *v;
        hi = hi ? std::max(*hi, *v) : *v;
        ++n;
      }
    }
    if (n < 2 || !(*lo > 0)) return std::nullopt;
    return *hi / *lo;
  }

  // Each row's gap and best column, computed once (each is a pass over the row's columns):
  // the take-aways and quick rows then stay linear in the size of the matrix.
  struct RowStats {
    std::vector<std::optional<double>> gap;
    std::vector<std::optional<std::size_t>> best;
  };

  static RowStats row_stats(const Matrix& m) {
    RowStats out;
    out.gap.reserve(m.n_rows());
    out.best.reserve(m.n_rows());
    for (std::size_t r = 0; r < m.n_rows(); ++r) {
      out.gap.push_back(row_gap(m, r));
      out.best.push_back(m.best_col(r));
    }
    return out;
  }

  // Rows whose gap exists, by the column they are best on (rows ascending).
  static std::vector<std::vector<std::size_t>> rows_by_best_col(const Matrix& m, const RowStats& stats) {
    std::vector<std::vector<std::size_t>> out(m.n_cols());
    for (std::size_t r = 0; r < m.n_rows(); ++r) {
      if (stats.gap[r] && stats.best[r]) out[*stats.best[r]].push_back(r);
    }
    return out;
  }

  static std::unordered_map<std::string, std::size_t> key_index(const std::vector<std::vector<std::string>>& keys) {
    std::unordered_map<std::string, std::size_t> out;
    out.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) out.emplace(join_key(keys[i]), i);  // the first of equal keys
    return out;
  }

  void add_takeaways(Report& report) const {
    std::vector<Spans> items;
    for (const auto& t : tables_) {
      const Matrix& m = t.matrix;
      const RowStats stats = row_stats(m);
      std::optional<std::size_t> widest;
      for (std::size_t r = 0; r < m.n_rows(); ++r) {
        const auto& gap = stats.gap[r];
        if (gap && (!widest || *gap > *stats.gap[*widest])) widest = r;
      }
      const std::string where = t.key.empty() ? std::string() : key_name(t.key) + ": ";
      if (widest) {
        const auto best = *m.best_col(*widest);
        const auto worst = *m.worst_col(*widest);
        items.push_back(
            {Span::plain(where), Span::plain("largest gap "), Span::bold(join_key(m.row_keys[*widest])),
             Span::plain(fmt::format(" — {} {} vs {} {} ({:.1f}×).", name(join_key(m.col_keys[best])),
                                     with_unit(*m.at(*widest, best), m.unit), name(join_key(m.col_keys[worst])),
                                     with_unit(*m.at(*widest, worst), m.unit), *stats.gap[*widest]))});
      }
      std::vector<std::string> wins;
      const auto won = rows_by_best_col(m, stats);
      for (std::size_t c = 0; c < m.n_cols(); ++c) {
        std::vector<std::string> rows;
        for (const std::size_t r : won[c]) rows.push_back(join_key(m.row_keys[r]));
        const std::size_t shown = std::min<std::size_t>(rows.size(), 6);
        const std::string list =
            rows.empty() ? std::string()
                         : fmt::format(" ({}{})",
                                       fmt::join(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(shown), ", "),
                                       rows.size() > shown ? ", …" : "");
        wins.push_back(fmt::format("{} best on {}{}", name(join_key(m.col_keys[c])), rows.size(), list));
      }
      items.push_back({Span::plain(where), Span::plain(fmt::format("{}.", fmt::join(wins, "; ")))});
    }
    report.add_heading(2, "Key take-aways");
    report.add_list(std::move(items));
  }

  // Rows for the quick comparison of one group of tables: per column the row it wins by the
  // widest margin, then the widest gaps, up to quick_row_count (in matrix row order).
  std::vector<std::string> quick_rows(const std::vector<const MatrixTable*>& group) const {
    if (!opt_.quick_rows.empty()) return opt_.quick_rows;
    const MatrixTable& largest = *group.back();
    const Matrix& m = largest.matrix;
    std::vector<std::size_t> picked;
    const auto pick = [&](std::size_t r) {
      if (picked.size() < opt_.quick_row_count && std::find(picked.begin(), picked.end(), r) == picked.end())
        picked.push_back(r);
    };
    const RowStats stats = row_stats(m);
    for (const auto& rows : rows_by_best_col(m, stats)) {
      std::optional<std::size_t> best_row;  // the first row with the widest gap
      for (const std::size_t r : rows) {
        if (!best_row || *stats.gap[r] > *stats.gap[*best_row]) best_row = r;
      }
      if (best_row) pick(*best_row);
    }
    std::vector<std::size_t> by_gap;
    for (std::size_t r = 0; r < m.n_rows(); ++r) {
      if (stats.gap[r]) by_gap.push_back(r);
    }
    std::stable_sort(by_gap.begin(), by_gap.end(), [&](auto a, auto b) { return *stats.gap[a] > *stats.gap[b]; });
    for (const auto r : by_gap) pick(r);
    std::sort(picked.begin(), picked.end());
    std::vector<std::string> rows;
    for (const auto r : picked) rows.push_back(join_key(m.row_keys[r]));
    return rows;
  }

  void add_quick(Report& report) const {
    // Groups: tables sharing the first table label (e.g. platform); one quick table each.
    std::vector<std::pair<std::string, std::vector<const MatrixTable*>>> groups;
    for (const auto& t : tables_) {
      const std::string head = t.key.empty() ? std::string() : t.key.front();
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == head; });
      if (it == groups.end()) it = groups.insert(groups.end(), {head, {}});
      it->second.push_back(&t);
    }
    report.add_heading(2, "Quick comparison");
    for (const auto& [head, group] : groups) {
      if (!head.empty()) report.add_heading(3, name(head));
      std::vector<std::string> columns;
      std::unordered_set<std::string> seen;
      for (const auto* t : group) {
        for (const auto& key : t->matrix.col_keys) {
          if (std::string joined = join_key(key); seen.insert(joined).second) columns.push_back(std::move(joined));
        }
      }
      std::vector<std::unordered_map<std::string, std::size_t>> row_of, col_of;  // per table of the group
      for (const auto* t : group) {
        row_of.push_back(key_index(t->matrix.row_keys));
        col_of.push_back(key_index(t->matrix.col_keys));
      }
      std::vector<Column> titles{{"Scenario"}};
      for (const auto& c : columns) titles.emplace_back(name(c), Align::right);
      Table& table = report.add_table(std::move(titles), {}, fmt::format("quick-{}", head));
      for (const auto& row_name : quick_rows(group)) {
        for (std::size_t g = 0; g < group.size(); ++g) {
          const MatrixTable* t = group[g];
          const Matrix& m = t->matrix;
          const auto found_row = row_of[g].find(row_name);
          if (found_row == row_of[g].end()) continue;
          const std::optional<std::size_t> r = found_row->second;
          std::vector<std::string> rest(t->key.begin() + (t->key.empty() ? 0 : 1), t->key.end());
          std::vector<Cell> cells{rest.empty() ? row_name : fmt::format("{}, {}", row_name, key_name(rest))};
          const auto best = m.best_col(*r);
          for (const auto& c : columns) {
            const auto found_col = col_of[g].find(c);
            const auto col = found_col == col_of[g].end() ? std::optional<std::size_t>() : found_col->second;
            const auto& v = col ? m.at(*r, *col) : std::optional<double>();
            cells.push_back(v ? Cell(value_text(*v, m.unit), display_value(*v, m.unit),
                                     best == col ? CellRole::best : CellRole::none)
                              : Cell(std::string(kUnavailable), CellRole::muted));
          }
          table.add_row(std::move(cells));
        }
      }
    }
  }

  Json add_full(Report& report, const MatrixTable& t) const {
    const Matrix& m = t.matrix;
    report.add_heading(2, t.key.empty() ? std::string("Full matrix") : fmt::format("Full matrix: {}", key_name(t.key)));
    const std::size_t base_col = ratio_base_col(m);
    std::vector<Column> columns{{fmt::format("{}", fmt::join(m.row_columns, " / "))}};
    if (!columns.front().title.empty())
      columns.front().title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(columns.front().title[0])));
    for (const auto& key : m.col_keys) columns.emplace_back(name(join_key(key)), Align::right);
    for (std::size_t c = 0; c < m.n_cols(); ++c) {
      if (c != base_col)
        columns.emplace_back(
            fmt::format("{} ÷ {}", name(join_key(m.col_keys[c])), name(join_key(m.col_keys[base_col]))), Align::right);
    }
    Table& table = report.add_table(std::move(columns), {}, fmt::format("matrix-{}", join_key(t.key)));
    Json rows = Json::array();
    std::size_t incomplete = 0;
    for (std::size_t r = 0; r < m.n_rows(); ++r) {
      std::vector<Cell> cells{join_key(m.row_keys[r])};
      const auto best = m.best_col(r);
      const bool complete = row_gap(m, r).has_value();
      Json values = Json::array();
      for (std::size_t c = 0; c < m.n_cols(); ++c) {
        const auto& v = m.at(r, c);
        if (!complete) ++incomplete;
        cells.push_back(v ? Cell(value_text(*v, m.unit), display_value(*v, m.unit),
                                 complete && best == c ? CellRole::best : CellRole::none)
                          : Cell(std::string(kUnavailable), CellRole::muted));
        values.push_back(v ? Json(display_value(*v, m.unit)) : Json());
      }
      for (std::size_t c = 0; c < m.n_cols(); ++c) {
        if (c == base_col) continue;
        const auto& v = m.at(r, c);
        const auto& b = m.at(r, base_col);
        if (v && b && *b > 0) {
          cells.emplace_back(fmt::format("{:.2f}×", *v / *b), *v / *b);
        } else {
          cells.emplace_back(std::string(kUnavailable), CellRole::muted);
        }
      }
      table.add_row(std::move(cells));
      Json row = Json::object();  // set() moves; an initializer list would copy the values
      row.set("row", join_key(m.row_keys[r]));
      row.set("values", std::move(values));
      rows.push_back(std::move(row));
    }
    if (incomplete > 0) table.footnote = "— = not measured for that column (not part of the comparison).";
    Json cols = Json::array();
    for (const auto& key : m.col_keys) cols.push_back(join_key(key));
    Json key = Json::object();
    for (std::size_t k = 0; k < t.key.size(); ++k) key.set(table_columns_[k], t.key[k]);
    Json out = Json::object();
    out.set("key", std::move(key));
    out.set("columns", std::move(cols));
    out.set("rows", std::move(rows));
    return out;
  }

  // One cell of the long form (report.data's `cells` and the columnar view): the labels of its
  // table, row and column, the value in base units (null where not measured), the sets behind
  // it, and whether it is its row's best (Matrix::best_col, direction-aware).
  template <class Visitor>
  void cell_fields(Visitor& v, const MatrixTable& t, std::size_t r, std::size_t c) const {
    const Matrix& m = t.matrix;
    v.begin_group("labels");
    for (std::size_t k = 0; k < t.key.size(); ++k) v.field(table_columns_[k].c_str(), t.key[k]);
    for (std::size_t k = 0; k < m.row_columns.size(); ++k) v.field(m.row_columns[k].c_str(), m.row_keys[r][k]);
    for (std::size_t k = 0; k < m.col_columns.size(); ++k) v.field(m.col_columns[k].c_str(), m.col_keys[c][k]);
    v.end_group();
    const auto& value = m.at(r, c);
    v.optional("value", value.has_value(), value.value_or(std::nan("")));
    v.field("unit", std::string(base_symbol(m.unit.dimension)));
    v.field("sets", m.set_counts[r * m.n_cols() + c]);
    v.field("best", m.best_col(r) == c);
  }

  template <class Each>
  void each_cell(Each&& each) const {
    for (const auto& t : tables_) {
      for (std::size_t r = 0; r < t.matrix.n_rows(); ++r) {
        for (std::size_t c = 0; c < t.matrix.n_cols(); ++c) each(t, r, c);
      }
    }
  }

  Json cells_json() const {
    Json cells = Json::array();
    each_cell([&](const MatrixTable& t, std::size_t r, std::size_t c) {
      JsonFields fields;
      cell_fields(fields, t, r, c);
      cells.push_back(Json(fields.take()));
    });
    return cells;
  }

  Columns cell_columns() const {
    Columns columns;
    ColumnFields fields(columns);
    each_cell([&](const MatrixTable& t, std::size_t r, std::size_t c) {
      columns.begin_row();
      cell_fields(fields, t, r, c);
    });
    return columns;
  }

  const MatrixReportOptions& opt_;
  std::vector<std::string> table_columns_;
  std::vector<MatrixTable> tables_;
  std::map<std::string, std::string> data_names_;
  bool integer_ms_ = false;
  std::string display_unit_;
};

}  // namespace

PresetResult matrix_preset(const Dataset& dataset, const MatrixReportOptions& options, bool with_columns) {
  return MatrixBuilder(dataset, options).build(with_columns);
}

Report matrix_report(const Dataset& dataset, const MatrixReportOptions& options) {
  return matrix_preset(dataset, options, false).report;
}

}  // namespace benchreport

#pragma once
// Rows × columns of one statistic over a Dataset (benchstat's -row/-col idea):
// e.g. algorithm × engine medians for one platform and input size.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/best.hpp"
#include "benchreport/data/dataset.hpp"

namespace benchreport {

enum class MatrixStat {
  median,         // median of the per-set medians (one set = one run: "median of run medians")
  pooled_median,  // median of all samples of the cell pooled
  mean,           // mean of all samples of the cell
  min,            // smallest sample of the cell
};

// "median", "pooled_median", "mean", "min"; parse throws InputError listing them.
std::string_view matrix_stat_name(MatrixStat stat);
MatrixStat parse_matrix_stat(std::string_view name);

struct MatrixOptions {
  std::vector<std::string> rows;  // label columns forming the row key (at least one)
  std::vector<std::string> cols;  // label columns forming the column key (at least one)
  MatrixStat stat = MatrixStat::median;
};

struct Matrix {
  std::vector<std::string> row_columns;
  std::vector<std::string> col_columns;
  std::vector<std::vector<std::string>> row_keys;  // first-appearance order
  std::vector<std::vector<std::string>> col_keys;  // first-appearance order
  std::vector<std::optional<double>> values;       // row-major, base units; empty = no data
  std::vector<std::size_t> set_counts;             // sets behind each cell (row-major)
  Unit unit;                                       // shared by every set
  bool higher_is_better = false;
  MatrixStat stat = MatrixStat::median;

  std::size_t n_rows() const noexcept { return row_keys.size(); }
  std::size_t n_cols() const noexcept { return col_keys.size(); }
  const std::optional<double>& at(std::size_t row, std::size_t col) const { return values.at(row * n_cols() + col); }
  Direction direction() const noexcept;
  // The cells of a row; throws std::out_of_range past the last row.
  std::span<const std::optional<double>> row(std::size_t r) const;
  // The column holding the best (worst) value of a row, the first of equals (best_index of
  // data/direction.hpp); nullopt when the row is empty.
  std::optional<std::size_t> best_col(std::size_t r) const;
  std::optional<std::size_t> worst_col(std::size_t r) const;
  // Index of a row/column by its key joined with " / " (e.g. "SHA-256"); nullopt when absent.
  std::optional<std::size_t> find_row(std::string_view joined_key) const;
  std::optional<std::size_t> find_col(std::string_view joined_key) const;
};

// Builds the matrix. Sets lacking one of the row or column labels belong to
// no cell (filter the dataset first to choose, e.g., a platform and size).
// Throws InputError when rows/cols are empty, a column does not exist, no
// set has all the labels, or the sets mix units.
Matrix matrix(const Dataset& dataset, const MatrixOptions& options);

}  // namespace benchreport

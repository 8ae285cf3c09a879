#include "benchreport/compare/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <span>
#include <stdexcept>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

constexpr std::pair<MatrixStat, std::string_view> kStatNames[] = {
    {MatrixStat::median, "median"},
    {MatrixStat::pooled_median, "pooled_median"},
    {MatrixStat::mean, "mean"},
    {MatrixStat::min, "min"},
};

void require_columns(const Dataset& dataset, const std::vector<std::string>& names, std::string_view role) {
  if (names.empty()) throw InputError(fmt::format("matrix: `{}` needs at least one label column", role));
  for (const auto& name : names) {
    if (dataset.column(name) == nullptr) {
      throw InputError(fmt::format("matrix: {} column \"{}\" is not a label of the dataset (labels: {})", role, name,
                                   fmt::join(dataset.columns(), ", ")));
    }
  }
}

bool has_all(const Dataset& dataset, std::size_t set, const std::vector<std::string>& names) {
  return std::all_of(names.begin(), names.end(), [&](const auto& n) { return dataset.has_label(set, n); });
}

std::vector<std::string> key_of(const Dataset& dataset, std::size_t set, const std::vector<std::string>& names) {
  std::vector<std::string> key;
  key.reserve(names.size());
  for (const auto& name : names) key.emplace_back(dataset.label(set, name));
  return key;
}

// Position of `key` in `keys`, appending it when new (first-appearance order).
std::size_t intern(std::vector<std::vector<std::string>>& keys, std::map<std::vector<std::string>, std::size_t>& index,
                   std::vector<std::string> key) {
  const auto [it, inserted] = index.emplace(key, keys.size());
  if (inserted) keys.push_back(std::move(key));
  return it->second;
}

double cell_statistic(const Dataset& dataset, const std::vector<std::size_t>& sets, MatrixStat stat) {
  std::vector<double> pooled;
  for (const auto set : sets) dataset.append_base_samples(set, pooled);
  switch (stat) {
    case MatrixStat::median: {
      std::vector<double> medians;
      medians.reserve(sets.size());
      for (const auto set : sets) medians.push_back(median(dataset.base_samples(set)));
      return median_inplace(medians);
    }
    case MatrixStat::pooled_median: return median_inplace(pooled);
    case MatrixStat::mean:
      return std::accumulate(pooled.begin(), pooled.end(), 0.0) / static_cast<double>(pooled.size());
    case MatrixStat::min: return *std::min_element(pooled.begin(), pooled.end());
  }
  return 0.0;
}

std::optional<std::size_t> find_key(const std::vector<std::vector<std::string>>& keys, std::string_view joined) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (join_key(keys[i]) == joined) return i;
  }
  return std::nullopt;
}

}  // namespace

std::string_view matrix_stat_name(MatrixStat stat) {
  for (const auto& [value, name] : kStatNames) {
    if (value == stat) return name;
  }
  return "median";
}

MatrixStat parse_matrix_stat(std::string_view name) {
  for (const auto& [value, known] : kStatNames) {
    if (known == name) return value;
  }
  throw InputError(fmt::format("matrix: unknown stat \"{}\" (expected median, pooled_median, mean or min)", name));
}

std::span<const std::optional<double>> Matrix::row(std::size_t r) const {
  if (r >= n_rows()) throw std::out_of_range(fmt::format("matrix: row {} of {}", r, n_rows()));
  return std::span<const std::optional<double>>(values).subspan(r * n_cols(), n_cols());
}

Direction Matrix::direction() const noexcept {
  return higher_is_better ? Direction::higher_is_better : Direction::lower_is_better;
}

std::optional<std::size_t> Matrix::best_col(std::size_t r) const { return best_index(row(r), direction()); }
std::optional<std::size_t> Matrix::worst_col(std::size_t r) const { return best_index(row(r), opposite(direction())); }

std::optional<std::size_t> Matrix::find_row(std::string_view joined_key) const {
  return find_key(row_keys, joined_key);
}
std::optional<std::size_t> Matrix::find_col(std::string_view joined_key) const {
  return find_key(col_keys, joined_key);
}

Matrix matrix(const Dataset& dataset, const MatrixOptions& options) {
  require_columns(dataset, options.rows, "rows");
  require_columns(dataset, options.cols, "cols");
  Matrix out;
  out.row_columns = options.rows;
  out.col_columns = options.cols;
  out.stat = options.stat;
  std::map<std::vector<std::string>, std::size_t> row_index;
  std::map<std::vector<std::string>, std::size_t> col_index;
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> cells;
  std::optional<std::size_t> first_set;
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    if (!has_all(dataset, set, options.rows) || !has_all(dataset, set, options.cols)) continue;
    if (!first_set) {
      first_set = set;
    } else if (!(dataset.unit(set) == dataset.unit(*first_set))) {
      throw InputError(
          fmt::format("matrix: sets mix units (\"{}\" for {} vs \"{}\" for {}); filter to one metric first",
                      dataset.unit(*first_set).symbol, format_labels(dataset.labels(*first_set)),
                      dataset.unit(set).symbol, format_labels(dataset.labels(set))));
    }
    const auto r = intern(out.row_keys, row_index, key_of(dataset, set, options.rows));
    const auto c = intern(out.col_keys, col_index, key_of(dataset, set, options.cols));
    cells[{r, c}].push_back(set);
  }
  if (!first_set) {
    throw InputError(fmt::format("matrix: no set has all of the labels {}, {}", fmt::join(options.rows, ", "),
                                 fmt::join(options.cols, ", ")));
  }
  out.unit = dataset.unit(*first_set);
  out.higher_is_better = dataset.direction(*first_set) == Direction::higher_is_better;
  out.values.assign(out.n_rows() * out.n_cols(), std::nullopt);
  out.set_counts.assign(out.n_rows() * out.n_cols(), 0);
  for (const auto& [rc, sets] : cells) {
    const auto index = rc.first * out.n_cols() + rc.second;
    out.values[index] = cell_statistic(dataset, sets, options.stat);
    out.set_counts[index] = sets.size();
  }
  return out;
}

}  // namespace benchreport

// Matrix of one statistic over a Dataset: hand-checked cells, brute-force stats, errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/data/units.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

std::size_t add(Dataset& ds, Labels labels, std::vector<double> values, const char* unit) {
  return ds.add_set(labels, values, parse_unit(unit));
}

// Two engines × two algorithms, two runs per cell (ms).
Dataset engine_dataset() {
  Dataset ds;
  const auto cell = [&](const char* algorithm, const char* engine, std::vector<double> run1, std::vector<double> run2,
                        std::vector<double> run3) {
    add(ds, {{"algorithm", algorithm}, {"engine", engine}, {"run", "1"}}, std::move(run1), "ms");
    add(ds, {{"algorithm", algorithm}, {"engine", engine}, {"run", "2"}}, std::move(run2), "ms");
    add(ds, {{"algorithm", algorithm}, {"engine", engine}, {"run", "3"}}, std::move(run3), "ms");
  };
  cell("SHA-256", "native", {220, 221, 219}, {218, 230, 225}, {222, 224, 223});  // run medians 220, 225, 223
  cell("SHA-256", "zig", {12818, 12800, 12900}, {12700, 12750, 12760}, {12810, 12820, 12830});
  cell("BLAKE3", "native", {298, 299, 297}, {300, 301, 302}, {296, 295, 294});
  cell("BLAKE3", "zig", {555, 556, 554}, {550, 551, 552}, {560, 561, 562});
  return ds;
}

}  // namespace

TEST_CASE("matrix: median of run medians per cell, first-appearance order", "[presets][matrix]") {
  const Dataset ds = engine_dataset();
  const Matrix m = matrix(ds, {{"algorithm"}, {"engine"}, MatrixStat::median});
  REQUIRE(m.n_rows() == 2);
  REQUIRE(m.n_cols() == 2);
  CHECK(join_key(m.row_keys[0]) == "SHA-256");
  CHECK(join_key(m.col_keys[1]) == "zig");
  // Run medians 220, 225, 223 ms -> 223 ms (values are stored in seconds).
  CHECK(*m.at(0, 0) == Approx(0.223).epsilon(1e-12));
  // zig SHA-256 run medians 12818, 12750, 12820 -> 12818.
  CHECK(*m.at(0, 1) == Approx(12.818).epsilon(1e-12));
  CHECK(m.best_col(0) == 0u);
  CHECK(m.set_counts[0] == 3);
  CHECK(m.find_row("BLAKE3") == 1u);
  CHECK_FALSE(m.find_col("rust").has_value());
}

TEST_CASE("matrix: pooled median, mean and min against brute force", "[presets][matrix]") {
  const Dataset ds = engine_dataset();
  const std::vector<double> pooled{220, 221, 219, 218, 230, 225, 222, 224, 223};
  std::vector<double> sorted = pooled;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (const double v : pooled) sum += v;
  CHECK(*matrix(ds, {{"algorithm"}, {"engine"}, MatrixStat::pooled_median}).at(0, 0) == Approx(sorted[4] / 1e3));
  CHECK(*matrix(ds, {{"algorithm"}, {"engine"}, MatrixStat::mean}).at(0, 0) == Approx(sum / 9 / 1e3));
  CHECK(*matrix(ds, {{"algorithm"}, {"engine"}, MatrixStat::min}).at(0, 0) == Approx(0.218));
  CHECK(parse_matrix_stat("pooled_median") == MatrixStat::pooled_median);
  CHECK_THROWS_WITH(parse_matrix_stat("p99"), Contains("unknown stat \"p99\""));
}

TEST_CASE("matrix: missing cells, higher-is-better best and errors", "[presets][matrix]") {
  Dataset ds;
  add(ds, {{"runner", "a"}, {"metric", "read"}}, {10, 12}, "MiB/s");
  add(ds, {{"runner", "b"}, {"metric", "read"}}, {20, 22}, "MiB/s");
  add(ds, {{"runner", "a"}, {"metric", "write"}}, {5}, "MiB/s");
  const Matrix m = matrix(ds, {{"metric"}, {"runner"}, MatrixStat::median});
  CHECK(m.higher_is_better);
  CHECK(m.best_col(0) == 1u);  // 21 MiB/s beats 11
  CHECK_FALSE(m.at(1, 1).has_value());
  CHECK(m.best_col(1) == 0u);
  CHECK_THROWS_WITH(matrix(ds, {{"algorithm"}, {"runner"}, MatrixStat::median}), Contains("rows column \"algorithm\""));
  CHECK_THROWS_WITH(matrix(ds, {{}, {"runner"}, MatrixStat::median}), Contains("at least one label column"));
  add(ds, {{"runner", "a"}, {"metric", "latency"}}, {5}, "ms");
  CHECK_THROWS_WITH(matrix(ds, {{"metric"}, {"runner"}, MatrixStat::median}), Contains("mix units"));
}

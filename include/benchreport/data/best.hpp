#pragma once
// The best of several values under a Direction: one rule for every "best"
// (bold cells of the runners and matrix reports, runner rankings).
#include <cstddef>
#include <optional>
#include <span>

#include "benchreport/data/direction.hpp"

namespace benchreport {

constexpr Direction opposite(Direction direction) noexcept {
  return direction == Direction::higher_is_better ? Direction::lower_is_better : Direction::higher_is_better;
}

// True when `a` is strictly better than `b`.
constexpr bool is_better(double a, double b, Direction direction) noexcept {
  return direction == Direction::higher_is_better ? a > b : a < b;
}

// Index of the best present value (the first of equals); nullopt when none is present.
// The worst is best_index(values, opposite(direction)).
inline std::optional<std::size_t> best_index(std::span<const std::optional<double>> values, Direction direction) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] && (!best || is_better(*values[i], *values[*best], direction))) best = i;
  }
  return best;
}

}  // namespace benchreport

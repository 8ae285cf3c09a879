#pragma once
// The CSR layout of many sample sets: one contiguous `values` array and
// `offsets` (n_sets + 1 entries, starting at 0, never decreasing, ending at
// values.size()). Every grouped kernel validates its input here, once.
#include <cstddef>
#include <cstdint>
#include <span>

namespace benchreport {

// Throws InputError naming the first offset that breaks the layout.
void check_offsets(std::span<const std::int64_t> offsets, std::size_t n_values);

// Validates the layout and returns the number of sets.
inline std::size_t csr_cases(std::span<const double> values, std::span<const std::int64_t> offsets) {
  check_offsets(offsets, values.size());
  return offsets.size() - 1;
}

// Set i of a validated layout.
inline std::span<const double> csr_case(std::span<const double> values, std::span<const std::int64_t> offsets,
                                        std::size_t i) {
  const auto begin = static_cast<std::size_t>(offsets[i]);
  return values.subspan(begin, static_cast<std::size_t>(offsets[i + 1]) - begin);
}

}  // namespace benchreport

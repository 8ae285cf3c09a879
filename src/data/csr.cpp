#include "benchreport/data/csr.hpp"

#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {

void check_offsets(std::span<const std::int64_t> offsets, std::size_t n_values) {
  if (offsets.empty()) throw InputError("offsets is empty: expected n_sets + 1 entries starting at 0");
  if (offsets.front() != 0) throw InputError(fmt::format("offsets[0] is {}: expected 0", offsets.front()));
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      throw InputError(fmt::format("offsets[{}] = {} < offsets[{}] = {}: offsets must not decrease", i, offsets[i],
                                   i - 1, offsets[i - 1]));
    }
  }
  if (static_cast<std::size_t>(offsets.back()) != n_values) {
    throw InputError(fmt::format("offsets end at {} but there are {} values: expected offsets[-1] == len(values)",
                                 offsets.back(), n_values));
  }
}

}  // namespace benchreport

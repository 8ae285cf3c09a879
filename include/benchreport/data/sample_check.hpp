#pragma once
// Loading a sample set into a working copy while enforcing the NaN policy.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/core/error.hpp"

namespace benchreport {

// Names a sample set in error messages ("sample set", "set 17"); formatted only on error.
struct SetLabel {
  std::string_view name = "sample set";
  std::size_t index = 0;
  bool indexed = false;

  static SetLabel numbered(std::size_t i) { return {"set", i, true}; }
  std::string text() const;
};

// Copies the finite values of `x` into `work` (in order). NanPolicy::raise throws
// InputError naming the set and the index of the first NaN/±inf;
// NanPolicy::omit drops them. An empty result throws too. Returns how many were dropped.
std::size_t load_finite(std::span<const double> x, NanPolicy policy, const SetLabel& set_label,
                        std::vector<double>& work);

}  // namespace benchreport

#include "benchreport/data/sample_check.hpp"

#include <cmath>
#include <fmt/format.h>

namespace benchreport {
namespace {

[[noreturn]] void throw_non_finite(const SetLabel& set_label, std::size_t index, double value) {
  throw InputError(
      fmt::format("{}: value at index {} is {} (expected a finite number; "
                  "nan_policy=\"omit\" drops NaN/±inf and counts them)",
                  set_label.text(), index, value));
}

}  // namespace

std::string SetLabel::text() const { return indexed ? fmt::format("{} {}", name, index) : std::string(name); }

std::size_t load_finite(std::span<const double> x, NanPolicy policy, const SetLabel& set_label,
                        std::vector<double>& work) {
  work.resize(x.size());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    if (!std::isfinite(v)) {
      if (policy == NanPolicy::raise) throw_non_finite(set_label, i, v);
      continue;
    }
    work[kept++] = v;
  }
  work.resize(kept);
  const std::size_t dropped = x.size() - kept;
  if (kept == 0) {
    if (dropped == 0) throw InputError(fmt::format("{} is empty: expected at least one sample", set_label.text()));
    throw InputError(
        fmt::format("{} has no finite values: all {} samples were NaN/±inf and omitted", set_label.text(), dropped));
  }
  return dropped;
}

}  // namespace benchreport

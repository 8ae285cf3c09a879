#pragma once
// A run whose metadata states a value for each side of a comparison (e.g. the
// suite hash each side was built from). Readers name the keys of their format;
// the comparison refuses when a run declares two different values.
#include <string>

namespace benchreport {

struct SideDeclaration {
  std::string field;     // how the refusal names it, e.g. "suite hash (suite.json)"
  std::string base_key;  // found depth-first in a run's metadata
  std::string head_key;

  friend bool operator==(const SideDeclaration&, const SideDeclaration&) = default;
};

}  // namespace benchreport

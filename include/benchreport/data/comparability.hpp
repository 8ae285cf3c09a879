#pragma once
// The metadata keys that decide whether base and head are comparable, as a
// reader declares them for its format (io/read.hpp reader_comparability()
// merges every reader's); the comparison checks whichever keys it is given.
#include <string>
#include <vector>

#include "benchreport/data/side_declaration.hpp"

namespace benchreport {

struct Comparability {
  std::vector<std::string> run_keys;   // equal on both sides (set metadata, else depth-first in run metadata)
  std::vector<std::string> work_keys;  // work per sample, equal on both sides (set metadata)
  std::vector<SideDeclaration> side_declarations;  // a run's declared base and head values must be equal
  std::vector<std::string> commit_keys;            // run metadata holding a side's commit (first found wins)

  // Adds the keys of `other` not yet present, after these.
  void merge(const Comparability& other);
};

}  // namespace benchreport

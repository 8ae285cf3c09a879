#pragma once
// What the Nitro reader knows that a comparison needs: Nitro writes a
// suite.json holding the hash of the benchmark suite each side was built from.
#include "benchreport/data/side_declaration.hpp"

namespace benchreport {

// suite.json's {baseSuiteHash, headSuiteHash}: unequal hashes mean the two
// sides ran different benchmark code.
inline SideDeclaration nitro_suite_declaration() {
  return {"suite hash (suite.json)", "baseSuiteHash", "headSuiteHash"};
}

}  // namespace benchreport

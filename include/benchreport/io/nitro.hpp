#pragma once
// What the Nitro reader knows beyond reading: the metadata keys that must
// match for base and head to be comparable, and how Nitro results are
// presented (platforms as sections, iOS first; case names by the Nitro rule).
// io/read.hpp merges these with the other readers' declarations.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/comparability.hpp"
#include "benchreport/data/side_declaration.hpp"

namespace benchreport {

// suite.json's {baseSuiteHash, headSuiteHash}: unequal hashes mean the two
// sides ran different benchmark code.
inline SideDeclaration nitro_suite_declaration() {
  return {"suite hash (suite.json)", "baseSuiteHash", "headSuiteHash"};
}

// Keys Nitro writes that must match: the suite hash, device, OS version,
// architecture, toolchain, warm-up and sample counts (run metadata), the
// fixed iterations per sample (chunkIterations, set metadata), the suite
// declaration; the commit is in commitSha.
Comparability nitro_comparability();

// Nitro's sections (its `platform` label): iOS, then Android, with those titles.
std::vector<std::string> nitro_section_order();
std::map<std::string, std::string> nitro_section_titles();

// The Nitro naming rule: "nitro-cpp/function/add-numbers" on "ios" → "C++ addNumbers()";
// a non-empty `display_name` replaces the call. Ids without two '/' or of an
// implementation Nitro does not write are returned as they are (or as `display_name`).
std::string nitro_case_name(std::string_view id, std::string_view platform, std::string_view display_name = "");

}  // namespace benchreport

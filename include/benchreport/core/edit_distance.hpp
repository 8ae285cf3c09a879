#pragma once
// Edit distance between two names, to point at the case a user meant when
// the names of two sides do not match.
#include <cstddef>
#include <string_view>

namespace benchreport {

// Levenshtein distance over bytes: insertions, deletions, substitutions, each 1.
std::size_t edit_distance(std::string_view a, std::string_view b);

// edit_distance / max(|a|, |b|), in [0, 1]; 0 for two empty strings.
double normalized_edit_distance(std::string_view a, std::string_view b);

}  // namespace benchreport

#pragma once
// The per-commit parts of a history (one input file each, in series order) as
// one Dataset: a part whose sets all carry the commit label keeps it; any other
// part is labelled with its name (the input file's name), so that a history of
// plain files needs no label in them.
#include <span>
#include <string>
#include <string_view>

#include "benchreport/data/dataset.hpp"

namespace benchreport {

// Parts in the given order; names[i] names part i. InputError "history: no inputs" when there is
// no part, and when names and parts differ in number.
Dataset label_commits(std::span<const Dataset* const> parts, std::span<const std::string> names,
                      std::string_view column = "commit");

}  // namespace benchreport

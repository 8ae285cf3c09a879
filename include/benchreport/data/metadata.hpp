#pragma once
// Reading the verbatim JSON metadata that readers
// keep on runs and sets.
#include <optional>
#include <string>
#include <string_view>

#include "benchreport/data/dataset.hpp"
#include "benchreport/core/json_writer.hpp"

namespace benchreport::metadata {

// Parses JSON text into a Json value; `what` names the source in the InputError.
Json parse_json(std::string_view text, std::string_view what);

// The first value under `key` found depth-first (objects only, in order), or nullptr.
const Json* find_deep(const Json& root, std::string_view key);

// A scalar as display text: strings unquoted, numbers shortest, others as compact JSON.
std::string display_text(const Json& value);

// Parsed metadata of a set's run ({} when the set has no run).
Json run_metadata(const Dataset& dataset, std::size_t set);

// The verbatim JSON text of a set-metadata key, or nullopt.
std::optional<std::string> set_metadata_text(const Dataset& dataset, std::size_t set, std::string_view key);

// A set-metadata key as a number, or nullopt when absent or not a number.
std::optional<double> set_metadata_number(const Dataset& dataset, std::size_t set, std::string_view key);

// A set-metadata key as display text (strings unquoted), or nullopt.
std::optional<std::string> set_metadata_display(const Dataset& dataset, std::size_t set, std::string_view key);

}  // namespace benchreport::metadata

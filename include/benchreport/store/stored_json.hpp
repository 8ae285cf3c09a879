#pragma once
// The store's JSON cells read back (as run_rows.hpp writes them): a set's
// labels, the run's warnings and a set's metadata. A cell that is not what it
// should be is an InputError naming `where` (the store file).
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"

namespace benchreport::store {

// A set's labels object, less the labels the store adds itself (kStoreLabels).
Labels parse_stored_labels(std::string_view text, std::string_view where);
// A JSON list of strings; a list of [key, text] pairs comes flattened.
std::vector<std::string> parse_stored_strings(std::string_view text, std::string_view where);
// A set's metadata: [[key, verbatim JSON], ...].
Metadata parse_stored_metadata(std::string_view text, std::string_view where);

}  // namespace benchreport::store

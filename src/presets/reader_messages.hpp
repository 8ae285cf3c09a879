#pragma once
// Internal: reader messages said once per report. Readers prefix each message
// with its file ("a.json: kept 3 aggregate rows ..."); the same message from
// several files is one line with a count. Not installed.
#include <string>
#include <vector>

#include "benchreport/data/dataset.hpp"

namespace benchreport {

// `messages` grouped by their text after the file prefix (a run id of `dataset`
// followed by ": "), first-seen order: "text (3 files: a.json, b.json, c.json)";
// a message from one file keeps its prefix.
std::vector<std::string> grouped_messages(const Dataset& dataset, const std::vector<std::string>& messages);

}  // namespace benchreport

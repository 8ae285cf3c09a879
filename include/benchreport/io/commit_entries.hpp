#pragma once
// The inputs of a history given as files and folders (`benchreport history
// DIR`, br.history("runs/")): a folder stands for its entries, one commit
// each, in natural file-name order (run-2 before run-10). A folder read whole
// would be a single commit, which is never what a history of a folder means.
#include <string>
#include <vector>

namespace benchreport {

// Each item as given, except that a folder is replaced by its entries (files
// and subfolders, hidden ones skipped) joined to it, in natural order of their
// names. InputError "<folder>: empty folder (...)" when a folder has none.
std::vector<std::string> commit_entries(const std::vector<std::string>& items);

}  // namespace benchreport

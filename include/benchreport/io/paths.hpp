#pragma once
// Input paths as a user types them: glob patterns expanded into files in
// natural order. `**` never enters a symbolic link to a folder (a planted
// `ln -s . again` can neither multiply matches nor loop), hidden entries
// match only a pattern part that starts with ".", and matches that resolve to
// the same file are kept once. Paths are bytes (UTF-8 on the way in from
// Python, undecodable file names as their raw bytes).
#include <string>
#include <string_view>
#include <vector>

namespace benchreport {

// Python's fnmatch.fnmatchcase on one name: `*`, `?`, `[...]`, `[!...]` (a
// leading `]` is a member, `a-z` a range, an inverted range empty, an unclosed
// `[` literal), matched on code points; no escapes.
bool fnmatch(std::string_view name, std::string_view pattern);

// Natural order: runs of ASCII digits compare as numbers (base-2 before
// base-10), the text between them as code points. -1, 0 or 1; 0 also for
// spellings of one number ("007" and "7"), as Python's natural_key.
int natural_compare(std::string_view a, std::string_view b);

// Matches of a glob pattern ('/'-separated; `**` = this folder and every
// folder below), in natural order, each file once (the first in that order of
// the matches resolving to it). Unreadable folders contribute nothing.
std::vector<std::string> glob_paths(std::string_view pattern);

// Each item as given when it exists or has no glob character, else its
// matches; InputError "<item>: no file matches this pattern" when none.
std::vector<std::string> expand_paths(const std::vector<std::string>& items);

}  // namespace benchreport

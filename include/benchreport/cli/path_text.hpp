#pragma once
// Paths as text, the way Python spells them: the command line's messages named
// output paths through pathlib and os.path before the writer moved into C++,
// and they still do so byte for byte. Purely lexical: nothing is resolved.
#include <string>

namespace benchreport::cli {

// pathlib's form: repeated slashes and "." parts dropped ("a//./b/" -> "a/b",
// "" -> "."); a leading "//" (exactly two) is kept, as POSIX allows.
std::string pure_path(const std::string& path);

// pathlib's parent: "a/b" -> "a", "b" -> ".", "/" -> "/".
std::string path_parent(const std::string& path);

// pathlib's name: the last part, "" for "/" and ".".
std::string path_name(const std::string& path);

// os.path.abspath: joined to the working folder and normalized ("a/../b" -> "<cwd>/b").
std::string absolute_path(const std::string& path);

}  // namespace benchreport::cli

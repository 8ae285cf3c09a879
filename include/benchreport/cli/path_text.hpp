#pragma once
// Paths as text, the way Python spells them: the command line's messages named
// output paths through pathlib and os.path before the writer moved into C++,
// and they still do so byte for byte. Purely lexical: nothing is resolved.
//
// Each function takes the path style, the native one by default: POSIX
// (PurePosixPath, posixpath) or Windows (PureWindowsPath, ntpath: '\' and '/'
// both separate, "C:" and "\\server\share" are drives, '\' is written). Paths
// are bytes as os.fsencode gives them (UTF-8 on Windows), so either style can
// be tested on any system.
#include <string>

namespace benchreport::cli {

enum class PathStyle { posix, windows };

#ifdef _WIN32
inline constexpr PathStyle kNativePathStyle = PathStyle::windows;
#else
inline constexpr PathStyle kNativePathStyle = PathStyle::posix;
#endif

// pathlib's form: repeated separators and "." parts dropped ("a//./b/" -> "a/b",
// "" -> "."); POSIX keeps a leading "//" (exactly two); Windows writes
// "C:/a" as "C:\a" and a UNC drive "//s/share" as "\\s\share\".
std::string pure_path(const std::string& path, PathStyle style = kNativePathStyle);

// pathlib's parent: "a/b" -> "a", "b" -> ".", "/" -> "/" (Windows: "C:\a" -> "C:\", "C:a" -> "C:").
std::string path_parent(const std::string& path, PathStyle style = kNativePathStyle);

// pathlib's name: the last part, "" for "/" and "." (and a bare drive).
std::string path_name(const std::string& path, PathStyle style = kNativePathStyle);

// os.path.join of a folder and a plain file name ("/" + "a" -> "/a", "a" + "b" -> "a/b", "" + "a" -> "a").
std::string path_join(const std::string& folder, const std::string& name, PathStyle style = kNativePathStyle);

// os.path.abspath against the working folder `cwd`: joined to it and normalized
// ("a/../b" -> "<cwd>/b", cwd "/" gives "/a"). On Windows a path with a root but no
// drive takes cwd's drive, and "D:x" on a drive other than cwd's is taken from D:'s root.
std::string absolute_path(const std::string& path, const std::string& cwd, PathStyle style);

// absolute_path against this process's working folder, in the native style.
std::string absolute_path(const std::string& path);

}  // namespace benchreport::cli

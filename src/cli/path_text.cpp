#include "benchreport/cli/path_text.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <vector>

namespace benchreport::cli {

namespace {

struct Split {
  char separator = '/';
  std::string drive;  // Windows: "C:" or "\\server\share"
  std::string root;   // "", the separator, or POSIX's "//"
  std::vector<std::string> parts;
};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The length of a UNC drive "\\server\share" opening `path` ('/' already '\'), 0 when none:
// PureWindowsPath's rule, which wants a server and no empty part after it.
std::size_t unc_length(const std::string& path) {
  if (path.size() < 3 || path[0] != '\\' || path[1] != '\\' || path[2] == '\\') return 0;
  const auto server_end = path.find('\\', 2);
  if (server_end == std::string::npos) return 0;
  const auto share_end = path.find('\\', server_end + 1);
  if (share_end == server_end + 1) return 0;
  return share_end == std::string::npos ? path.size() : share_end;
}

// Where the Windows drive of `path` ends (0 without one); a UNC drive always has a root.
std::size_t windows_drive(const std::string& path, Split& out) {
  if (const std::size_t unc = unc_length(path)) {
    out.drive = path.substr(0, unc);
    out.root = "\\";
    return unc;
  }
  if (path.size() >= 2 && path[1] == ':' && is_letter(path[0])) {
    out.drive = path.substr(0, 2);
    return 2;
  }
  return 0;
}

// The drive, the root and the parts, empty and "." ones dropped.
Split split(std::string_view given, PathStyle style) {
  Split out;
  std::string path(given);
  if (style == PathStyle::windows) {
    out.separator = '\\';
    std::replace(path.begin(), path.end(), '/', '\\');
  }
  const char sep = out.separator;
  const std::size_t start = style == PathStyle::windows ? windows_drive(path, out) : 0;
  std::size_t at = start;
  while (at < path.size() && path[at] == sep) ++at;
  // pathlib keeps exactly two leading slashes on POSIX; os.path.normpath too (three or more are one).
  if (out.root.empty() && at > start)
    out.root = style == PathStyle::posix && at - start == 2 ? "//" : std::string(1, sep);
  while (at < path.size()) {
    auto end = path.find(sep, at);
    if (end == std::string::npos) end = path.size();
    const std::string_view part = std::string_view(path).substr(at, end - at);
    if (!part.empty() && part != ".") out.parts.emplace_back(part);
    at = end + 1;
  }
  return out;
}

std::string joined(const Split& s, std::size_t count) {
  std::string out = s.drive + s.root;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += s.separator;
    out += s.parts[i];
  }
  return out.empty() ? "." : out;
}

bool same_drive(const std::string& a, const std::string& b) {
  const auto lower = [](char c) { return is_letter(c) ? static_cast<char>(c | 0x20) : c; };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [&](char x, char y) { return lower(x) == lower(y); });
}

// `path` with a root and (on Windows) a drive, taken from `cwd` where the path has none.
Split anchored(const Split& path, const std::string& cwd, PathStyle style) {
  const bool has_drive = style == PathStyle::posix || !path.drive.empty();
  if (!path.root.empty() && has_drive) return path;
  Split base = split(cwd, style);
  if (!path.root.empty()) {  // "\x": on the working folder's drive
    Split out = path;
    out.drive = base.drive;
    return out;
  }
  if (path.drive.empty() || same_drive(path.drive, base.drive)) {
    base.parts.insert(base.parts.end(), path.parts.begin(), path.parts.end());
    return base;
  }
  Split out = path;  // "D:x" with the working folder elsewhere: from D:'s root
  out.root = std::string(1, out.separator);
  return out;
}

std::string current_folder() {
#ifdef _WIN32
  const auto text = std::filesystem::current_path().u8string();  // the bytes os.fsencode gives there
  return std::string(text.begin(), text.end());
#else
  return std::filesystem::current_path().string();
#endif
}

}  // namespace

std::string pure_path(const std::string& path, PathStyle style) {
  const Split s = split(path, style);
  return joined(s, s.parts.size());
}

std::string path_parent(const std::string& path, PathStyle style) {
  const Split s = split(path, style);
  return joined(s, s.parts.empty() ? 0 : s.parts.size() - 1);
}

std::string path_name(const std::string& path, PathStyle style) {
  const Split s = split(path, style);
  return s.parts.empty() ? "" : s.parts.back();
}

std::string path_join(const std::string& folder, const std::string& name, PathStyle style) {
  const bool windows = style == PathStyle::windows;
  const char last = folder.empty() ? '/' : folder.back();
  // ntpath adds no separator after a bare drive: "C:" + "a" is "C:a", relative to C:'s working folder.
  const bool ends_open = last == '/' || (windows && (last == '\\' || (last == ':' && folder.size() == 2)));
  return folder + (ends_open ? "" : windows ? "\\" : "/") + name;
}

std::string absolute_path(const std::string& path, const std::string& cwd, PathStyle style) {
  Split full = anchored(split(path, style), cwd, style);
  std::vector<std::string> kept;
  for (const auto& part : full.parts) {
    if (part != "..") {
      kept.push_back(part);
    } else if (!kept.empty()) {
      kept.pop_back();  // ".." at the root stays at the root
    }
  }
  full.parts = std::move(kept);
  return joined(full, full.parts.size());
}

std::string absolute_path(const std::string& path) { return absolute_path(path, current_folder(), kNativePathStyle); }

}  // namespace benchreport::cli

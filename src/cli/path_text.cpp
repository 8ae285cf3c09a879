#include "benchreport/cli/path_text.hpp"

#include <filesystem>
#include <string_view>
#include <vector>

namespace benchreport::cli {

namespace {

struct Split {
  std::string root;  // "", "/" or "//"
  std::vector<std::string> parts;
};

// The root and the parts, empty and "." ones dropped.
Split split(std::string_view path) {
  Split out;
  std::size_t slashes = 0;
  while (slashes < path.size() && path[slashes] == '/') ++slashes;
  // pathlib keeps exactly two leading slashes; os.path.normpath too (three or more are one).
  out.root = slashes == 0 ? "" : (slashes == 2 ? "//" : "/");
  std::size_t at = slashes;
  while (at < path.size()) {
    auto end = path.find('/', at);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(at, end - at);
    if (!part.empty() && part != ".") out.parts.emplace_back(part);
    at = end + 1;
  }
  return out;
}

std::string joined(const std::string& root, const std::vector<std::string>& parts, std::size_t count) {
  std::string out = root;
  for (std::size_t i = 0; i < count; ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

}  // namespace

std::string pure_path(const std::string& path) {
  const Split s = split(path);
  return joined(s.root, s.parts, s.parts.size());
}

std::string path_parent(const std::string& path) {
  const Split s = split(path);
  return joined(s.root, s.parts, s.parts.empty() ? 0 : s.parts.size() - 1);
}

std::string path_name(const std::string& path) {
  const Split s = split(path);
  return s.parts.empty() ? "" : s.parts.back();
}

std::string absolute_path(const std::string& path) {
  const std::string full =
      !path.empty() && path[0] == '/' ? path : std::filesystem::current_path().string() + "/" + path;
  const Split s = split(full);
  std::vector<std::string> kept;
  for (const auto& part : s.parts) {
    if (part != "..") {
      kept.push_back(part);
    } else if (!kept.empty()) {
      kept.pop_back();  // ".." at the root stays at the root
    }
  }
  return joined(s.root, kept, kept.size());
}

}  // namespace benchreport::cli

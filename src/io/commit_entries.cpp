// Folders expanded into one commit per entry (io/commit_entries.hpp).
#include "benchreport/io/commit_entries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "benchreport/core/error.hpp"
#include "benchreport/io/paths.hpp"

namespace benchreport {
namespace {

namespace fs = std::filesystem;

// The visible entry names of a folder in natural order; ties (spellings of one number) by bytes,
// so that the order never depends on the order the file system lists them in.
std::vector<std::string> sorted_entries(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!name.starts_with('.')) names.push_back(std::move(name));
  }
  if (ec) throw InputError(fmt::format("{}: cannot list this folder ({})", folder, ec.message()));
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    const int c = natural_compare(a, b);
    return c != 0 ? c < 0 : a < b;
  });
  return names;
}

}  // namespace

std::vector<std::string> commit_entries(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    std::error_code ec;
    if (!fs::is_directory(item, ec)) {
      out.push_back(item);
      continue;
    }
    const std::vector<std::string> names = sorted_entries(item);
    if (names.empty())
      throw InputError(fmt::format("{}: empty folder (history takes one commit per file in it)", item));
    const std::string prefix = item.ends_with('/') ? item : item + '/';  // as os.path.join joins
    for (const std::string& name : names) out.push_back(prefix + name);
  }
  return out;
}

}  // namespace benchreport

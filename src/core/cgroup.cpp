#include "benchreport/core/cgroup.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace benchreport {

std::vector<CgroupLine> cgroup_lines(std::string_view proc_cgroup) {
  std::vector<CgroupLine> out;
  for (std::size_t at = 0; at < proc_cgroup.size();) {
    const std::size_t newline = std::min(proc_cgroup.find('\n', at), proc_cgroup.size());
    const std::string_view line = proc_cgroup.substr(at, newline - at);
    at = newline + 1;
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    out.push_back({line.substr(0, first), line.substr(first + 1, second - first - 1), line.substr(second + 1)});
  }
  return out;
}

bool names_controller(std::string_view controllers, std::string_view controller) {
  for (std::size_t at = 0; at <= controllers.size();) {
    const std::size_t comma = std::min(controllers.find(',', at), controllers.size());
    if (controllers.substr(at, comma - at) == controller) return true;
    at = comma + 1;
  }
  return false;
}

std::vector<std::string> cgroup_folders(const std::string& top, std::string_view path) {
  std::vector<std::string> out{top};
  for (std::size_t at = 0; at < path.size();) {
    const std::size_t slash = path.find('/', at);
    const std::size_t stop = slash == std::string_view::npos ? path.size() : slash;
    if (stop > at) out.push_back(out.back() + "/" + std::string(path.substr(at, stop - at)));
    at = stop + 1;
  }
  return out;
}

std::optional<std::string> file_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace benchreport

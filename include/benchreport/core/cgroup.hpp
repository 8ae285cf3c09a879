#pragma once
// The cgroups a process is in, read from /proc/<pid>/cgroup, and the folders
// from a cgroup up to its hierarchy's mount point, where the kernel keeps the
// limit files a parent also imposes on its children. Shared by the CPU budget
// (cpu_budget.hpp) and the memory limit (memory_limit.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport {

// One `$ID:$CONTROLLERS:$PATH` line ("4:memory:/job", cgroup v2: "0::/job"); views into the text.
struct CgroupLine {
  std::string_view id;
  std::string_view controllers;  // empty for the v2 (unified) hierarchy
  std::string_view path;
};

// The well-formed lines of a /proc/<pid>/cgroup text (others are skipped).
std::vector<CgroupLine> cgroup_lines(std::string_view proc_cgroup);

// Whether a comma-separated controller list ("cpu,cpuacct") names `controller`.
bool names_controller(std::string_view controllers, std::string_view controller);

// `top` and each folder below it down to `top` + `path`, top first.
std::vector<std::string> cgroup_folders(const std::string& top, std::string_view path);

// A whole (small) file's text; none when it cannot be read.
std::optional<std::string> file_text(const std::string& path);

}  // namespace benchreport

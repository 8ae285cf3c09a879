#include "benchreport/core/memory_limit.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#if __has_include(<sys/resource.h>)
#include <sys/resource.h>
#define BENCHREPORT_HAS_RLIMIT_AS 1
#endif

namespace benchreport {

namespace {

struct MemoryController {
  std::string file;    // memory.max (v2) or memory.limit_in_bytes (v1)
  std::string root;    // where the hierarchy is mounted
  std::string folder;  // the cgroup's path inside it, "/job/step"
};

// "/a//b/../c" -> "/a/c": the cgroup folders are compared by prefix, as text.
std::string normalized(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream in(path);
  for (std::string part; std::getline(in, part, '/');) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (const auto& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

std::string parent_folder(const std::string& folder) {
  const auto slash = folder.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : folder.substr(0, slash);
}

// The memory controller's entries of /proc/self/cgroup ("4:memory:/job", v2 "0::/job").
std::vector<MemoryController> memory_controllers(const std::string& proc, const std::string& cgroup_root) {
  std::vector<MemoryController> out;
  std::ifstream in(proc);
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string folder = line.substr(second + 1);
    if (controllers.empty()) {  // v2 (unified); on a hybrid host it is mounted at .../unified
      out.push_back({"memory.max", cgroup_root, folder});
      out.push_back({"memory.max", cgroup_root + "/unified", folder});
      continue;
    }
    std::stringstream names(controllers);
    for (std::string name; std::getline(names, name, ',');) {
      if (name == "memory") {
        out.push_back({"memory.limit_in_bytes", cgroup_root + "/memory", folder});
        break;
      }
    }
  }
  return out;
}

// A limit file's value; none for "max", a "no limit" number or anything unreadable.
std::optional<std::uint64_t> read_limit(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!in || !std::getline(in, text)) return std::nullopt;
  const auto end = text.find_last_not_of(" \t\r\n");
  text = end == std::string::npos ? "" : text.substr(0, end + 1);
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const std::uint64_t value = std::stoull(text);
  if (value >= kNoMemoryLimitFrom) return std::nullopt;
  return value;
}

// A "Name:   123 kB" field of /proc/self/status in bytes, 0 where there is none.
std::uint64_t status_bytes(std::string_view field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.size() > field.size() && line.compare(0, field.size(), field) == 0 && line[field.size()] == ':') {
      try {
        return std::stoull(line.substr(field.size() + 1)) * 1024;
      } catch (const std::exception&) {
        return 0;
      }
    }
  }
  return 0;
}

}  // namespace

std::optional<MemoryLimit> memory_limit(const std::string& proc, const std::string& cgroup_root) {
  std::optional<MemoryLimit> best;
  for (const auto& controller : memory_controllers(proc, cgroup_root)) {
    const std::string root = normalized(controller.root);
    std::string folder = normalized(root + "/" + controller.folder);
    // Up from the cgroup to the mount point: a parent's limit holds its children too.
    while (folder.compare(0, root.size(), root) == 0) {
      const std::string file = folder + "/" + controller.file;
      const auto limit = read_limit(file);
      if (limit && (!best || *limit < best->bytes)) best = MemoryLimit{*limit, file};
      if (folder == root) break;
      folder = parent_folder(folder);
    }
  }
  return best;
}

std::uint64_t resident_bytes() { return status_bytes("VmRSS"); }

std::uint64_t estimated_need(std::uint64_t input_bytes) { return input_bytes * kBytesPerInputByte; }

std::string describe(const MemoryLimit& limit) {
  char mib[32];
  std::snprintf(mib, sizeof mib, "%.0f", static_cast<double>(limit.bytes) / (1 << 20));
  return "the memory limit of " + std::to_string(limit.bytes) + " bytes (" + mib + " MiB, " + limit.source + ")";
}

#ifdef BENCHREPORT_HAS_RLIMIT_AS

std::optional<AddressSpaceLimit> address_space_limit() {
  rlimit now{};
  if (getrlimit(RLIMIT_AS, &now) != 0) return std::nullopt;
  return AddressSpaceLimit{now.rlim_cur, now.rlim_max};
}

bool cap_address_space(const MemoryLimit& limit) {
  const std::uint64_t mapped = status_bytes("VmSize");
  const std::uint64_t resident = resident_bytes();
  std::uint64_t cap =
      mapped < limit.bytes ? limit.bytes : mapped + (limit.bytes > resident ? limit.bytes - resident : 0);
  rlimit now{};
  if (getrlimit(RLIMIT_AS, &now) != 0) return false;
  if (now.rlim_cur != RLIM_INFINITY && now.rlim_cur <= cap) return false;
  if (now.rlim_max != RLIM_INFINITY && now.rlim_max < cap) cap = now.rlim_max;
  const rlimit capped{static_cast<rlim_t>(cap), now.rlim_max};
  return setrlimit(RLIMIT_AS, &capped) == 0;
}

void restore_address_space_limit(const std::optional<AddressSpaceLimit>& limits) {
  if (!limits) return;
  const rlimit back{static_cast<rlim_t>(limits->soft), static_cast<rlim_t>(limits->hard)};
  setrlimit(RLIMIT_AS, &back);  // a failure leaves the cap: nothing better can be done
}

#else  // Windows: no address-space limit (and no cgroups)

std::optional<AddressSpaceLimit> address_space_limit() { return std::nullopt; }

bool cap_address_space(const MemoryLimit&) { return false; }

void restore_address_space_limit(const std::optional<AddressSpaceLimit>&) {}

#endif

}  // namespace benchreport

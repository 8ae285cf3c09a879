#include "benchreport/core/memory_limit.hpp"

#include <cstdio>
#include <fstream>
#include <string_view>

#include "benchreport/core/cgroup.hpp"

#if __has_include(<sys/resource.h>)
#include <sys/resource.h>
#define BENCHREPORT_HAS_RLIMIT_AS 1
#endif

namespace benchreport {

namespace {

// A limit file's value; none for "max", a "no limit" number or anything unreadable.
std::optional<std::uint64_t> read_limit(const std::string& path) {
  std::string text = file_text(path).value_or("");
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

// The smallest limit in `file` of the cgroup `path` under `top` and of its parents (a parent's limit
// holds its children too), kept in `best` when smaller; of equal limits the deepest is named.
void keep_smallest(std::optional<MemoryLimit>& best, const std::string& top, std::string_view path,
                   const std::string& file) {
  const auto folders = cgroup_folders(top, path);
  for (auto folder = folders.rbegin(); folder != folders.rend(); ++folder) {
    const auto limit = read_limit(*folder + "/" + file);
    if (limit && (!best || *limit < best->bytes)) best = MemoryLimit{*limit, *folder + "/" + file};
  }
}

}  // namespace

std::optional<MemoryLimit> memory_limit(const std::string& proc, const std::string& cgroup_root) {
  std::optional<MemoryLimit> best;
  const std::string text = file_text(proc).value_or("");
  for (const auto& line : cgroup_lines(text)) {
    if (line.controllers.empty()) {  // v2 (unified); on a hybrid host it is mounted at .../unified
      keep_smallest(best, cgroup_root, line.path, "memory.max");
      keep_smallest(best, cgroup_root + "/unified", line.path, "memory.max");
    } else if (names_controller(line.controllers, "memory")) {
      keep_smallest(best, cgroup_root + "/memory", line.path, "memory.limit_in_bytes");
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

#include "benchreport/core/cpu_budget.hpp"

#include "benchreport/core/cgroup.hpp"

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <sched.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace benchreport {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

std::optional<long long> whole_number(std::string_view s) {
  s = trimmed(s);
  long long value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

void keep_smallest(std::optional<double>& smallest, std::optional<double> quota) {
  if (quota && (!smallest || *quota < *smallest)) smallest = quota;
}

// CPUs this process may run on (Windows: in its processor group, at most 64).
unsigned affinity_cpus() {
#ifdef _WIN32
  DWORD_PTR process = 0, system = 0;
  if (GetProcessAffinityMask(GetCurrentProcess(), &process, &system) != 0 && process != 0) {
    return static_cast<unsigned>(std::popcount(static_cast<std::uint64_t>(process)));
  }
#else
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

// This process's id: a forked child has another one, so it measures again.
std::int64_t process_id() {
#ifdef _WIN32
  return static_cast<std::int64_t>(GetCurrentProcessId());
#else
  return static_cast<std::int64_t>(getpid());
#endif
}

unsigned measure_usable_cpus() {
  unsigned cpus = affinity_cpus();
  if (const auto cgroup = file_text("/proc/self/cgroup")) {
    if (const auto quota = cgroup_cpu_quota(*cgroup)) {
      // Compared as doubles: a quota of 2^32 CPUs or more must not wrap in the cast.
      if (*quota < static_cast<double>(cpus)) cpus = std::max(1u, static_cast<unsigned>(std::ceil(*quota)));
    }
  }
  return cpus;
}

}  // namespace

std::optional<double> cpu_max_quota(std::string_view text) {
  text = trimmed(text);
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto max = whole_number(text.substr(0, space));
  const auto period = whole_number(text.substr(space + 1));
  if (!max || !period || *max <= 0 || *period <= 0) return std::nullopt;  // "max": no limit
  return static_cast<double>(*max) / static_cast<double>(*period);
}

std::optional<double> cfs_quota(std::string_view quota_us, std::string_view period_us) {
  const auto quota = whole_number(quota_us);
  const auto period = whole_number(period_us);
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;  // -1: no limit
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

std::optional<double> cgroup_cpu_quota(std::string_view proc_self_cgroup, const std::string& root) {
  std::optional<double> smallest;
  for (const auto& [id, controllers, path] : cgroup_lines(proc_self_cgroup)) {
    if (id == "0" && controllers.empty()) {
      for (const std::string& dir : cgroup_folders(root, path)) {
        if (const auto text = file_text(dir + "/cpu.max")) keep_smallest(smallest, cpu_max_quota(*text));
      }
    } else if (names_controller(controllers, "cpu")) {
      for (const char* mount : {"/cpu", "/cpu,cpuacct"}) {
        for (const std::string& dir : cgroup_folders(root + mount, path)) {
          const auto quota = file_text(dir + "/cpu.cfs_quota_us");
          const auto period = file_text(dir + "/cpu.cfs_period_us");
          if (quota && period) keep_smallest(smallest, cfs_quota(*quota, *period));
        }
      }
    }
  }
  return smallest;
}

unsigned usable_cpus() {
  // Racing first calls each measure the same value.
  static std::atomic<unsigned> cached{0};
  static std::atomic<std::int64_t> measured_in{0};
  const std::int64_t self = process_id();
  if (cached.load(std::memory_order_relaxed) == 0 || measured_in.load(std::memory_order_relaxed) != self) {
    cached.store(measure_usable_cpus(), std::memory_order_relaxed);
    measured_in.store(self, std::memory_order_relaxed);
  }
  return cached.load(std::memory_order_relaxed);
}

}  // namespace benchreport

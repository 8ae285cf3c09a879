#pragma once
// How many CPUs this process can keep busy at once. A container on a shared CI
// runner often sees every CPU of the host (std::thread::hardware_concurrency,
// even its affinity mask) while a CPU bandwidth quota (docker --cpus,
// Kubernetes CPU limits) lets it run on two: threads beyond the quota only
// take turns, and are throttled as a group.
#include <optional>
#include <string>
#include <string_view>

namespace benchreport {

// The CPUs in the affinity mask (taskset, a container's cpuset), capped by
// the smallest CPU quota of the process's cgroup and its ancestors (cgroup v2
// cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us) rounded up; at least 1.
// Read once per process (and again in a child made by fork, which may have
// been moved to another cgroup).
unsigned usable_cpus();

// A cgroup v2 cpu.max ("$MAX $PERIOD"): MAX / PERIOD CPUs, none for "max"
// or text that is not two positive numbers.
std::optional<double> cpu_max_quota(std::string_view text);

// A cgroup v1 pair cpu.cfs_quota_us, cpu.cfs_period_us: quota / period CPUs,
// none for a quota of -1 (no limit) or text that is not numbers.
std::optional<double> cfs_quota(std::string_view quota_us, std::string_view period_us);

// The smallest quota found for the cgroup paths listed in /proc/self/cgroup
// text (`$ID:$CONTROLLERS:$PATH` lines) under the cgroup mount `root`: the
// v2 line (ID 0, no controllers) reads $root/$PATH/cpu.max, a v1 line whose
// controllers include cpu reads $root/cpu/$PATH or $root/cpu,cpuacct/$PATH;
// each directory from $PATH up to the mount's top counts (a container
// without a cgroup namespace sees its own limit at the top).
std::optional<double> cgroup_cpu_quota(std::string_view proc_self_cgroup, const std::string& root = "/sys/fs/cgroup");

}  // namespace benchreport

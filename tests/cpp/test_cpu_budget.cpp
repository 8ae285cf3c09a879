// The CPU budget: cgroup v2 and v1 quota files as the kernel writes them, the
// walk from a process's cgroup up to the mount's top, and the cap on the
// affinity mask.
#include <catch2/catch.hpp>

#include <sched.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "benchreport/core/cpu_budget.hpp"
#include "scratch_folder.hpp"

using namespace benchreport;
namespace fs = std::filesystem;

namespace {

// A scratch cgroup mount: files written under a fresh directory, removed after.
struct FakeCgroupMount : ScratchFolder {
  FakeCgroupMount() : ScratchFolder("cgroup") {}
};

}  // namespace

TEST_CASE("cpu.max: MAX / PERIOD CPUs, none for max or malformed text", "[cpu_budget]") {
  CHECK(cpu_max_quota("150000 100000\n") == 1.5);
  CHECK(cpu_max_quota("200000 100000") == 2.0);
  CHECK(cpu_max_quota("17592186044415 1000") > 1e10);  // the kernel's largest: must not wrap when capped
  CHECK_FALSE(cpu_max_quota("max 100000\n"));
  CHECK_FALSE(cpu_max_quota("0 100000"));
  CHECK_FALSE(cpu_max_quota("-5 100000"));
  CHECK_FALSE(cpu_max_quota("150000"));
  CHECK_FALSE(cpu_max_quota("150000 0"));
  CHECK_FALSE(cpu_max_quota("1.5 cpus"));
  CHECK_FALSE(cpu_max_quota(""));
}

TEST_CASE("cfs_quota_us / cfs_period_us, none for -1", "[cpu_budget]") {
  CHECK(cfs_quota("50000\n", "100000\n") == 0.5);
  CHECK(cfs_quota("400000", "100000") == 4.0);
  CHECK_FALSE(cfs_quota("-1\n", "100000\n"));
  CHECK_FALSE(cfs_quota("abc", "100000"));
  CHECK_FALSE(cfs_quota("50000", ""));
}

TEST_CASE("cgroup v2: the smallest cpu.max from the process's cgroup up to the top", "[cpu_budget]") {
  const FakeCgroupMount mount;
  mount.write("cpu.max", "max 100000\n");
  mount.write("ci/cpu.max", "300000 100000\n");
  mount.write("ci/job/cpu.max", "max 100000\n");
  CHECK(cgroup_cpu_quota("0::/ci/job\n", mount.root.string()) == 3.0);
  mount.write("ci/job/step/cpu.max", "150000 100000\n");
  CHECK(cgroup_cpu_quota("0::/ci/job/step\n", mount.root.string()) == 1.5);
  CHECK_FALSE(cgroup_cpu_quota("0::/\n", mount.root.string()));
  // A path that is not there (no cgroup namespace): the top still counts.
  mount.write("cpu.max", "200000 100000\n");
  CHECK(cgroup_cpu_quota("0::/system.slice/docker-1.scope\n", mount.root.string()) == 2.0);
}

TEST_CASE("cgroup v1: cpu.cfs_quota_us under the cpu controller's mount", "[cpu_budget]") {
  const FakeCgroupMount mount;
  mount.write("cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "150000\n");
  mount.write("cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  const std::string lines = "12:pids:/docker/abc\n4:cpu,cpuacct:/docker/abc\n3:cpuset:/docker/abc\n";
  CHECK(cgroup_cpu_quota(lines, mount.root.string()) == 1.5);
  // Other controllers' lines are not read, and -1 is no limit.
  CHECK_FALSE(cgroup_cpu_quota("4:cpuacct:/docker/abc\n", mount.root.string()));
  mount.write("cpu/cpu.cfs_quota_us", "-1\n");
  mount.write("cpu/cpu.cfs_period_us", "100000\n");
  CHECK_FALSE(cgroup_cpu_quota("5:cpu:/\n", mount.root.string()));
}

TEST_CASE("cgroup v1 in a container without a cgroup namespace: its own limit at the top", "[cpu_budget]") {
  const FakeCgroupMount mount;
  mount.write("cpu/cpu.cfs_quota_us", "250000\n");
  mount.write("cpu/cpu.cfs_period_us", "100000\n");
  CHECK(cgroup_cpu_quota("5:cpu:/docker/abc\n", mount.root.string()) == 2.5);
}

TEST_CASE("no cgroup files, or lines that are not cgroup lines: no quota", "[cpu_budget]") {
  const FakeCgroupMount mount;
  CHECK_FALSE(cgroup_cpu_quota("0::/\n4:cpu,cpuacct:/\n", mount.root.string()));
  CHECK_FALSE(cgroup_cpu_quota("garbage\n\n::\n", mount.root.string()));
}

TEST_CASE("usable_cpus is at least 1 and at most the affinity mask", "[cpu_budget]") {
  cpu_set_t set;
  REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
  CHECK(usable_cpus() >= 1);
  CHECK(usable_cpus() <= static_cast<unsigned>(CPU_COUNT(&set)));
  CHECK(usable_cpus() == usable_cpus());
}

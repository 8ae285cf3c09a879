// The cgroup memory limit, the estimate of an input's need and the
// address-space cap (core/memory_limit.hpp), on cgroup trees written here.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "benchreport/core/memory_limit.hpp"
#include "scratch_folder.hpp"

using namespace benchreport;
namespace fs = std::filesystem;

namespace {

// A cgroup mount under cg/ and the /proc/<pid>/cgroup text that points into it.
struct CgroupTree : ScratchFolder {
  CgroupTree() : ScratchFolder("memory-cgroup") {}
  void put(const std::string& file, const std::string& text) const { write(file, text); }
  std::string proc(const std::string& text) const {
    write("proc-cgroup", text);
    return at("proc-cgroup");
  }
  std::string cg() const { return at("cg"); }
};

}  // namespace

TEST_CASE("v1: the smallest limit of the cgroup and its parents, 'no limit' numbers none", "[memory_limit]") {
  CgroupTree t;
  t.put("cg/memory/job/memory.limit_in_bytes", "314572800\n");
  t.put("cg/memory/job/step/memory.limit_in_bytes", "9223372036854771712\n");  // v1's "unlimited"
  t.put("cg/memory/memory.limit_in_bytes", "9223372036854771712\n");
  const auto limit = memory_limit(t.proc("5:cpu,cpuacct:/job\n4:memory:/job/step\n0::/\n"), t.cg());
  REQUIRE(limit);
  CHECK(limit->bytes == 314572800);
  CHECK(limit->source == t.cg() + "/memory/job/memory.limit_in_bytes");
  CHECK(describe(*limit) == "the memory limit of 314572800 bytes (300 MiB, " + limit->source + ")");
}

TEST_CASE("v2 and the hybrid unified mount: 'max' is none, the smallest number wins", "[memory_limit]") {
  CgroupTree t;
  t.put("cg/memory.max", "max\n");
  t.put("cg/a/memory.max", "2000000000\n");
  t.put("cg/a/b/memory.max", "max\n");
  t.put("cg/unified/a/b/memory.max", "1500000000\n");
  const auto limit = memory_limit(t.proc("0::/a/b\n"), t.cg());
  REQUIRE(limit);
  CHECK(limit->bytes == 1500000000);
  CHECK(limit->source == t.cg() + "/unified/a/b/memory.max");
  t.put("cg/unified/a/b/memory.max", "12x\n");  // not a number: no limit from it
  CHECK(memory_limit(t.proc("0::/a/b\n"), t.cg())->bytes == 2000000000);
}

TEST_CASE("no cgroup file, no memory controller or no limit: none", "[memory_limit]") {
  CgroupTree t;
  CHECK_FALSE(memory_limit(t.at("missing"), t.cg()));
  CHECK_FALSE(memory_limit(t.proc("3:cpu:/job\nnot a line\n"), t.cg()));
  t.put("cg/memory/job/memory.limit_in_bytes", "1152921504606846976\n");  // 2^60: none
  CHECK_FALSE(memory_limit(t.proc("4:memory:/job\n"), t.cg()));
}

TEST_CASE("describe rounds the MiB half to even, as Python's format does", "[memory_limit]") {
  CHECK(describe({5 * (1u << 19), "f"}) == "the memory limit of 2621440 bytes (2 MiB, f)");  // 2.5 MiB
  CHECK(describe({3 * (1u << 19), "f"}) == "the memory limit of 1572864 bytes (2 MiB, f)");  // 1.5 MiB
  CHECK(estimated_need(1000) == 12000);
}

TEST_CASE("the address-space cap is set below the current limit and put back", "[memory_limit]") {
  CHECK(resident_bytes() > 0);  // this test runs on Linux
  const auto before = address_space_limit();
  REQUIRE(before);
  const std::uint64_t huge = std::uint64_t{1} << 50;  // far above anything mapped: the cap is the limit itself
  if (before->soft != RLIM_INFINITY && before->soft <= huge) {
    CHECK_FALSE(cap_address_space({huge, "test"}));
    return;
  }
  REQUIRE(cap_address_space({huge, "test"}));
  CHECK(address_space_limit()->soft == huge);
  CHECK(address_space_limit()->hard == before->hard);
  CHECK_FALSE(cap_address_space({huge * 2, "test"}));  // a cap above the current one is never set
  restore_address_space_limit(before);
  CHECK(address_space_limit()->soft == before->soft);
}

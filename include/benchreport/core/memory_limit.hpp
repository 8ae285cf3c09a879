#pragma once
// The memory a container gives this process: its cgroup's limit (v2
// `memory.max`, v1 `memory.limit_in_bytes`, the smallest over the cgroup and
// its parents), read so the command line can refuse work that would not fit
// (exit 2, one line naming the limit) instead of being ended by the kernel's
// OOM killer (exit 137, no message). docs/hardening.md, "Low memory".
//
// cgroups, /proc/self/status and RLIMIT_AS are Linux (RLIMIT_AS: POSIX); on
// Windows memory_limit() finds no limit, resident_bytes() is 0 and the
// address-space functions do nothing.
#include <cstdint>
#include <optional>
#include <string>

namespace benchreport {

struct MemoryLimit {
  std::uint64_t bytes = 0;
  std::string source;  // the file that set it, e.g. /sys/fs/cgroup/memory/job/memory.limit_in_bytes
};

// v1 writes "no limit" as a huge page-aligned number (2^63 - 4096 on x86-64): anything from 2^60 is none.
inline constexpr std::uint64_t kNoMemoryLimitFrom = std::uint64_t{1} << 60;

// Estimated memory per input byte (after decompression) of reading it: measured
// 3.2 for the densest canonical CSV (`a,ms,1` per sample: 35 MB read with a peak
// 113 MB above the import's), 9.4 for a compare of two such files; 12 leaves a
// margin. A compare of many cases needs more (100 000 cases of 10 samples,
// 34 MB: 1.7 GB); cap_address_space turns that into a clean out-of-memory error.
inline constexpr std::uint64_t kBytesPerInputByte = 12;

// The smallest memory limit of the cgroups listed in `proc` (a /proc/<pid>/cgroup
// file) and their parents, their hierarchies mounted under `cgroup_root`.
std::optional<MemoryLimit> memory_limit(const std::string& proc = "/proc/self/cgroup",
                                        const std::string& cgroup_root = "/sys/fs/cgroup");

// This process's resident memory (VmRSS), 0 where it cannot be read.
std::uint64_t resident_bytes();

// Memory a read of `input_bytes` (after decompression) may need on top of what is resident.
std::uint64_t estimated_need(std::uint64_t input_bytes);

// "the memory limit of N bytes (M MiB, source)", as the command line's errors name it.
std::string describe(const MemoryLimit& limit);

// RLIMIT_AS as (soft, hard); none where there is no such limit (Windows).
struct AddressSpaceLimit {
  std::uint64_t soft = 0;
  std::uint64_t hard = 0;
};
std::optional<AddressSpaceLimit> address_space_limit();

// Lowers RLIMIT_AS so an allocation past `limit` fails (std::bad_alloc, exit 2
// with one line) instead of the OOM killer ending the process (exit 137).
// Resident memory never exceeds the address space, so a cap at the limit itself
// guarantees it; memory reserved but not resident (thread stacks, malloc arenas)
// counts against the cap, so the cap is the limit or, when more than that is
// already mapped, the address space now plus what the limit leaves beside the
// resident memory (then a best effort). False when no lower cap was set.
bool cap_address_space(const MemoryLimit& limit);

// Puts back what address_space_limit() returned (nothing when it is none). The
// hard limit is never lowered by cap_address_space, so the soft one can go back.
void restore_address_space_limit(const std::optional<AddressSpaceLimit>& limits);

}  // namespace benchreport

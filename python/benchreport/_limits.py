"""The memory a container gives this process: its cgroup's limit (v2 ``memory.max``, v1
``memory.limit_in_bytes``, the smallest over the cgroup and its parents), read so the CLI can
refuse work that would not fit (exit 2, one line naming the limit) instead of being killed by the
kernel's OOM killer (exit 137, no message). docs/hardening.md, "Low memory"."""
from __future__ import annotations

import contextlib
import os
from typing import List, NamedTuple, Optional

CGROUP_ROOT = "/sys/fs/cgroup"
#: v1 writes "no limit" as a huge page-aligned number (2^63 - 4096 on x86-64): anything from 2^60 is none.
UNLIMITED = 1 << 60
#: Estimated memory per input byte (after decompression) of reading it: measured 3.2 for the densest
#: canonical CSV (`a,ms,1` per sample: 35 MB read with a peak 113 MB above the import's), 9.4 for a
#: compare of two such files; 12 leaves a margin. A compare of many cases needs more (100 000 cases
#: of 10 samples, 34 MB: 1.7 GB); cap_address_space turns that into a clean MemoryError.
BYTES_PER_INPUT_BYTE = 12


class MemoryLimit(NamedTuple):
    bytes: int
    source: str  # the file that set it, e.g. /sys/fs/cgroup/memory/job/memory.limit_in_bytes


def _cgroup_paths(proc: str = "/proc/self/cgroup") -> List[tuple]:
    """(controller file name, absolute folder) for the memory controller, v2 and v1."""
    out: List[tuple] = []
    try:
        with open(proc, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return out
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":  # v2 (unified); on a hybrid host it is mounted at .../unified
            for root in (CGROUP_ROOT, os.path.join(CGROUP_ROOT, "unified")):
                out.append(("memory.max", root, path))
        elif "memory" in controllers.split(","):
            out.append(("memory.limit_in_bytes", os.path.join(CGROUP_ROOT, "memory"), path))
    return out


def _read_limit(path: str) -> Optional[int]:
    try:
        with open(path, encoding="ascii") as fh:
            text = fh.read().strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.isdecimal():
        return None  # "max"
    value = int(text)
    return value if value < UNLIMITED else None


def memory_limit(proc: str = "/proc/self/cgroup") -> Optional[MemoryLimit]:
    """The smallest memory limit of this process's cgroups and their parents, or None."""
    best: Optional[MemoryLimit] = None
    for name, root, path in _cgroup_paths(proc):
        folder = os.path.normpath(os.path.join(root, path.lstrip("/")))
        while folder.startswith(root):
            limit = _read_limit(os.path.join(folder, name))
            if limit is not None and (best is None or limit < best.bytes):
                best = MemoryLimit(limit, os.path.join(folder, name))
            if folder == root:
                break
            folder = os.path.dirname(folder)
    return best


def _status_bytes(field: str) -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def resident_bytes() -> int:
    return _status_bytes("VmRSS")


def describe(limit: MemoryLimit) -> str:
    return f"the memory limit of {limit.bytes} bytes ({limit.bytes / 2**20:.0f} MiB, {limit.source})"


def cap_address_space(limit: MemoryLimit) -> bool:
    """Lower RLIMIT_AS so an allocation past the cgroup limit fails (MemoryError, exit 2 with one
    line) instead of the OOM killer ending the process (exit 137). Resident memory never exceeds
    the address space, so a cap at the limit itself guarantees it; memory that is reserved but not
    resident (thread stacks, malloc arenas: about 190 MB of the 220 MB mapped after import here)
    counts against the cap, so the cap is the limit, or, when more than that is already mapped, the
    address space now plus what the limit leaves beside the resident memory (then a best effort).
    False when no lower cap was set."""
    try:
        import resource
    except ImportError:  # not on Windows (no cgroups there either)
        return False
    mapped, resident = _status_bytes("VmSize"), resident_bytes()
    cap = limit.bytes if mapped < limit.bytes else mapped + max(limit.bytes - resident, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY and soft <= cap:
        return False
    if hard != resource.RLIM_INFINITY and hard < cap:
        cap = hard
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        return False
    return True


def address_space_limit() -> Optional[tuple]:
    """RLIMIT_AS (soft, hard), or None where there is no such limit (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    return resource.getrlimit(resource.RLIMIT_AS)


def restore_address_space_limit(limits: Optional[tuple]) -> None:
    if limits is None:
        return
    import resource
    # A soft limit cannot be raised back above a lowered hard limit; cap_address_space keeps hard.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, limits)


def estimated_need(input_bytes: int) -> int:
    """Memory a read of ``input_bytes`` (after decompression) may need on top of what is resident."""
    return input_bytes * BYTES_PER_INPUT_BYTE

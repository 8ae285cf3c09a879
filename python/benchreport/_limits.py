"""The memory a container gives this process, so the CLI refuses work that would not fit (exit 2,
one line) instead of meeting the OOM killer (include/benchreport/core/memory_limit.hpp;
docs/hardening.md, "Low memory")."""
from __future__ import annotations

from typing import NamedTuple, Optional

from . import _core
from ._core import address_space_limit, estimated_need, resident_bytes, restore_address_space_limit

CGROUP_ROOT = "/sys/fs/cgroup"


class MemoryLimit(NamedTuple):
    bytes: int
    source: str  # the file that set it, e.g. /sys/fs/cgroup/memory/job/memory.limit_in_bytes


def memory_limit(proc: str = "/proc/self/cgroup") -> Optional[MemoryLimit]:
    found = _core.memory_limit(proc, CGROUP_ROOT)
    return None if found is None else MemoryLimit(*found)


def describe(limit: MemoryLimit) -> str:
    return _core.describe_memory_limit(*limit)


def cap_address_space(limit: MemoryLimit) -> bool:
    return _core.cap_address_space(*limit)


__all__ = ["MemoryLimit", "address_space_limit", "cap_address_space", "describe", "estimated_need",
           "memory_limit", "resident_bytes", "restore_address_space_limit"]

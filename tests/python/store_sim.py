"""Seeded simulated stores for the store-history tests and bench (tests/python/test_store_history.py,
bench/bench_store_history.py): cases measured over commits with process-level (launch) noise,
planted steps and an optional environment change."""
from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

import benchreport as br
from benchreport.store import Store

START = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def sql(path, statement: str, *args):
    """Direct SQL on a store file, only while no Store of this process has it open: one SQLite copy
    touches a store file in a process (docs/store.md)."""
    db = sqlite3.connect(path)
    try:
        with db:
            return db.execute(statement, args).fetchall()
    finally:
        db.close()


def sha(commit: int) -> str:
    """A 40-hex commit name of position ``commit``."""
    return f"{commit:08x}" + "ab" * 16


def commit_dataset(rng: np.random.Generator, commit: int, cases: int, processes: int, samples: int,
                   steps: Mapping[int, Sequence[Tuple[int, float]]], sigma_process: float = 0.02,
                   sigma_sample: float = 0.01) -> br.Dataset:
    """One run: ``cases`` cases × ``processes`` processes × ``samples`` samples (ms); case c's level
    is 1 + c/10 times each factor of ``steps[c]`` whose commit is at most ``commit``."""
    values, names, procs = [], [], []
    for c in range(cases):
        level = 1.0 + c / 10
        for at, factor in steps.get(c, ()):
            level *= factor if commit >= at else 1.0
        for p in range(processes):
            launch = level * np.exp(rng.normal(0.0, sigma_process))
            values.append(launch * np.exp(rng.normal(0.0, sigma_sample, samples)))
            names.append(f"case{c:05d}")
            procs.append(str(p))
    offsets = np.arange(0, samples * len(values) + 1, samples, dtype=np.int64)
    return br.Dataset.from_arrays(np.concatenate(values), offsets, {"name": names, "process": procs}, unit="ms")


def record_commits(store: Store, commits: range, *, seed: int, cases: int = 3, processes: int = 2,
                   samples: int = 5, steps: Optional[Dict[int, Sequence[Tuple[int, float]]]] = None,
                   compiler_change: Optional[int] = None, branch: str = "main") -> None:
    """Records one run per commit of ``commits`` (each commit's own generator: any subset of
    commits gives the same runs); the compiler changes from gcc-13 to gcc-14 at ``compiler_change``."""
    for commit in commits:
        rng = np.random.default_rng([seed, commit])
        ds = commit_dataset(rng, commit, cases, processes, samples, steps or {})
        compiler = "gcc-14" if compiler_change is not None and commit >= compiler_change else "gcc-13"
        store.record(ds, commit=sha(commit), branch=branch,
                     time=(START + dt.timedelta(hours=commit)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     environment={"compiler": compiler})

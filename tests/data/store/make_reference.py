"""Writes reference.db: a store recorded by benchreport 0.1.0's Python store (before the store moved
into C++), kept so that tests check the C++ store reads it and writes the same rows byte for byte.

    PYTHONPATH=build/dev/python python3 tests/data/store/make_reference.py
"""
import os
from pathlib import Path

import numpy as np

import benchreport as br
from benchreport.store import Store

DATA = Path(__file__).resolve().parents[1]
#: What reference.db holds, in recording order: (inputs, commit, branch, time).
RECORDS = [
    ([str(DATA / "nitro" / "raw" / "android" / "base-*.json")], None, "main", "2026-01-02T03:04:05Z"),
    ([str(DATA / "pyperf" / "two_benchmarks.json")], "c0ffee", "main", "2026-01-03T00:00:00+01:00"),
    ([str(DATA / "google_benchmark" / "repetitions.json")], "beef", "feature", "2026-01-04T10:00:00.250"),
]


def weighted() -> br.Dataset:
    """A dataset with weights, process labels, a label needing JSON escapes and a custom unit."""
    rng = np.random.default_rng(7)
    values = rng.lognormal(size=12) * 1e-3
    labels = {"benchmark": ["a\"b\\c\n", "caf\u00e9 \u2603"], "process": ["1", "2"], "z": ["\t", "x"]}
    return br.Dataset.from_arrays(values, [0, 5, 12], labels, unit="s", weights=rng.integers(1, 9, 12).astype(float))


def main() -> None:
    path = Path(__file__).with_name("reference.db")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.environ.clear()  # no CI variables in the environment rows
    with Store.open(path) as store:
        for inputs, commit, branch, time in RECORDS:
            store.record(inputs, commit=commit, branch=branch, time=time, environment={"compiler": "gcc-14"})
        store.record(weighted(), commit="d00d", branch="main", time="2026-01-05T00:00:00Z")
    # closing the last connection checkpoints the WAL into the file and removes it


if __name__ == "__main__":
    main()

"""The results store at scale: record throughput, size on disk, Parquet export.

    PYTHONPATH=build/dev/python python3 bench/bench_store.py --cases 10000 --commits 1000 --samples 10
    PYTHONPATH=build/dev/python python3 bench/bench_store.py --commits 20      # a quick run

One run per commit on branch ``main``: ``--cases`` sets of ``--samples`` samples each (one
process per case), log-normal values with a per-case level and a level shift at the middle
commit for one case in ten. Each commit's Dataset is built before the clock starts; the time
is ``Store.record`` alone (reading the Dataset, hashing, one SQLite transaction), summed over
commits. Size on disk is the store file after a WAL checkpoint, against the raw samples at 8
bytes each. Export is ``Store.export_parquet`` into a new folder (zstd-free default Parquet,
snappy), its time and total size. ``--dask`` also reads the export back with
``benchreport.dask.read_store`` and times a full ``analyze`` over it (one history per case).
Wall times on a shared machine: the figures are one run, not a best of several.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import benchreport as br
from benchreport.store import Store


def commit_dataset(rng: np.random.Generator, cases: int, samples: int, k: int, commits: int,
                   names: list) -> br.Dataset:
    levels = 1e-3 * (1.0 + np.arange(cases) % 97 / 10.0)
    shifted = (np.arange(cases) % 10 == 0) & (k >= commits // 2)
    centre = np.where(shifted, levels * 1.1, levels)
    values = rng.lognormal(mean=0.0, sigma=0.02, size=(cases, samples)) * centre[:, None]
    offsets = np.arange(0, cases * samples + 1, samples, dtype=np.int64)
    return br.Dataset.from_arrays(values.ravel(), offsets, {"benchmark": names, "process": ["1"] * cases})


def directory_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--dir", help="work folder (default: a temporary one, removed afterwards)")
    parser.add_argument("--dask", action="store_true", help="also time read_store + analyze on the export")
    args = parser.parse_args()

    work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench_store_"))
    work.mkdir(parents=True, exist_ok=True)
    path, export = work / "store.db", work / "export"
    for old in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        old.unlink(missing_ok=True)
    shutil.rmtree(export, ignore_errors=True)
    rng = np.random.default_rng(args.seed)
    names = [f"BM_case_{i:05d}" for i in range(args.cases)]
    n_samples = args.cases * args.commits * args.samples

    record_seconds = 0.0
    with Store.open(path) as store:
        for k in range(args.commits):
            dataset = commit_dataset(rng, args.cases, args.samples, k, args.commits, names)
            start = time.perf_counter()
            store.record(dataset, commit=f"{k:040x}", branch="main", time=f"2026-01-01T00:00:00Z")
            record_seconds += time.perf_counter() - start
            if k % max(1, args.commits // 10) == 0:
                print(f"  commit {k + 1}/{args.commits}: {record_seconds:.1f} s recording", file=sys.stderr)
    size = path.stat().st_size  # closed: the WAL is checkpointed into the file
    with Store.open(path) as store:
        start = time.perf_counter()
        counts = store.export_parquet(export)
        export_seconds = time.perf_counter() - start
    export_size = directory_size(export)
    raw = 8 * n_samples

    print(f"cases x commits x samples: {args.cases} x {args.commits} x {args.samples} = {n_samples:,} samples")
    print(f"record: {record_seconds:.1f} s, {n_samples / record_seconds:,.0f} samples/s, "
          f"{args.commits / record_seconds:.2f} runs/s ({args.cases} sets each)")
    print(f"store size: {size / 2**20:,.1f} MiB on disk vs {raw / 2**20:,.1f} MiB raw samples "
          f"({size / raw:.2f}x; {size / (args.cases * args.commits):.0f} bytes per set)")
    print(f"Parquet export: {export_seconds:.1f} s, {export_size / 2**20:,.1f} MiB in {counts['files']} files "
          f"({export_size / raw:.2f}x raw; {n_samples / export_seconds:,.0f} samples/s)")
    if args.dask:
        import benchreport.dask as brd

        start = time.perf_counter()
        frame = brd.read_store(export, "main")
        _, changes = brd.analyze(frame.drop(columns=["process"]), order="seq")
        seconds = time.perf_counter() - start
        case = changes["benchmark"].str.slice(8).astype(int)
        planted = (case % 10 == 0) & (changes["commit"].astype(int) == args.commits // 2)
        print(f"dask read_store + analyze (history of {args.cases} cases): {seconds:.1f} s; {len(changes)} change "
              f"points, {int(planted.sum())} of the {(args.cases + 9) // 10} planted +10 % shifts at their commit, "
              f"{len(changes) - int(planted.sum())} elsewhere")
    if not args.dir:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""benchreport.dask against the single-process kernels (issue 15).

Writes a seeded planted-shift history (bench/history_sim.py) as Parquet partitioned by case
(one file per case, written case by case so memory stays one case), then times

- the Dask path: ``benchreport.dask.analyze``, summaries by (case, commit) and change points
  per case in one pass on a ``LocalCluster`` (``--workers`` processes, one thread each), the
  case-alignment check included;
- the single-process path: ``pyarrow.parquet.read_table`` of the first ``--single-cases``
  cases, ``read_arrow``, ``Dataset.summarize(by=["case", "commit"], threads=1)`` and
  ``history(order="commit", threads=1)``, on one core;

and checks that the Dask results on those cases equal the single-process ones. Throughput is
samples (Parquet rows) per second per core.

Run: PYTHONPATH=build/dev/python nice -n 10 python3 bench/bench_dask.py \\
         [--cases 200 --commits 100 --processes 5 --samples 1000 --single-cases 20]
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Callable, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history_sim import write_parquet_history  # noqa: E402


def timed(run: Callable[[], Any]) -> Tuple[Any, float, float]:
    """``run()``, its wall-clock seconds and the CPU seconds of this process."""
    start, cpu = time.perf_counter(), time.process_time()
    out = run()
    return out, time.perf_counter() - start, time.process_time() - cpu


def cluster_cpu(client: Any) -> float:
    """CPU seconds used so far by the workers and the scheduler (their own processes)."""
    return sum(client.run(time.process_time).values()) + client.run_on_scheduler(time.process_time)


def single_process(root: str, cases: list, seed: int) -> Tuple[Any, Any]:
    """The single-process path on some cases: summaries by (case, commit) and change points."""
    import pyarrow.parquet as pq

    import benchreport as br
    dataset = br.read_arrow(pq.read_table(root, filters=[("case", "in", cases)]))
    summaries = dataset.summarize(by=["case", "commit"], threads=1)
    return summaries, br.history(dataset, order="commit", seed=seed, threads=1).to_pandas()


def dask_path(root: str, seed: int) -> Tuple[Any, Any]:
    """The Dask path on every case, on the current client."""
    import benchreport.dask as brd
    frame = brd.read_parquet(root)
    return brd.analyze(frame, by=["case", "commit"], seed=seed, threads=1)


def subset(frame: Any, cases: list) -> Any:
    return frame[frame["case"].isin(cases)].reset_index(drop=True)


def assert_same(dask_out: Tuple[Any, Any], single_out: Tuple[Any, Any], cases: list) -> None:
    import pandas as pd
    for got, expected in zip(dask_out, single_out):
        pd.testing.assert_frame_equal(subset(got, cases), expected, check_exact=True)


def row(name: str, cores: int, samples: int, seconds: float, cpu: float) -> str:
    rate = samples / seconds
    return (f"| {name} | {cores} | {samples:,} | {seconds:.1f} s | {rate / 1e6:.2f} M/s | {rate / cores / 1e6:.2f} M/s "
            f"| {cpu:.1f} s | {samples / cpu / 1e6:.2f} M/s |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--commits", type=int, default=100)
    ap.add_argument("--processes", type=int, default=5)
    ap.add_argument("--samples", type=int, default=1000, help="samples per process")
    ap.add_argument("--single-cases", type=int, default=20, help="cases timed on the single-process path")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--root", default="/tmp/benchreport-dask-history")
    ap.add_argument("--keep", action="store_true", help="keep the Parquet history afterwards")
    args = ap.parse_args()

    from dask.distributed import Client, LocalCluster

    shutil.rmtree(args.root, ignore_errors=True)
    total, write_s, _ = timed(lambda: write_parquet_history(args.root, args.cases, args.commits, args.processes,
                                                         args.samples, seed=args.seed))
    per_case = total // args.cases
    cases = [f"case{i:04d}" for i in range(min(args.single_cases, args.cases))]
    single_out, single_s, single_cpu = timed(lambda: single_process(args.root, cases, args.seed))
    cluster_options = {"n_workers": args.workers, "threads_per_worker": 1, "processes": True,
                       "dashboard_address": None}
    with LocalCluster(**cluster_options) as cluster, Client(cluster) as client:
        before = cluster_cpu(client)
        dask_out, dask_s, local_cpu = timed(lambda: dask_path(args.root, args.seed))
        dask_cpu = cluster_cpu(client) - before + local_cpu
    assert_same(dask_out, single_out, cases)
    if not args.keep:
        shutil.rmtree(args.root, ignore_errors=True)

    single_n = per_case * len(cases)
    wall_ratio = (single_n / single_s) / (total / dask_s / args.workers)
    cpu_ratio = (single_n / single_cpu) / (total / dask_cpu)
    print(f"{args.cases} cases x {args.commits} commits x {args.processes} processes x {args.samples} samples "
          f"= {total:,} samples as Parquet partitioned by case (written in {write_s:.0f} s); seed {args.seed}")
    print(f"summaries by (case, commit): {len(dask_out[0]):,} rows; change points: {len(dask_out[1]):,} "
          f"in {args.cases} cases; Dask results on the {len(cases)} single-process cases identical to it\n")
    print("| path | cores | samples | time | samples/s | samples/s per core | CPU time | samples per CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print(row("single process (read_table + read_arrow + summarize + history)", 1, single_n, single_s, single_cpu))
    print(row(f"benchreport.dask, LocalCluster {args.workers} workers x 1 thread", args.workers, total, dask_s,
              dask_cpu))
    print(f"\nper core (wall clock), Dask is {wall_ratio:.2f}x slower than the single-process kernels; per CPU "
          f"second (workers + scheduler + client) {cpu_ratio:.2f}x (goal: within 2x); {os.cpu_count()} cores, "
          f"{platform.machine()}, Python {platform.python_version()}")


if __name__ == "__main__":
    main()

"""Times `history --store` full and incremental, and the same history on Dask from the store's
Parquet export (issue 34). Writes the figures as Markdown (bench/RESULTS-store-history.md).

    python3 bench/bench_store_history.py --cases 1000 --commits 1000 --samples 50 --out bench/RESULTS-store-history.md

Each `history --store` step is the command line in a child process (`python3 -m benchreport history
--store ... --format json`), timed with its peak resident memory (wait4's ru_maxrss); the report JSON of
the incremental history is compared byte for byte with that of the full one on the same runs.

Data: tests/python/store_sim.py (seeded; per case and commit `processes` launches of `samples`
samples, launch noise 2 %, sample noise 1 %, a planted +15 % step in every tenth case at the middle
commit). Times are wall-clock seconds of one run each on this machine (2 cores, shared)."""
from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))

from store_sim import record_commits  # noqa: E402

from benchreport._store_history import store_history  # noqa: E402
from benchreport.store import Store  # noqa: E402


def _timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def _history_cli(path: Path, *extra: str) -> Tuple[str, float, float, float]:
    """(report JSON, wall seconds, peak RSS in MiB, CPU seconds) of `benchreport history --store path`
    in a child process."""
    out = path.with_suffix(".json")
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "benchreport", "history", "--store", str(path), "--branch", "main",
                              "--format", "json", "--output", str(out), *extra])
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):  # 1: the history found regressions (its exit code for --fail-on)
        raise SystemExit(f"history --store exited with {child.returncode}")
    return out.read_text(), seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--samples", type=int, default=5, help="samples per process")
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--dir", default=None, help="work folder (default a temporary one)")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    work = Path(a.dir or tempfile.mkdtemp(prefix="bench-store-history-"))
    work.mkdir(parents=True, exist_ok=True)
    path = work / "store.db"
    steps = {c: [(a.commits // 2, 1.15)] for c in range(0, a.cases, 10)}
    samples = a.cases * a.commits * a.processes * a.samples
    rows = []
    with Store.open(path) as store:
        cpu = time.process_time()
        _, t_record = _timed(lambda: record_commits(store, range(a.commits), seed=a.seed, cases=a.cases,
                                                    processes=a.processes, samples=a.samples, steps=steps))
        cpu_record = time.process_time() - cpu
        rss_record = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        _, t_full, rss_full, cpu_full = _history_cli(path, "--rebuild")
        _, t_cached, rss_cached, cpu_cached = _history_cli(path)
        record_commits(store, range(a.commits, a.commits + 1), seed=a.seed, cases=a.cases, processes=a.processes,
                       samples=a.samples, steps=steps)
        inc, t_inc, rss_inc, cpu_inc = _history_cli(path)
        rebuilt, t_full2, rss_full2, cpu_full2 = _history_cli(path, "--rebuild")
        same = inc == rebuilt
        n_cp = sum(len(c.change_points) for c in store_history(store).core.changes)
        rows += [("record (simulate + `Store.record`, one run a commit)", t_record, cpu_record, rss_record,
                  f"{samples / t_record:,.0f} samples/s"),
                 ("`history --store --rebuild` (every run summarised)", t_full, cpu_full, rss_full,
                  f"{samples / t_full:,.0f} samples/s"),
                 ("`history --store`, nothing new (cache only: assembly + change points)", t_cached, cpu_cached,
                  rss_cached, ""),
                 ("`history --store` incremental (1 new run)", t_inc, cpu_inc, rss_inc, "1 run summarised"),
                 ("`history --store --rebuild` again, with the new run", t_full2, cpu_full2, rss_full2,
                  f"{(samples + samples // a.commits) / t_full2:,.0f} samples/s; {n_cp} change points; report JSON "
                  f"equal to the incremental one: {same}")]
        if not a.no_dask:
            import dask

            from benchreport import dask as brd
            export = work / "export"
            _, t_export = _timed(lambda: store.export_parquet(export))
            rows.append(("`store export` (Parquet, by branch and commit)", t_export, float("nan"), float("nan"), ""))
            with dask.config.set(scheduler="threads", num_workers=os.cpu_count() or 1):
                cps, t_dask = _timed(lambda: brd.change_points(brd.read_store(export, "main"), order="seq").compute())
            n_now = n_cp
            rows.append(("Dask (threads, this machine): `read_store` + `change_points(order=\"seq\")`", t_dask,
                         float("nan"), float("nan"),
                         f"{len(cps)} change points (`history --store` on the same runs: {n_now})"))
    size = os.path.getsize(path)
    lines = [f"Store: {a.cases} cases × {a.commits + 1} commits × {a.processes} processes × {a.samples} samples "
             f"({samples:,} samples before the incremental run), seed {a.seed}; file {size / 2**20:,.0f} MiB "
             f"(raw float64 {samples * 8 / 2**20:,.0f} MiB). {platform.processor() or platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()}.", "",
             "| step | wall s | CPU s | peak RSS MiB | note |", "|---|---:|---:|---:|---|"]
    lines += [f"| {name} | {t:.2f} | {'' if cpu != cpu else f'{cpu:.2f}'} | {'' if rss != rss else f'{rss:,.0f}'} "
              f"| {note} |" for name, t, cpu, rss, note in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        Path(a.out).write_text(text)


if __name__ == "__main__":
    main()

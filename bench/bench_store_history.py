"""Times `history --store` full and incremental, and the same history on Dask from the store's
Parquet export (issue 34). Writes the figures as Markdown (bench/RESULTS-store-history.md).

    python3 bench/bench_store_history.py --cases 1000 --commits 1000 --out bench/RESULTS-store-history.md

Data: tests/python/store_sim.py (seeded; per case and commit `processes` launches of `samples`
samples, launch noise 2 %, sample noise 1 %, a planted +15 % step in every tenth case at the middle
commit). Times are wall-clock seconds of one run each on this machine (2 cores, shared)."""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))

from store_sim import record_commits  # noqa: E402

from benchreport._store_history import store_history  # noqa: E402
from benchreport.store import Store  # noqa: E402


def _timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


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
        _, t_record = _timed(lambda: record_commits(store, range(a.commits), seed=a.seed, cases=a.cases,
                                                    processes=a.processes, samples=a.samples, steps=steps))
        full, t_full = _timed(lambda: store_history(store, rebuild=True))
        _, t_cached = _timed(lambda: store_history(store))
        record_commits(store, range(a.commits, a.commits + 1), seed=a.seed, cases=a.cases, processes=a.processes,
                       samples=a.samples, steps=steps)
        inc, t_inc = _timed(lambda: store_history(store))
        rebuilt, t_full2 = _timed(lambda: store_history(store, rebuild=True))
        same = inc.report.to_json() == rebuilt.report.to_json()
        n_cp = sum(len(c.change_points) for c in full.analysis.changes)
        rows += [("record (simulate + `Store.record`, one run a commit)", t_record, f"{samples / t_record:,.0f} samples/s"),
                 ("`history --store` full (`--rebuild`: every run summarised)", t_full,
                  f"{samples / t_full:,.0f} samples/s; {n_cp} change points"),
                 ("`history --store`, nothing new (cache only: assembly + change points)", t_cached, ""),
                 ("`history --store` incremental (1 new run)", t_inc, f"{inc.summarised_runs} run summarised"),
                 ("`history --store` full again, with the new run", t_full2,
                  f"report JSON equal to the incremental one: {same}")]
        if not a.no_dask:
            import dask

            from benchreport import dask as brd
            export = work / "export"
            _, t_export = _timed(lambda: store.export_parquet(export))
            rows.append(("`store export` (Parquet, by branch and commit)", t_export, ""))
            with dask.config.set(scheduler="threads", num_workers=os.cpu_count() or 1):
                cps, t_dask = _timed(lambda: brd.change_points(brd.read_store(export, "main"), order="seq").compute())
            n_now = sum(len(c.change_points) for c in rebuilt.analysis.changes)
            rows.append(("Dask (threads, this machine): `read_store` + `change_points(order=\"seq\")`", t_dask,
                         f"{len(cps)} change points (`history --store` on the same runs: {n_now})"))
    size = os.path.getsize(path)
    lines = [f"Store: {a.cases} cases × {a.commits + 1} commits × {a.processes} processes × {a.samples} samples "
             f"({samples:,} samples before the incremental run), seed {a.seed}; file {size / 2**20:,.0f} MiB "
             f"(raw float64 {samples * 8 / 2**20:,.0f} MiB). {platform.processor() or platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()}.", "",
             "| step | seconds | note |", "|---|---:|---|"]
    lines += [f"| {name} | {t:.2f} | {note} |" for name, t, note in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        Path(a.out).write_text(text)


if __name__ == "__main__":
    main()

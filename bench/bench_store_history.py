"""Times `history --store` full and incremental, and the same history on Dask from the store's
Parquet export (issue 34). Writes the figures as Markdown (bench/RESULTS-store-history.md).

    python3 bench/bench_store_history.py --cases 1000 --commits 1000 --samples 50 --out bench/RESULTS-store-history.md
    python3 bench/bench_store_history.py --cases 10000 --commits 1000 --processes 1 --samples 10   # the issue's shape

Each `history --store` step is the command line in a child process (`python3 -m benchreport history
--store ... --format json`), timed with its peak resident memory (wait4's ru_maxrss); the report JSON of
the incremental history is compared byte for byte with that of the full one on the same runs.

Data: tests/python/store_sim.py (seeded; per case and commit `processes` launches of `samples`
samples, launch noise 2 %, sample noise 1 %, a planted +15 % step in every tenth case at the middle
commit). Times are wall-clock seconds of one run each on this machine (2 cores, shared)."""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))

from store_sim import record_commits  # noqa: E402

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


def _change_points(report: str) -> int:
    return sum(len(series["change_points"]) for series in json.loads(report)["data"]["series"])


def _tree_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _dask_child(export: Path, memory_gib: float, shuffle: str, path: str) -> Tuple[str, float, float, float]:
    """(what the Dask history found, wall s, peak RSS MiB, CPU s) of this script's ``--dask-export``
    in a child process whose address space is capped at ``memory_gib``: a history too large for
    this machine ends in a MemoryError there instead of pushing a shared machine out of memory."""
    def cap() -> None:
        limit = int(memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, __file__, "--dask-export", str(export), "--dask-shuffle", shuffle,
                              "--dask-path", path],
                             stdout=subprocess.PIPE,
                             text=True, preexec_fn=cap)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    found = out.strip() if code == 0 else f"failed (exit {code}; address space capped at {memory_gib:g} GiB)"
    return found, seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def _dask_history(export: str, shuffle: str, path: str) -> None:
    """``summaries``: ``store_history`` (each commit summarised where it lies, summaries shuffled);
    ``samples``: ``read_store`` + ``change_points`` (the raw samples shuffled into whole cases)."""
    import dask

    from benchreport import dask as brd
    with dask.config.set({"scheduler": "threads", "num_workers": os.cpu_count() or 1,
                          "dataframe.shuffle.method": shuffle}):
        if path == "summaries":
            cps = brd.store_history(export, "main")
        else:
            cps = brd.change_points(brd.read_store(export, "main"), order="seq").compute()
    print(f"{len(cps)} change points")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--samples", type=int, default=5, help="samples per process")
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--dir", default=None, help="work folder (default a temporary one)")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--no-recheck", action="store_true",
                    help="skip the second full history (incremental = full is then checked at a smaller size)")
    ap.add_argument("--dask-memory-gib", type=float, default=12.0, help="address-space cap of the Dask child")
    ap.add_argument("--dask-shuffle", choices=("tasks", "disk"), default="tasks",
                    help="Dask's shuffle of the export into whole cases: in memory (tasks) or through files (disk)")
    ap.add_argument("--dask-path", choices=("summaries", "samples"), default="summaries",
                    help="what Dask shuffles by case: per-(case, commit) summaries (store_history) or raw samples "
                         "(read_store + change_points)")
    ap.add_argument("--dask-export", default=None, help=argparse.SUPPRESS)  # the Dask child's own entry
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.dask_export:
        _dask_history(a.dask_export, a.dask_shuffle, a.dask_path)
        return
    work = Path(a.dir or tempfile.mkdtemp(prefix="bench-store-history-"))
    work.mkdir(parents=True, exist_ok=True)
    path = work / "store.db"
    steps = {c: [(a.commits // 2, 1.15)] for c in range(0, a.cases, 10)}
    samples = a.cases * a.commits * a.processes * a.samples
    rows: List[Tuple[str, float, float, float, str]] = []

    def step(name: str, t: float, cpu: float, rss: float, note: str) -> None:
        """Keeps a step's figures and prints them at once (a long run that is stopped keeps what finished)."""
        rows.append((name, t, cpu, rss, note))
        print(f"step: {name}: {t:.2f} s wall, {cpu:.2f} s CPU, {rss:,.0f} MiB peak RSS; {note}", file=sys.stderr,
              flush=True)

    with Store.open(path) as store:
        cpu = time.process_time()
        _, t_record = _timed(lambda: record_commits(store, range(a.commits), seed=a.seed, cases=a.cases,
                                                    processes=a.processes, samples=a.samples, steps=steps))
        cpu_record = time.process_time() - cpu
        rss_record = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        step("record (simulate + `Store.record`, one run a commit)", t_record, cpu_record, rss_record,
             f"{samples / t_record:,.0f} samples/s")
        full, t_full, rss_full, cpu_full = _history_cli(path, "--rebuild")
        n_full = _change_points(full)
        step("`history --store --rebuild` (every run summarised)", t_full, cpu_full, rss_full,
             f"{samples / t_full:,.0f} samples/s; {n_full} change points")
        export = work / "export"
        if not a.no_dask:  # exported now, so that Dask reads the runs this full history read
            _, t_export = _timed(lambda: store.export_parquet(export))
            step("`store export` (Parquet, by branch and commit)", t_export, float("nan"), float("nan"),
                 f"{_tree_size(export) / 2**20:,.0f} MiB")
        _, t_cached, rss_cached, cpu_cached = _history_cli(path)
        step("`history --store`, nothing new (cache only: assembly + change points)", t_cached, cpu_cached,
             rss_cached, "")
        record_commits(store, range(a.commits, a.commits + 1), seed=a.seed, cases=a.cases, processes=a.processes,
                       samples=a.samples, steps=steps)
        inc, t_inc, rss_inc, cpu_inc = _history_cli(path)
        step("`history --store` incremental (1 new run)", t_inc, cpu_inc, rss_inc,
             f"1 run summarised; {_change_points(inc)} change points")
        if not a.no_recheck:
            rebuilt, t_full2, rss_full2, cpu_full2 = _history_cli(path, "--rebuild")
            step("`history --store --rebuild` again, with the new run", t_full2, cpu_full2, rss_full2,
                 f"{(samples + samples // a.commits) / t_full2:,.0f} samples/s; report JSON equal to the "
                 f"incremental one: {inc == rebuilt}")
    if not a.no_dask:
        found, t_dask, rss_dask, cpu_dask = _dask_child(export, a.dask_memory_gib, a.dask_shuffle, a.dask_path)
        what = ("`store_history` (summaries shuffled)" if a.dask_path == "summaries" else
                "`read_store` + `change_points(order=\"seq\")` (samples shuffled)")
        step(f"Dask (threads, {a.dask_shuffle} shuffle): {what}", t_dask,
             cpu_dask, rss_dask, f"{found} (`history --store` on the same runs: {n_full})")
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

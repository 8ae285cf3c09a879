"""Runs every bench script once with quick settings (`make bench`): a smoke run showing that
each still works against the current build, in a few minutes. The figures of a quick run are
not the recorded ones: bench/RESULTS-<area>.md gives each area's full command, and
bench/collect_results.py records its output.

    PYTHONPATH=build/dev/python python3 bench/run_all.py            # all, quick settings
    PYTHONPATH=build/dev/python python3 bench/run_all.py summary dask # some of them
    python3 bench/run_all.py --list                                   # names and arguments

Exits 1 if any script fails (its output is shown), 2 on an unknown name.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def quick_args(scratch: str) -> dict[str, list[str]]:
    """Each bench script (bench_<name>.py) and the arguments of its quick run."""
    return {
        "summary": ["--sets", "2000", "--samples", "50", "--repeats", "1", "--mad-apply-sets", "200"],
        "inference": ["--quick"],
        "compare_speed": ["--repeat", "1", "--cases", "10"],
        "verdicts": ["--cases", "40", "--threads", "2"],
        "moderated": ["--quick"],
        "compare_time": ["--cases", "200", "--repeat", "1"],
        "hostile": [],
        "readers": ["--repeat", "1", "--canonical-mb", "2", "--gbench-mb", "1", "--dir", f"{scratch}/readers"],
        "scale": ["--cases", "1000", "--big", "5000", "--repeat", "1"],
        "low_memory": ["--cases", "5000"],
        "history": ["--series", "3", "--repeat", "1"],
        "dask": ["--cases", "8", "--commits", "20", "--processes", "2", "--samples", "20",
                 "--single-cases", "2", "--workers", "1", "--root", f"{scratch}/dask"],
        "store": ["--cases", "200", "--commits", "5", "--dask", "--dir", f"{scratch}/store"],
        "scaling_models": ["--trials", "20"],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="bench scripts to run (bench_<name>.py); default all")
    ap.add_argument("--list", action="store_true", help="print the names and their quick arguments")
    args = ap.parse_args()
    names = set(quick_args("TMP"))
    present = {p.stem.removeprefix("bench_") for p in BENCH.glob("bench_*.py")}
    if names != present:
        print(f"run_all: out of date: listed but missing {sorted(names - present)}, "
              f"present but not listed {sorted(present - names)}")
        return 2
    if args.list:
        for name, extra in quick_args("TMP").items():
            print(f"bench_{name}.py {' '.join(extra)}")
        return 0
    unknown = [n for n in args.names if n not in names]
    if unknown:
        print(f"run_all: unknown bench {unknown}; known: {', '.join(sorted(names))}")
        return 2
    with tempfile.TemporaryDirectory(prefix="benchreport-bench-") as scratch:
        table = quick_args(scratch)
        failed = []
        for name in args.names or list(table):
            command = [sys.executable, str(BENCH / f"bench_{name}.py"), *table[name]]
            start = time.monotonic()
            done = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
            seconds = time.monotonic() - start
            status = "ok" if done.returncode == 0 else f"FAILED (exit {done.returncode})"
            print(f"== bench_{name}.py {' '.join(table[name])}: {status} in {seconds:.1f} s", flush=True)
            if done.returncode != 0:
                failed.append(name)
                print(done.stdout[-4000:], done.stderr[-4000:], sep="\n")
        print(f"run_all: {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

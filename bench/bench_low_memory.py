"""Low-memory sweep (issue 17, F6): `benchreport compare` (CLI) and `br.compare`
(Python, threads 1 and 2) on a large seeded canonical CSV under an address-space
limit (`ulimit -v`, set with resource.setrlimit(RLIMIT_AS) in the child), at
five limits between the import footprint and what the most demanding of the
three needs unlimited (its VmPeak). Every run must end with exit 0 (it fitted)
or a clean out-of-memory error (CLI: exit 2 and one line `benchreport: error:
out of memory ...`; Python: MemoryError), never exit 134 (abort), 139
(segfault) or 127 (glibc could not allocate a new thread's thread-local data).

Run: PYTHONPATH=build/dev/python python3 bench/bench_low_memory.py [--cases 30000]
Exits 1 if any run ended otherwise.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

FORMAT = "json"


def write_cases(path: Path, cases: int, samples: int = 10, seed: int = 1) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("benchmark,revision,unit,value\n")
        for i in range(cases):
            for rev, scale in (("base", 1.0), ("head", 1.02)):
                for _ in range(samples):
                    fh.write(f"case{i:06d},{rev},ns,{100 * scale * (1 + 0.01 * rng.random()):.4f}\n")


def run(args, limit_kib=None):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_kib * 1024, limit_kib * 1024))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          preexec_fn=limit if limit_kib else None)


# Prints the process's VmPeak (KiB) to stderr at exit.
PRINT_PEAK_AT_EXIT = ("import atexit, sys\n"
                      "atexit.register(lambda: print(next(l.split()[1] for l in open('/proc/self/status') "
                      "if l.startswith('VmPeak')), file=sys.stderr))\n")


def peak_kib(args) -> int:
    """VmPeak of an unlimited run of the CLI (args[0] the module) or of a ``-c`` script."""
    if args[0] == "-c":
        proc = run(["-c", PRINT_PEAK_AT_EXIT + args[1]])
    else:
        proc = run(["-c", PRINT_PEAK_AT_EXIT + "import runpy, sys\n" + f"sys.argv = {args!r}\n"
                    + "runpy.run_module(sys.argv[0], run_name='__main__')"])
    return int(proc.stderr.strip().splitlines()[-1])


CLEAN = ("ok (fitted)", "exit 2, out of memory", "MemoryError")


def outcome(proc) -> str:
    if proc.returncode < 0:
        return f"signal {signal.Signals(-proc.returncode).name} ({128 - proc.returncode})"
    if proc.returncode == 0:
        return "ok (fitted)"
    last = (proc.stderr.strip().splitlines() or [""])[-1]
    if proc.returncode == 2 and last.startswith("benchreport: error: out of memory"):
        return "exit 2, out of memory"
    if proc.returncode == 3 and "MemoryError" in proc.stdout:
        return "MemoryError"
    return f"exit {proc.returncode}: {last[:80]}"


def python_args(data: Path, threads: int):
    script = ("import sys, benchreport as br\n"
              "try:\n"
              f"    ds = br.load({str(data)!r})\n"
              f"    r = br.compare(ds, baseline={{'revision': 'base'}}, resamples=1000, threads={threads})\n"
              f"    r.report.render({FORMAT!r})\n"
              "except MemoryError:\n"
              "    print('MemoryError'); sys.exit(3)\n")
    return ["-c", script]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=30000)
    args = parser.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "cases.csv"
        write_cases(data, args.cases)
        out = Path(tmp) / f"report.{FORMAT}"
        cli = ["-m", "benchreport", "compare", str(data), "--format", FORMAT, "-o", str(out), "--resamples", "1000"]
        footprint = int(run(["-c", "import benchreport\nprint(next(l.split()[1] for l in open('/proc/self/status') "
                                   "if l.startswith('VmPeak')))"]).stdout)
        runs = (cli, python_args(data, 1), python_args(data, 2))
        needs = [peak_kib(["benchreport", *cli[2:]]), peak_kib(runs[1]), peak_kib(runs[2])]
        need = max(needs)
        limits = [footprint + (need - footprint) * k // 5 for k in range(1, 6)]
        print(f"# {args.cases} cases x 10 samples per side ({data.stat().st_size / 2**20:.0f} MiB canonical CSV); "
              f"import footprint {footprint / 1024:.0f} MiB; unlimited runs (VmPeak) "
              + ", ".join(f"{n / 1024:.0f} MiB" for n in needs) + " (CLI, Python threads=1, threads=2)")
        print()
        print("| limit (ulimit -v) | CLI compare | Python, threads=1 | Python, threads=2 |")
        print("|---:|---|---|---|")
        for limit in limits:
            cells = []
            for argv in runs:
                cells.append(outcome(run(argv, limit)))
                bad += cells[-1] not in CLEAN  # an abort, a crash, glibc's exit 127, any other error
            print(f"| {limit / 1024:.0f} MiB | " + " | ".join(cells) + " |")
    print()
    print(f"runs that ended otherwise (abort, crash, any other exit): {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

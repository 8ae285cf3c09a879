"""End-to-end scale (issue 17): `benchreport summary` and `benchreport compare`
of 100 000 cases (canonical CSV, 10 samples per case and side) and `compare`
of one case with 10^6 samples per side, each as its own process under
`/usr/bin/time -v` (wall time and peak RSS), with `summary` of the compare
file itself (both sides: the same data) as the reference for `compare`, side by side in one run with
references on the same files: pandas `read_csv` + `groupby(...).median()`
(also a process under /usr/bin/time -v), the grouped kernel plus reading
(`br.load` + `br.summarize_grouped`, in process) and one `numpy.median` of the
10^6 samples (warm: the best of the runs), against which the 10^6-sample case is
also timed in process (`br.compare` of the loaded dataset + JSON rendering).

Every figure is the best of --repeat runs (default 3; the machine is shared), with the peak RSS of
that run.

Run: PYTHONPATH=build/dev/python python3 bench/bench_scale.py [--cases 100000] [--big 1000000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def write_cases(path: Path, cases: int, sides, samples: int = 10, seed: int = 1) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("benchmark" + (",revision" if len(sides) > 1 else "") + ",unit,value\n")
        for i in range(cases):
            for rev, scale in sides:
                side = f",{rev}" if len(sides) > 1 else ""
                for _ in range(samples):
                    fh.write(f"case{i:06d}{side},ns,{100 * scale * (1 + 0.01 * rng.random()):.4f}\n")


def best_of(repeat, measure):
    """The fastest of `repeat` measurements (tuples whose first item is seconds)."""
    return min((measure() for _ in range(repeat)), key=lambda m: m[0] if isinstance(m, tuple) else m)


def timed(argv):
    """(seconds, peak RSS in MiB) of one process, from /usr/bin/time -v."""
    proc = subprocess.run(["/usr/bin/time", "-v", *argv], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, argv))} failed:\n{proc.stderr[-2000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    hours, minutes, seconds = (float(g) if g else 0.0 for g in wall.groups())
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))
    return hours * 3600 + minutes * 60 + seconds, rss / 1024


def pandas_median(path: Path, by: str):
    code = (f"import pandas as pd\ndf = pd.read_csv({str(path)!r})\n"
            f"m = df.groupby({by}, sort=False)['value'].median()\nassert len(m) > 0\n")
    return timed([sys.executable, "-c", code])


def kernel_with_reading(path: Path) -> float:
    import benchreport as br
    start = time.perf_counter()
    ds = br.load(str(path))
    br.summarize_grouped(ds.values, ds.offsets)
    return time.perf_counter() - start


def compare_in_process(path: Path) -> float:
    """br.compare of a loaded dataset plus its JSON rendering: the comparison without start-up and reading."""
    import benchreport as br
    ds = br.load(str(path))
    start = time.perf_counter()
    br.compare(ds).report.render_utf8("json")
    return time.perf_counter() - start


def numpy_median_seconds(n: int) -> float:
    x = np.random.default_rng(1).lognormal(0, 0.01, n)
    start = time.perf_counter()
    np.median(x)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=100000)
    parser.add_argument("--big", type=int, default=1000000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best = lambda measure: best_of(args.repeat, measure)  # noqa: E731
    cli = [sys.executable, "-m", "benchreport"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        one, two = tmp / "summary.csv", tmp / "compare.csv"
        write_cases(one, args.cases, [("base", 1.0)])
        write_cases(two, args.cases, [("base", 1.0), ("head", 1.02)])
        big = tmp / "big.csv"
        write_cases(big, 1, [("base", 1.0), ("head", 1.02)], samples=args.big)
        out = tmp / "out.json"
        pandas_two = best(lambda: pandas_median(two, "['benchmark', 'revision']"))  # one reference for both rows on two
        rows = [
            (f"summary, {args.cases} cases", best(lambda: timed([*cli, "summary", one, "--format", "json", "-o", out])),
             best(lambda: pandas_median(one, "'benchmark'"))),
            (f"summary of the compare file ({args.cases} cases x 2 sides)",
             best(lambda: timed([*cli, "summary", two, "--format", "json", "-o", out])), pandas_two),
            (f"compare, {args.cases} cases", best(lambda: timed([*cli, "compare", two, "--format", "json", "-o", out])),
             pandas_two),
            (f"compare, 1 case of {args.big} samples per side",
             best(lambda: timed([*cli, "compare", big, "--format", "json", "-o", out])),
             best(lambda: pandas_median(big, "['benchmark', 'revision']"))),
        ]
        kernel = best(lambda: kernel_with_reading(one))
        big_in_process = best(lambda: compare_in_process(big))
        median = best(lambda: numpy_median_seconds(args.big))
    print(f"# {args.cases} cases x 10 samples (per side for compare), canonical CSV; JSON report written to a file;"
          f" best of {args.repeat}")
    print()
    print("| work | benchreport | peak RSS | pandas read_csv + groupby median | peak RSS | time ratio | RSS ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for title, (t, rss), (pt, prss) in rows:
        print(f"| {title} | {t:.2f} s | {rss:.0f} MiB | {pt:.2f} s | {prss:.0f} MiB | {t / pt:.1f}x | {rss / prss:.1f}x |")
    (st, srss), (both, both_rss), (ct, crss), (bt, _) = (row[1] for row in rows)
    print()
    print(f"- summary / (br.load + summarize_grouped in process, {kernel:.2f} s): {st / kernel:.1f}x (target <= 5x)")
    print(f"- compare / summary of the same file (the issue's \"same data\"): time {ct / both:.1f}x (target <= 3x), "
          f"peak RSS {crss / both_rss:.1f}x (target <= 2x)")
    print(f"- compare / summary of one side of the same cases (half the samples and rows): time {ct / st:.1f}x, "
          f"peak RSS {crss / srss:.1f}x")
    print(f"- compare of the {args.big}-sample case / one numpy.median of it ({median * 1e3:.1f} ms): "
          f"{big_in_process / median:.0f}x in process (br.compare + JSON render, {big_in_process:.2f} s; "
          f"target <= 50x), {bt / median:.0f}x as the process above (start-up and reading included)")


if __name__ == "__main__":
    main()

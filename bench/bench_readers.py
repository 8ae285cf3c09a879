#!/usr/bin/env python3
"""Reader throughput and peak memory: br.load vs json.load / orjson.loads + the
same conversion to numpy arrays (values in base units + int64 offsets +
dictionary-encoded labels), side by side in one run.

Inputs are generated in /tmp (not committed): a canonical benchreport/1 JSON
file (~100 MB by default) and a Google Benchmark JSON file (~50 MB, with
repetitions and a counter). Times are best-of-N, wall clock and process CPU
time (the machine may be shared: CPU time is what the loader itself costs),
loaders interleaved. Peak memory is measured once per loader in a fresh
subprocess as the high-water RSS after the load minus the one after the
imports, reported against the file size. It reads VmHWM from /proc/self/status
(per address space) rather than getrusage's ru_maxrss, because ru_maxrss of a
child started by this (large) process starts at this process's peak: Linux
carries it across exec, so small loads would read as zero.

    PYTHONPATH=build/<you>/python python3 bench/bench_readers.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

TIME_SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


# --- input generation ---------------------------------------------------------
def write_canonical(path: Path, target_mb: float, seed: int = 1) -> None:
    """Sets of 500 samples (ns, 17 significant digits), labels benchmark/revision/platform."""
    rng = np.random.default_rng(seed)
    per_set = 500
    n_sets = max(1, int(target_mb * 1e6 / (per_set * 19.5)))
    with open(path, "w") as f:
        f.write('{"schema":"benchreport/1",\n"runs":[{"id":"r0","metadata":{"host":"bench"}}],\n"sets":[')
        for i in range(n_sets):
            values = rng.lognormal(7.0, 0.3, size=per_set)
            f.write(",\n" if i else "\n")
            f.write('{"labels":{"benchmark":"bench_%05d","revision":"%s","platform":"%s"},"unit":"ns",'
                    '"direction":"lower","run":"r0","values":[' % (i // 4, "base" if i % 2 else "head",
                                                                   "linux" if i % 4 < 2 else "mac"))
            f.write(",".join(map(repr, values.tolist())))
            f.write("]}")
        f.write('],\n"warnings":[]}\n')


def write_google_benchmark(path: Path, target_mb: float, seed: int = 2) -> None:
    """Iteration rows only (50 repetitions per benchmark), as --benchmark_repetitions writes them."""
    rng = np.random.default_rng(seed)
    reps = 50
    row_bytes = 470
    n_bench = max(1, int(target_mb * 1e6 / (reps * row_bytes)))
    with open(path, "w") as f:
        f.write('{\n  "context": {"date": "2026-01-01T00:00:00+00:00", "host_name": "bench", "num_cpus": 2,'
                ' "mhz_per_cpu": 3000, "cpu_scaling_enabled": false, "library_build_type": "release",'
                ' "caches": []},\n  "benchmarks": [\n')
        first = True
        for b in range(n_bench):
            name = f"BM_Function{b // 8}/{1 << (b % 8)}"
            real = rng.lognormal(8.0, 0.2, size=reps)
            cpu = real * rng.uniform(0.95, 1.0, size=reps)
            items = (1e9 / real).tolist()
            real, cpu = real.tolist(), cpu.tolist()
            for r in range(reps):
                if not first:
                    f.write(",\n")
                first = False
                f.write('    {\n      "name": "%s",\n      "family_index": %d,\n'
                        '      "per_family_instance_index": %d,\n      "run_name": "%s",\n'
                        '      "run_type": "iteration",\n      "repetitions": %d,\n      "repetition_index": %d,\n'
                        '      "threads": 1,\n      "iterations": 100000,\n      "real_time": %r,\n'
                        '      "cpu_time": %r,\n      "time_unit": "ns",\n      "items_per_second": %r\n    }'
                        % (name, b // 8, b % 8, name, reps, r, real[r], cpu[r], items[r]))
        f.write("\n  ]\n}\n")


# --- the pure-Python conversion the baselines do -------------------------------
def encode_labels(per_set: List[Dict[str, str]]) -> Dict[str, Tuple[np.ndarray, List[str]]]:
    """Dictionary encoding like Dataset.label_codes: column -> (int32 codes, -1 absent; dictionary)."""
    n = len(per_set)
    columns: Dict[str, Tuple[np.ndarray, Dict[str, int]]] = {}
    for i, labels in enumerate(per_set):
        for name, value in labels.items():
            if name not in columns:
                columns[name] = (np.full(n, -1, dtype=np.int32), {})
            codes, dictionary = columns[name]
            codes[i] = dictionary.setdefault(value, len(dictionary))
    return {name: (codes, list(dictionary)) for name, (codes, dictionary) in columns.items()}


def csr(series: List[List[float]], scales: List[float]) -> Tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter((len(s) for s in series), dtype=np.int64, count=len(series))
    offsets = np.zeros(len(series) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    values = np.fromiter(itertools.chain.from_iterable(series), dtype=np.float64, count=int(offsets[-1]))
    values *= np.repeat(np.asarray(scales, dtype=np.float64), lengths)
    return values, offsets


def convert_canonical(doc: Dict[str, Any]) -> Tuple[np.ndarray, np.ndarray, Dict[str, Any]]:
    sets = doc["sets"]
    values, offsets = csr([s["values"] for s in sets], [TIME_SCALE[s["unit"]] for s in sets])
    return values, offsets, encode_labels([s.get("labels", {}) for s in sets])


def convert_google_benchmark(doc: Dict[str, Any]) -> Tuple[np.ndarray, np.ndarray, Dict[str, Any]]:
    """One set per (run_name, metric): real_time, cpu_time, items_per_second, like the C++ reader."""
    series: Dict[str, Dict[str, List[float]]] = {}
    units: Dict[str, str] = {}
    for row in doc["benchmarks"]:
        if row.get("run_type", "iteration") != "iteration":
            continue
        s = series.setdefault(row["run_name"], {"real_time": [], "cpu_time": [], "items_per_second": []})
        units[row["run_name"]] = row["time_unit"]
        for metric, values in s.items():
            values.append(row[metric])
    samples, scales, labels = [], [], []
    for run_name, metrics in series.items():
        for metric, values in metrics.items():
            samples.append(values)
            scales.append(1.0 if metric == "items_per_second" else TIME_SCALE[units[run_name]])
            labels.append({"benchmark": run_name, "metric": metric})
    values, offsets = csr(samples, scales)
    return values, offsets, encode_labels(labels)


# --- loaders -----------------------------------------------------------------
def load_br(path: Path, kind: str, threads: int = 0):
    import benchreport as br

    ds = br.load(path, threads=threads)
    return ds.values, ds.offsets, {c: ds.label_codes(c) for c in ds.columns}


def load_br_one_thread(path: Path, kind: str):
    return load_br(path, kind, threads=1)


def load_json(path: Path, kind: str):
    with open(path, "rb") as f:
        doc = json.load(f)
    return CONVERT[kind](doc)


def load_orjson(path: Path, kind: str):
    import orjson

    with open(path, "rb") as f:
        doc = orjson.loads(f.read())
    return CONVERT[kind](doc)


CONVERT = {"canonical": convert_canonical, "gbench": convert_google_benchmark}
# br.load uses every core (a large Google Benchmark file is parsed as two
# parts at once); "threads=1" is the same load on one thread.
LOADERS: Dict[str, Callable[[Path, str], Any]] = {"br.load": load_br, "br.load threads=1": load_br_one_thread,
                                                   "json.load+numpy": load_json, "orjson+numpy": load_orjson}


def peak_in_subprocess(loader: str, path: Path, kind: str) -> float:
    """Extra peak RSS (bytes) of one load in a fresh interpreter."""
    out = subprocess.run([sys.executable, __file__, "--peak", loader, kind, str(path)], check=True,
                         capture_output=True, text=True, env=os.environ)
    return float(out.stdout.strip())


def high_water_rss() -> int:
    """Peak RSS of this address space in bytes (VmHWM; ru_maxrss where /proc is missing)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_peak(loader: str, kind: str, path: str) -> None:
    import orjson  # noqa: F401  (imports count towards the baseline, not the load)

    import benchreport  # noqa: F401

    before = high_water_rss()
    result = LOADERS[loader](Path(path), kind)
    after = high_water_rss()
    del result
    print(after - before)


def check_same(a, b, what: str) -> None:
    """The loaders must produce the same arrays, or the comparison means nothing."""
    np.testing.assert_array_equal(a[1], b[1], err_msg=f"{what}: offsets")
    np.testing.assert_allclose(a[0], b[0], rtol=1e-15, atol=0, err_msg=f"{what}: values")
    assert {k: (list(v[0]), list(v[1])) for k, v in a[2].items()} == \
        {k: (list(v[0]), list(v[1])) for k, v in b[2].items()}, f"{what}: labels"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="best of N timings per loader")
    ap.add_argument("--canonical-mb", type=float, default=100.0)
    ap.add_argument("--gbench-mb", type=float, default=50.0)
    ap.add_argument("--dir", default="/tmp/benchreport-bench-readers")
    ap.add_argument("--peak", nargs=3, metavar=("LOADER", "KIND", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peak:
        run_peak(*args.peak)
        return
    import benchreport as br

    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    inputs = [("canonical", folder / f"canonical-{args.canonical_mb:g}MB.json", write_canonical, args.canonical_mb),
              ("gbench", folder / f"gbench-{args.gbench_mb:g}MB.json", write_google_benchmark, args.gbench_mb)]
    for _, path, writer, mb in inputs:
        if not path.exists():
            writer(path, mb)
    print(f"# bench_readers: best of {args.repeat}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
          f"(shared machine); benchreport core {Path(br._core.__file__).name} from {Path(br._core.__file__).parent}")
    print()
    print("| input | size MB | sets | samples | loader | wall s | CPU s | MB/s (wall) | wall vs br.load | CPU vs br.load "
          "| peak extra RSS MB | peak / size |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind, path, _, _ in inputs:
        size = path.stat().st_size
        reference = load_br(path, kind)
        for name in [n for n in LOADERS if n != "br.load"]:
            check_same(reference, LOADERS[name](path, kind), f"{kind} {name}")
        best: Dict[str, float] = {name: float("inf") for name in LOADERS}
        best_cpu: Dict[str, float] = dict(best)
        for _ in range(args.repeat):  # interleaved, so load changes hit every loader alike
            for name, loader in LOADERS.items():
                t0, c0 = time.perf_counter(), time.process_time()
                loader(path, kind)
                best_cpu[name] = min(best_cpu[name], time.process_time() - c0)
                best[name] = min(best[name], time.perf_counter() - t0)
        for name in LOADERS:
            peak = peak_in_subprocess(name, path, kind)
            print(f"| {kind} | {size / 1e6:.1f} | {len(reference[1]) - 1} | {len(reference[0])} | {name} | "
                  f"{best[name]:.3f} | {best_cpu[name]:.3f} | {size / 1e6 / best[name]:.0f} | "
                  f"{best[name] / best['br.load']:.2f}x | {best_cpu[name] / best_cpu['br.load']:.2f}x | "
                  f"{peak / 1e6:.0f} | {peak / size:.2f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

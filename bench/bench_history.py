"""Change points: benchreport vs Apache Otava vs signal-processing-algorithms, side by side.

    sh bench/history_peer_venvs.sh /opt/history-peers     # the peers, each in its own venv, once
    PYTHONPATH=build/dev/python python3 bench/bench_history.py --series 100 \\
        --peer-venvs /opt/history-peers | python3 bench/collect_results.py --record history

Every detector gets the same series of per-commit summaries (median of the
per-process medians; bench/history_sim.py plants 1-3 shifts of 2-20 % under
process-level noise), plus otava-test-data's generated patterns when installed.
A detection is a true positive within +-1 commit of a planted shift (each
shift matched once); precision and recall are pooled over the series. Time is
wall time per series in this process, one series after another, one thread:
the best of --repeat passes over the workload (default 5), the tools taking
turns pass by pass, so that a slow spell of a shared machine falls on all of
them alike.

- benchreport: the `history` default, method "steps" (docs/statistics-history.md);
- benchreport e_divisive: E-divisive means (Matteson & James q, searched end), 199
  permutations, p <= 0.02, min magnitude 1 %, splits whose Bonferroni-adjusted
  Welch t-test is <= 0.0005 kept without permutations; "always permute" is the
  same with the screen off;
- Otava: `otava.core.compute_change_points` with its defaults (windows of
  50, t-test significance p <= 0.001, merge step);
- signal-processing-algorithms: `e_divisive(series, pvalue=0.05, permutations=100)`.

A peer runs in this process when importable, else with its venv's python
through bench/history_peer.py (timed there the same way: warm-up, then one
series after another).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history_sim import planted_series, precision_recall  # noqa: E402

from benchreport import _core  # noqa: E402

Detector = Callable[[np.ndarray], List[int]]


def ours(x: np.ndarray) -> List[int]:
    return [cp.index for cp in _core.series_changes(x).change_points]


def ours_e_divisive(x: np.ndarray) -> List[int]:
    return [cp.index for cp in _core.series_changes(x, method="e_divisive").change_points]


def ours_always_permute(x: np.ndarray) -> List[int]:
    return [cp.index for cp in _core.series_changes(x, method="e_divisive", screen_p_value=0.0).change_points]


class External:
    """A peer run by its venv's python (bench/history_peer.py protocol)."""

    def __init__(self, python: Path, tool: str, per_series_times: bool = False):
        self.python, self.tool, self.per_series_times = python, tool, per_series_times

    def run(self, series: Sequence[np.ndarray]) -> Tuple[List[List[int]], Any]:
        """Change points and the mean seconds per series (or, with per_series_times, each series' seconds)."""
        payload = json.dumps({"series": [list(map(float, x)) for x in series]})
        script = Path(__file__).resolve().parent / "history_peer.py"
        flags = ["--per-series-times"] if self.per_series_times else []
        done = subprocess.run([str(self.python), str(script), self.tool, *flags], input=payload, capture_output=True,
                              text=True, check=True)
        out = json.loads(done.stdout)
        return out["change_points"], out["seconds" if self.per_series_times else "seconds_per_series"]


def in_process_otava() -> Detector:
    from otava.core import compute_change_points

    return lambda x: [int(c.index) for c in compute_change_points(list(map(float, x)))[0]]


def in_process_spa() -> Detector:
    from signal_processing_algorithms.energy_statistics.energy_statistics import e_divisive

    def spa(x: np.ndarray) -> List[int]:
        np.random.seed(0)
        return sorted(int(i) for i in e_divisive(x, pvalue=0.05, permutations=100))

    return spa


def detectors(peer_venvs: str = "") -> Dict[str, object]:
    out: Dict[str, object] = {"benchreport": ours, "benchreport e_divisive": ours_e_divisive,
                              "benchreport e_divisive, always permute": ours_always_permute}
    for tool, in_process in (("otava", in_process_otava), ("signal-processing-algorithms", in_process_spa)):
        python = Path(peer_venvs) / tool / "bin" / "python"
        try:
            out[tool] = in_process()
        except ImportError:
            if peer_venvs and python.exists():
                out[tool] = External(python, tool)
            else:
                print(f"# {tool} not importable and no venv for it under --peer-venvs: skipped")
    return out


def planted_workload(n: int, commits: int, seed: int) -> List[Tuple[np.ndarray, List[int]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        s = planted_series(rng, commits=commits)
        out.append((s.summaries(), s.truth))
    return out


def otava_workload(n: int, length: int, seed: int) -> List[Tuple[np.ndarray, List[int]]]:
    try:
        from otava_test_data.generators.advanced import multiple_changes
        from otava_test_data.generators.basic import noise_normal, regression_fix, step_function
    except ImportError:
        print("# otava-test-data not installed: its workload skipped")
        return []
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        kind = i % 4
        s = int(rng.integers(1 << 30))
        if kind == 0:
            ts = step_function(length, 100.0, float(rng.uniform(103, 120)), int(rng.integers(10, length - 10)),
                               sigma=1.0, seed=s)
        elif kind == 1:
            ts = regression_fix(length, 100.0, float(rng.uniform(105, 130)), regression_start=int(rng.integers(10, length - 25)),
                                regression_duration=10, sigma=1.0, seed=s)
        elif kind == 2:
            ts = multiple_changes(length, [100.0, 106.0, 112.0, 104.0], sigma=1.0, seed=s)
        else:
            ts = noise_normal(length, 100.0, sigma=1.0, seed=s)
        out.append((np.asarray(ts.data, dtype=np.float64), ts.get_change_point_indices()))
    return out


def timed(detect: object, workload: Sequence[Tuple[np.ndarray, List[int]]]) -> Tuple[List[List[int]], float]:
    if isinstance(detect, External):
        return detect.run([x for x, _ in workload])
    detect(workload[0][0])  # warm-up (imports, first-call costs)
    start = time.perf_counter()
    found = [detect(x) for x, _ in workload]
    return found, (time.perf_counter() - start) / len(workload)


def run(name: str, workload: Sequence[Tuple[np.ndarray, List[int]]], found: Dict[str, object], repeat: int) -> None:
    if not workload:
        return
    best = {tool: float("inf") for tool in found}
    change_points: Dict[str, List[List[int]]] = {}
    for _ in range(repeat):  # tools in turn, pass by pass
        for tool, detect in found.items():
            change_points[tool], per_series = timed(detect, workload)
            best[tool] = min(best[tool], per_series)
    rows = []
    for tool in found:
        precision, recall = precision_recall([(cp, truth) for cp, (_, truth) in zip(change_points[tool], workload)])
        rows.append((tool, precision, recall, best[tool]))
    fastest_peer = min((r[3] for r in rows if not r[0].startswith("benchreport")), default=float("nan"))
    print(f"\n## {name}\n")
    print("| tool | precision | recall | time / series | time vs benchreport |")
    print("|---|---:|---:|---:|---:|")
    ours_time = rows[0][3]
    for tool, precision, recall, t in rows:
        print(f"| {tool} | {precision:.3f} | {recall:.3f} | {t * 1e3:.2f} ms | {t / ours_time:.1f}x |")
    if fastest_peer == fastest_peer:
        print(f"\nbenchreport is {fastest_peer / ours_time:.1f}x the speed of the faster peer.")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=100, help="series per workload (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peer-venvs", default="", help="folder of the peers' venvs (bench/history_peer_venvs.sh)")
    parser.add_argument("--repeat", type=int, default=5, help="passes over each workload per tool; the best is kept")
    args = parser.parse_args()
    found = detectors(args.peer_venvs)
    print(f"# {args.series} series per workload, seed {args.seed}; +-1 commit tolerance; "
          f"time per series: the best of {args.repeat} passes, tools in turn")
    for commits in (60, 200):
        run(f"planted shifts, {commits} commits, 3 processes x 10 samples per commit", planted_workload(args.series, commits, args.seed), found, args.repeat)
    for length in (50, 200):
        run(f"otava-test-data patterns, length {length} (step, regression+fix, multiple, noise; sigma 1 %)",
            otava_workload(args.series, length, args.seed), found, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Scores history change-point detectors on bench/history_corpus.py: F1 (margin 5) and covering, per kind.

    sh bench/history_peer_venvs.sh build/history-peers      # Otava and signal-processing-algorithms, once
    PYTHONPATH=build/dev/python python3 bench/history_eval.py --seed 1 --per-kind 20 \\
        --peer-venvs build/history-peers

Metrics (van den Burg & Williams 2020, "An evaluation of change point detection
algorithms", one annotator): with T the true change points and X the detected
ones, both with the point 0 added (so a series without change scores 1 when
nothing is found),

- F1 = 2 P R / (P + R), P = |TP| / |X|, R = |TP| / |T|, where TP matches each true
  point to the nearest unmatched detection within 5 points (each detection used once);
- cover = (1 / n) sum over true segments A of |A| max over detected segments A' of |A n A'| / |A u A'|.

Per kind: mean F1, mean cover, detections per series against true change points per
series, milliseconds per series (one series after another, one thread). The
summary line gives, for the new default, the false change points per 500 points on
trends and seasons without a step and the recall (margin 5) on shifts of 3 sigma or more.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Sequence, Set, Tuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_history import External  # noqa: E402
from history_corpus import KINDS, NO_STEP_SMOOTH, CorpusSeries, corpus  # noqa: E402

MARGIN = 5


def true_positives(truth: Iterable[int], found: Iterable[int], margin: int = MARGIN) -> Set[int]:
    """True points matched, in ascending order, to the nearest still unmatched detection within ``margin``."""
    free = set(found)
    hits = set()
    for t in sorted(set(truth)):
        near = sorted((abs(t - x), x) for x in free if abs(t - x) <= margin)
        if near:
            hits.add(t)
            free.remove(near[0][1])
    return hits


def f1(truth: Sequence[int], found: Sequence[int], margin: int = MARGIN) -> Tuple[float, float, float]:
    """(F1, precision, recall) with the point 0 added to both sets."""
    t, x = set(truth) | {0}, set(found) | {0}
    tp = len(true_positives(t, x, margin))
    precision, recall = tp / len(x), tp / len(t)
    return 2 * precision * recall / (precision + recall), precision, recall


def segments(points: Iterable[int], n: int) -> List[Tuple[int, int]]:
    """[begin, end) segments of 0..n cut at each point strictly inside (0, n)."""
    cuts = [0, *sorted({p for p in points if 0 < p < n}), n]
    return list(zip(cuts, cuts[1:]))


def covering(truth: Sequence[int], found: Sequence[int], n: int) -> float:
    """Covering of the true segmentation by the detected one."""
    detected = segments(found, n)
    total = 0.0
    for a, b in segments(truth, n):
        best = 0.0
        for c, d in detected:
            inter = max(0, min(b, d) - max(a, c))
            if inter:
                best = max(best, inter / (max(b, d) - min(a, c)))
        total += (b - a) * best
    return total / n


Detector = Callable[[np.ndarray], List[int]]


def benchreport_detector(method: str) -> Detector:
    from benchreport import _core

    return lambda x: [cp.index for cp in _core.series_changes(x, method=method).change_points]


def run_detector(detect: object, data: Sequence[CorpusSeries]) -> Tuple[List[List[int]], List[float]]:
    """Change points and seconds of each series."""
    if isinstance(detect, External):
        return detect.run([s.values for s in data])
    detect(data[0].values)  # warm-up
    found, seconds = [], []
    for s in data:
        start = time.perf_counter()
        found.append(detect(s.values))
        seconds.append(time.perf_counter() - start)
    return found, seconds


def detectors(peer_venvs: str, names: Sequence[str]) -> Dict[str, object]:
    out: Dict[str, object] = {}
    for name in names:
        if name in ("steps", "e_divisive"):
            out[f"benchreport {name}"] = benchreport_detector(name)
        else:
            python = Path(peer_venvs) / name / "bin" / "python"
            if python.exists():
                out[name] = External(python, name, per_series_times=True)
            else:
                print(f"# {name}: no venv under --peer-venvs {peer_venvs!r}: skipped")
    return out


def score(data: Sequence[CorpusSeries], found: Sequence[List[int]], seconds: Sequence[float]) -> Dict[str, Dict[str, float]]:
    """Per kind (and "overall"): f1, cover, found (per series), truth (per series), ms (per series), series."""
    rows: Dict[str, List[Tuple[float, float, int, int, float]]] = {}
    for s, cp, t in zip(data, found, seconds):
        f, _, _ = f1(s.truth, cp)
        row = (f, covering(s.truth, cp, len(s.values)), len(cp), len(s.truth), t)
        rows.setdefault(s.kind, []).append(row)
        rows.setdefault("overall", []).append(row)
    out = {}
    for kind, r in rows.items():
        a = np.array(r, dtype=np.float64)
        out[kind] = {"f1": a[:, 0].mean(), "cover": a[:, 1].mean(), "found": a[:, 2].mean(), "truth": a[:, 3].mean(),
                     "ms": a[:, 4].mean() * 1e3, "series": len(r)}
    return out


def targets(data: Sequence[CorpusSeries], found: Sequence[List[int]]) -> Dict[str, float]:
    """False change points per 500 points on trends/seasons without a step; recall on shifts >= 3 sigma."""
    false_points = points = hits = planted = 0
    for s, cp in zip(data, found):
        if s.kind in NO_STEP_SMOOTH:
            false_points += len(cp)
            points += len(s.values)
        if s.kind in ("shift_3s", "shift_5s"):
            hits += len(true_positives(s.truth, cp))
            planted += len(s.truth)
    return {"false_per_500": 500 * false_points / max(points, 1), "recall_3s": hits / max(planted, 1)}


def table(results: Dict[str, Dict[str, Dict[str, float]]], kinds: Sequence[str]) -> str:
    tools = list(results)
    head = "| kind | " + " | ".join(f"{t}: F1 / cover / found (truth) / ms" for t in tools) + " |"
    lines = [head, "|---|" + "---:|" * len(tools)]
    for kind in [*kinds, "overall"]:
        cells = []
        for t in tools:
            r = results[t].get(kind)
            cells.append("" if r is None else
                         f"{r['f1']:.3f} / {r['cover']:.3f} / {r['found']:.2f} ({r['truth']:.2f}) / {r['ms']:.2f}")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-kind", type=int, default=20)
    parser.add_argument("--peer-venvs", default="", help="folder of the peers' venvs (bench/history_peer_venvs.sh)")
    parser.add_argument("--tools", default="steps,e_divisive,otava,signal-processing-algorithms")
    parser.add_argument("--json", default="", help="also write the per-kind figures here")
    args = parser.parse_args()
    data = corpus(args.seed, args.per_kind)
    kinds = [*KINDS, "google_benchmark"]
    results, extra = {}, {}
    for name, detect in detectors(args.peer_venvs, args.tools.split(",")).items():
        found, seconds = run_detector(detect, data)
        results[name] = score(data, found, seconds)
        extra[name] = targets(data, found)
    print(f"# corpus seed {args.seed}, {args.per_kind} series per kind ({len(data)} series); F1 margin {MARGIN}; "
          "F1 / cover are means over series; found (truth) = change points per series; ms = per series\n")
    print(table(results, kinds))
    print()
    for name, t in extra.items():
        print(f"- {name}: {t['false_per_500']:.2f} false change points per 500 points of trend or season without a step; "
              f"recall {t['recall_3s']:.3f} on shifts of 3 and 5 sigma")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "targets": extra}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

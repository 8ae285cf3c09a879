"""Runs one history peer on series given on stdin, inside the peer's own venv.

apache-otava pins numpy < 2.3 and scipy < 1.17; signal-processing-algorithms
2.1.6 pins numpy 1.x; benchreport's test environment has pandas 3 (numpy >= 2).
So bench/bench_history.py keeps each peer in a venv of its own
(bench/history_peer_venvs.sh) and calls this script with that venv's python:

    python bench/history_peer.py otava|signal-processing-algorithms [--per-series-times]
    stdin:  {"series": [[x0, x1, ...], ...]}
    stdout: {"change_points": [[i, ...], ...], "seconds_per_series": t, "version": "...",
             "seconds": [t0, t1, ...] (with --per-series-times)}

Timing is the same as bench_history.py's in-process loop: one warm-up call,
then every series one after another in this process.
"""
import json
import sys
import time
from importlib.metadata import version


def otava():
    from otava.core import compute_change_points

    def detect(x):
        return [int(c.index) for c in compute_change_points(list(map(float, x)))[0]]

    return detect, version("apache-otava")


def signal_processing_algorithms():
    import numpy as np
    from signal_processing_algorithms.energy_statistics.energy_statistics import e_divisive

    def detect(x):
        np.random.seed(0)
        return sorted(int(i) for i in e_divisive(np.asarray(x, dtype=np.float64), pvalue=0.05, permutations=100))

    return detect, version("signal-processing-algorithms")


PEERS = {"otava": otava, "signal-processing-algorithms": signal_processing_algorithms}


def main() -> int:
    detect, tool_version = PEERS[sys.argv[1]]()
    series = json.load(sys.stdin)["series"]
    if series:
        detect(series[0])
    found, seconds = [], []
    for x in series:
        start = time.perf_counter()
        found.append(detect(x))
        seconds.append(time.perf_counter() - start)
    out = {"change_points": found, "seconds_per_series": sum(seconds) / max(len(series), 1), "version": tool_version}
    if "--per-series-times" in sys.argv[2:]:
        out["seconds"] = seconds
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())

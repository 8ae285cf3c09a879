#!/usr/bin/env python3
"""Generate the raw-sample example inputs for benchreport's three report presets.

Run from anywhere:  python3 examples/make_examples.py [--reports]

Everything is derived from a seeded numpy generator (``numpy.random.default_rng``
with fixed seeds), so every run writes byte-identical files. The figures the
samples are built around come from the three seed reports (shared/seeds):

1. ``examples/nitro/<platform>/`` — Nitro performance raw results, schema v2:
   ``base-1..4.json`` and ``head-1..4.json`` (one file per app process; pair N is
   base-N + head-N, interleaved AB, BA, BA, AB and recorded via
   ``configuration.reverse``) and ``suite.json``. 46 cases per platform.

   * True medians: the seed report's Base/Head p50 columns. The displayed value
     is rounded, so the generator picks the pooled median inside the rounding
     interval of the displayed value such that ``head / base - 1`` equals the
     displayed observed change (when the two intervals allow it). After drawing
     noise, each side is scaled so that its pooled median (all 4 processes) is
     exactly that value.
   * Noise: per sample ``exp(sigma * z)`` with ``sigma = MAD/p50 / 0.6745`` (the
     MAD of a log-normal with small sigma is about 0.6745 sigma times its median),
     using the seed's "Sample MAD / p50" per side; a per-process launch offset of
     0.4 % (log sd); 2 % of samples get a +10..40 % hiccup (a heavy right tail,
     as real timings have).
   * Drift: Android ``nitro-cpp/function/simple-func`` head samples climb
     log-linearly so that in every head process median(last 5) / median(first 5)
     = 1.92 (the seed's "slowing approximately 92 %"); iOS
     ``nitro-platform/callback/synchronous-callback`` head drifts by about 7 % (the
     seed's largest iOS drift).
   * ``iterations`` / ``chunkIterations`` are equal for base and head (about a
     1 ms batch per sample).
   * Display names. A metric's ``id`` is ``implementation/family/operation``.
     The report labels a case ``<Implementation> <call>`` with implementation
     ``javascript`` → JavaScript, ``turbo-module`` → TurboModule, ``nitro-cpp`` →
     C++, ``nitro-platform`` → Swift (iOS) / Kotlin (Android), and the
     operation slug turned into a camelCase call (``add-numbers`` →
     ``addNumbers()``). Operations that are not calls carry an optional
     ``displayName`` field in the metric (e.g. ``"bounce(1 MiB)"``,
     ``"number | string variant"`` — the hostile ``|`` is kept on purpose); the
     reader keeps it in the set metadata and the comparison preset prefers it.

2. ``examples/runners/runners.json`` — canonical benchreport JSON
   (``schema: benchreport/1``): one run per CI runner with its protocol
   parameters, affinity, machine/build details and notices in run metadata;
   CoreMark iterations/s (5 samples), disk I/O (MiB/s, IOPS; 5 samples) and
   cache save/restore seconds per backend (3 trials, payload MiB in the set
   metadata). CoreMark samples are solved so that median, min, max and the
   population CV equal the seed's figures; cache trials so that the median,
   range, MiB/s (payload / median) and CV match the seed to its decimals.

3. ``examples/zfh/<platform>.log`` — ``ZFH_BENCHMARK_RESULT`` log lines mixed
   with ordinary log noise: engines ``native`` and ``zig`` (iOS) and
   ``native``, ``zig-raw`` and ``zig-sha2`` (Android: the seed's "Zig raw (no
   fallback)" and "Zig (-Dcpu=baseline+sha2)" columns), 16 MiB and 200 MiB, 3
   repeated runs of 5 samples each. The median of the three run medians is the
   seed's value in ms; 16 MiB values the seed does not show are scaled from
   200 MiB. XXH3-128 is measured by the native engine only (as in the seed).

The wheel installs these inputs as ``benchreport/examples/`` (CMakeLists.txt)
so that ``benchreport demo`` works after ``pip install``. With ``--reports`` the
script also renders three of the presets (comparison, runners, matrix) into ``examples/reports/`` using the
installed/importable benchreport.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent

# --------------------------------------------------------------------------
# 1. Nitro v2
# --------------------------------------------------------------------------

SAMPLES_PER_PROCESS = 20
WARMUPS = 5
PAIRS = 4
REVERSE_BY_PAIR = [False, True, True, False]  # AB, BA, BA, AB
SUITE_HASH = "f34d9c1f3a289bdc8f9257a57ba955d72f2ca30cb632c9fcd9a554d964674b55"
BASE_SHA = "3303893f5c1d0b2e7a9f4d6c8b1e0a2f3d5c7b9e"
HEAD_SHA = "16367b7b5e3019a7489484c58c010c2893482c63"

# Suite order. (family/operation, displayName or None when the camelCase rule applies)
OPERATIONS = [
    ("arraybuffer/bounce-1mib", "bounce(1 MiB)"),
    ("arraybuffer/bounce-4kib", "bounce(4 KiB)"),
    ("arraybuffer/bounce-native-owned-1mib", "bounce native-owned buffer (1 MiB)"),
    ("arraybuffer/bounce-native-owned-4kib", "bounce native-owned buffer (4 KiB)"),
    ("arraybuffer/copy-1mib", "copy(1 MiB)"),
    ("arraybuffer/copy-4kib", "copy(4 KiB)"),
    ("array/large-1024", "large array (1,024)"),
    ("array/small-16", "small array (16)"),
    ("callback/synchronous-callback", None),
    ("object/create", None),
    ("object/return-existing", None),
    ("map/typed-map-8", "typed map (8 entries)"),
    ("string/optional-trailing", "optional trailing string"),
    ("function/add-numbers", None),
    ("function/simple-func", None),
    ("promise/deferred-worker", "deferred worker Promise (includes trigger call)"),
    ("promise/immediate-promise", None),
    ("property/number-get-set", "number property get/set"),
    ("string/short-ascii", "short ASCII string"),
    ("string/unicode", "Unicode string"),
    ("struct/nested-car", "nested Car struct"),
    ("variant/number-or-string", "number | string variant"),
]

# Seed figures, one row per case in suite order:
# base p50, head p50, observed change %, MAD/p50 % base, MAD/p50 % head.
# Rows the seed's broken Markdown swallowed ("number | string variant") take the
# change from the per-process table and an assumed 1.0 % MAD.
SEED_IOS = """
JS   22.9ns 22.7ns -0.56 1.0 2.4
CPP  225.7ns 223.8ns -0.86 2.5 2.6
CPP  219.7ns 220.0ns +0.14 3.2 1.2
CPP  3.49us 3.42us -1.88 2.2 0.8
CPP  359.1ns 359.5ns +0.11 1.5 1.5
CPP  54.80us 55.43us +1.15 1.2 2.9
CPP  843.8ns 864.2ns +2.42 2.0 3.1
CPP  41.27us 41.38us +0.27 1.7 0.7
CPP  851.2ns 808.5ns -5.01 1.7 1.4
CPP  181.3ns 171.5ns -5.38 1.7 1.5
CPP  356.6ns 365.7ns +2.56 1.4 2.5
CPP  170.9ns 171.1ns +0.11 1.6 1.8
CPP  1.50us 1.43us -4.44 1.0 1.2
CPP  128.1ns 129.3ns +0.93 0.5 0.8
CPP  73.6ns 74.3ns +0.94 1.1 1.4
CPP  70.2ns 63.5ns -9.5 2.7 2.8
CPP  17.81us 17.55us -1.45 1.9 1.1
CPP  722.9ns 730.3ns +1.03 0.9 1.8
CPP  123.5ns 114.4ns -7.34 2.6 1.0
CPP  123.9ns 123.4ns -0.44 0.7 0.8
CPP  245.4ns 246.5ns +0.43 2.1 1.8
CPP  2.09us 2.06us -1.6 0.9 0.6
CPP  113.0ns 112.3ns -0.58 1.0 1.0
PLAT 203.7ns 202.0ns -0.8 3.4 1.6
PLAT 198.8ns 198.7ns -0.06 1.8 1.0
PLAT 3.08us 3.07us -0.23 0.8 0.7
PLAT 339.7ns 328.8ns -3.23 1.0 0.7
PLAT 43.89us 43.00us -2.02 1.4 1.2
PLAT 826.7ns 803.9ns -2.76 1.6 1.9
PLAT 44.46us 44.84us +0.86 0.4 0.9
PLAT 918.7ns 912.5ns -0.68 1.2 2.2
PLAT 239.1ns 204.8ns -14.33 1.2 2.2
PLAT 22.52us 21.96us -2.48 1.6 0.9
PLAT 209.7ns 213.5ns +1.79 1.9 1.0
PLAT 2.25us 2.10us -6.75 2.0 1.4
PLAT 142.5ns 143.2ns +0.44 1.2 0.8
PLAT 69.6ns 72.7ns +4.38 1.7 2.2
PLAT 56.0ns 56.2ns +0.37 0.8 0.6
PLAT 20.01us 19.94us -0.35 1.5 1.4
PLAT 1.15us 1.12us -2.51 0.9 0.9
PLAT 130.5ns 142.4ns +9.18 1.1 0.8
PLAT 145.3ns 145.7ns +0.28 0.8 0.7
PLAT 315.3ns 316.7ns +0.44 1.4 0.8
PLAT 2.29us 2.25us -1.57 1.2 1.3
PLAT 175.5ns 179.4ns +2.23 1.0 1.0
TM   898.7ns 890.2ns -0.95 2.9 2.0
"""

SEED_ANDROID = """
JS   23.5ns 23.5ns -0.37 0.5 0.3
CPP  525.1ns 513.2ns -2.26 10.1 9.3
CPP  515.7ns 509.6ns -1.19 11.9 11.7
CPP  3.59us 3.74us +4.09 1.3 2.4
CPP  476.8ns 473.0ns -0.8 0.9 0.6
CPP  20.65us 21.94us +6.25 2.3 3.7
CPP  872.1ns 852.2ns -2.29 3.8 3.0
CPP  37.45us 37.08us -0.97 0.2 0.7
CPP  819.1ns 812.4ns -0.81 0.5 0.7
CPP  380.1ns 403.2ns +6.06 15.5 15.3
CPP  670.5ns 618.7ns -7.74 15.2 6.9
CPP  236.9ns 234.5ns -1.03 1.0 0.7
CPP  1.80us 1.76us -2.31 0.6 0.7
CPP  156.7ns 156.6ns -0.07 0.6 1.2
CPP  97.0ns 97.3ns +0.25 0.7 0.7
CPP  82.9ns 132.7ns +60.03 0.9 23.8
CPP  24.29us 24.56us +1.13 2.7 6.4
CPP  925.2ns 896.2ns -3.14 1.0 1.0
CPP  166.5ns 167.2ns +0.47 1.0 0.6
CPP  194.2ns 151.3ns -22.08 2.1 0.3
CPP  268.0ns 269.0ns +0.39 1.5 0.8
CPP  2.22us 2.29us +2.95 0.9 2.0
CPP  137.4ns 141.0ns +2.63 1.0 1.0
PLAT 1.36us 1.37us +1.13 13.4 4.9
PLAT 1.35us 1.37us +1.32 3.9 4.9
PLAT 4.34us 4.32us -0.39 2.0 1.1
PLAT 1.40us 1.40us -0.24 7.7 7.9
PLAT 299.84us 294.65us -1.73 3.6 2.2
PLAT 5.15us 5.23us +1.42 6.1 4.0
PLAT 43.04us 43.46us +0.99 1.0 0.6
PLAT 1.10us 1.10us +0.09 0.7 1.0
PLAT 1.30us 1.28us -1.61 6.0 3.4
PLAT 1.85us 1.83us -1.18 5.4 2.8
PLAT 625.1ns 632.2ns +1.14 0.2 0.9
PLAT 7.01us 6.95us -0.83 0.5 0.3
PLAT 356.5ns 354.3ns -0.62 0.6 0.9
PLAT 121.3ns 124.8ns +2.91 0.7 0.7
PLAT 102.8ns 102.1ns -0.73 0.9 0.8
PLAT 49.11us 48.31us -1.63 1.9 2.4
PLAT 2.63us 2.44us -7.34 1.6 1.8
PLAT 239.0ns 247.7ns +3.64 0.7 0.2
PLAT 478.8ns 478.7ns -0.01 0.8 0.7
PLAT 785.2ns 794.1ns +1.13 1.0 0.5
PLAT 4.92us 4.90us -0.43 0.5 0.6
PLAT 437.0ns 450.5ns +3.1 1.0 1.0
TM   256.1ns 244.6ns -4.46 0.2 0.3
"""

IMPLEMENTATION = {"JS": "javascript", "CPP": "nitro-cpp", "PLAT": "nitro-platform", "TM": "turbo-module"}

# (platform, metric id, side) -> drift factor median(last 5) / median(first 5)
DRIFTS = {
    ("android", "nitro-cpp/function/simple-func", "head"): 1.92,
    ("ios", "nitro-platform/callback/synchronous-callback", "head"): 1.075,
}

ENVIRONMENTS = {
    "ios": {
        "device": "blacksmith-6vcpu-macos-26 / iPhone 17 Pro Simulator",
        "osVersion": "26.0",
        "architecture": "arm64",
        "toolchain": "Xcode 26.5 (17F42)",
    },
    "android": {
        "device": "blacksmith-4vcpu-ubuntu-2404 / sdk_gphone64_x86_64 (API 36, KVM)",
        "osVersion": "16",
        "architecture": "x86_64",
        "toolchain": "NDK 27.1.12297006 / AGP 8.9.1",
    },
}


def parse_time_ns(text: str) -> tuple[float, float]:
    """'851.2ns' -> (851.2, 0.1); '2.25us' -> (2250.0, 10.0): value and display precision in ns."""
    scale = {"ns": 1.0, "us": 1e3}[text[-2:]]
    number = text[:-2]
    decimals = len(number.split(".")[1]) if "." in number else 0
    return float(number) * scale, 10.0 ** -decimals * scale


def pick_in_both(center: float, half: float, lo2: float, hi2: float) -> float:
    """Midpoint of [center-half, center+half] ∩ [lo2, hi2], or `center` if they do not meet."""
    lo, hi = max(center - half, lo2), min(center + half, hi2)
    return (lo + hi) / 2 if lo < hi else center


def true_medians(base_text: str, head_text: str, change_pct: float) -> tuple[float, float]:
    """Pooled medians that display as the seed's p50s and reproduce its observed change."""
    base, base_prec = parse_time_ns(base_text)
    head, head_prec = parse_time_ns(head_text)
    ratio = 1 + change_pct / 100
    base_true = pick_in_both(base, 0.45 * base_prec,
                             (head - 0.45 * head_prec) / ratio, (head + 0.45 * head_prec) / ratio)
    return base_true, base_true * ratio


def camel_call(slug: str) -> str:
    head, *rest = slug.split("-")
    return head + "".join(part.capitalize() for part in rest) + "()"


def iterations_for(median_ns: float) -> tuple[int, int]:
    """About 1 ms per timed batch, rounded to a power of two; chunks of at most 64 operations."""
    iterations = 2 ** max(0, round(math.log2(1e6 / median_ns)))
    return iterations, min(iterations, 64)


def process_samples(rng, median: float, mad_pct: float, drift: float) -> np.ndarray:
    sigma = max(mad_pct, 0.1) / 100 / 0.6745
    if drift != 1.0:
        sigma = 0.004 / 0.6745  # the ramp supplies the spread of the drifting case
    launch = math.exp(rng.normal(0, 0.004))
    z = rng.normal(0, sigma, SAMPLES_PER_PROCESS)
    hiccup = rng.random(SAMPLES_PER_PROCESS) < 0.02
    z = z + hiccup * rng.uniform(0.1, 0.4, SAMPLES_PER_PROCESS)
    # Median of the first five is at index 2, of the last five at n - 3.
    slope = math.log(drift) / (SAMPLES_PER_PROCESS - 5)
    ramp = slope * (np.arange(SAMPLES_PER_PROCESS) - (SAMPLES_PER_PROCESS - 1) / 2)
    return median * launch * np.exp(z + ramp)


def side_samples(rng, median: float, mad_pct: float, drift: float) -> list[np.ndarray]:
    processes = [process_samples(rng, median, mad_pct, drift) for _ in range(PAIRS)]
    pooled_median = float(np.median(np.concatenate(processes)))
    return [p * (median / pooled_median) for p in processes]


def nitro_platform(platform: str, seed_rows: str, rng) -> dict[str, dict]:
    rows = [line.split() for line in seed_rows.strip().splitlines()]
    assert len(rows) == 46, platform
    cases = []
    op_index = {"CPP": 0, "PLAT": 0}
    for impl_key, base_text, head_text, change, mad_base, mad_head in rows:
        if impl_key in op_index:
            operation, display = OPERATIONS[op_index[impl_key]]
            op_index[impl_key] += 1
        else:
            operation, display = "function/add-numbers", None
        impl = IMPLEMENTATION[impl_key]
        metric_id = f"{impl}/{operation}"
        base, head = true_medians(base_text, head_text, float(change))
        cases.append((metric_id, impl, operation, display, {"base": base, "head": head},
                      {"base": float(mad_base), "head": float(mad_head)}))
    # samples[side][process][case]
    samples = {"base": [[None] * len(cases) for _ in range(PAIRS)],
               "head": [[None] * len(cases) for _ in range(PAIRS)]}
    for c, (metric_id, _, _, _, medians, mads) in enumerate(cases):
        for side in ("base", "head"):
            drift = DRIFTS.get((platform, metric_id, side), 1.0)
            for p, values in enumerate(side_samples(rng, medians[side], mads[side], drift)):
                samples[side][p][c] = values
    files = {}
    for side, sha in (("base", BASE_SHA), ("head", HEAD_SHA)):
        for p in range(PAIRS):
            metrics = []
            for c, (metric_id, impl, operation, display, medians, _) in enumerate(cases):
                iterations, chunk = iterations_for(medians["base"])
                metric = {
                    "id": metric_id,
                    "version": 1,
                    "family": operation.split("/")[0],
                    "implementation": impl,
                    "iterations": iterations,
                    "chunkIterations": chunk,
                    "samplesNsPerOp": [round(float(v), 4) for v in samples[side][p][c]],
                    "checksum": int(rng.integers(0, 2**31)),
                }
                if display is not None:
                    metric["displayName"] = display
                metrics.append(metric)
            order_offset = 0 if (side == "base") != REVERSE_BY_PAIR[p] else 1
            files[f"{side}-{p + 1}.json"] = {
                "schemaVersion": 2,
                "suiteVersion": 1,
                "benchmarkCount": len(cases),
                "startedAt": f"2026-09-07T16:{10 + 4 * p + order_offset * 2:02d}:00.000Z",
                "durationMs": int(rng.integers(150_000, 190_000)),
                "runner": {"warmupCount": WARMUPS, "sampleCount": SAMPLES_PER_PROCESS},
                "environment": {"reactNativeVersion": "0.81.1", "hermes": True, "dev": False,
                                "nitroBuildType": "release"},
                "configuration": {
                    "runId": f"{platform}-{side}-{p + 1}",
                    "reverse": REVERSE_BY_PAIR[p],
                    "commitSha": sha,
                    "suiteHash": SUITE_HASH,
                    "platform": platform,
                    **ENVIRONMENTS[platform],
                },
                "metrics": metrics,
            }
    files["suite.json"] = {"baseSuiteHash": SUITE_HASH, "headSuiteHash": SUITE_HASH}
    return files


# --------------------------------------------------------------------------
# 2. Runner benchmarks (canonical JSON)
# --------------------------------------------------------------------------

PROTOCOL = {"protocol": 5, "cpu_samples": 5, "cpu_seconds": 30, "disk_mib": 1024,
            "cache_mib": 512, "internet": "enabled", "transfer_mib": 1024}

# runner: binary, affinity, cpu/group, coremark (median, min, max, CV %), disk (read, write, rread, rwrite),
#         cpu model, os image, compiler, flags
RUNNERS = {
    "blacksmith-linux-x64": ("x64 (64-bit)", "pinned", "0 / 0", (45851.10, 42062.37, 51322.25, 7.64),
                             (13757.86, 2098.75, 83878.21, 85084.85), "AMD EPYC", "20260819_203438",
                             "GNU 13.3.0", "-O2 -DNDEBUG"),
    "blacksmith-windows-x64": ("x64 (64-bit)", "pinned", "0 / 0", (40527.14, 38737.10, 41099.40, 2.00),
                               (7763.61, 2271.03, 32948.42, 28487.21), "AMD EPYC 4565P 16-Core Processor",
                               "dev", "MSVC 19.44.35228.0", "/DWIN32 /D_WINDOWS /O2 /Ob2 /DNDEBUG"),
    "blacksmith-linux-arm64": ("arm64 (64-bit)", "pinned", "0 / 0", (27190.58, 27131.28, 27200.20, 0.09),
                               (2187.76, 860.01, 18691.98, 19742.48), "aarch64", "20260819_202427",
                               "GNU 13.3.0", "-O2 -DNDEBUG"),
    "blacksmith-macos-arm64": ("arm64 (64-bit)", "unpinned", None, (41000.91, 39652.66, 42235.85, 2.18),
                               (2227.11, 3392.40, 7940.81, 5180.91), "Apple M4 Pro (Virtual)", "133416",
                               "AppleClang 21.0.0.21000101", "-O2 -DNDEBUG"),
}

# (runner, backend): save (median; min, max; MiB/s; CV %), restore (...)
CACHE = {
    ("blacksmith-linux-arm64", "Blacksmith cache"): ((5.41, 5.28, 5.62, 94.70, 2.64), (6.23, 6.05, 7.77, 82.13, 11.51)),
    ("blacksmith-linux-arm64", "GitHub Actions cache"): ((8.08, 7.91, 8.58, 63.36, 3.49), (14.76, 14.45, 16.96, 34.69, 7.26)),
    ("blacksmith-linux-x64", "Blacksmith cache"): ((2.77, 2.64, 2.96, 184.78, 4.79), (3.97, 2.74, 5.59, 129.07, 28.46)),
    ("blacksmith-linux-x64", "GitHub Actions cache"): ((6.03, 5.63, 10.42, 84.97, 29.49), (10.97, 8.59, 11.07, 46.65, 11.25)),
    ("blacksmith-macos-arm64", "Blacksmith cache"): ((1.85, 1.70, 2.00, 276.13, 6.73), (2.05, 1.95, 2.14, 249.73, 3.76)),
    ("blacksmith-macos-arm64", "GitHub Actions cache"): ((2.57, 2.49, 9.23, 198.98, 66.28), (4.44, 3.54, 4.45, 115.28, 10.35)),
    ("blacksmith-windows-x64", "Blacksmith cache"): ((89.45, 87.85, 90.38, 5.72, 1.17), (4.76, 4.71, 4.87, 107.53, 1.46)),
    ("blacksmith-windows-x64", "GitHub Actions cache"): ((91.44, 90.59, 91.97, 5.60, 0.62), (8.41, 8.29, 10.09, 60.89, 9.18)),
}

CACHE_NOTICE = "Blacksmith exact-key cleanup action did not succeed"
INTERNET_NOTICE = "HTTPS download sample 1: HTTPS test failed: curl: (22) The requested URL returned error: 403"


def population_cv(values) -> float:
    values = np.asarray(values, dtype=float)
    return float(values.std() / values.mean())


def five_with_cv(median: float, lo: float, hi: float, cv_pct: float) -> list[float]:
    """Five values with exactly this median, min and max whose population CV is closest to cv_pct."""
    grid = np.linspace(0.0, 1.0, 401)
    a = lo + grid[:, None] * (median - lo)           # second smallest
    b = median + grid[None, :] * (hi - median)       # second largest
    values = np.stack(np.broadcast_arrays(np.full_like(a * b, lo), a + 0 * b, np.full_like(a * b, median),
                                          b + 0 * a, np.full_like(a * b, hi)))
    cv = values.std(axis=0) / values.mean(axis=0) * 100
    i, j = np.unravel_index(np.argmin(np.abs(cv - cv_pct)), cv.shape)
    return [round(float(v), 2) for v in values[:, i, j]]


def three_trials(median: float, lo: float, hi: float, mib_s: float, cv_pct: float, payload: float) -> list[float]:
    """Three trial times that display as the seed's median; range, MiB/s and CV (to its decimals)."""
    med = pick_in_both(median, 0.0049, payload / (mib_s + 0.0049), payload / (mib_s - 0.0049))
    offsets = np.linspace(-0.0049, 0.0049, 41)
    best, best_err = None, math.inf
    for dl in offsets:
        for dh in offsets:
            trial = [lo + dl, med, hi + dh]
            err = abs(population_cv(trial) * 100 - cv_pct)
            if err < best_err:
                best, best_err = trial, err
    return [round(v, 6) for v in best]


def noisy_five(rng, median: float, spread: float = 0.02) -> list[float]:
    values = median * np.exp(rng.normal(0, spread, 5))
    values = np.sort(values)
    values[2] = median
    values[:2] = np.minimum(values[:2], median)
    values[3:] = np.maximum(values[3:], median)
    return [round(float(v), 2) for v in rng.permutation(values)]


def runners_dataset(rng) -> dict:
    runs, sets = [], []
    for runner, (binary, affinity, cpu_group, coremark, disk, cpu, image, compiler, flags) in RUNNERS.items():
        notices = [{"stage": "internet", "message": INTERNET_NOTICE}] if runner != "blacksmith-macos-arm64" else []
        for backend in ("blacksmith", "github"):
            for trial in (1, 2, 3):
                notices.append({"stage": f"{backend} / trial {trial} / cleanup", "message": CACHE_NOTICE})
        runs.append({"id": runner, "metadata": {
            "provider": "blacksmith",
            "runner_label": runner,
            "protocol": PROTOCOL,
            "affinity": affinity,
            "cpu_group": cpu_group,
            "binary": binary,
            "cpu_model": cpu,
            "os_image": image,
            "compiler": compiler,
            "flags": f"{flags}; C99; MULTITHREAD=1; TOTAL_DATA_SIZE=2000; ITERATIONS=0",
            "notices": notices,
        }})
        sets.append({"labels": {"runner": runner, "suite": "cpu", "metric": "coremark"},
                     "unit": "iterations/s", "run": runner, "values": five_with_cv(*coremark)})
        for metric, unit, median in zip(("seq_read", "seq_write", "rand_read", "rand_write"),
                                        ("MiB/s", "MiB/s", "IOPS", "IOPS"), disk):
            sets.append({"labels": {"runner": runner, "suite": "disk", "metric": metric}, "unit": unit,
                         "run": runner, "values": noisy_five(rng, median),
                         "metadata": {"file_mib": PROTOCOL["disk_mib"]}})
    for (runner, backend), (save, restore) in CACHE.items():
        for metric, figures in (("cache_save", save), ("cache_restore", restore)):
            sets.append({"labels": {"runner": runner, "suite": "cache", "service": "archive-service",
                                    "backend": backend, "metric": metric},
                         "unit": "s", "run": runner,
                         "values": three_trials(*figures, payload=float(PROTOCOL["cache_mib"])),
                         "metadata": {"payload_mib": float(PROTOCOL["cache_mib"]), "verified_pairs": 3, "trials": 3}})
    return {"schema": "benchreport/1", "runs": runs, "sets": sets}


# --------------------------------------------------------------------------
# 3. ZFH_BENCHMARK_RESULT lines
# --------------------------------------------------------------------------

ALGORITHMS = ["SHA-256", "MD5", "SHA-1", "SHA-224", "SHA-384", "SHA-512", "SHA-512/224", "SHA-512/256",
              "HMAC-SHA-224", "HMAC-SHA-256", "HMAC-SHA-384", "HMAC-SHA-512", "HMAC-MD5", "HMAC-SHA-1",
              "BLAKE3", "XXH3-64"]

# 200 MiB medians (ms) per engine, in ALGORITHMS order (seed 002).
MATRIX_200 = {
    "android": {
        "native": [220, 561, 221, 215, 538, 543, 3490, 3484, 233, 227, 549, 540, 566, 223, 298, 79],
        "zig-raw": [12818, 536, 509, 12785, 723, 724, 725, 724, 12803, 12764, 728, 728, 537, 508, 555, 73],
        "zig-sha2": [219, 523, 501, 218, 723, 736, 723, 720, 218, 221, 725, 723, 526, 501, 551, 76],
    },
    "ios": {
        "native": [262, 627, 258, 265, 344, 354, 343, 343, 260, 258, 342, 343, 621, 256, 339, 120],
        "zig": [221, 607, 602, 240, 1236, 1239, 1236, 1236, 255, 253, 1240, 1246, 616, 601, 728, 81],
    },
}
# 16 MiB SHA-256 medians from the seed's quick comparison; the rest are scaled from 200 MiB.
SHA256_16 = {"android": {"native": 23, "zig-raw": 1038, "zig-sha2": 20}, "ios": {"native": 31, "zig": 29}}
XXH3_128 = {"android": {200: 84, 16: 7}, "ios": {200: 118, 16: 10}}  # native only
ZFH_RUNS = 3
ZFH_SAMPLES = 5


def median_16(platform: str, engine: str, algorithm: str, value_200: float) -> float:
    if algorithm == "SHA-256":
        return SHA256_16[platform][engine]
    return max(1, round(value_200 * 16 / 200 * 1.04))


def run_medians(rng, median: float) -> list[float]:
    """Three run medians whose median is `median`: one exact, one a little below, one above."""
    lo = median * (1 - abs(rng.normal(0, 0.02)))
    hi = median * (1 + abs(rng.normal(0, 0.02)))
    runs = [lo, median, hi]
    rng.shuffle(runs)
    return runs


def run_samples(rng, median: float) -> list[float]:
    values = np.sort(median * np.exp(rng.normal(0, 0.015, ZFH_SAMPLES)))
    values[ZFH_SAMPLES // 2] = median
    values[: ZFH_SAMPLES // 2] = np.minimum(values[: ZFH_SAMPLES // 2], median)
    values[ZFH_SAMPLES // 2 + 1:] = np.maximum(values[ZFH_SAMPLES // 2 + 1:], median)
    return [round(float(v), 3) for v in rng.permutation(values)]


def zfh_lines(platform: str, rng) -> list[str]:
    # One log record per (size, run, engine); cells get three run medians whose median is the seed value.
    records = []
    for size_mib in (16, 200):
        for run in range(ZFH_RUNS):
            for engine, row in MATRIX_200[platform].items():
                medians = {a: (v if size_mib == 200 else median_16(platform, engine, a, v))
                           for a, v in zip(ALGORITHMS, row)}
                if engine == "native":
                    medians["XXH3-128"] = XXH3_128[platform][size_mib]
                records.append((size_mib, run, engine, list(medians), medians))
    cell_runs = {}
    for size_mib, _, engine, algorithms, medians in records:
        for algorithm in algorithms:
            cell_runs.setdefault((size_mib, engine, algorithm), run_medians(rng, float(medians[algorithm])))
    out = []
    clock = 0
    for size_mib, run, engine, algorithms, _ in records:
        results = []
        for algorithm in algorithms:
            samples = run_samples(rng, cell_runs[(size_mib, engine, algorithm)][run])
            results.append({"algorithm": algorithm, "samplesMs": samples,
                            "medianMs": float(np.median(samples)), "minMs": min(samples),
                            "maxMs": max(samples),
                            "digestPrefix": hashlib.sha256(f"{algorithm}/{size_mib}".encode()).hexdigest()[:8]})
        clock += 1
        record = {"version": 1, "platform": platform, "engine": engine, "sizeBytes": size_mib * 1024 * 1024,
                  "sizeMiB": size_mib, "samples": ZFH_SAMPLES, "warmups": 1, "mmap": True,
                  "algorithms": algorithms, "results": results,
                  "createdAt": f"2026-08-14T09:{clock:02d}:00.000Z"}
        payload = json.dumps(record, separators=(",", ":"))
        if platform == "android":
            out.append(f"08-14 09:{clock:02d}:00.000  4312  4350 I ReactNativeJS: starting run {run + 1} ({engine}, {size_mib} MiB)")
            out.append(f"08-14 09:{clock:02d}:01.000  4312  4350 I ReactNativeJS: ZFH_BENCHMARK_RESULT {payload}")
        else:
            out.append(f"2026-08-14 09:{clock:02d}:00.000 FileHashExample[812:9034] starting run {run + 1} ({engine}, {size_mib} MiB)")
            out.append(f"2026-08-14 09:{clock:02d}:01.000 FileHashExample[812:9034] ZFH_BENCHMARK_RESULT {payload}")
    return out


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

def write_json(path: Path, payload) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def write_all(root: Path) -> None:
    for platform, rows, seed in (("ios", SEED_IOS, 5), ("android", SEED_ANDROID, 6)):
        for name, payload in nitro_platform(platform, rows, np.random.default_rng(seed)).items():
            write_json(root / "nitro" / platform / name, payload)
    write_json(root / "runners" / "runners.json", runners_dataset(np.random.default_rng(7)))
    for platform, seed in (("android", 8), ("ios", 9)):
        path = root / "zfh" / f"{platform}.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(zfh_lines(platform, np.random.default_rng(seed))) + "\n", encoding="utf-8")


def render_reports(root: Path) -> None:
    """Render every preset in every format into examples/reports/ (needs benchreport importable)."""
    import benchreport as br  # noqa: PLC0415 — optional, only for --reports

    reports = br.example_reports(root)
    out = root / "reports"
    out.mkdir(exist_ok=True)
    for name, report in reports.items():
        for fmt, ext in (("markdown", "md"), ("html", "html"), ("text", "txt"), ("csv", "csv"), ("json", "json")):
            (out / f"{name}.{ext}").write_text(report.render(fmt), encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", action="store_true", help="also render examples/reports/ with benchreport")
    args = parser.parse_args(argv)
    write_all(ROOT)
    if args.reports:
        render_reports(ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Writes the fixtures of the formats whose tools do not install here, to their
documented schemas (see tests/data/README.md): Nitro raw results v2, criterion
sample.json/benchmark.json, ZFH_BENCHMARK_RESULT log lines. Seeded: reruns give
identical files."""
import json
import random
from pathlib import Path

DATA = Path(__file__).resolve().parents[1]
rng = random.Random(4)


def dump(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=1) + "\n")


def nitro_process(rev: str, n: int, metrics, platform="android"):
    return {
        "schemaVersion": 2, "suiteVersion": 1, "benchmarkCount": 3,
        "startedAt": f"2026-09-07T16:{10 + n:02d}:00.000Z", "durationMs": 1000 + n,
        "runner": {"warmupCount": 2, "sampleCount": 5},
        "environment": {"reactNativeVersion": "0.81.1", "hermes": True, "dev": False, "nitroBuildType": "release"},
        "configuration": {"runId": f"{platform}-{rev}-{n}", "reverse": n in (2, 3),
                          "commitSha": ("a" if rev == "base" else "b") * 40, "suiteHash": "f" * 64,
                          "platform": platform, "device": "sdk_gphone64_x86_64 (API 36)", "osVersion": "16",
                          "architecture": "x86_64", "toolchain": "NDK 27.1"},
        "metrics": metrics,
    }


def nitro_metric(metric_id: str, center: float, iterations=1024):
    impl, family, _ = metric_id.split("/")
    return {"id": metric_id, "version": 1, "family": family, "implementation": impl, "iterations": iterations,
            "chunkIterations": 64, "samplesNsPerOp": [round(center * rng.uniform(0.97, 1.03), 4) for _ in range(5)],
            "checksum": rng.randrange(1 << 31)}


def make_nitro():
    root = DATA / "nitro" / "raw" / "android"
    ids = {"javascript/function/add-numbers": 23.5, "nitro-cpp/array/large-1024": 850.0,
           "nitro-platform/string/echo": 120.0}
    for n in (1, 2):
        for rev, factor in (("base", 1.0), ("head", 1.1)):
            dump(root / f"{rev}-{n}.json", nitro_process(rev, n, [nitro_metric(i, c * factor) for i, c in ids.items()]))
    # Process 3 ran one case per app launch: concatenated from the case files.
    for rev in ("base", "head"):
        for i, (metric_id, center) in enumerate(ids.items()):
            dump(root / f"{rev}-3-cases" / f"case-{i}.json", nitro_process(rev, 3, [nitro_metric(metric_id, center)]))
    dump(root / "suite.json", {"baseSuiteHash": "f" * 64, "headSuiteHash": "f" * 64})


def make_criterion():
    root = DATA / "criterion" / "target" / "criterion" / "fib_20"
    for baseline, ns in (("new", 21000.0), ("base", 22000.0)):
        iters = [float(k * 100) for k in range(1, 11)]
        dump(root / baseline / "sample.json", {"sampling_mode": "Linear", "iters": iters,
                                               "times": [round(i * ns * rng.uniform(0.98, 1.02)) for i in iters]})
        dump(root / baseline / "benchmark.json", {"group_id": "fib", "function_id": "recursive", "value_str": "20",
                                                  "throughput": None, "full_id": "fib/recursive/20",
                                                  "directory_name": "fib/recursive/20", "title": "fib/recursive/20"})
    dump(root / "new" / "estimates.json", {"mean": {"point_estimate": 21000.0}})


def make_zfh():
    lines = ["2026-08-14 09:00:59.000 FileHashExample[812:9034] starting"]
    for run in (1, 2):
        for engine, factor in (("native", 1.0), ("zig", 0.8)):
            results = []
            for algorithm, ms in (("SHA-256", 30.0), ("XXH3-64", 2.0)):
                samples = [round(ms * factor * rng.uniform(0.95, 1.05), 3) for _ in range(5)]
                results.append({"algorithm": algorithm, "samplesMs": samples, "medianMs": sorted(samples)[2],
                                "minMs": min(samples), "maxMs": max(samples), "digestPrefix": "0e6bb4f3"})
            if engine == "zig" and run == 2:
                results.append({"algorithm": "BLAKE3", "samplesMs": [], "error": "unsupported on this engine"})
            payload = {"version": 1, "platform": "ios", "engine": engine, "sizeBytes": 16777216, "sizeMiB": 16,
                       "samples": 5, "warmups": 1, "mmap": True, "algorithms": ["SHA-256", "XXH3-64", "BLAKE3"],
                       "results": results, "createdAt": f"2026-08-14T09:0{run}:00Z"}
            lines.append(f"2026-08-14 09:0{run}:01.000 FileHashExample[812:9034] ZFH_BENCHMARK_RESULT "
                         + json.dumps(payload, separators=(",", ":")))
    lines.append("2026-08-14 09:03:00.000 FileHashExample[812:9034] done")
    (DATA / "zfh").mkdir(exist_ok=True)
    (DATA / "zfh" / "ios.log").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    make_nitro()
    make_criterion()
    make_zfh()

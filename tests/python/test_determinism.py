"""Determinism: the same inputs and seed give byte-identical output in every
format, for thread counts 1 and 2 and across repeated runs, through the Python
API and the ``benchreport`` command line; a different seed changes the
bootstrap results (so the checks are not vacuous).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import benchreport as br
from result_fields import fields

RESAMPLES = 400
FORMATS = ("to_markdown", "to_html", "to_html_fragment", "to_text", "to_csv", "to_json")


def _comparison_input(path: Path) -> Path:
    """Canonical JSON: 2 platforms x 6 benchmarks x base/head x 3 process pairs, seeded noise."""
    rng = np.random.default_rng(20240601)
    sets = []
    for platform in ("ios", "android"):
        for b in range(6):
            for rev, shift in (("base", 1.0), ("head", 1.0 + 0.03 * (b - 2))):
                for pair in range(3):
                    values = 100.0 * (b + 1) * shift * (1 + rng.normal(0, 0.02, 15))
                    sets.append({"labels": {"platform": platform, "benchmark": f"bench {b}", "revision": rev,
                                            "pair": str(pair)},
                                 "unit": "ns", "values": [float(v) for v in values]})
    path.write_text(json.dumps({"schema": "benchreport/1", "sets": sets}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def comparison_file(tmp_path_factory):
    return _comparison_input(tmp_path_factory.mktemp("det") / "compare.json")


def _renders(report):
    return {name: getattr(report, name)() for name in FORMATS}


def _compare(path, threads, seed=7):
    return br.compare(br.load(path), seed=seed, threads=threads, resamples=RESAMPLES)


def test_comparison_identical_for_threads_and_repeats(comparison_file):
    reference = _renders(_compare(comparison_file, threads=1).report)
    for threads in (1, 2, 0, 1, 2):
        assert _renders(_compare(comparison_file, threads=threads).report) == reference, f"threads={threads}"


def test_many_case_report_identical_for_threads():
    # 3 000 cases: the comparison report's rows, drifts and payload are built in chunks of 512
    # cases on several threads (the summary's statistics too); every format must match the
    # one-thread build byte for byte.
    rng = np.random.default_rng(5)
    n_cases, n = 3000, 6
    values = 100 * (1 + 0.02 * rng.random(2 * n_cases * n)) * np.repeat(rng.uniform(0.9, 1.1, 2 * n_cases), n)
    offsets = np.arange(0, 2 * n_cases * n + 1, n)
    labels = {"benchmark": [f"case{i // 2:05d}" for i in range(2 * n_cases)],
              "revision": ["base", "head"] * n_cases}
    ds = br.Dataset.from_arrays(values, offsets, labels=labels, unit="ns")
    reference = _renders(br.compare(ds, threads=1, resamples=RESAMPLES).report)
    assert _renders(br.compare(ds, threads=2, resamples=RESAMPLES).report) == reference
    summary = br.summary_report(ds, threads=2)
    assert _renders(summary) == _renders(br.summary_report(ds, threads=1))
    # JSON writes long tables and payload arrays on several threads too.
    one_thread = summary.render("json", threads=1)
    assert summary.render("json", threads=2) == summary.render("json", threads=0) == one_thread


def test_seed_matters(comparison_file):
    a = json.loads(_compare(comparison_file, threads=1, seed=7).to_json())
    b = json.loads(_compare(comparison_file, threads=1, seed=8).to_json())
    assert a != b  # the bootstrap intervals move with the seed


def test_compare_many_identical_for_any_thread_count():
    rng = np.random.default_rng(3)
    cases = {f"c{i}": (rng.normal(10, 1, 30), rng.normal(10.5, 1, 30)) for i in range(12)}
    runs = [fields(br.compare_many(cases, threads=t, seed=11, resamples=300)) for t in (1, 2, 0, 2)]
    for other in runs[1:]:
        assert repr(other) == repr(runs[0])


def test_summaries_identical_for_any_thread_count():
    rng = np.random.default_rng(5)
    lengths = rng.integers(1, 60, 40)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    values = rng.lognormal(0, 0.3, int(offsets[-1]))
    runs = [br.summarize_grouped(values, offsets, threads=t) for t in (1, 2, 0)]
    for other in runs[1:]:
        assert other.keys() == runs[0].keys()
        for key in runs[0]:
            a, b = np.asarray(runs[0][key]), np.asarray(other[key])
            if a.dtype.kind == "f":
                assert a.tobytes() == b.tobytes(), key  # bit-identical, NaN included
            else:
                assert np.array_equal(a, b), key


def test_reading_and_canonical_writing_repeat_byte_for_byte(comparison_file, tmp_path):
    outputs = []
    for i in range(2):
        out = tmp_path / f"copy{i}.json"
        br.save(br.load(comparison_file), out)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


def test_folder_reads_in_sorted_order_whatever_the_creation_order(tmp_path):
    data = json.loads(_comparison_input(tmp_path / "all.json").read_text(encoding="utf-8"))
    for folder, order in (("a", range(len(data["sets"]))), ("b", reversed(range(len(data["sets"]))))):
        (tmp_path / folder).mkdir()
        for i in order:
            one = {"schema": "benchreport/1", "sets": [data["sets"][i]]}
            (tmp_path / folder / f"set-{i:03d}.json").write_text(json.dumps(one), encoding="utf-8")
    a, b = br.load(tmp_path / "a"), br.load(tmp_path / "b")
    assert np.array_equal(a.values, b.values)
    assert a.to_json() == b.to_json()


def test_matrix_and_runners_presets_repeat_byte_for_byte():
    rng = np.random.default_rng(9)
    sets = [{"labels": {"platform": p, "size": s, "algorithm": a, "engine": e}, "unit": "ms",
             "values": [float(v) for v in rng.lognormal(0, 0.1, 9)]}
            for p in ("ios", "android") for s in ("1 MiB", "64 MiB") for a in ("sha256", "xxh3") for e in ("js", "cpp")]
    ds = br.read_bytes(json.dumps({"schema": "benchreport/1", "sets": sets}).encode(), "matrix.json")
    first = _renders(br.matrix_report(ds))
    assert _renders(br.matrix_report(ds)) == first
    runners = br.load(br.example_path("runners/runners.json"))
    assert _renders(br.runners_report(runners)) == _renders(br.runners_report(runners))


def _cli(*args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "benchreport", *args], capture_output=True, env=env, check=True).stdout


@pytest.mark.parametrize("fmt", ["markdown", "html", "text", "csv", "json"])
def test_cli_compare_repeats_byte_for_byte_and_matches_the_api(comparison_file, fmt):
    args = ("compare", str(comparison_file), "--seed", "7", "--resamples", str(RESAMPLES), "-f", fmt)
    first = _cli(*args)
    assert _cli(*args) == first
    # The CLI uses every core (2 here); the API result with one thread must say the same.
    api = _compare(comparison_file, threads=1).report
    expected = {"markdown": api.to_markdown, "html": api.to_html, "text": api.to_text, "csv": api.to_csv,
                "json": api.to_json}[fmt]()
    assert first.decode("utf-8").rstrip("\n") == expected.rstrip("\n")

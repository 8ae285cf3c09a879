"""Bencher Metric Format: Bencher's documented examples read field for field,
BMF written by benchreport reads back with the same numbers, and the CLI
(`convert --to bmf`, `compare --bmf-dir`)."""
import json
from pathlib import Path

import numpy as np
import pytest

import benchreport as br
from benchreport import cli

REPO = Path(__file__).resolve().parents[2]
BMF = REPO / "tests" / "data" / "bmf"
NITRO = [REPO / "examples" / "nitro" / "ios", REPO / "examples" / "nitro" / "android"]


def _sets(ds):
    """(benchmark, metric) -> (value in the set's own unit, unit, metadata)."""
    out = {}
    for i in range(len(ds)):
        key = (ds.labels["benchmark"][i], ds.labels["metric"][i])
        out[key] = (float(ds.samples(i, base=False)[0]), ds.units[i], ds.metadata[i])
    return out


def test_reference_example_field_for_field():
    path = BMF / "reference-example.json"
    assert br.detect_format(path.name, path.read_bytes()) == "bmf"
    ds = br.load(path)
    documented = json.loads(path.read_text())
    sets = _sets(ds)
    assert len(sets) == sum(len(measures) for measures in documented.values())
    for benchmark, measures in documented.items():
        for measure, fields in measures.items():
            value, unit, metadata = sets[(benchmark, measure)]
            assert value == fields["value"]
            for bound in ("lower_value", "upper_value"):
                if bound in fields:
                    assert metadata[bound] == fields[bound]
                else:
                    assert bound not in metadata
    assert sets[("benchmark_name", "latency")][1] == "ns"
    assert sets[("benchmark_name", "throughput")][1] == "ops/s"
    assert sets[("my_binary", "file-size")][1] == "1"
    # written back: the documented document, number for number
    assert json.loads(ds.to_bmf()) == documented


def test_custom_benchmarks_example():
    ds = br.load(BMF / "custom-benchmarks-example.json")
    assert _sets(ds) == {("benchmark_name", "latency"): (88.0, "ns", {"lower_value": 87.42, "upper_value": 88.88})}


def test_written_bmf_round_trips_through_the_reader(tmp_path):
    ds = br.load(NITRO)
    head = ds.select(revision="head")
    path = tmp_path / "bencher.json"
    head.to_bmf(path)
    doc = json.loads(path.read_text())
    back = br.load(path)
    assert len(back) == sum(len(m) for m in doc.values())
    for i in range(len(back)):
        name, measure = back.labels["benchmark"][i], back.labels["metric"][i]
        fields = doc[name][measure]
        assert float(back.samples(i, base=False)[0]) == fields["value"]
        assert back.metadata[i]["lower_value"] == fields["lower_value"]
        assert back.metadata[i]["upper_value"] == fields["upper_value"]
        assert fields["lower_value"] <= fields["value"] <= fields["upper_value"]
    assert json.loads(back.to_bmf()) == doc
    # value = median (ns) of the pooled head samples of the case; bounds = the median CI
    name = next(iter(doc))
    platform, benchmark = name.split(" / ")
    pooled = np.concatenate([head.samples(i) for i in head.indices(platform=platform, benchmark=benchmark)])
    s = br.summarize(pooled)
    assert doc[name]["latency"]["value"] == pytest.approx(s.median * 1e9, rel=1e-12)
    assert doc[name]["latency"]["lower_value"] == pytest.approx(s.median_ci.lower * 1e9, rel=1e-12)
    assert doc[name]["latency"]["upper_value"] == pytest.approx(s.median_ci.upper * 1e9, rel=1e-12)


def test_comparison_to_bmf_sides_and_bmf_dir(tmp_path):
    result = br.compare(br.load(NITRO))
    base = json.loads(result.to_bmf("base", platform="ios"))
    head = json.loads(result.to_bmf("head", platform="ios"))
    assert set(base) == set(head) and all(" / " not in name for name in head)
    assert base != head
    with pytest.raises(ValueError):
        result.to_bmf("middle")
    written = result.write_bmf_dir(tmp_path)
    assert sorted(p.name for p in written) == ["bencher-android.json", "bencher-base-android.json",
                                               "bencher-base-ios.json", "bencher-ios.json"]
    assert json.loads((tmp_path / "bencher-ios.json").read_text()) == head


def test_cli_convert_to_bmf_and_compare_bmf_dir(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert cli.main(["convert", str(BMF / "reference-example.json"), "--to", "bmf", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == json.loads((BMF / "reference-example.json").read_text())
    assert cli.main(["compare", *map(str, NITRO), "--format", "text", "-o", str(tmp_path / "r.txt"),
                     "--bmf-dir", str(tmp_path / "bmf")]) == 0
    assert (tmp_path / "bmf" / "bencher-ios.json").exists()
    assert (tmp_path / "bmf" / "bencher-base-android.json").exists()


def test_cli_bmf_dir_checked_with_the_report_before_anything_is_written(tmp_path, capsys):
    """--bmf-dir files join -o in one checked, atomic write: a symbolic link among them is refused
    before the report or any BMF file is written."""
    bmf = tmp_path / "bmf"
    bmf.mkdir()
    (tmp_path / "elsewhere.json").write_text("keep", encoding="utf-8")
    (bmf / "bencher-ios.json").symlink_to(tmp_path / "elsewhere.json")
    report = tmp_path / "r.txt"
    code = cli.main(["compare", *map(str, NITRO), "--format", "text", "-o", str(report), "--bmf-dir", str(bmf)])
    assert code == 2
    assert "bencher-ios.json: is a symbolic link" in capsys.readouterr().err
    assert not report.exists()
    assert sorted(p.name for p in bmf.iterdir()) == ["bencher-ios.json"]
    assert (tmp_path / "elsewhere.json").read_text(encoding="utf-8") == "keep"


# --- names and measures as Bencher's own adapters write them (docs/formats.md) ---------------------

DATA = REPO / "tests" / "data"


def test_go_names_keep_the_gomaxprocs_suffix_as_benchers_go_adapter():
    """Bencher's go_bench adapter names a benchmark by its whole name, "-N" suffix included (none for
    GOMAXPROCS=1), with ns/op as latency; benchreport adds Go's other units as slugged measures."""
    doc = json.loads(br.load(DATA / "go" / "bench.txt").to_bmf())
    assert list(doc) == ["BenchmarkSort/n=16", "BenchmarkSort/n=16-2", "BenchmarkSort/n=256",
                         "BenchmarkSort/n=256-2", "BenchmarkJoin", "BenchmarkJoin-2"]
    assert doc["BenchmarkSort/n=16-2"]["latency"]["value"] == 208.9
    join = doc["BenchmarkJoin"]
    assert list(join) == ["latency", "mb-per-s", "commas-per-op", "b-per-op", "allocs-per-op"]
    assert join["mb-per-s"]["value"] == 39.66  # in the unit Go printed, not 39660000 B/s
    assert join["b-per-op"]["value"] == 8.0


def test_google_benchmark_latency_is_real_time_under_the_plain_name():
    """Bencher's google adapter: the benchmark's name, `latency` = real_time in ns; cpu_time is its own
    measure on the same benchmark instead of a second benchmark "BM_x / cpu_time"."""
    ds = br.load(DATA / "google_benchmark" / "repetitions.json")
    doc = json.loads(ds.to_bmf())
    assert not any(" / " in name for name in doc)
    for name, measures in doc.items():
        real = [i for i in ds.indices(benchmark=name, metric="real_time")]
        pooled = np.concatenate([ds.samples(i, base=False) for i in real])
        assert measures["latency"]["value"] == pytest.approx(np.median(pooled), rel=1e-13)
        cpu = np.concatenate([ds.samples(i, base=False) for i in ds.indices(benchmark=name, metric="cpu_time")])
        assert measures["cpu-time"]["value"] == pytest.approx(np.median(cpu), rel=1e-13)


def test_pytest_benchmark_and_hyperfine_names_as_their_adapters():
    doc = json.loads(br.load(DATA / "pytest_benchmark" / "with_data.json").to_bmf())
    source = json.loads((DATA / "pytest_benchmark" / "with_data.json").read_text())
    assert list(doc) == [b["fullname"] for b in source["benchmarks"]]  # Bencher's pytest adapter: fullname
    doc = json.loads(br.load(DATA / "hyperfine" / "commands.json").to_bmf())
    source = json.loads((DATA / "hyperfine" / "commands.json").read_text())
    assert list(doc) == [r["command"] for r in source["results"]]  # Bencher's hyperfine adapter: command
    assert all(list(m) == ["latency"] for m in doc.values())


def test_no_float_noise_from_the_unit_conversion():
    """0.131451765 s / 1e-9 is 131451764.99999999 in floating point; BMF shows 131451765."""
    assert 0.131451765 / 1e-9 != 131451765.0
    ds = br.Dataset.from_arrays(np.full(3, 0.131451765), [0, 3], labels={"benchmark": ["x"]}, unit="s")
    text = ds.to_bmf()
    assert '"value": 131451765.0' in text
    assert "99999" not in text

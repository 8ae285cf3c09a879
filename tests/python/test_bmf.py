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

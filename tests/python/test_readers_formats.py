"""pyperf, pytest-benchmark, Go, Nitro, criterion, ZFH: each checked against an
independent parse (json module / plain text split) of the same fixture."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

import benchreport as br

DATA = Path(__file__).resolve().parents[1] / "data"


def test_pyperf_json_and_gzip_match_json_module():
    path = DATA / "pyperf" / "two_benchmarks.json"
    doc = json.loads(path.read_text())
    for ds in (br.load(path), br.load(str(path) + ".gz")):
        expected = []
        for bench in doc["benchmarks"]:
            for run in bench["runs"]:
                if run.get("values"):
                    expected.append((bench["metadata"]["name"], run["values"]))
        assert len(ds) == len(expected)
        assert ds.labels["benchmark"] == [name for name, _ in expected]
        np.testing.assert_array_equal(ds.values, np.concatenate([v for _, v in expected]))
        assert all(m["warmups"] for m in ds.metadata)  # warmups kept in metadata, not samples


def pyperf_expected(doc):
    """(name, values) per worker run with values, names from each benchmark's metadata else the file's."""
    out = []
    for bench in doc["benchmarks"]:
        name = bench.get("metadata", {}).get("name") or doc["metadata"]["name"]
        out += [(name, run["values"]) for run in bench["runs"] if run.get("values")]
    return out


@pytest.mark.parametrize("file", ["timeit.json", "appended.json", "reordered.json"])
def test_pyperf_timeit_appended_and_reordered_files_match_json_module(file):
    # Written by the real pyperf (tests/data/make_fixtures/make_pyperf.sh): `timeit -o` keeps the
    # name in the file's metadata; `--append` merges runs of one name; reordered.json has every
    # object's members reversed (metadata after runs), which `pyperf show` reads.
    path = DATA / "pyperf" / file
    doc = json.loads(path.read_text())
    expected = pyperf_expected(doc)
    ds = br.load(path)
    assert ds.labels["benchmark"] == [name for name, _ in expected]
    np.testing.assert_array_equal(ds.values, np.concatenate([v for _, v in expected]))
    per_name = {}
    for name in ds.labels["benchmark"]:
        per_name[name] = per_name.get(name, 0) + 1
    # One process per worker run, numbered 1..k within each benchmark.
    assert ds.labels["process"] == [str(i) for n in per_name.values() for i in range(1, n + 1)]


def test_pyperf_timeit_file_is_named_like_pyperf_names_it():
    ds = br.load(DATA / "pyperf" / "timeit.json")
    assert set(ds.labels["benchmark"]) == {"timeit"}
    assert len(ds) == 3  # -p 3: three workers


def test_pytest_benchmark_matches_json_module():
    path = DATA / "pytest_benchmark" / "with_data.json"
    doc = json.loads(path.read_text())
    ds = br.load(path)
    np.testing.assert_array_equal(ds.values, np.concatenate([b["stats"]["data"] for b in doc["benchmarks"]]))
    assert ds.labels["benchmark"] == [b["name"] for b in doc["benchmarks"]]
    assert ds.metadata[0]["stats.median"] == doc["benchmarks"][0]["stats"]["median"]
    assert ds.runs[str(path)]["machine_info"] == doc["machine_info"]
    with pytest.raises(br.InputError, match="--benchmark-save-data"):
        br.load(DATA / "pytest_benchmark" / "no_data.json")


def test_go_matches_text_split():
    path = DATA / "go" / "bench.txt"
    ds = br.load(path)
    expected = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if not line.startswith("Benchmark") or len(fields) < 4:
            continue
        m = re.match(r"(.*?)(?:-(\d+))?$", fields[0])
        for value, unit in zip(fields[2::2], fields[3::2]):
            expected.setdefault((m.group(1), m.group(2) or "1", unit), []).append(float(value))
    assert len(ds) == len(expected)
    for (name, procs, unit), values in expected.items():
        sub = ds.select(benchmark=name, procs=procs, metric=unit)
        assert len(sub) == 1
        np.testing.assert_allclose(sub.samples(0, base=False), values, rtol=1e-15)


def test_nitro_folder_matches_json_module():
    root = DATA / "nitro" / "raw" / "android"
    ds = br.load(root)
    for path in sorted(root.rglob("*.json")):
        doc = json.loads(path.read_text())
        if "metrics" not in doc:
            continue
        rev, proc = re.search(r"(base|head)-(\d+)", str(path.relative_to(root))).groups()
        for metric in doc["metrics"]:
            sub = ds.select(revision=rev, process=proc, benchmark=metric["id"])
            assert len(sub) == 1
            np.testing.assert_allclose(sub.values, np.array(metric["samplesNsPerOp"]) * 1e-9, rtol=1e-15)
            assert sub.metadata[0]["iterations"] == metric["iterations"]
    assert {r for r in ds.runs if r.endswith("suite.json")}


def test_criterion_per_iteration_times_and_weights():
    path = DATA / "criterion" / "target" / "criterion" / "fib_20" / "new" / "sample.json"
    doc = json.loads(path.read_text())
    ds = br.load(path)
    np.testing.assert_allclose(ds.samples(0, base=False), np.array(doc["times"]) / np.array(doc["iters"]), rtol=1e-15)
    np.testing.assert_array_equal(ds.weights, doc["iters"])


def test_zfh_log_matches_json_module():
    path = DATA / "zfh" / "ios.log"
    ds = br.load(path)
    n = 0
    for line in path.read_text().splitlines():
        if "ZFH_BENCHMARK_RESULT " not in line:
            continue
        payload = json.loads(line.split("ZFH_BENCHMARK_RESULT ", 1)[1])
        for result in payload["results"]:
            if result.get("error"):
                continue
            n += 1
            sub = ds.select(engine=payload["engine"], algorithm=result["algorithm"])
            assert any(np.allclose(sub.samples(i, base=False), result["samplesMs"], rtol=1e-15) for i in range(len(sub)))
    assert len(ds) == n
    assert any("unsupported on this engine" in w for w in ds.warnings)


def test_every_fixture_round_trips_through_canonical_json_and_csv(tmp_path):
    inputs = [DATA / "google_benchmark" / "repetitions.json", DATA / "hyperfine" / "commands.json",
              DATA / "pyperf" / "two_benchmarks.json", DATA / "pytest_benchmark" / "with_data.json",
              DATA / "go" / "bench.txt", DATA / "nitro" / "raw" / "android", DATA / "zfh" / "ios.log",
              DATA / "criterion" / "target" / "criterion" / "fib_20"]
    for source in inputs:
        ds = br.load(source)
        br.save(ds, tmp_path / "x.json")
        back = br.load(tmp_path / "x.json")
        assert back.to_json() == ds.to_json(), source
        with pytest.warns(UserWarning):
            br.save(back, tmp_path / "x.csv")
        from_csv = br.load(tmp_path / "x.csv")
        np.testing.assert_array_equal(from_csv.values, ds.values)
        assert from_csv.labels == ds.labels and from_csv.units == ds.units

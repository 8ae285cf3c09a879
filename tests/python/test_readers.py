"""Readers: each checked against an independent json/text parse of the same real fixture."""
import gzip
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import benchreport as br

DATA = Path(__file__).resolve().parents[1] / "data"


def test_google_benchmark_matches_json_module():
    path = DATA / "google_benchmark" / "repetitions.json"
    doc = json.loads(path.read_text())
    ds = br.load(path)
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    rows = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
    for name in dict.fromkeys(b["run_name"] for b in rows):
        for metric in ("real_time", "cpu_time"):
            expected = [b[metric] * scale[b["time_unit"]] for b in rows if b["run_name"] == name]
            sub = ds.select(benchmark=name, metric=metric)
            assert len(sub) == 1
            np.testing.assert_allclose(sub.values, expected, rtol=1e-15, atol=0)
        aggregates = {b["aggregate_name"]: b["real_time"] for b in doc["benchmarks"]
                      if b["run_type"] == "aggregate" and b["run_name"] == name}
        meta = ds.select(benchmark=name, metric="real_time").metadata[0]
        assert meta["aggregates"] == aggregates
        assert meta["iterations"] == [b["iterations"] for b in rows if b["run_name"] == name]
    assert ds.runs[str(path)]["context"] == doc["context"]
    assert any("aggregate rows" in n for n in ds.notes) and not ds.warnings  # a note, not a warning


def test_hyperfine_matches_json_module():
    path = DATA / "hyperfine" / "parameter_scan.json"
    doc = json.loads(path.read_text())
    ds = br.load(path, format="hyperfine")
    assert ds.labels["benchmark"] == [r["command"] for r in doc["results"]]
    assert ds.labels["delay"] == [r["parameters"]["delay"] for r in doc["results"]]
    np.testing.assert_array_equal(ds.values, np.concatenate([r["times"] for r in doc["results"]]))
    assert ds.metadata[0]["exit_codes"] == doc["results"][0]["exit_codes"]


def test_load_many_globs_folders_and_gzip(tmp_path):
    shutil.copy(DATA / "hyperfine" / "commands.json", tmp_path / "a.json")
    (tmp_path / "b.json.gz").write_bytes(gzip.compress((DATA / "hyperfine" / "parameter_scan.json").read_bytes()))
    (tmp_path / "notes.txt").write_text("nothing to see")
    folder = br.load(tmp_path)
    assert len(folder) == 4
    assert any("notes.txt" in w for w in folder.warnings)
    assert not any("gzip" in w for w in folder.warnings)
    assert len(br.load(str(tmp_path / "*.json"))) == 2
    assert len(br.load([tmp_path / "a.json", tmp_path / "b.json.gz"])) == 4
    with pytest.raises(br.InputError, match="no file matches"):
        br.load(str(tmp_path / "*.nothing"))


def test_errors_name_file_and_path(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"results": [{"command": "x", "times": [1, "2"]}]}')
    with pytest.raises(br.InputError, match=r"bad.json.*results\[0\]\.times\[1\]: expected a number, found a string"):
        br.load(bad)
    with pytest.raises(br.InputError, match="max_file_size"):
        br.load(bad, max_file_size=5)
    with pytest.raises(br.InputError, match="not a valid gzip"):
        br.read_bytes(b"\x1f\x8bnot really", "x.json.gz")
    with pytest.raises(br.InputError, match="unknown format"):
        br.load(bad, format="yaml")
    assert "hyperfine" in br.READERS
    assert br.detect_format("x.json", b'{"results": [{"command": "a"}]}') == "hyperfine"
    assert br.parse_unit("MiB/s")["higher_is_better"] is True


def test_escaped_keys_and_strings_read_like_plain_ones(tmp_path):
    # Strings without escapes are used in place; escaped ones go through simdjson's unescaping.
    escaped = tmp_path / "escaped.json"
    escaped.write_bytes(b'{"benchmarks":[{"na\\u006de":"B\\u004d_x","real_time":1.5,"cpu_time":2,'
                        b'"run_name":"BM_x","time_unit":"n\\u0073","label":"a\\"b"},'
                        b'{"name":"BM_x","real_time":2.5,"cpu_time":3,"time_unit":"ns"}]}')
    plain = tmp_path / "plain.json"
    plain.write_text('{"benchmarks":[{"name":"BM_x","real_time":1.5,"cpu_time":2,"run_name":"BM_x",'
                     '"time_unit":"ns","label":"a\\"b"},{"name":"BM_x","real_time":2.5,"cpu_time":3,"time_unit":"ns"}]}')
    a, b = br.load(escaped, format="google-benchmark"), br.load(plain, format="google-benchmark")
    assert a.to_pandas().drop(columns="run").equals(b.to_pandas().drop(columns="run"))
    assert a.metadata == b.metadata


@pytest.mark.parametrize("row,path,message", [
    ('"family_index":01', "benchmarks[0].family_index", 'malformed JSON value "01"'),
    ('"iterations":1.', "benchmarks[0].iterations", 'malformed JSON value "1."'),
    ('"label":"a\\\\x"', "benchmarks[0].label", "malformed JSON value"),
    ('"extra":nul', "benchmarks[0].extra", 'malformed JSON value "nul"'),
    ('"extra":{"a":}', "benchmarks[0].extra", "malformed JSON value"),
    ('"items_per_second":1e400', "benchmarks[0].items_per_second", "1e400 is beyond the range of a double"),
])
def test_values_kept_verbatim_are_validated(tmp_path, row, path, message):
    # simdjson's on-demand parser skips values it is not asked for; kept ones are checked in full.
    bad = tmp_path / "bad.json"
    bad.write_text('{"benchmarks":[{"name":"M","real_time":1,"cpu_time":2,%s}]}' % row.replace("\\\\", "\\"))
    with pytest.raises(br.InputError) as info:
        br.load(bad, format="google-benchmark")
    assert f"bad.json:1: {path}: " in str(info.value) and message in str(info.value)


def test_kept_values_are_minified_and_huge_numbers_refused(tmp_path):
    path = tmp_path / "pretty.json"
    doc = {"benchmarks": [{"name": "M", "real_time": 1, "cpu_time": 2, "iterations": 3, "threads": 1,
                           "label": "x y", "extra": [1, 2]}]}
    path.write_text(json.dumps(doc, indent=2))
    raw = dict(br.load(path, format="google-benchmark")._ds.set_metadata(0))
    assert raw["iterations"] == "[3]" and raw["extra"] == "[1,2]" and raw["threads"] == "1" and raw["label"] == '"x y"'
    # Valid JSON that simdjson's DOM check of kept containers refuses (a number beyond a double, an
    # integer beyond 64 bits) is refused alone too, so that whatever is kept also reads back.
    for text, where in ((json.dumps(doc).replace('"threads": 1', '"threads": 1e400'), "threads: 1e400 is beyond"),
                        (json.dumps(doc).replace('"extra": [1, 2]', '"extra": [1, 2e999]'),
                         "extra: unsupported JSON value"),
                        (json.dumps(doc).replace('"iterations": 3', '"iterations": 79670000000000000000'),
                         "iterations: 79670000000000000000 is beyond the range of a 64-bit integer"),
                        # typed fields are type-checked (an array of iterations was once kept verbatim)
                        (json.dumps(doc).replace('"iterations": 3', '"iterations": [1, 2]'),
                         r"benchmarks\[0\]\.iterations: an array \(expected a number\)")):
        path.write_text(text)
        with pytest.raises(br.InputError, match=where):
            br.load(path, format="google-benchmark")


def _large_google_benchmark(path, rows_per_series=40, series=700):
    """A Google Benchmark file of several MiB, laid out as the tool writes it (indent 2)."""
    rng = np.random.default_rng(5)
    rows = []
    for s in range(series):
        name = f"BM_Large/{s}"
        for r in range(rows_per_series):
            row = {"name": name, "family_index": s, "run_name": name, "run_type": "iteration",
                   "repetitions": rows_per_series, "repetition_index": r, "threads": 1,
                   "iterations": int(rng.integers(1, 10**6)), "real_time": float(rng.lognormal(3, 0.2)),
                   "cpu_time": float(rng.lognormal(3, 0.2)), "time_unit": "ns" if s % 2 else "us"}
            if s % 5 == 0 and r >= rows_per_series // 2:
                row["items_per_second"] = float(rng.uniform(1e6, 2e6))
            rows.append(row)
        rows.append({"name": name + "_mean", "run_name": name, "run_type": "aggregate", "aggregate_name": "mean",
                     "real_time": 1.5, "cpu_time": 1.25, "time_unit": "ns", "iterations": rows_per_series})
    doc = {"context": {"host_name": "large"}, "benchmarks": rows}
    path.write_text(json.dumps(doc, indent=2))
    assert path.stat().st_size > 4 << 20  # large enough for the two-thread path
    return doc


def _same_dataset(a, b):
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.offsets, b.offsets)
    assert a.labels == b.labels and a.metadata == b.metadata and a.units == b.units
    assert a.runs == b.runs and a.warnings == b.warnings


def test_large_google_benchmark_same_with_one_or_two_threads(tmp_path):
    path = tmp_path / "large.json"
    doc = _large_google_benchmark(path)
    one, two, default = (br.load(path, threads=t) for t in (1, 2, None))
    _same_dataset(one, two)
    _same_dataset(one, default)
    # And right, not just consistent: every series against the json module.
    scale = {"ns": 1e-9, "us": 1e-6}
    for name in ("BM_Large/0", "BM_Large/349", "BM_Large/350", "BM_Large/699"):
        rows = [b for b in doc["benchmarks"] if b["run_name"] == name and b["run_type"] == "iteration"]
        sub = two.select(benchmark=name, metric="cpu_time")
        np.testing.assert_allclose(sub.values, [b["cpu_time"] * scale[b["time_unit"]] for b in rows], rtol=1e-15, atol=0)
        assert sub.metadata[0]["iterations"] == [b["iterations"] for b in rows]
    with pytest.raises(ValueError, match="threads"):
        br.load(path, threads=-1)


@pytest.mark.parametrize("where", [0.25, 0.75])
def test_large_google_benchmark_errors_do_not_depend_on_threads(tmp_path, where):
    path = tmp_path / "bad.json"
    doc = _large_google_benchmark(path)
    at = int(len(doc["benchmarks"]) * where)
    doc["benchmarks"][at]["real_time"] = "fast"
    path.write_text(json.dumps(doc, indent=2))
    messages = []
    for threads in (1, 2):
        with pytest.raises(br.InputError) as error:
            br.load(path, threads=threads)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert f"benchmarks[{at}].real_time: expected a number, found a string" in messages[0]
    assert path.read_text() == json.dumps(doc, indent=2)  # the file is never written


def test_large_google_benchmark_with_a_bom_reads_the_same_in_two_parts(tmp_path):
    # The BOM is dropped before the reader runs; the two-thread path edits the mapped bytes at
    # offsets relative to the text after it.
    path = tmp_path / "large.json"
    _large_google_benchmark(path)
    plain = br.load(path, threads=1)
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    for threads in (1, 2):
        ds = br.load(bom, threads=threads)
        np.testing.assert_array_equal(ds.values, plain.values)
        assert ds.labels == plain.labels and ds.metadata == plain.metadata

"""Every value comes back bit for bit as the tool wrote it (issue 12, "values as read").

The oracle is the file itself: each sample a reader keeps must equal a number
token of the file (parsed by Python's correctly rounded float()), except
criterion's, which are times[i] / iters[i] by definition. Then to_pandas,
canonical JSON and canonical CSV must give the same doubles back.
"""
from __future__ import annotations

import gzip
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import benchreport as br

DATA = Path(__file__).resolve().parents[1] / "data"
NUMBER = re.compile(rb"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")

REAL_FILES = [
    *sorted((DATA / "google_benchmark").glob("*.json")),
    *sorted((DATA / "google_benchmark" / "scaling").glob("*.json")),
    *sorted((DATA / "pyperf").glob("*.json*")),
    *sorted((DATA / "pytest_benchmark").glob("*.json")),
    *sorted((DATA / "hyperfine").glob("*.json")),
    DATA / "go" / "bench.txt",
    DATA / "zfh" / "ios.log",
    *sorted((DATA / "bmf").glob("*.json")),
    *sorted((DATA / "nitro" / "raw" / "android").glob("*.json")),
]
# Files that hold no samples by design (the readers refuse or skip them; test_readers covers that).
NO_SAMPLES = {"aggregates_only.json", "no_data.json", "suite.json"}
REAL_FILES = [p for p in REAL_FILES if p.name not in NO_SAMPLES]


def _tokens(path: Path) -> set:
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    return {float(t) for t in NUMBER.findall(raw)}


def _bits(x) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(x, dtype=np.float64)).view(np.uint64)


def _round_trips(ds: br.Dataset) -> None:
    as_read = _bits(ds.values_as_read)
    assert np.array_equal(_bits(ds.to_pandas()["value"]), as_read)
    again = br.read_bytes(ds.to_json().encode(), name="canonical.json")
    assert np.array_equal(_bits(again.values_as_read), as_read)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "CSV does not carry run metadata": not what this test is about
        csv = ds.to_csv()
    again = br.read_bytes(csv.encode(), name="canonical.csv")
    assert np.array_equal(_bits(again.values_as_read), as_read)


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_every_value_is_a_number_of_the_file(path: Path) -> None:
    ds = br.load(path)
    assert len(ds.values_as_read) > 0
    tokens = _tokens(path)
    missing = [v for v in ds.values_as_read if float(v) not in tokens]
    assert not missing, f"{path.name}: {len(missing)} values not in the file, e.g. {missing[:3]}"
    _round_trips(ds)


def test_criterion_values_are_times_over_iters() -> None:
    root = DATA / "criterion" / "target"
    ds = br.load(root)
    expected = set()
    for sample in root.rglob("sample.json"):
        doc = json.loads(sample.read_text())
        expected.update(t / i for t, i in zip(doc["times"], doc["iters"]))
    assert len(ds.values_as_read) > 0
    assert all(float(v) in expected for v in ds.values_as_read)
    _round_trips(ds)


def test_the_ulp_the_audit_found() -> None:
    # 30559.43256159456 ns came back as 30559.432561594556 when samples were stored in seconds.
    ds = br.Dataset.from_pandas(
        __import__("pandas").DataFrame({"benchmark": ["a", "a"], "unit": ["ns", "ns"],
                                        "value": [30559.43256159456, 0.1]}))
    assert ds.values_as_read.tolist() == [30559.43256159456, 0.1]
    assert ds.values.tolist() == [30559.43256159456 * 1e-9, 0.1 * 1e-9]  # base units: x * to_base
    assert ds.samples(0, base=False).tolist() == [30559.43256159456, 0.1]
    _round_trips(ds)

"""schema/benchreport-dataset.schema.json: canonical JSON written from every real
fixture validates; the schema and the reader agree on hand-made good and bad documents."""
import json
from pathlib import Path

import pytest

import benchreport as br

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SCHEMA = json.loads((ROOT / "schema" / "benchreport-dataset.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

SOURCES = [DATA / "google_benchmark" / "repetitions.json", DATA / "hyperfine" / "commands.json",
           DATA / "pyperf" / "two_benchmarks.json", DATA / "pyperf" / "two_benchmarks.json.gz",
           DATA / "pytest_benchmark" / "with_data.json", DATA / "go" / "bench.txt",
           DATA / "nitro" / "raw" / "android", DATA / "zfh" / "ios.log",
           DATA / "criterion" / "target" / "criterion" / "fib_20"]


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["schema"]["const"] == br.CANONICAL_SCHEMA


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.relative_to(DATA).as_posix())
def test_canonical_json_of_every_fixture_validates(source):
    doc = json.loads(br.load(source).to_json())
    errors = [e.message for e in VALIDATOR.iter_errors(doc)]
    assert errors == []
    assert len(doc["sets"]) > 0


GOOD = {"schema": "benchreport/1",
        "runs": [{"id": "r1", "metadata": {"host": "x"}}],
        "sets": [{"labels": {"benchmark": "a"}, "unit": "ms", "direction": "lower", "run": "r1",
                  "values": [1.0, 2.5], "weights": [1, 2], "metadata": {"iterations": [10, 10]}},
                 {"unit": "custom:frobs", "values": [3]}],
        "warnings": ["something skipped"]}


def _bad(mutate):
    doc = json.loads(json.dumps(GOOD))
    mutate(doc)
    return doc


BAD = {
    "wrong schema version": _bad(lambda d: d.update(schema="benchreport/2")),
    "unknown top-level member": _bad(lambda d: d.update(extra=1)),
    "no sets": _bad(lambda d: d.pop("sets")),
    "set without unit": _bad(lambda d: d["sets"][0].pop("unit")),
    "set without values": _bad(lambda d: d["sets"][0].pop("values")),
    "empty values": _bad(lambda d: d["sets"][0].update(values=[])),
    "string value": _bad(lambda d: d["sets"][0].update(values=[1, "2"])),
    "bad direction": _bad(lambda d: d["sets"][0].update(direction="up")),
    "non-string label": _bad(lambda d: d["sets"][0]["labels"].update(n=3)),
    "unknown set member": _bad(lambda d: d["sets"][0].update(colour="red")),
    "run without id": _bad(lambda d: d["runs"][0].pop("id")),
    "run metadata not an object": _bad(lambda d: d["runs"][0].update(metadata=[1])),
    "zero weight": _bad(lambda d: d["sets"][0].update(weights=[0, 1])),
}


def test_good_document_is_valid_for_schema_and_reader():
    assert list(VALIDATOR.iter_errors(GOOD)) == []
    ds = br.read_bytes(json.dumps(GOOD).encode(), "good.json")
    assert len(ds) == 2 and ds.units == ["ms", "frobs"]
    assert json.loads(ds.to_json())["sets"][1]["unit"] == "custom:frobs"


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_document_is_refused_by_schema_and_reader(name):
    doc = BAD[name]
    assert list(VALIDATOR.iter_errors(doc)) != []
    with pytest.raises(br.InputError):
        br.read_bytes(json.dumps(doc).encode(), "bad.json", format="json")

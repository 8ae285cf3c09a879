"""The summary preset's columnar view (issue 30): to_pandas() is DataFrame(columns()), and the
columns are exactly the scalar fields of the JSON ``data`` groups (labels unprefixed)."""
import json
import pickle

import numpy as np
import pytest

import benchreport as br

pd = pytest.importorskip("pandas")


def _rows(report):
    data = json.loads(report.to_json())["data"]
    return [{**g["labels"], **{k: v for k, v in g.items() if k != "labels"}} for g in data["groups"]]


@pytest.mark.parametrize("by", [None, ["platform", "benchmark"]])
def test_summary_columns_are_the_json_group_fields(by):
    ds = br.load([br.example_path("nitro/ios"), br.example_path("nitro/android")])
    result = br.summary(ds, by)
    frame = result.to_pandas()
    pd.testing.assert_frame_equal(frame, pd.DataFrame(result.columns()))
    rows = _rows(result.report)
    assert len(rows) == len(frame) >= 1
    assert list(frame.columns) == list(rows[0])
    for row, (_, got) in zip(rows, frame.iterrows()):
        for name, value in row.items():
            assert (np.isnan(got[name]) if value is None else got[name] == value), name
    assert result.to_markdown() == br.summary_report(ds, by).to_markdown()


def test_summary_columns_of_a_label_some_sets_lack_and_nan_for_null():
    ds = br.Dataset.from_arrays(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([0, 3, 5]),
                                {"benchmark": ["a", "b"], "variant": ["x", None]}, unit="s")
    result = br.summary(ds)
    columns = result.columns()
    assert list(columns["variant"]) == ["x", ""] and list(columns["benchmark"]) == ["a", "b"]
    assert np.isnan(columns["drift"]).all()  # n/a below 2k samples: null in JSON
    assert [g["labels"] for g in json.loads(result.to_json())["data"]["groups"]] == [
        {"benchmark": "a", "variant": "x"}, {"benchmark": "b", "variant": ""}]


def test_summary_result_pickles():
    ds = br.load([br.example_path("nitro/ios")])
    result = br.summary(ds)
    back = pickle.loads(pickle.dumps(result))
    pd.testing.assert_frame_equal(back.to_pandas(), result.to_pandas())
    assert back.to_json() == result.to_json()

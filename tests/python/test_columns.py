"""One result, defined once: every result's to_pandas() is DataFrame(result.columns()), and
its columns are exactly the scalar fields of the JSON ``data`` rows (issue 30)."""
import json

import numpy as np
import pytest
from planted_history import planted_history

import benchreport as br

pd = pytest.importorskip("pandas")


def _scalar(value):
    return not isinstance(value, (list, dict))


def _flat(case, section):
    """A JSON case as a columnar row: ``key`` and ``robust`` flattened (an estimate's ``value`` is
    the column of its name, its other fields ``<name>_<field>``), ``section`` from the parent."""
    row = {"section": section}
    for name, value in case.items():
        if name == "key":
            row.update(value)
        elif name == "robust":
            for inner, figure in value.items():
                if isinstance(figure, dict):
                    row.update({inner if k == "value" else f"{inner}_{k}": v for k, v in figure.items()})
                else:
                    row[inner] = figure
        elif _scalar(value):
            row[name] = value
    return row


@pytest.fixture(scope="module")
def comparison():
    ds = br.load([br.example_path("nitro/ios"), br.example_path("nitro/android")])
    return br.compare(ds, resamples=200)


def test_comparison_to_pandas_is_the_columns(comparison):
    pd.testing.assert_frame_equal(comparison.to_pandas(), pd.DataFrame(comparison.columns()))


def test_comparison_columns_are_the_json_case_fields(comparison):
    data = json.loads(comparison.to_json())["data"]
    rows = [_flat(case, s["section"]) for s in data["sections"] for case in s["cases"]]
    frame = comparison.to_pandas().set_index(["section", "name"])
    assert set(frame.columns) | {"section", "name"} == set(rows[0])
    assert len(frame) == len(rows) and frame.index.is_unique
    for row in rows:
        got = frame.loc[(row["section"], row["name"])]
        for name, value in row.items():
            if name in ("section", "name"):
                continue
            if value is None:
                assert np.isnan(got[name]), name
            elif isinstance(value, float):
                assert got[name] == pytest.approx(value, rel=1e-15, nan_ok=True), name
            else:
                assert got[name] == value, name


def test_case_columns_of_compare_results_use_the_same_names(comparison):
    rng = np.random.default_rng(3)
    base = rng.lognormal(0, 0.05, 40)
    results = br.compare_many({"a": (base, base * 1.2), "b": (base, base)}, resamples=200)
    from benchreport import notebook as nb

    frame = nb.to_pandas(results)
    case_fields = set(comparison.to_pandas().columns) - {"section", "unit_base", "primary", "base_drift", "head_drift"}
    case_fields -= set(comparison.by)
    assert set(frame.columns) == case_fields
    assert list(frame["name"]) == ["a", "b"]
    assert frame.loc[0, "change_lower"] == results[0].change_ci[0]
    assert frame.loc[0, "verdict_code"] == results[0].verdict_code


def _same_rows(frame, rows):
    """Each JSON row equals its frame row, field by field (null = NaN); the names are exactly the same."""
    assert len(rows) == len(frame) >= 1
    assert list(frame.columns) == list(rows[0])
    for row, (_, got) in zip(rows, frame.iterrows()):
        for name, value in row.items():
            assert (np.isnan(got[name]) if value is None else got[name] == value), name


def _history():
    return planted_history(24)


def test_history_to_pandas_is_the_columns_of_the_json_change_points():
    result = _history()
    frame = result.to_pandas()
    pd.testing.assert_frame_equal(frame, pd.DataFrame(result.columns()))
    data = json.loads(result.report.to_json())["data"]
    _same_rows(frame, [{**s["labels"], "unit": s["unit"], **cp} for s in data["series"] for cp in s["change_points"]])


def test_empty_history_keeps_its_columns():
    result = _history()
    empty = br.history(br.Dataset.from_arrays(np.ones(40), np.arange(0, 41, 5),
                                              {"benchmark": ["a"] * 8, "commit": [f"{c}" for c in range(8)]},
                                              unit="s"), order="commit")
    assert list(empty.to_pandas().columns) == list(result.to_pandas().columns)
    assert len(empty.to_pandas()) == 0


def test_units_are_a_typed_class_that_pickles():
    import pickle

    unit = br.parse_unit("MiB/s")
    assert isinstance(unit, br.Unit)
    assert (unit.dimension, unit.base_symbol, unit.higher_is_better) == ("rate_bytes", "B/s", True)
    assert unit.to_base == 1024 * 1024 and unit["to_base"] == unit.to_base
    assert pickle.loads(pickle.dumps(unit)) == unit


def test_dataset_pickles_with_equal_values():
    import pickle

    ds = br.load([br.example_path("nitro/ios")])
    back = pickle.loads(pickle.dumps(ds))
    assert back.to_json() == ds.to_json() and len(back) == len(ds)
    np.testing.assert_array_equal(back.values, ds.values)


def test_summary_pickles_with_equal_values():
    import pickle

    from benchreport import notebook as nb

    x = np.random.default_rng(2).lognormal(0, 0.1, 50)
    s = br.summarize(x)
    back = pickle.loads(pickle.dumps(s))
    assert isinstance(back, br.Summary)
    before, after = nb.summary_row(s), nb.summary_row(back)
    assert before.keys() == after.keys()
    for name, value in before.items():
        assert value == after[name] or (value != value and after[name] != after[name]), name
    assert (back.median_ci.lower_rank, back.drift.change_reason) == (s.median_ci.lower_rank, s.drift.change_reason)


def _flat_scalars(obj, prefix=""):
    """The scalar fields of a JSON object, nested objects as ``<name>_<field>`` (``change`` unprefixed)."""
    row = {}
    for name, value in obj.items():
        if isinstance(value, dict):
            row.update(_flat_scalars(value, "" if name == "change" else f"{prefix}{name}_"))
        elif _scalar(value):
            row[f"{prefix}{name}"] = value
    return row


@pytest.mark.parametrize("sides", [True, False])
def test_scaling_to_pandas_is_the_columns_of_the_json_data(sides):
    import glob
    from pathlib import Path

    from benchreport.cli import load_sides

    data = Path(__file__).resolve().parent.parent / "data" / "google_benchmark" / "scaling"
    base, head = sorted(glob.glob(str(data / "base-*.json"))), sorted(glob.glob(str(data / "head-*.json")))
    result = br.scaling(load_sides(base, head, "revision", "base", "head"), at=1e6) if sides else br.scaling(
        br.load(base))
    frame = result.to_pandas()
    pd.testing.assert_frame_equal(frame, pd.DataFrame(result.columns()))
    payload = json.loads(result.report.to_json())["data"]["scaling"]
    items = payload["comparisons"] if sides else payload["families"]
    assert len(items) == len(frame) >= 1
    for item, (_, got) in zip(items, frame.iterrows()):
        row = _flat_scalars(item)
        assert set(row) == set(frame.columns)
        for name, value in row.items():
            assert (np.isnan(got[name]) if value is None else got[name] == value), name


def test_matrix_to_pandas_is_the_columns_of_the_json_cells():
    zfh = br.load([br.example_path("zfh/android.log")])
    m = br.matrix(zfh, rows=["algorithm"], cols=["engine"])
    frame = m.to_pandas()
    pd.testing.assert_frame_equal(frame, pd.DataFrame(m.columns()))
    cells = json.loads(m.to_json())["data"]["cells"]
    _same_rows(frame, [{**c.pop("labels"), **c} for c in cells])
    # the long form is the matrix itself: value per (row, column), best as MatrixResult.best()
    wide = frame.pivot(index="algorithm", columns="engine", values="value")
    np.testing.assert_array_equal(wide.loc[m.rows, m.cols].to_numpy(), m.values)
    best = frame[frame["best"]].set_index("algorithm")["engine"]
    assert [best.get(r) for r in m.rows] == m.best()
    assert frame["value"].isna().sum() == np.isnan(m.values).sum() >= 1


def test_runners_to_pandas_is_the_columns_of_the_json_results():
    ds = br.load(br.example_path("runners/runners.json"))
    result = br.runners(ds)
    frame = result.to_pandas()
    pd.testing.assert_frame_equal(frame, pd.DataFrame(result.columns()))
    data = json.loads(result.to_json())["data"]
    _same_rows(frame, data["results"])
    # every pinned CPU row of the report's own table is one of the results
    cpu = frame[(frame["suite"] == "cpu") & frame["pinned"]].set_index("runner")
    for row in data["cpu_pinned"]:
        assert cpu.loc[row["runner"], "median"] == row["median"] and cpu.loc[row["runner"], "n"] == row["n"]
    # medians checked against numpy on the samples as read
    for _, got in frame.iterrows():
        labels = {k: got[k] for k in ("runner", "suite", "metric", "backend", "service") if got[k]}
        samples = ds.select(**labels).values / br.parse_unit(got["unit"]).to_base  # base units -> as read
        assert got["median"] == pytest.approx(np.median(samples), rel=1e-12)
        assert got["cv_population"] == pytest.approx(np.std(samples) / np.mean(samples), rel=1e-9)
    assert result.to_markdown() == br.runners_report(ds).to_markdown()


def test_import_starts_no_thread():
    import subprocess
    import sys

    code = ("import os, threading\n"
            "import numpy\n"  # numpy's BLAS may start its own threads: counted before
            "before = len(os.listdir('/proc/self/task'))\n"
            "import benchreport\n"
            "print(len(os.listdir('/proc/self/task')) - before, threading.active_count())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1"]

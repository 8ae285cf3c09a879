"""br.Dataset: CSR views, labels, selection, pandas round trips, canonical I/O."""
import gc
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import benchreport as br


def small():
    return br.Dataset.from_arrays(
        values=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        offsets=[0, 3, 5, 6],
        labels={"benchmark": ["a", "a", "b"], "revision": ["base", "head", None]},
        unit=["ms", "ms", "MiB/s"],
    )


def test_csr_views_are_zero_copy_read_only_and_outlive_the_object():
    ds = small()
    v = ds.values_as_read  # as read, each set in its own unit: a view of the C++ storage
    assert v.dtype == np.float64 and not v.flags.writeable
    np.testing.assert_array_equal(ds.offsets, [0, 3, 5, 6])
    assert ds.values_as_read.__array_interface__["data"][0] == v.__array_interface__["data"][0]  # same memory
    assert v.tolist() == [1, 2, 3, 4, 5, 6]
    # values: base units, x * to_base (a read-only copy here, the units are ms and MiB/s)
    base = ds.values
    assert not base.flags.writeable
    assert base.tolist() == [x * 1e-3 for x in (1, 2, 3, 4, 5)] + [6 * 1048576.0]
    del ds
    gc.collect()
    assert v[0] == 1.0  # the view keeps the storage alive
    with pytest.raises(ValueError):
        v[0] = 2.0


def test_values_in_base_units_are_a_view_when_no_scaling_is_needed():
    ds = br.Dataset.from_pandas(pd.DataFrame({"benchmark": ["a", "a"], "unit": ["s", "s"], "value": [0.5, 0.25]}))
    assert ds.values.__array_interface__["data"][0] == ds.values_as_read.__array_interface__["data"][0]


def test_labels_units_directions():
    ds = small()
    assert len(ds) == 3
    assert ds.columns == ["benchmark", "revision"]
    assert ds.labels == {"benchmark": ["a", "a", "b"], "revision": ["base", "head", None]}
    codes, dictionary = ds.label_codes("revision")
    assert list(codes) == [0, 1, -1] and dictionary == ["base", "head"]
    assert ds.units == ["ms", "ms", "MiB/s"]
    assert ds.directions == ["lower", "lower", "higher"]
    assert ds.unit(2)["dimension"] == "rate_bytes"
    np.testing.assert_allclose(ds.samples(0, base=False), [1, 2, 3])
    assert ds.set_labels(2) == {"benchmark": "b"}
    assert "3 sets" in repr(ds) and "MiB/s" in repr(ds)


def test_select_group_by_concat():
    ds = small()
    a = ds.select(benchmark="a")
    assert len(a) == 2 and a.labels["revision"] == ["base", "head"]
    assert len(ds.select(benchmark="zzz")) == 0
    assert list(ds.indices(revision="head")) == [1]
    groups = ds.group_by("benchmark")
    assert [g[0] for g in groups] == [("a",), ("b",)]
    assert [list(g[1]) for g in groups] == [[0, 1], [2]]
    both = ds.concat(a)
    assert len(both) == 5
    np.testing.assert_array_equal(both.values[6:], a.values)
    assert len(ds.take([2, 0])) == 2


def test_to_pandas_long_form_and_back():
    ds = small()
    df = ds.to_pandas()
    assert list(df.columns) == ["benchmark", "revision", "run", "set", "sample", "unit", "value"]
    assert len(df) == 6
    np.testing.assert_allclose(df["value"], [1, 2, 3, 4, 5, 6])
    assert list(df["sample"]) == [0, 1, 2, 0, 1, 0]
    back = br.Dataset.from_pandas(df.drop(columns=["run", "set", "sample"]), value="value")
    assert back.labels == ds.labels
    assert back.units == ds.units
    np.testing.assert_array_equal(back.values, ds.values)


def test_from_pandas_single_unit_and_errors():
    df = pd.DataFrame({"engine": ["zig", "zig", "native"], "ms": [5.0, 7.0, 3.0]})
    ds = br.Dataset.from_pandas(df, value="ms", unit="ms")
    assert ds.labels == {"engine": ["zig", "native"]}
    np.testing.assert_allclose(ds.values, [5e-3, 7e-3, 3e-3])
    with pytest.raises(br.InputError, match="no column 'value'"):
        br.Dataset.from_pandas(df)
    with pytest.raises(br.InputError, match="unit"):
        br.Dataset.from_pandas(df, value="ms")
    with pytest.raises(br.InputError, match="unknown unit"):
        br.Dataset.from_pandas(df, value="ms", unit="parsec")


def test_from_arrays_errors():
    with pytest.raises(br.InputError, match="offsets"):
        br.Dataset.from_arrays([1.0, 2.0], [0, 3])
    with pytest.raises(br.InputError, match="label column"):
        br.Dataset.from_arrays([1.0], [0, 1], labels={"a": ["x", "y"]})
    with pytest.raises(br.InputError, match="empty"):
        br.Dataset.from_arrays([1.0], [0, 0, 1])
    with pytest.raises(br.InputError, match="finite"):
        br.Dataset.from_arrays([np.nan], [0, 1])


def test_json_and_csv_round_trip(tmp_path):
    ds = br.Dataset.from_arrays([851.2, 900.0, 0.5], [0, 2, 3], labels={"benchmark": ["x,\"y\"", "z"]},
                                unit=["ns", "s"], weights=[1, 2, 3])
    br.save(ds, tmp_path / "a.json")
    doc = json.loads((tmp_path / "a.json").read_text())
    assert doc["schema"] == br.CANONICAL_SCHEMA
    assert doc["sets"][0]["values"] == [851.2, 900.0]
    again = br.load(tmp_path / "a.json")
    np.testing.assert_array_equal(again.values, ds.values)
    np.testing.assert_array_equal(again.weights, ds.weights)
    br.save(again, tmp_path / "a.csv")
    from_csv = br.load(tmp_path / "a.csv")
    assert from_csv.labels == ds.labels and from_csv.units == ds.units
    np.testing.assert_array_equal(from_csv.values, ds.values)
    assert ds.to_json() == from_csv.to_json()


def test_csv_rows_start_a_new_set_when_any_label_or_the_unit_changes(tmp_path):
    # Same value in a different column, a label that becomes empty, a unit change: each a new set.
    path = tmp_path / "sets.csv"
    path.write_text("a,b,unit,value\nx,,ns,1\nx,,ns,2\n,x,ns,3\nx,x,ns,4\nx,x,us,5\nx,,ns,6\nx,,ns,7\n")
    ds = br.load(str(path))
    assert [ds.set_labels(i) for i in range(len(ds))] == [{"a": "x"}, {"b": "x"}, {"a": "x", "b": "x"},
                                                         {"a": "x", "b": "x"}, {"a": "x"}]
    assert np.diff(ds.offsets).tolist() == [2, 1, 1, 1, 2]
    assert ds.units == ["ns", "ns", "ns", "us", "ns"]


def test_csv_warns_what_it_cannot_carry():
    # relative to this file, so the test also runs from outside the checkout (scripts/test_wheel.sh)
    from pathlib import Path
    ds = br.load(Path(__file__).resolve().parents[1] / "data" / "google_benchmark" / "single.json")
    with pytest.warns(UserWarning, match="run metadata"):
        ds.to_csv()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.floats(min_value=1e-9, max_value=1e9), min_size=1, max_size=6), min_size=1, max_size=5),
       st.sampled_from(["ns", "us", "ms", "s", "MiB/s", "KiB", "%"]))
def test_round_trip_is_bit_exact_for_any_values(sets, unit):
    values = np.concatenate([np.asarray(s) for s in sets])
    offsets = np.concatenate([[0], np.cumsum([len(s) for s in sets])])
    ds = br.Dataset.from_arrays(values, offsets, labels={"benchmark": [f"b{i}" for i in range(len(sets))]}, unit=unit)
    via_json = br.read_bytes(ds.to_json().encode(), "x.json")
    via_csv = br.read_bytes(via_json.to_csv().encode(), "x.csv")
    np.testing.assert_array_equal(via_json.values, ds.values)
    np.testing.assert_array_equal(via_csv.values, ds.values)
    np.testing.assert_allclose(via_json.samples(0, base=False), sets[0], rtol=1e-15)


def _pooled_by_numpy(ds, by):
    """Expected summarize(by=...) rows: samples of equal-key sets concatenated in set order,
    in the first set's unit; keys in first-appearance order."""
    order, pools, first = [], {}, {}
    for i in range(len(ds)):
        key = tuple(ds.set_labels(i).get(c, "") for c in by)
        if key not in pools:
            order.append(key)
            pools[key] = []
            first[key] = i
        pools[key].append(ds.samples(i) / ds.unit(first[key])["to_base"])
    return order, [np.concatenate(pools[k]) for k in order], [ds.units[first[k]] for k in order]


@pytest.mark.parametrize("by", [("benchmark",), ("benchmark", "revision"), ("revision",)])
def test_summarize_by_pools_groups_like_numpy(by):
    rng = np.random.default_rng(7)
    counts = rng.integers(1, 40, size=12)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    values = rng.lognormal(0.0, 0.5, size=offsets[-1])
    bench = [f"b{i % 3}" for i in range(12)]
    revision = [None if i % 5 == 4 else ("base" if i % 2 else "head") for i in range(12)]
    units = ["ms" if i % 4 else "us" for i in range(12)]  # mixed scales inside a group
    ds = br.Dataset.from_arrays(values, offsets, labels={"benchmark": bench, "revision": revision}, unit=units)
    quantiles = (0.1, 0.5, 0.9)
    table = ds.summarize(by=list(by), quantiles=quantiles, stats=["mean", "median", "quantiles"])
    keys, pools, pool_units = _pooled_by_numpy(ds, by)
    assert len(table) == len(keys)
    for c, column in enumerate(by):
        assert list(table[column]) == [k[c] for k in keys]
    assert list(table["unit"]) == pool_units
    np.testing.assert_array_equal(table["n"], [len(p) for p in pools])
    np.testing.assert_allclose(table["mean"], [p.mean() for p in pools], rtol=1e-13)
    np.testing.assert_allclose(table["median"], [np.median(p) for p in pools], rtol=1e-13)
    np.testing.assert_allclose(table["min"], [p.min() for p in pools], rtol=1e-13)
    np.testing.assert_allclose(table["max"], [p.max() for p in pools], rtol=1e-13)
    for q in quantiles:
        np.testing.assert_allclose(table[f"q{q:g}"], [np.quantile(p, q) for p in pools], rtol=1e-13)


def test_summarize_without_by_is_one_row_per_set_with_labels():
    ds = small()
    table = ds.summarize(stats=["median"])
    assert list(table["benchmark"]) == ["a", "a", "b"]
    assert list(table["unit"]) == ["ms", "ms", "MiB/s"]
    np.testing.assert_allclose(table["median"], [2.0, 4.5, 6.0], rtol=1e-15)


def _sets_one_by_one(values, offsets, labels, units, weights, directions, runs, metadata, exact):
    core = br._core.Dataset()
    for run in dict.fromkeys(r for r in runs if r):
        core.add_run(run, '{"tool": "x"}')
    for i in range(len(labels)):
        a, b = offsets[i], offsets[i + 1]
        core.add_set(labels[i], values[a:b], units[i], direction=directions[i], run=runs[i], metadata=metadata[i],
                     weights=None if weights is None else weights[a:b], custom_unit_ok=True, exact=exact[i])
    return br.Dataset(core)


@pytest.mark.parametrize("weighted", [False, True])
def test_add_sets_equals_add_set_per_set(weighted):
    """Dataset.add_sets (one call for a CSR buffer, as Store.dataset reads a store) gives the dataset
    that add_set gives set by set: values, labels, units (custom ones, exact ones), directions, runs,
    metadata and weights."""
    rng = np.random.default_rng(7)
    sizes = [3, 1, 4, 2, 5]
    offsets = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    values = rng.lognormal(size=offsets[-1])
    weights = rng.integers(1, 9, size=offsets[-1]).astype(float) if weighted else None
    labels = [[("benchmark", f"b{i % 3}"), ("process", str(i))] + ([("size", "64")] if i % 2 else [])
              for i in range(5)]
    units = ["ms", "ms", "frames", "B", "ns"]
    directions = [None, "higher", None, None, "lower"]
    runs = ["f1", "f1", "", "f2", "f2"]
    metadata = [[("k", '"v"')], [], [], [("n", "3")], []]
    exact = [False, False, True, False, False]
    expected = _sets_one_by_one(values, offsets, labels, units, weights, directions, runs, metadata, exact)
    core = br._core.Dataset()
    for run in ("f1", "f2"):
        core.add_run(run, '{"tool": "x"}')
    core.add_sets(values, offsets, labels, units, weights=weights, directions=directions, runs=runs,
                  metadata=metadata, exact=exact, custom_unit_ok=True)
    got = br.Dataset(core)
    assert got.to_json() == expected.to_json()
    assert np.array_equal(got.values_as_read.view(np.int64), expected.values_as_read.view(np.int64))
    assert got.units == expected.units and got.directions == expected.directions
    assert [got.unit(i).exact for i in range(5)] == exact
    assert got.run_ids == expected.run_ids and got.metadata == expected.metadata
    assert (got.weights is None) == (not weighted)
    if weighted:
        assert np.array_equal(got.weights, expected.weights)


def test_add_sets_refuses_columns_of_the_wrong_length():
    core = br._core.Dataset()
    values, offsets = np.ones(4), np.array([0, 2, 4], dtype=np.int64)
    labels = [[("benchmark", "a")], [("benchmark", "b")]]
    with pytest.raises(br.InputError, match="1 runs for 2 sets"):
        core.add_sets(values, offsets, labels, ["s"], runs=[""])
    with pytest.raises(br.InputError, match="3 exact flags for 2 sets"):
        core.add_sets(values, offsets, labels, ["s"], exact=[True, False, True])
    with pytest.raises(br.InputError, match="1 label sets for 2 sample sets"):
        core.add_sets(values, offsets, labels[:1], ["s"])
    with pytest.raises(br.InputError, match="weights has 3 values, values 4"):
        core.add_sets(values, offsets, labels, ["s"], weights=np.ones(3))
    assert len(core) == 0  # nothing added by a refused call

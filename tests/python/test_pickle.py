"""Every result pickles with equal values (issue 30): what br.compare, br.compare_samples,
br.compare_many, br.matrix, br.history, br.scaling and the report presets return. Results pickle
as the call that made them (benchreport/_pickling.py); a Report as its blocks and data."""
import glob
import multiprocessing
import pickle
from pathlib import Path

import numpy as np
import pytest
from planted_history import planted_history

import benchreport as br

pd = pytest.importorskip("pandas")

DATA = Path(__file__).resolve().parent.parent / "data"
RENDERINGS = ("to_json", "to_markdown", "to_text", "to_html", "to_csv")


def _round_trip(obj):
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def _same_report(a, b):
    assert type(a) is type(b) and a.title == b.title and len(a) == len(b)
    for rendering in RENDERINGS:
        assert getattr(a, rendering)() == getattr(b, rendering)(), rendering
    assert json_equal(a.data, b.data)


def json_equal(a, b):
    """Equal JSON values, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and a != a:
        return b != b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _same_columns(a, b):
    ca, cb = a.columns(), b.columns()
    assert list(ca) == list(cb)
    for name in ca:
        x, y = np.asarray(ca[name]), np.asarray(cb[name])
        if x.dtype.kind == "f":
            np.testing.assert_array_equal(x, y, err_msg=name)  # NaN equal to NaN
        else:
            assert list(x) == list(y), name
    pd.testing.assert_frame_equal(a.to_pandas(), b.to_pandas())


@pytest.fixture(scope="module")
def nitro():
    return br.load([br.example_path("nitro/ios"), br.example_path("nitro/android")])


@pytest.fixture(scope="module")
def comparison(nitro):
    return br.compare(nitro, resamples=200)


def test_a_dataset_keeps_the_reader_of_each_run(nitro):
    back = _round_trip(nitro)
    assert back._ds.run_formats() == nitro._ds.run_formats() and {f for _, f in nitro._ds.run_formats()} == {"nitro"}
    assert back.to_json() == nitro.to_json()


def test_comparison_result_round_trips(comparison):
    back = _round_trip(comparison)
    # The plain fields (a Report compares by identity: its renderings are compared below).
    fields = ("by", "base_value", "head_value", "base_commit", "head_commit", "same_revision", "new_cases",
              "removed_cases")
    assert [getattr(back, f) for f in fields] == [getattr(comparison, f) for f in fields]
    _same_columns(comparison, back)
    _same_report(comparison.report, back.report)
    assert [c.stats.change for c in back.cases] == [c.stats.change for c in comparison.cases]
    assert back.to_bmf() == comparison.to_bmf()


def test_preset_reports_round_trip(nitro):
    runners = br.load([br.example_path("runners/runners.json")])
    zfh = br.load([br.example_path("zfh/android.log"), br.example_path("zfh/ios.log")])
    for report in (br.comparison_report(nitro, resamples=200), br.summary_report(nitro), br.runners_report(runners),
                   br.matrix_report(zfh)):
        _same_report(report, _round_trip(report))


def test_a_report_built_in_python_round_trips():
    report = br.Report("Hand made")
    report.add_heading("Section", 3).add_paragraph("plain ", br.strong("bold"), br.code("x"), br.link("a", "https://a"))
    report.add_note("careful", kind="warning").add_list(["one", ["two", br.strong("three")]])
    details = report.add_details("more", open=True)
    details.add_table(["a", ("b", "right")], [["x", br.Cell("1.5 s", "slower", 1.5, [1.0, 2.0, 1.5])]],
                      caption="T", id="t", footnote="note")
    report.add_footnote("small print")
    report.data = {"x": [1, 2.5, float("nan"), None, "s", True], "nested": {"y": -0.0}}
    back = _round_trip(report)
    _same_report(report, back)
    assert back.data["x"][2] != back.data["x"][2] and back.data["x"][0] == 1


def test_matrix_result_round_trips():
    m = br.matrix(br.load([br.example_path("zfh/android.log")]), rows=["algorithm"], cols=["engine"])
    back = _round_trip(m)
    np.testing.assert_array_equal(back.values, m.values)
    assert (back.rows, back.cols, back.unit, back.stat, back.best()) == (m.rows, m.cols, m.unit, m.stat, m.best())
    pd.testing.assert_frame_equal(back.to_pandas(), m.to_pandas())
    _same_report(m.report, back.report)


def test_runners_result_round_trips():
    result = br.runners(br.load(br.example_path("runners/runners.json")))
    back = _round_trip(result)
    pd.testing.assert_frame_equal(back.to_pandas(), result.to_pandas())
    _same_report(result.report, back.report)


def _history():
    return planted_history(16)


def test_history_result_round_trips():
    result = _history()
    back = _round_trip(result)
    _same_columns(result, back)
    _same_report(result.report, back.report)


def test_a_store_alert_round_trips_and_compares_with_anything():
    from benchreport._store_history import Alert

    alert = Alert("acknowledged", "new allocator", "environment changed: cpu: a \u2192 b")
    back = pickle.loads(pickle.dumps(alert))
    assert back == alert and hash(back) == hash(alert) and repr(back) == repr(alert)
    assert (alert == "acknowledged") is False and alert != Alert("new")


def test_scaling_result_and_its_report_with_plots_round_trip():
    data = DATA / "google_benchmark" / "scaling"
    result = br.scaling(br.load(sorted(glob.glob(str(data / "base-*.json")))))
    back = _round_trip(result)
    _same_columns(result, back)
    _same_report(result.report, back.report)
    _same_report(result.report, _round_trip(result.report))  # a plot: rebuilt by the same call


def test_case_comparisons_round_trip():
    rng = np.random.default_rng(3)
    base = rng.lognormal(0, 0.05, 40)
    one = br.compare_samples(base, base * 1.2, name="one", resamples=200)
    back = _round_trip(one)
    assert isinstance(back, br.CaseComparison)
    assert (back.case_name, back.change, back.change_ci, back.verdict_code) == (
        one.case_name, one.change, one.change_ci, one.verdict_code)
    many = br.compare_many({"a": (base, base * 1.2), "b": (base, base)}, resamples=200)
    _same_columns(many, _round_trip(many))
    second = _round_trip(many[1])
    assert (second.case_name, second.change, second.p_adjusted) == ("b", many[1].change, many[1].p_adjusted)


def test_a_result_made_directly_says_why_it_does_not_pickle(nitro, comparison):
    with pytest.raises(TypeError, match="pickles as the call that made it"):
        pickle.dumps(br._core.compare_dataset(nitro, resamples=200))  # not through br.compare
    with pytest.raises(TypeError, match="pickles as the call that made it"):
        pickle.dumps(comparison.cases[0].stats)


def _markdown_in_child(result):
    return result.to_markdown()


def test_a_result_crosses_processes(comparison):
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(_markdown_in_child, (comparison,)) == comparison.to_markdown()

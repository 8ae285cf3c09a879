"""benchreport.plot: what is drawn is checked against numpy, not just that it draws."""
import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchreport import plot  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _hline_segments(ax):
    """(y, x0, x1) of every horizontal segment drawn with hlines."""
    out = []
    for collection in ax.collections:
        for seg in collection.get_segments():
            (x0, y0), (x1, y1) = seg
            if y0 == y1:
                out.append((y0, x0, x1))
    return out


def _x_extent(patch):
    """(x0, x1) of an axvspan: a Rectangle in newer matplotlib, a Polygon in older ones."""
    if hasattr(patch, "get_width"):
        return (float(patch.get_x()), float(patch.get_x() + patch.get_width()))
    xy = np.asarray(patch.get_xy())
    return (float(xy[:, 0].min()), float(xy[:, 0].max()))


def test_distributions_medians_and_counts():
    rng = np.random.default_rng(1)
    base = rng.lognormal(0, 0.1, 41)
    head = [rng.lognormal(0.1, 0.1, 20), rng.lognormal(0.1, 0.1, 21)]  # per-process list is pooled
    ax = plot.plot_distributions(base, head, unit="ms", bins=12)
    vlines = [line.get_xdata()[0] for line in ax.get_lines()]
    assert vlines == pytest.approx([np.median(base), np.median(np.concatenate(head))], rel=1e-12)
    counts = [sum(p.get_height() for p in container.patches) for container in ax.containers]
    assert counts == [41, 41]
    assert ax.get_xlabel() == "value (ms)"
    assert "n=41" in ax.get_legend().get_texts()[0].get_text()


def test_samples_marks_drift_windows():
    rng = np.random.default_rng(2)
    values = np.linspace(1.0, 2.0, 30) + rng.normal(0, 0.01, 30)
    ax = plot.plot_samples(values, k=5, unit="ns")
    xs = sorted(_x_extent(p) for p in ax.patches)
    assert xs == [(-0.5, 4.5), (24.5, 29.5)]
    medians = sorted(seg[0] for seg in _hline_segments(ax))
    assert medians == pytest.approx(sorted([np.median(values[:5]), np.median(values[-5:])]), rel=1e-12)
    expected = np.median(values[-5:]) / np.median(values[:5]) - 1
    assert f"{expected:+.2%}" in ax.get_title()
    line = ax.get_lines()[0]
    np.testing.assert_array_equal(line.get_ydata(), values)


def test_samples_too_few_for_drift():
    ax = plot.plot_samples([1.0, 2.0, 3.0], k=2)
    assert "drift n/a" in ax.get_title() and "needs at least 4" in ax.get_title()
    assert not ax.patches


@pytest.mark.parametrize("n,k,expected", [(10, 5, ((0, 5), (5, 10))), (9, 5, None), (12, 3, ((0, 3), (9, 12)))])
def test_drift_windows(n, k, expected):
    assert plot.drift_windows(n, k) == expected


def test_drift_windows_rejects_bad_k():
    with pytest.raises(ValueError, match="k must be at least 1"):
        plot.drift_windows(10, 0)


def test_bad_samples_raise():
    with pytest.raises(ValueError, match="base: no samples"):
        plot.plot_distributions([], [1.0])
    with pytest.raises(ValueError, match="head: samples contain NaN"):
        plot.plot_distributions([1.0], [1.0, float("nan")])


def _frame_rows():
    pd = pytest.importorskip("pandas")
    return pd.DataFrame({
        "name": ["a", "b", "c"],
        "change": [0.10, -0.02, 0.30],
        "change_lower": [0.05, -0.06, 0.20],
        "change_upper": [0.15, 0.01, 0.45],
        "verdict": ["slower", "unchanged", "slower"],
    })


def test_forest_from_dataframe_sorted_with_intervals():
    ax = plot.plot_forest(_frame_rows(), threshold=0.05)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["b", "a", "c"]  # sorted by change
    segments = sorted(_hline_segments(ax))
    assert segments == [pytest.approx((0, -6.0, 1.0)), pytest.approx((1, 5.0, 15.0)), pytest.approx((2, 20.0, 45.0))]
    vertical = sorted(line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == ":")
    assert vertical == pytest.approx([-5.0, 5.0])


def test_forest_max_cases_keeps_largest():
    ax = plot.plot_forest(_frame_rows(), max_cases=2)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "c"]
    assert ax.get_title() == "2 of 3 cases (largest |change|)"


def test_forest_rows_from_dicts():
    rows = plot.forest_rows([{"case": "x", "change": 0.1, "change_ci": (0.0, 0.2), "verdict": "inconclusive"}])
    assert rows == [("x", 0.1, 0.0, 0.2, "inconclusive")]


def test_forest_from_compare_samples():
    import benchreport as br

    if not hasattr(br, "compare_samples"):
        pytest.skip("benchreport.compare_samples is not available in this build")
    rng = np.random.default_rng(3)
    result = br.compare_samples(rng.lognormal(0, 0.05, 40), rng.lognormal(0.2, 0.05, 40), resamples=500, seed=1)
    (name, change, lower, upper, verdict), = plot.forest_rows(result)
    assert change == pytest.approx(result.change)
    assert (lower, upper) == pytest.approx(tuple(result.change_ci))
    assert verdict == result.verdict
    plot.plot_forest(result)


def test_forest_empty_raises():
    with pytest.raises(ValueError, match="no matched cases"):
        plot.plot_forest([])


def test_missing_matplotlib_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"pip install 'benchreport\[plot\]'"):
        plot.plot_samples([1.0, 2.0])


def test_legends_carry_units_and_name_every_colour():
    rng = np.random.default_rng(4)
    base, head = rng.lognormal(0, 0.1, 30), rng.lognormal(0.1, 0.1, 30)
    texts = [t.get_text() for t in plot.plot_distributions(base, head, unit="µs").get_legend().get_texts()]
    assert texts[0] == f"base (n=30, median {np.median(base):.4g} µs)"
    assert texts[1] == f"head (n=30, median {np.median(head):.4g} µs)"
    # ~0.98 ms: shown in µs, as format_time shows the median (the reports' unit)
    assert np.median(base) < 1
    ax = plot.plot_samples(base, k=5, unit="ms")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"median of first 5: {1e3 * np.median(base[:5]):.4g} µs" in texts
    assert f"median of last 5: {1e3 * np.median(base[-5:]):.4g} µs" in texts
    assert ax.get_ylabel() == "value (µs)"
    ax = plot.plot_forest(_frame_rows(), threshold=0.05)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    verdicts = list(dict.fromkeys(r[4] for r in sorted(plot.forest_rows(_frame_rows()), key=lambda r: r[1])))
    assert legend == ["\u00b15% threshold"] + [f"{v} (change, CI)" for v in verdicts]
    assert "%" in ax.get_xlabel()


def test_helpers_scale_base_units_as_the_reports_do():
    """Samples in seconds (Dataset.samples gives base units) need no manual *1e9: 19.74 µs, not 1.974e+04 ns."""
    rng = np.random.default_rng(8)
    base = 1.974e-5 * rng.lognormal(0, 0.01, 41)
    head = 2.1e-5 * rng.lognormal(0, 0.01, 41)
    ax = plot.plot_distributions(base, head, unit="s")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0] == f"base (n=41, median {1e6 * np.median(base):.4g} µs)"
    assert texts[0].startswith("base (n=41, median 19.")
    assert ax.get_xlabel() == "value (µs)"
    low, high = ax.get_xlim()
    assert 15 < low < high < 25  # the bars are drawn in µs too
    assert plot.display_scale(np.array([1.5e9]), "B") == (1.0, "B")  # sizes stay in their unit
    assert plot.display_scale(np.array([3.0]), "widgets") == (1.0, "widgets")  # unknown: as given
    assert plot.display_scale(np.array([3.0]), "") == (1.0, "")


def test_history_plot_of_one_case_is_in_its_display_unit():
    """One case is drawn as summaries in ms (base seconds × 1000), several as ratios to their first commit."""
    import benchreport as br

    rng = np.random.default_rng(4)
    commits = [f"c{i:02d}" for i in range(12)]
    values = np.where(np.arange(12) < 6, 2e-3, 2.4e-3)
    ds = br.Dataset.from_arrays(np.concatenate([v * rng.lognormal(0, 0.01, 5) for v in values]),
                                np.arange(0, 61, 5), labels={"benchmark": ["BM_a"] * 12, "commit": commits})
    result = br.history(ds, order="commit")
    ax = plot.plot_history(result)
    assert ax.get_ylabel() == "summary (ms)"
    series = result.core.history.series[0]
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), 1e3 * np.asarray(series.values), rtol=1e-12)
    ax = plot.plot_history(result, relative=True)
    assert ax.get_ylabel() == "summary / first commit"
    assert ax.get_lines()[0].get_ydata()[0] == 1.0

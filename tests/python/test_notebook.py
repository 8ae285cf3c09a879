"""Notebook display and to_pandas for every result type (benchreport.notebook)."""
import sys
from pathlib import Path

import numpy as np
import pytest

import benchreport as br
from benchreport import notebook as nb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from markdown_check import assert_tables_well_formed  # noqa: E402

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def samples():
    rng = np.random.default_rng(11)
    base = 100.0 * rng.lognormal(0, 0.01, 40)
    return base, base * 1.25, 100.0 * rng.lognormal(0, 0.01, 40)


@pytest.fixture(scope="module")
def slower(samples):
    base, head, _ = samples
    # one process per side: the verdict on within-process noise needs the explicit assumption
    return br.compare_samples(base, head, resamples=500, seed=1, assume_launches_identical=True)


def test_compare_result_to_pandas_matches_attributes(slower):
    frame = nb.to_pandas(slower)
    assert len(frame) == 1
    row = frame.iloc[0]
    assert row["change"] == slower.change and row["verdict"] == slower.verdict == "slower"
    assert (row["change_lower"], row["change_upper"]) == slower.change_ci
    assert row["mann_whitney_p"] == slower.mann_whitney.pvalue
    assert row["shift_lower"] == slower.shift_bounds.lower
    assert row["verdict_code"] == slower.verdict_code and row["verdict_reason"] == slower.verdict_reason


def test_compare_many_to_pandas_one_row_per_case(samples):
    base, head, same = samples
    results = br.compare_many({"slow": (base, head), "same": (base, same)}, resamples=300)
    frame = nb.to_pandas(results)
    assert sorted(frame["name"]) == ["same", "slow"]
    np.testing.assert_allclose(frame.set_index("name").loc["slow", "change"], np.median(head) / np.median(base) - 1,
                               rtol=1e-12)


def test_summary_to_pandas_against_numpy(samples):
    x = samples[0]
    row = nb.to_pandas(br.summarize(x)).iloc[0]
    assert row["median"] == pytest.approx(np.median(x), rel=1e-15)
    for p in (0.05, 0.25, 0.75, 0.95):
        assert row[f"q{p:g}"] == pytest.approx(np.quantile(x, p), rel=1e-12)
    assert row["cv"] == pytest.approx(np.std(x) / np.mean(x), rel=1e-12)


def test_grouped_summary_to_pandas_against_numpy(samples):
    values = np.concatenate(samples)
    offsets = np.array([0, 40, 80, 120])
    frame = nb.to_pandas(br.summarize_grouped(values, offsets))
    assert len(frame) == 3
    for i, x in enumerate(samples):
        assert frame.loc[i, "median"] == pytest.approx(np.median(x), rel=1e-15)
        assert frame.loc[i, "q0.25"] == pytest.approx(np.quantile(x, 0.25), rel=1e-12)


def test_objects_with_their_own_to_pandas_are_delegated(tmp_path):
    ds = br.load(Path(__file__).resolve().parents[2] / "tests" / "data" / "hyperfine" / "commands.json")
    pd.testing.assert_frame_equal(nb.to_pandas(ds), ds.to_pandas())


def test_to_pandas_rejects_unknown():
    with pytest.raises(TypeError, match="no pandas view for int"):
        nb.to_pandas(3)


def test_compare_report_colours_verdicts(slower, samples):
    base, _, same = samples
    unchanged = br.compare_samples(base, same, resamples=300)
    html = nb.to_html([slower, unchanged])
    assert 'class="benchreport"' in html
    assert "role-slower" in html
    assert f"role-{unchanged.verdict}" in html
    md = nb.to_markdown([slower, unchanged])
    (table,) = assert_tables_well_formed(md)
    assert len(table.rows) == 2
    assert f"| {br.format_change_percent(slower.change_estimate)} (" in md
    assert "slower" in nb.to_text(slower)


def test_summary_report_lists_statistics(samples):
    x = samples[0]
    md = nb.to_markdown(br.summarize(x))
    (table,) = assert_tables_well_formed(md)
    values = {row[0]: row[1] for row in table.rows}
    assert float(values["median"]) == pytest.approx(np.median(x), rel=1e-5)
    assert values["n"] == "40"


def test_dataset_display_has_sparklines(tmp_path):
    ds = br.Dataset.from_arrays(np.arange(1.0, 21.0), [0, 10, 20], labels={"benchmark": ["a", "b"]}, unit="ms")
    html = nb.to_html(ds)
    assert html.count("<svg") == 2
    assert "<benchreport.Dataset" not in html or "&lt;benchreport.Dataset" in html  # the title is escaped


def test_a_large_dataset_displays_head_and_tail_with_counts():
    """As pandas: beyond 60 sets only the first and last 5 rows, and how many were left out."""
    n = 325
    names = [f"BM_{i:03d}" for i in range(n)]
    ds = br.Dataset.from_arrays(np.tile(np.arange(1.0, 6.0), n), np.arange(0, 5 * n + 1, 5),
                                labels={"benchmark": names}, unit="ns")
    html = nb.to_html(ds)
    shown = [name for name in names if f">{name}<" in html]
    assert shown == names[:5] + names[-5:]
    assert "Dataset: 325 sample sets" in html
    assert "Sets 1–5 and 321–325 of 325 shown (315 not shown)" in html
    assert len(html) < 30_000  # not 240 KB
    (table,) = assert_tables_well_formed(nb.to_markdown(ds))
    assert len(table.rows) == 10
    small = ds.take(range(nb.DATASET_MAX_ROWS))  # at the limit: every row
    assert len(assert_tables_well_formed(nb.to_markdown(small))[0].rows) == nb.DATASET_MAX_ROWS


def test_report_passes_through():
    report = br.Report("x")
    assert nb.to_report(report) is report


def test_enable_registers_formatters(slower):
    InteractiveShell = pytest.importorskip("IPython.core.interactiveshell").InteractiveShell
    shell = InteractiveShell.instance()
    registered = nb.enable(shell)
    assert br.CompareResult in registered or hasattr(br.CompareResult, "_repr_html_")
    data, _ = shell.display_formatter.format(slower)
    assert "role-slower" in data["text/html"]
    assert "slower" in data["text/plain"]
    data, _ = shell.display_formatter.format([slower, slower])
    assert data["text/html"].count("role-slower") >= 4  # two rows, change and verdict cells
    data, _ = shell.display_formatter.format([1, 2])
    assert "text/html" not in data  # ordinary lists are left alone


def test_enable_outside_ipython_does_nothing(monkeypatch):
    IPython = pytest.importorskip("IPython")
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    assert nb.enable() == []
    monkeypatch.delitem(sys.modules, "IPython")
    assert nb.enable() == []  # and without importing IPython
    assert "IPython" not in sys.modules


def test_report_reprs():
    report = br.Report("Title")
    report.add_table(["a", "s"]).add_row("x", br.Cell("", samples=[1, 3, 2]))
    assert "<svg" in report._repr_html_()
    assert report._repr_markdown_().startswith("<!-- benchreport report -->\n# Title")

    class Printer:
        def __init__(self):
            self.out = []

        def text(self, s):
            self.out.append(s)

    printer = Printer()
    report._repr_pretty_(printer, False)
    assert printer.out[0].startswith("Title\n=====")


def test_comparison_result_displays_itself(tmp_path):
    rng = np.random.default_rng(4)
    values, offsets, labels = [], [0], {"benchmark": [], "revision": []}
    for name, factor in (("slow", 1.3), ("same", 1.0)):
        for revision, f in (("base", 1.0), ("head", factor)):
            values.append(1000 * f * rng.lognormal(0, 0.01, 30))
            offsets.append(offsets[-1] + 30)
            labels["benchmark"].append(name)
            labels["revision"].append(revision)
    ds = br.Dataset.from_arrays(np.concatenate(values), offsets, labels=labels, unit="ns")
    result = br.compare(ds, resamples=300, assume_launches_identical=True)
    assert "role-slower" in result._repr_html_()
    InteractiveShell = pytest.importorskip("IPython.core.interactiveshell").InteractiveShell
    shell = InteractiveShell.instance()
    nb.enable(shell)
    data, _ = shell.display_formatter.format(result)
    assert data["text/plain"].startswith("Performance Report\n")  # the report, not a dataclass dump
    assert data["text/html"] == result._repr_html_()
    assert_tables_well_formed(result._repr_markdown_())
    frame = result.to_pandas()
    assert set(frame["verdict"]) >= {"slower"}
    frame = frame.set_index("benchmark")
    expected = np.median(values[1]) / np.median(values[0]) - 1
    assert frame.loc["slow", "change"] == pytest.approx(expected, rel=1e-12)


def test_import_registers_no_ipython_formatter():
    pytest.importorskip("IPython")
    import subprocess

    code = ("from IPython.core.interactiveshell import InteractiveShell\n"
            "shell = InteractiveShell.instance()\n"
            "import benchreport as br\n"
            "for mime in ('text/html', 'text/markdown', 'text/plain'):\n"
            "    f = shell.display_formatter.formatters[mime]\n"
            "    assert br.CaseComparison not in f.type_printers and br.Summary not in f.type_printers, mime\n"
            "    assert mime == 'text/plain' or list not in f.type_printers, mime\n"
            "assert hasattr(br.CompareResult, '_repr_html_') and hasattr(br.Summary, '_repr_html_')\n")
    subprocess.run([sys.executable, "-c", code], check=True)

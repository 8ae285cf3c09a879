"""The comparison report's shape (issue 35): a headline first, the method behind "How to read this",
one row per measurement with its metric in a column, verdict markers, number formats, CSV numbers,
text width and a case order that random interleaving does not shuffle."""
import csv
import io
import re

import numpy as np
import pytest

import benchreport as br

VERDICT_MARKERS = {"slower": "\U0001F534", "faster": "\U0001F7E2", "inconclusive": "\U0001F7E1",
                   "equivalent": "\u26AA", "~ unchanged": "\u26AA"}
CHANGE_WITH_INTERVAL = re.compile(r"^(?:[+-]\d+\.\d\d%|0\.00%) \((?:[+-]\d+\.\d\d%|0\.00%) to (?:[+-]\d+\.\d\d%|0\.00%)\)$")
HEADLINE = re.compile(r"\*\*(\d+) slower, (\d+) faster, (\d+) unchanged \(within ±5%\), (\d+) inconclusive; "
                      r"(no drift|drift in (\d+) cases?)\.\*\*")


def planted(order_of=None, processes=4, metrics=("real_time",), seed=7, benchmarks=("BM_c", "BM_a", "BM_b"),
            slower=("BM_b",)):
    """Samples of `benchmarks` with `processes` launches per side (launch noise 1 %), `slower` +30 % in head.

    order_of(side, process) gives the order in which that process ran the benchmarks (default: as listed)."""
    values, offsets = [], [0]
    labels = {"revision": [], "benchmark": [], "metric": [], "pair": []}
    for s, side in enumerate(("base", "head")):
        for p in range(processes):
            launch = np.exp(np.random.default_rng([seed, s, p]).normal(0, 0.01))
            names = order_of(side, p) if order_of else list(benchmarks)
            for name in names:
                # The samples of a set depend on its side, process and benchmark only, not on the order run.
                rng = np.random.default_rng([seed, s, p, sorted(benchmarks).index(name)])
                center = 100.0 * (1.3 if side == "head" and name in slower else 1.0) * launch
                for m, metric in enumerate(metrics):
                    values.extend(center * (1 + 0.1 * m) * (1 + 0.005 * rng.standard_normal(20)))
                    offsets.append(len(values))
                    labels["revision"].append(side)
                    labels["benchmark"].append(name)
                    labels["metric"].append(metric)
                    labels["pair"].append(str(p + 1))
    return br.Dataset.from_arrays(values, offsets, labels=labels, unit="ns")


def table_rows(markdown, header_start):
    """The data rows of the first Markdown table whose header starts with `header_start`, as lists of cells."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]])
    return rows


@pytest.fixture(scope="module")
def nitro_comparison():
    return br.compare(br.load([br.example_path("nitro") / "ios", br.example_path("nitro") / "android"]),
                      baseline={"revision": "base"}, resamples=500)


def test_headline_counts_every_measurement_once_and_comes_first(nitro_comparison):
    md = nitro_comparison.to_markdown()
    match = HEADLINE.search(md)
    assert match, md[:600]
    verdicts = [c.stats.verdict for c in nitro_comparison.cases]
    slower, faster, unchanged, inconclusive = (int(g) for g in match.groups()[:4])
    assert slower == verdicts.count("slower") and faster == verdicts.count("faster")
    assert unchanged == verdicts.count("equivalent") + verdicts.count("unchanged")
    assert inconclusive == verdicts.count("inconclusive")
    assert match.group(5) == "drift in 1 case"  # the Android C++ simpleFunc() head
    # Before any table, and before the report-only note.
    assert md.index(match.group(0)) < md.index("Report only") < md.index("| ")


def test_method_is_behind_how_to_read_this(nitro_comparison):
    md = nitro_comparison.to_markdown()
    assert "<summary>How to read this</summary>" in md
    assert md.index("<summary>How to read this</summary>") < md.index("4 base/head process pairs (interleaved")
    # Right under the headline, before the mode note, in every format.
    assert md.index("<summary>How to read this</summary>") < md.index("**Report only:**")
    assert md.index("**2 slower") < md.index("<summary>How to read this</summary>")
    html = nitro_comparison.report.to_html()
    assert html.index("</strong></p>\n<details>\n<summary>How to read this</summary>") < html.index("Report only:")
    text = nitro_comparison.report.to_text()
    assert text.index("2 slower") < text.index("How to read this") < text.index("Report only:")


def test_markdown_verdicts_carry_a_marker_beside_the_word(nitro_comparison):
    rows = table_rows(nitro_comparison.to_markdown(), "| Benchmark | Base p50")
    assert len(rows) >= 7
    for row in rows:
        marker, word = row[4].split(" ", 1)
        assert VERDICT_MARKERS[word] == marker
    # Text and HTML keep the plain word (colour is their marker).
    assert "\U0001F534" not in nitro_comparison.report.to_html() + nitro_comparison.report.to_text()


def test_change_column_reads_estimate_with_interval_and_never_minus_zero(nitro_comparison):
    report = nitro_comparison.report
    rows = table_rows(report.to_markdown(), "| Benchmark | Base p50")
    for row in rows:
        assert CHANGE_WITH_INTERVAL.match(row[3]), row[3]
    by_name = {(c.section, c.name): c for c in nitro_comparison.cases}
    first = table_rows(report.to_markdown(), "| Benchmark | Base p50")[0]
    c = by_name[("ios", first[0].replace("\\|", "|"))]
    assert first[3] == (f"{br.format_change_percent(c.stats.change_estimate)} "
                        f"({br.format_change_percent(c.stats.change_ci[0])} to {br.format_change_percent(c.stats.change_ci[1])})")
    for output in (report.to_markdown(), report.to_html(), report.to_text(), report.to_csv()):
        assert "-0.00%" not in output


def test_csv_has_numbers_for_change_bounds_p_values_and_medians(nitro_comparison):
    text = nitro_comparison.report.to_csv(table="all-ios")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 46
    by_name = {c.name: c for c in nitro_comparison.cases if c.section == "ios"}
    for row in rows:
        c = by_name[row["Benchmark"]]
        assert float(row["Base p50 (number)"]) == c.stats.base_median  # seconds, the base unit
        assert float(row["Head p50 (number)"]) == c.stats.head_median
        assert float(row["Change (95% CI) (number)"]) == c.stats.change_estimate
        assert (float(row["Change (95% CI) (lower)"]), float(row["Change (95% CI) (upper)"])) == tuple(c.stats.change_ci)
        assert float(row["Verdict (p)"]) == c.stats.p_value
        assert float(row["Verdict (p adjusted)"]) == c.stats.p_adjusted
        assert not row["Change (95% CI) (number)"].startswith("'")  # the formula guard is for text only
    assert any(row["Change (95% CI)"].startswith("'-") for row in rows)  # a text cell starting with - is guarded


def test_metric_column_and_one_verdict_per_measurement():
    report_ds = planted(metrics=("real_time", "cpu_time"))
    result = br.compare(report_ds, baseline={"revision": "base"}, resamples=200)
    md = result.to_markdown()
    match = HEADLINE.search(md)
    assert match and match.group(1) == "1"  # BM_b's real_time and cpu_time are one regression
    assert "| Benchmark | Metric | Base p50" in md
    rows = table_rows(md, "| Benchmark | Metric | Base p50")
    assert [(r[0], r[1]) for r in rows] == [("BM\\_b", "real\\_time")]  # the notable table: primaries only
    assert "Derived metrics (3)" in md
    assert "metric=" not in md
    assert "| Cases compared | 3 |" in md
    frame = result.to_pandas()
    assert list(frame.loc[frame["primary"], "metric"]) == ["real_time"] * 3
    assert list(frame.loc[~frame["primary"], "metric"]) == ["cpu_time"] * 3


def test_case_order_is_the_base_file_order_whatever_head_does():
    rng = np.random.default_rng(1)
    order = ["BM_c", "BM_a", "BM_b"]

    def head_shuffled(side, p):
        return list(order) if side == "base" else list(rng.permutation(order))

    first = br.compare(planted(head_shuffled), baseline={"revision": "base"}, resamples=200)
    second = br.compare(planted(head_shuffled), baseline={"revision": "base"}, resamples=200)
    assert [c.name for c in first.cases] == order
    assert first.to_markdown() == second.to_markdown()


def test_case_order_is_by_name_when_base_processes_disagree():
    shuffles = {}
    rng = np.random.default_rng(5)

    def shuffled(side, p):
        return shuffles.setdefault((side, p), [str(x) for x in rng.permutation(["BM_c", "BM_a", "BM_b"])])

    shuffles[("base", 0)] = ["BM_c", "BM_a", "BM_b"]
    shuffles[("base", 1)] = ["BM_a", "BM_c", "BM_b"]
    result = br.compare(planted(shuffled), baseline={"revision": "base"}, resamples=200)
    assert [c.name for c in result.cases] == ["BM_a", "BM_b", "BM_c"]


def test_text_tables_fit_160_columns_with_six_processes():
    ds = planted(processes=6, benchmarks=("BM_SomewhatLongBenchmarkName/4096/real", "BM_b"), slower=("BM_b",))
    text = br.compare(ds, baseline={"revision": "base"}, resamples=200).report.to_text()
    for line in text.splitlines():
        # Prose (notes, footnotes) may run long; table lines are the ones with column gaps.
        if "  " in line.strip():
            assert len(line) <= 160, line  # one code point per column here (ASCII, µ and ▁–█)
    assert "  Base process p50s:" in text  # the per-process details on lines of their own


def test_html_keeps_numbers_and_units_together(nitro_comparison):
    html = nitro_comparison.report.to_html()
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html)
    assert any("22.75\u00a0ns, 22.87\u00a0ns" in c for c in cells)
    for c in cells:
        assert not re.search(r"\d [a-zµ]", re.sub(r"<[^>]+>", "", c)), c

"""The commands a newcomer types first: compare OLD NEW, base/head in Python, thresholds as percentages."""
from pathlib import Path

import pytest

import benchreport as br
from benchreport import cli

DATA = Path(__file__).resolve().parents[1] / "data"
GBENCH = DATA / "google_benchmark" / "repetitions.json"
PYPERF = DATA / "pyperf" / "two_benchmarks.json"


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_old_new_positional_is_base_then_head(capsys):
    code, out, err = run(capsys, "compare", GBENCH, GBENCH, "--format", "json")
    assert code == 0, err
    labelled_code, labelled_out, _ = run(capsys, "compare", "--base", GBENCH, "--head", GBENCH, "--format", "json")
    assert labelled_code == 0 and out == labelled_out  # the same as the explicit form, byte for byte


def test_compare_with_three_unlabelled_inputs_shows_the_forms_that_work(capsys):
    code, _, err = run(capsys, "compare", GBENCH, GBENCH, GBENCH)
    assert code == 2
    assert "benchreport compare OLD NEW" in err and "--base" in err and len(err.strip().splitlines()) == 1


def test_labelled_positional_inputs_are_still_read_as_labelled(capsys):
    nitro = Path(br.example_path("nitro"))
    code, out, err = run(capsys, "compare", nitro / "ios", nitro / "android", "--format", "json")
    assert code == 0, err


@pytest.mark.parametrize("text,expected", [("5%", 0.05), ("0.05", 0.05), ("12.5%", 0.125), ("150%", 1.5)])
def test_threshold_accepts_percent_and_fraction(text, expected):
    assert cli.parse_threshold(text) == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize("text,needle", [("5", "did you mean 5%"), ("1", "did you mean 1%"), ("five", "percentage")])
def test_threshold_refuses_a_bare_number_of_one_or_more(capsys, text, needle):
    code, _, err = run(capsys, "compare", GBENCH, GBENCH, "--threshold", text)
    assert code == 2 and needle in err


def test_python_load_base_head_labels_as_the_cli_does():
    ds = br.load(base=GBENCH, head=[GBENCH])
    assert sorted(set(ds.labels["revision"])) == ["base", "head"]
    assert set(ds.labels["pair"]) == {"1"}
    cli_ds = cli.load_sides([str(GBENCH)], [str(GBENCH)], "revision", "base", "head")
    assert ds.labels == cli_ds.labels and (ds.values == cli_ds.values).all()


def test_python_compare_takes_two_paths_or_two_datasets():
    from_paths = br.compare(GBENCH, GBENCH)
    from_datasets = br.compare(br.load(GBENCH), br.load(GBENCH))
    assert [c.name for c in from_paths.cases] == [c.name for c in from_datasets.cases]
    assert from_paths.report.to_json() == from_datasets.report.to_json()
    assert len(from_paths.cases) > 0


def test_pyperf_workers_stay_processes_under_base_and_head():
    ds = br.load(base=PYPERF, head=PYPERF)
    workers = sorted(set(ds.labels["process"]))
    assert len(workers) == 3
    # One pair label per worker of the file, shared by both sides: base worker k pairs with head worker k.
    assert sorted(set(ds.labels["pair"])) == [f"1.{w}" for w in workers]
    result = br.compare(ds)
    assert all(len(case.pairs) == 3 for case in result.cases)


def test_load_base_head_argument_errors():
    with pytest.raises(br.InputError, match="both sides"):
        br.load(base=GBENCH)
    with pytest.raises(br.InputError, match="no input files"):
        br.load()


def test_results_have_short_reprs_and_the_dataset_view_a_short_heading():
    from benchreport import notebook

    result = br.compare(GBENCH, GBENCH)
    text = repr(result)
    assert text.startswith("<ComparisonResult head vs base:") and len(text) < 200
    assert repr(result.cases[0]).startswith("<CaseResult ")
    ds = br.load(GBENCH)
    assert notebook.to_report(ds).title == f"Dataset: {len(ds)} sample sets"


def test_help_is_plain_text(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "``" not in out


def test_go_case_names_spell_the_columns_that_tell_cases_apart(capsys):
    go = DATA / "go" / "bench.txt"
    names = [c.name for c in br.compare(go, go).cases]
    assert "BenchmarkSort/n=16 (procs=2, metric=ns/op)" in names
    assert "BenchmarkSort/n=16 (procs=1, metric=ns/op)" in names  # "1" inside "n=16" is no reason to hide procs
    assert not any("example.com" in n or "[" in n for n in names)  # one pkg for every case: not repeated


def test_csv_report_carries_the_numbers_beside_their_text():
    import csv
    import io
    import json

    report = br.compare(GBENCH, GBENCH).report
    data = json.loads(report.to_json())
    table = next(b for b in data["blocks"] if b["type"] == "table")
    rows = list(csv.reader(io.StringIO(report.to_csv(table=table["id"]) if table.get("id") else "")))
    header = rows[0]
    for c, column in enumerate(table["columns"]):
        values = [row[c].get("value") for row in table["rows"]]
        if any(v is not None for v in values):
            got = [r[header.index(column["title"] + " (number)")] for r in rows[1:]]
            assert [float(g) if g else None for g in got] == values  # bit for bit: shortest round trip


def test_label_option_and_labels_argument_set_a_label_on_every_set(capsys, tmp_path):
    ds = br.load(GBENCH, labels={"runner": "ubuntu-24"})
    assert ds.labels["runner"] == ["ubuntu-24"] * len(ds)
    out = tmp_path / "labelled.json"
    code, _, err = run(capsys, "convert", GBENCH, "--label", "runner=ubuntu-24", "-o", out)
    assert code == 0, err
    assert br.load(out).labels["runner"] == ["ubuntu-24"] * len(ds)
    code, _, err = run(capsys, "summary", GBENCH, "--label", "runner")
    assert code == 2 and "KEY=VALUE" in err


def test_summary_of_two_files_of_one_suite_says_which_file(capsys):
    code, out, err = run(capsys, "summary", GBENCH, DATA / "google_benchmark" / "single.json", "--format", "csv")
    assert code == 0, err
    code, out, err = run(capsys, "summary", GBENCH, GBENCH, "--format", "csv")
    assert code == 0, err
    header = out.splitlines()[1]
    assert "file" in header.split(",")


def test_a_label_named_like_a_statistic_column_is_marked(capsys):
    # hyperfine --parameter-list n 1,2 (made by tests/data/make_fixtures/make_hyperfine.sh)
    code, out, err = run(capsys, "summary", DATA / "hyperfine" / "parameter_named_n.json", "--format", "csv")
    assert code == 0, err
    header = out.splitlines()[1].split(",")
    assert "n (label)" in header and header.count("n") == 1


def test_pyperf_timeit_files_compare_as_the_first_command(capsys):
    timeit = DATA / "pyperf" / "timeit.json"  # `pyperf timeit -o` (name in the file's metadata)
    code, out, err = run(capsys, "compare", timeit, timeit, "--format", "text")
    assert code == 0, err
    assert "timeit" in out and "no benchmark" not in err


SAMPLE_WORDS = {
    "hyperfine": "hyperfine: one whole run of the command",
    "pyperf": "pyperf: one value of a worker process",
    "google-benchmark": "Google Benchmark: one repetition's mean time per iteration",
    "pytest-benchmark": "pytest-benchmark: one round",
    "go": "Go: one result line of go test -bench -count=N",
}
TOOL_FILES = {
    "hyperfine": DATA / "hyperfine" / "commands.json",
    "pyperf": PYPERF,
    "google-benchmark": GBENCH,
    "pytest-benchmark": DATA / "pytest_benchmark" / "with_data.json",
    "go": DATA / "go" / "bench.txt",
}


@pytest.mark.parametrize("tools", [["hyperfine"], ["pyperf", "google-benchmark"], list(TOOL_FILES)])
@pytest.mark.parametrize("command", ["summary", "compare"])
def test_reports_say_once_what_one_sample_is_for_the_tools_present(capsys, tools, command):
    files = [TOOL_FILES[t] for t in tools]
    argv = [command, *files, "--format", "markdown"] if command == "summary" else \
        [command, "--base", *files, "--head", *files, "--format", "markdown"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert out.count("What one sample is") == 1
    for tool, words in SAMPLE_WORDS.items():
        assert out.count(words) == (1 if tool in tools else 0), tool


def test_canonical_inputs_claim_no_tool_sample(capsys, tmp_path):
    out_file = tmp_path / "canonical.json"
    assert run(capsys, "convert", GBENCH, "-o", out_file)[0] == 0
    code, out, err = run(capsys, "summary", out_file, "--format", "markdown")
    assert code == 0, err
    assert "What one sample is" not in out


def test_docs_table_of_samples_says_what_the_reports_say(capsys):
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "presets.md").read_text()
    rows = dict(re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|$", text.split("## What one sample is")[1], re.M)[1:])
    for tool, path in TOOL_FILES.items():
        code, out, err = run(capsys, "summary", path, "--format", "text")
        assert code == 0, err
        name, sample = SAMPLE_WORDS[tool].split(": ", 1)
        assert f"{name}: {rows[name].replace('`', '')}" in out


def test_a_results_folder_skips_the_reports_benchreport_wrote_into_it(capsys, tmp_path):
    import shutil

    shutil.copy(GBENCH, tmp_path / "bench.json")
    for fmt, name in [("json", "report.json"), ("csv", "report.csv"), ("html", "report.html"), ("markdown", "report.md"),
                      ("text", "report.txt")]:
        assert run(capsys, "summary", tmp_path / "bench.json", "--format", fmt, "-o", tmp_path / name)[0] == 0
    shutil.copy(tmp_path / "report.json", tmp_path / "renamed.txt")  # told by content, not by name
    ds = br.load(tmp_path)
    direct = br.load(GBENCH)
    assert len(ds) == len(direct) and (ds.values == direct.values).all()
    note = next(w for w in ds.warnings if "reports benchreport wrote" in w)
    for name, kind in [("report.csv", "a CSV report"), ("report.html", "an HTML report"),
                       ("report.json", "a JSON report"), ("renamed.txt", "a JSON report"),
                       ("report.md", "a Markdown report"), ("report.txt", "a text report")]:
        assert f"{name} ({kind})" in note
    code, out, err = run(capsys, "summary", tmp_path, "--format", "text")
    assert code == 0, err
    # Named directly, a report is refused with the reason.
    code, _, err = run(capsys, "summary", tmp_path / "report.csv")
    assert code == 2 and "a CSV report written by benchreport" in err


def test_every_preset_report_in_every_format_is_recognised_in_a_folder(tmp_path):
    import shutil

    examples = Path(__file__).resolve().parents[2] / "examples" / "reports"
    reports = sorted(examples.glob("*.*"))
    assert {p.suffix for p in reports} == {".csv", ".html", ".json", ".md", ".txt"}
    for report in reports:
        shutil.copy(report, tmp_path / report.name)
    shutil.copy(GBENCH, tmp_path / "bench.json")
    ds = br.load(tmp_path)
    note = next(w for w in ds.warnings if "reports benchreport wrote" in w)
    assert f"skipped {len(reports)} reports" in note
    assert not any("no reader recognises" in w for w in ds.warnings)
    # A README-like text or Markdown file is still only "not recognised", never called a report.
    (tmp_path / "README.md").write_text("# Results\n\nRun on a laptop.\n")
    (tmp_path / "notes.txt").write_text("Results\n=====\n")  # underline shorter than the title
    skipped = next(w for w in br.load(tmp_path).warnings if "no reader recognises" in w)
    assert "README.md" in skipped and "notes.txt" in skipped


def test_canonical_files_in_a_folder_are_still_read(capsys, tmp_path):
    assert run(capsys, "convert", GBENCH, "-o", tmp_path / "canonical.json")[0] == 0
    assert run(capsys, "convert", GBENCH, "--to", "csv", "-o", tmp_path / "canonical.csv")[0] == 0
    ds = br.load(tmp_path)
    assert len(ds) == 2 * len(br.load(GBENCH))
    assert not any("benchreport wrote" in w for w in ds.warnings)


GB_DIR = DATA / "google_benchmark"


def test_a_base_of_aggregates_only_says_what_to_re_run(capsys):
    # Real Google Benchmark output of --benchmark_report_aggregates_only=true (make_google_benchmark.sh).
    code, _, err = run(capsys, "compare", GB_DIR / "aggregates_only.json", GB_DIR / "repetitions.json")
    assert code == 2
    assert "only aggregate rows" in err and "BM_Counter" in err
    assert "--benchmark_repetitions=N --benchmark_report_aggregates_only=false" in err
    assert "--benchmark_display_aggregates_only=true" in err


def test_cases_with_aggregates_only_on_the_base_side_carry_the_readers_reason(capsys):
    # Base: one benchmark registered with ReportAggregatesOnly(true); head: the same program reporting every repetition.
    code, out, err = run(capsys, "compare", GB_DIR / "some_aggregates_only.json", GB_DIR / "all_samples.json",
                         "--format", "text")
    assert code == 0, err
    assert "1 added; no drift." in out  # the measurement counts once (cpu_time is its derived metric)
    added = [line for line in out.splitlines() if line.startswith("BM_SumAggregatesOnly") and "added" in line]
    assert len(added) == 3 and all(line.rstrip().endswith("head only") for line in added)  # notable, all, derived
    reason = out.split("the readers said:")[1].split("Compared")[0]
    assert "only aggregate rows" in reason and "--benchmark_report_aggregates_only=false" in reason
    assert "kept" not in reason  # only the warnings that name a one-sided case


def test_plain_text_marks_best_cells_instead_of_promising_bold():
    from benchreport._presets import example_reports

    report = example_reports(resamples=200)["runners"]
    plain = report.to_text()
    assert "in bold" not in plain and "best per column marked *" in plain
    best = sum(1 for b in report.to_dict()["blocks"] if b["type"] == "table"
               for row in b["rows"] for cell in row if cell.get("role") == "best")
    assert best > 0 and plain.count(" *") >= best  # every best cell carries the mark
    colored = report.to_text(color=True)
    assert "best per column in bold" in colored and "\x1b[1;32m" in colored  # with colour, bold is real
    assert "in bold" in report.to_markdown()


def test_comparison_to_pandas_is_in_base_units_as_the_json_data():
    import json

    import numpy as np

    doc = json.loads(PYPERF.read_text())  # pyperf values are in seconds
    result = br.compare(PYPERF, PYPERF)
    frame = result.to_pandas().set_index("benchmark")
    for bench in doc["benchmarks"]:
        name = bench["metadata"]["name"]
        values = np.concatenate([r["values"] for r in bench["runs"] if r.get("values")])
        median = float(np.median(values))
        assert frame.loc[name, "unit_base"] == "s"
        assert frame.loc[name, "base_median"] == pytest.approx(median, rel=1e-12)


@pytest.mark.parametrize("seconds,symbol,scale", [(2.1e-6, "\u00b5s", 1e-6), (999e-9, "ns", 1e-9), (0.5, "ms", 1e-3),
                                                  (12.0, "s", 1.0), (0.0, "ns", 1e-9)])
def test_display_unit_scales_times_like_the_reports(seconds, symbol, scale):
    from benchreport._presets import display_unit

    assert display_unit(seconds, br.parse_unit("s")) == (symbol, scale)
    assert display_unit(3.0, br.parse_unit("B/s")) == ("B/s", 1.0)


# Each side of the unit boundaries: the unit is picked after rounding to four significant
# digits (999.96 ns reads "1.000 µs"), the same way in the report's text and in pandas.
BOUNDARIES = [999.94e-9, 999.95e-9, 999.96e-9, 1e-6, 999.94e-6, 999.96e-6, 0.99994, 0.99996, 59.994, 59.996,
              3599.4, 3599.9, 7200.0, -999.96e-9, 0.0, 3e-13]


@pytest.mark.parametrize("seconds", BOUNDARIES)
def test_display_unit_is_the_unit_of_the_report_text(seconds):
    from benchreport._presets import display_unit

    symbol, scale = display_unit(seconds, br.parse_unit("s"))
    digits, shown = br.format_time(seconds).split(" ")
    assert shown == symbol
    assert float(digits) == pytest.approx(seconds / scale, rel=1e-3, abs=1e-9)


def test_comparison_frame_and_report_show_a_median_in_one_unit():
    from benchreport._presets import display_unit

    medians = [999.94e-9, 999.96e-9, 59.996]
    values = [m for m in medians for _ in range(2) for _ in range(5)]
    n = len(medians) * 2
    ds = br.Dataset.from_arrays(values=values, offsets=[5 * i for i in range(n + 1)], unit="s",
                                labels={"benchmark": [f"b{i // 2}" for i in range(n)],
                                        "revision": ["base", "head"] * len(medians)})
    result = br.compare(ds)
    frame = result.to_pandas().set_index("benchmark")
    text = result.report.to_markdown()
    for i, median in enumerate(medians):
        row = frame.loc[f"b{i}"]
        shown = br.format_time(median)
        # The frame is in base units (unit_base); display_unit is the one chooser pandas users and
        # the report share, so it names the unit the report shows and scales the median to its digits.
        symbol, scale = display_unit(row["base_median"], br.parse_unit(row["unit_base"]))
        assert shown.endswith(" " + symbol) and shown in text
        assert float(shown.split(" ")[0]) == pytest.approx(row["base_median"] / scale, rel=1e-3)

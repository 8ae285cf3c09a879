"""End-to-end tests of the ``benchreport`` command line.

Most run ``main([...])`` in-process (fast); a few go through
``python -m benchreport`` in a subprocess to check the real entry point,
stdin and exit codes. Numbers in reports are checked against numpy.
"""
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import benchreport as br
from benchreport import cli

sys.path.insert(0, str(Path(__file__).resolve().parent))
from markdown_check import assert_tables_well_formed  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
GBENCH = DATA / "google_benchmark" / "repetitions.json"
HYPERFINE = DATA / "hyperfine" / "commands.json"
FORMATS = ("markdown", "html", "text", "csv", "json")


# ---------------------------------------------------------------- helpers

def canonical(sets):
    """Canonical JSON text: sets = [(labels, unit, values)]."""
    return json.dumps({"schema": "benchreport/1",
                       "sets": [{"labels": labels, "unit": unit, "values": [float(v) for v in values]}
                                for labels, unit, values in sets]})


def ab_sets(slow_factor=1.30, n=30, seed=7):
    """Two cases measured on base and head: "parse" is slower on head by ``slow_factor``, "noop" is unchanged."""
    rng = np.random.default_rng(seed)
    sets = []
    for name, factor in (("parse", slow_factor), ("noop", 1.0)):
        for revision, scale in (("base", 1.0), ("head", factor)):
            sets.append(({"benchmark": name, "revision": revision}, "ns",
                         1000.0 * scale * rng.lognormal(0.0, 0.01, n)))
    return sets


@pytest.fixture
def ab_file(tmp_path):
    path = tmp_path / "ab.json"
    path.write_text(canonical(ab_sets()), encoding="utf-8")
    return path


@pytest.fixture
def same_file(tmp_path):
    path = tmp_path / "same.json"
    path.write_text(canonical(ab_sets(slow_factor=1.0)), encoding="utf-8")
    return path


def run_main(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_module(*argv, stdin=None, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "benchreport", *map(str, argv)], input=stdin,
                          capture_output=True, env=full_env, cwd=cwd)


def check_format(fmt, text):
    """Each format parses as what it claims to be."""
    assert text.strip(), "empty output"
    if fmt == "markdown":
        assert_tables_well_formed(text)
    elif fmt == "json":
        assert json.loads(text)["schema"] == br.REPORT_SCHEMA
    elif fmt == "csv":
        assert list(csv.reader(io.StringIO(text)))
    elif fmt == "html":
        assert text.lstrip().lower().startswith("<!doctype html>") and "</html>" in text
    return text


def assert_one_line_error(err, *needles):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("benchreport: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, err)


def require_example(*parts):
    """An example input, or skip when this build's reader for it is still a stub."""
    path = REPO.joinpath("examples", *parts)
    try:
        br.load(path)
    except br.InputError as exc:
        if "not implemented" in str(exc):
            pytest.skip(f"reader for {path.name} not implemented in this build: {exc}")
        raise
    return path


# ---------------------------------------------------------------- summary

@pytest.mark.parametrize("fmt", FORMATS)
def test_summary_every_format(capsys, fmt):
    code, out, err = run_main(capsys, "summary", GBENCH, "--format", fmt)
    assert code == 0, err
    check_format(fmt, out)


def test_summary_numbers_match_numpy(capsys):
    code, out, _ = run_main(capsys, "summary", GBENCH, "--format", "json")
    assert code == 0
    data = json.loads(out)["data"]
    ds = br.load(GBENCH)
    assert data["schema"] == "benchreport-summary/1"
    assert len(data["groups"]) == len(ds)
    for i, group in enumerate(data["groups"]):
        x = np.array(ds.samples(i))
        assert group["labels"] == {c: ds.labels[c][i] for c in ds.columns}
        assert group["n"] == len(x)
        assert group["median"] == pytest.approx(np.median(x), rel=1e-12)
        assert group["cv"] == pytest.approx(np.std(x) / np.mean(x), rel=1e-9, abs=1e-15)
        assert group["mad_over_median_pct"] == pytest.approx(
            100 * np.median(np.abs(x - np.median(x))) / np.median(x), rel=1e-9, abs=1e-12)
        assert (group["min"], group["max"]) == (x.min(), x.max())
        if len(x) < 10:  # drift needs 2k samples (k = 5)
            assert group["drift"] is None and group["drift_reason"]


def test_summary_by_pools_sets_in_order(capsys):
    code, out, err = run_main(capsys, "summary", GBENCH, "--by", "metric", "--format", "json")
    assert code == 0, err
    groups = json.loads(out)["data"]["groups"]
    ds = br.load(GBENCH)
    real = [i for i in range(len(ds)) if ds.labels["metric"][i] == "real_time"]
    pooled = np.concatenate([ds.samples(i) for i in real])
    (row,) = [g for g in groups if g["labels"] == {"metric": "real_time"}]
    assert row["n"] == len(pooled)
    assert row["median"] == pytest.approx(np.median(pooled), rel=1e-12)


def test_summary_drift_against_numpy(tmp_path, capsys):
    x = np.concatenate([np.full(5, 100.0), np.linspace(100, 130, 10), np.full(5, 130.0)])
    path = tmp_path / "drift.json"
    path.write_text(canonical([({"benchmark": "warming"}, "ms", x)]))
    code, out, _ = run_main(capsys, "summary", path, "--format", "json", "-k", "5")
    assert code == 0
    (group,) = json.loads(out)["data"]["groups"]
    assert group["drift"] == pytest.approx(np.median(x[-5:]) / np.median(x[:5]) - 1, rel=1e-12)
    code, out, _ = run_main(capsys, "summary", path, "--format", "markdown")
    assert "drift by 10% or more" in out and "+30.00%" in out


def test_summary_markdown_budget_respected(tmp_path, capsys):
    sets = [({"benchmark": f"case {i} | pipe"}, "ns", np.arange(1.0, 41.0)) for i in range(300)]
    path = tmp_path / "many.json"
    path.write_text(canonical(sets))
    code, out, _ = run_main(capsys, "summary", path, "--budget", "4000")
    assert code == 0
    body = out[:-1] if out.endswith("\n") else out
    assert len(body.encode("utf-8")) <= 4000
    assert_tables_well_formed(body)
    code, full, _ = run_main(capsys, "summary", path, "--budget", "0")
    assert len(full) > 4000 and full.count("case 299") == 1


def test_summary_mixed_units_in_a_group_is_an_input_error(capsys):
    code, _, err = run_main(capsys, "summary", GBENCH, "--by", "benchmark")
    assert code == 2
    assert_one_line_error(err, "mixes units", "--by")


def test_summary_unknown_by_column(capsys):
    code, _, err = run_main(capsys, "summary", GBENCH, "--by", "nope")
    assert code == 2
    assert_one_line_error(err, "--by nope", "benchmark, metric")


# ---------------------------------------------------------------- output, inputs, errors

def test_output_file_instead_of_stdout(tmp_path, capsys):
    target = tmp_path / "out.md"
    code, out, _ = run_main(capsys, "summary", GBENCH, "--output", target)
    assert code == 0 and out == ""
    code, direct, _ = run_main(capsys, "summary", GBENCH)
    assert target.read_text(encoding="utf-8").rstrip("\n") == direct.rstrip("\n")


def test_folder_and_glob_inputs(capsys):
    code, by_folder, _ = run_main(capsys, "summary", DATA / "hyperfine", "--format", "csv")
    assert code == 0
    code, by_glob, _ = run_main(capsys, "summary", str(DATA / "hyperfine" / "*.json"), "--format", "csv")
    assert code == 0
    assert by_folder == by_glob


def test_stdin_through_main(monkeypatch, capsys, ab_file):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ab_file.read_bytes())))
    code, out, err = run_main(capsys, "summary", "-", "--format", "json")
    assert code == 0, err
    assert len(json.loads(out)["data"]["groups"]) == 4


def test_stdin_twice_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"{}")))
    code, _, err = run_main(capsys, "summary", "-", "-")
    assert code == 2
    assert_one_line_error(err, "stdin can be given only once")


def test_empty_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"  \n")))
    code, _, err = run_main(capsys, "validate", "-")
    assert code == 2
    assert_one_line_error(err, "<stdin>: empty input")


def test_missing_file(capsys, tmp_path):
    missing = tmp_path / "nope.json"
    code, out, err = run_main(capsys, "summary", missing)
    assert code == 2 and out == ""
    assert_one_line_error(err, str(missing), "no such file")


def test_invalid_file_names_file(capsys, tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"schema": "benchreport/1", "sets": [{"labels": {}, "unit": "ns", "values": []}]}')
    code, _, err = run_main(capsys, "summary", bad)
    assert code == 2
    assert_one_line_error(err, str(bad), "empty sample list")


def test_unknown_format_file(capsys, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello world\n")
    code, _, err = run_main(capsys, "convert", bad)
    assert code == 2
    assert_one_line_error(err, str(bad), "cannot tell the format")


def test_debug_shows_the_exception(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(cli.UsageError, match="no such file"):
        cli.main(["--debug", "summary", str(missing)])


@pytest.mark.parametrize("argv", [["summary"], ["summary", "x", "--format", "pdf"], ["frobnicate"], []])
def test_usage_errors_exit_2(capsys, argv):
    code = cli.main(argv)
    assert code == 2
    assert "usage: benchreport" in capsys.readouterr().err


def test_version_and_help_exit_0(capsys):
    assert cli.main(["--version"]) == 0
    assert br.__version__ in capsys.readouterr().out
    assert cli.main(["compare", "--help"]) == 0
    assert "--fail-on" in capsys.readouterr().out


@pytest.mark.parametrize("option,value,needle", [("--threshold", "0", "--threshold 0.0"),
                                                 ("--alpha", "1.5", "--alpha 1.5"),
                                                 ("--baseline", "revision", "LABEL=VALUE"),
                                                 ("--budget", "-1", "--budget -1"),
                                                 ("--resamples", "0", "--resamples 0")])
def test_bad_option_values(capsys, ab_file, option, value, needle):
    code, _, err = run_main(capsys, "compare", ab_file, option, value)
    assert code == 2
    assert_one_line_error(err, needle)


# ---------------------------------------------------------------- progress bar

class FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_only_on_a_tty(monkeypatch, capsys, tmp_path):
    paths = []
    for i in range(cli.PROGRESS_MIN_INPUTS):
        path = tmp_path / f"run-{i}.json"
        path.write_text(canonical([({"benchmark": f"b{i}"}, "ns", [1.0, 2.0, 3.0])]))
        paths.append(path)
    code, _, err = run_main(capsys, "summary", *paths, "--format", "csv")
    assert code == 0 and "reading [" not in err  # captured stderr is not a TTY
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert cli.main(["summary", *map(str, paths), "--format", "csv"]) == 0
    drawn = tty.getvalue()
    assert f"reading [{'#' * 24}] {len(paths)}/{len(paths)}" in drawn
    assert drawn.endswith("\r\x1b[K")  # the bar is erased when done


def test_progress_bar_not_for_few_inputs():
    tty = FakeTTY()
    progress = cli.Progress(cli.PROGRESS_MIN_INPUTS - 1, tty)
    progress.update(1, "x")
    progress.close()
    assert tty.getvalue() == ""


# ---------------------------------------------------------------- validate and convert

def test_validate_ok_and_invalid(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, err = run_main(capsys, "validate", GBENCH, bad)
    assert code == 2
    assert f"ok {GBENCH}: 11 sample sets, 55 samples" in out
    assert "warning: " not in out and "note: " not in out  # aggregate rows kept apart are normal
    (line,) = err.splitlines()
    assert line.startswith("INVALID ") and str(bad) in line
    code, out, _ = run_main(capsys, "validate", GBENCH, "--verbose")
    assert code == 0 and "  note: " in out and "kept" in out  # --verbose shows the reader's note


def test_validate_all_ok(capsys):
    code, out, err = run_main(capsys, "validate", GBENCH, HYPERFINE)
    assert code == 0 and err == ""
    assert out.count("\nok ") + out.startswith("ok ") == 2


@pytest.mark.parametrize("target", ["json", "csv"])
def test_convert_round_trip(capsys, tmp_path, target):
    code, out, _ = run_main(capsys, "convert", HYPERFINE, "--to", target)
    assert code == 0
    back = tmp_path / f"back.{target}"
    back.write_text(out, encoding="utf-8")
    original, again = br.load(HYPERFINE), br.load(back)
    np.testing.assert_array_equal(again.offsets, original.offsets)
    np.testing.assert_allclose(again.values, original.values, rtol=1e-15)
    assert again.labels["benchmark"] == original.labels["benchmark"]


def test_convert_target_from_output_suffix(capsys, tmp_path):
    target = tmp_path / "out.csv"
    code, out, err = run_main(capsys, "convert", HYPERFINE, "-o", target)
    assert code == 0 and out == ""
    assert "benchreport: warning: CSV does not carry run metadata" in err  # said, not dropped silently
    assert target.read_text().splitlines()[0].count(",") >= 2
    code, _, _ = run_main(capsys, "convert", HYPERFINE, "-o", tmp_path / "out.json")
    assert json.loads((tmp_path / "out.json").read_text())["schema"] == br.CANONICAL_SCHEMA


# ---------------------------------------------------------------- compare and the gate

@pytest.mark.parametrize("fmt", FORMATS)
def test_compare_every_format(capsys, ab_file, fmt):
    code, out, err = run_main(capsys, "compare", ab_file, "--format", fmt, "--resamples", "500")
    assert code == 0, err
    check_format(fmt, out)


def test_compare_reports_the_slowdown(capsys, ab_file):
    code, out, _ = run_main(capsys, "compare", ab_file, "--resamples", "500", "--format", "markdown")
    assert code == 0
    sets = ab_sets()
    expected = np.median(sets[1][2]) / np.median(sets[0][2]) - 1
    # The change column: the estimate (one process per side: head p50 / base p50 - 1) with its interval.
    assert f"| {br.format_change_percent(expected)} (" in out


def test_one_launch_per_side_gate_never_trips(capsys, ab_file):
    """Issue 31: with one process per side the gate tripped in every A/A cell; now no claim is made."""
    code, out, err = run_main(capsys, "compare", ab_file, "--fail-on", "slower", "--resamples", "500")
    assert code == 0
    assert "one launch per side" in out or "1 launch/side" in out


def test_gate_trips_on_a_real_slowdown(capsys, ab_file):
    code, out, err = run_main(capsys, "compare", ab_file, "--fail-on", "slower", "--resamples", "500",
                              "--assume-launches-identical")
    assert code == 1
    assert "gate tripped: 1 case(s) slower: parse" in err
    assert "Gate:" in out


def test_gate_passes_without_slowdown(capsys, same_file):
    code, _, err = run_main(capsys, "compare", same_file, "--fail-on", "slower", "--resamples", "500")
    assert code == 0, err


def test_report_only_never_fails(capsys, ab_file):
    code, out, _ = run_main(capsys, "compare", ab_file, "--resamples", "500")
    assert code == 0 and "Report only:" in out


def test_compare_is_deterministic_for_a_seed(capsys, ab_file):
    runs = [run_main(capsys, "compare", ab_file, "--format", "json", "--seed", "3", "--resamples", "300")[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_compare_threshold_changes_the_verdict(capsys, ab_file):
    code, _, _ = run_main(capsys, "compare", ab_file, "--fail-on", "slower", "--threshold", "0.5",
                          "--resamples", "300")
    assert code == 0  # a 30 % slowdown is below a 50 % threshold


def test_compare_unknown_baseline_label(capsys, ab_file):
    code, _, err = run_main(capsys, "compare", ab_file, "--baseline", "side=base")
    assert code == 2
    assert_one_line_error(err, "side", "benchmark, revision")


def test_github_step_summary_and_comment(capsys, monkeypatch, tmp_path, ab_file):
    summary = tmp_path / "step-summary.md"
    summary.write_text("previous step\n")
    comment = tmp_path / "comment.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    argv = ["compare", ab_file, "--github", "--comment-file", comment, "--resamples", "300", "--format", "html"]
    code, out, err = run_main(capsys, *argv)
    assert code == 0
    assert out.lstrip().lower().startswith("<!doctype html>")  # stdout keeps the requested format
    body = comment.read_text(encoding="utf-8")
    assert_tables_well_formed(body)
    assert summary.read_text(encoding="utf-8") == "previous step\n" + body + ("" if body.endswith("\n") else "\n")
    assert str(comment) in err and str(summary) in err
    run_main(capsys, *argv)
    assert summary.read_text(encoding="utf-8").count("# Performance Report") == 2  # appended, not replaced


def test_github_comment_within_budget(capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    rng = np.random.default_rng(5)
    sets = [({"benchmark": f"case-{i:03d}", "revision": rev}, "ns", 100 * rng.lognormal(0, 0.05, 12) * f)
            for i in range(120) for rev, f in (("base", 1.0), ("head", 1.0 + (i % 7) / 20))]
    path = tmp_path / "many.json"
    path.write_text(canonical(sets))
    comment = tmp_path / "c.md"
    code, _, _ = run_main(capsys, "compare", path, "--github", "--comment-file", comment, "--budget", "3000",
                          "--resamples", "200", "--format", "json")
    assert code == 0
    body = comment.read_text(encoding="utf-8")
    assert len(body.encode("utf-8")) <= 3000
    assert_tables_well_formed(body)


def test_github_default_comment_file_in_cwd(capsys, monkeypatch, tmp_path, ab_file):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(capsys, "summary", ab_file, "--github")
    assert code == 0
    assert (tmp_path / "benchreport-comment.md").read_text().startswith("<!-- benchreport report -->\n# Summary")
    assert "appended" not in err


# ---------------------------------------------------------------- the real entry point

def test_module_entry_point_with_stdin(ab_file):
    proc = run_module("compare", "-", "--fail-on", "slower", "--resamples", "300", "--assume-launches-identical",
                      stdin=ab_file.read_bytes())
    assert proc.returncode == 1, proc.stderr
    assert b"parse" in proc.stderr and b"# Performance Report" in proc.stdout


def test_module_entry_point_error_is_one_line(tmp_path):
    proc = run_module("validate", tmp_path / "missing.json")
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert_one_line_error(err, "missing.json")


def test_module_debug_prints_traceback(tmp_path):
    proc = run_module("--debug", "summary", tmp_path / "missing.json")
    assert proc.returncode != 0 and b"Traceback" in proc.stderr


# ---------------------------------------------------------------- presets on the examples

@pytest.mark.parametrize("fmt", FORMATS)
def test_compare_nitro_example(capsys, fmt):
    ios, android = require_example("nitro", "ios"), require_example("nitro", "android")
    code, out, err = run_main(capsys, "compare", ios, android, "--format", fmt, "--resamples", "300")
    assert code == 0, err
    check_format(fmt, out)


@pytest.mark.parametrize("fmt", FORMATS)
def test_runners_example(capsys, fmt):
    path = require_example("runners", "runners.json")
    code, out, err = run_main(capsys, "runners", path, "--format", fmt)
    assert code == 0, err
    check_format(fmt, out)


@pytest.mark.parametrize("fmt", FORMATS)
def test_matrix_example(capsys, fmt):
    path = require_example("zfh")
    code, out, err = run_main(capsys, "matrix", path, "--format", fmt)
    assert code == 0, err
    check_format(fmt, out)


def test_matrix_rows_cols_options(capsys):
    path = require_example("zfh")
    code, out, err = run_main(capsys, "matrix", path, "--rows", "engine", "--cols", "algorithm", "--format", "json")
    assert code == 0, err
    code, _, err = run_main(capsys, "matrix", path, "--rows", "nope")
    assert code == 2
    assert_one_line_error(err, "--rows nope")


@pytest.mark.parametrize("fmt", FORMATS)
def test_summary_every_example(capsys, fmt):
    for parts in (("nitro", "ios"), ("runners", "runners.json"), ("zfh",)):
        path = require_example(*parts)
        code, out, err = run_main(capsys, "summary", path, "--format", fmt)
        assert code == 0, err
        check_format(fmt, out)


def test_validate_every_example(capsys):
    for parts in (("nitro", "ios"), ("nitro", "android"), ("runners", "runners.json"), ("zfh",)):
        path = require_example(*parts)
        code, out, err = run_main(capsys, "validate", path)
        assert code == 0, err
        assert out.startswith(f"ok {path}: ")


def test_demo_from_any_directory(tmp_path):
    require_example("nitro", "ios")
    require_example("zfh")
    proc = run_module("demo", "--format", "markdown", "--resamples", "300", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    assert "# Performance Report" in text and "# Runner Benchmarks" in text and "# Benchmarks" in text
    assert_tables_well_formed(text)


@pytest.mark.parametrize("fmt", FORMATS)
def test_demo_output_dir(capsys, tmp_path, fmt):
    require_example("nitro", "ios")
    require_example("zfh")
    code, out, err = run_main(capsys, "demo", "--format", fmt, "--output-dir", tmp_path, "--resamples", "200")
    assert code == 0, err
    for name in ("comparison", "runners", "matrix"):
        path = tmp_path / f"{name}.{cli.EXTENSIONS[fmt]}"
        assert f"wrote {path}" in out
        check_format(fmt, path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- --base/--head labelling

def _side_files(tmp_path, factor, n_files=4):
    """base-N.json / head-N.json without revision labels, as a benchmark harness writes them."""
    rng = np.random.default_rng(21)
    for side, f in (("base", 1.0), ("head", factor)):
        for n in range(1, n_files + 1):
            sets = [({"benchmark": name}, "ns", 1000.0 * f ** (name == "parse") * rng.lognormal(0, 0.01, 10))
                    for name in ("parse", "noop")]
            (tmp_path / f"{side}-{n}.json").write_text(canonical(sets))


def test_base_and_head_inputs_are_labelled_and_paired(capsys, tmp_path):
    _side_files(tmp_path, 1.3, n_files=10)
    code, out, err = run_main(capsys, "compare", "--base", str(tmp_path / "base-*.json"),
                              "--head", str(tmp_path / "head-*.json"), "--fail-on", "slower",
                              "--resamples", "300", "--format", "json")
    assert code == 1, err
    assert "parse" in err and "noop" not in err
    text = json.dumps(json.loads(out))
    assert "10 base/head process pairs" in text


def test_base_and_head_pairs_follow_natural_order(tmp_path):
    _side_files(tmp_path, 1.0, n_files=10)
    ds = cli.load_sides([str(tmp_path / "base-*.json")], [str(tmp_path / "head-*.json")], "revision", "base", "head")
    labels = ds.labels
    base_pairs = [p for p, r in zip(labels["pair"], labels["revision"]) if r == "base"]
    assert base_pairs[::2] == [str(i) for i in range(1, 11)]  # base-2 is pair 2, base-10 is pair 10
    np.testing.assert_array_equal(ds.samples(2), br.load(tmp_path / "base-2.json").samples(0))


def test_with_labels_keeps_everything_else():
    original = br.load(GBENCH)
    relabelled = original.with_labels({"revision": "head"})
    assert relabelled.labels["revision"] == ["head"] * len(original)
    np.testing.assert_allclose(relabelled.values, original.values, rtol=1e-15)
    assert relabelled.units == original.units and relabelled.warnings == original.warnings
    assert relabelled.metadata == original.metadata and relabelled.runs == original.runs


@pytest.mark.parametrize("argv,needle", [(["--base", "a.json"], "--base and --head go together"),
                                         (["x.json", "--base", "a", "--head", "b"], "either positionally"),
                                         ([], "no input files given")])
def test_base_head_usage_errors(capsys, argv, needle):
    code, _, err = run_main(capsys, "compare", *argv)
    assert code == 2
    assert_one_line_error(err, needle)


def test_natural_key():
    names = ["base-10.json", "base-2.json", "base-1.json"]
    assert sorted(names, key=cli.natural_key) == ["base-1.json", "base-2.json", "base-10.json"]


# ---------------------------------------------------------------- the example CI workflow

def _workflow_compare_command():
    yaml = pytest.importorskip("yaml", reason="PyYAML is needed to read the example workflow")
    import shlex

    workflow = yaml.safe_load((REPO / "examples" / "ci" / "performance.yml").read_text())
    steps = workflow["jobs"]["bench"]["steps"]
    # The workflow compares through the benchreport action (action.yml): its inputs, in the
    # command scripts/action_compare.sh builds from them (tests/python/test_action.py runs that script).
    (inputs,) = [s["with"] for s in steps if "benchreport" in s.get("uses", "") and "base" in s.get("with", {})]
    argv = ["compare", "--base", *shlex.split(inputs["base"]), "--head", *shlex.split(inputs["head"]),
            "--input-format", inputs.get("format", "auto"), "--format", "html", "--output", "report.html",
            "--github", "--comment-file", "comment.md"]
    return argv + (["--fail-on", inputs["fail-on"]] if inputs.get("fail-on") else [])


def test_example_workflow_command_runs_on_google_benchmark_files(capsys, monkeypatch, tmp_path):
    """The workflow's exact compare command on files laid out as its benchmark step writes them."""
    argv = _workflow_compare_command()
    source = json.loads(GBENCH.read_text())
    rng = np.random.default_rng(8)
    (tmp_path / "results").mkdir()
    for side, factor in (("base", 1.0), ("head", 1.2)):
        for n in range(1, 5):
            doc = json.loads(json.dumps(source))
            for bench in doc["benchmarks"]:
                for key in ("real_time", "cpu_time"):
                    bench[key] = bench[key] * factor * rng.uniform(0.995, 1.005)
                bench["iterations"] = bench["iterations"] + (n if side == "head" else 0)  # per-binary counts
            (tmp_path / "results" / f"{side}-{n}.json").write_text(json.dumps(doc))
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(capsys, *argv, "--resamples", "300")
    assert code == 0, err
    assert (tmp_path / "report.html").read_text().lstrip().lower().startswith("<!doctype html>")
    body = (tmp_path / "comment.md").read_text()
    assert_tables_well_formed(body)
    assert "4 base/head process pairs" in body and "slower" in body
    assert summary.read_text().startswith(body)


def test_packaged_examples_match_the_repository():
    """`benchreport demo` reads the package's copy; it must be the repository's examples byte for byte."""
    packaged = br.example_path()
    files = sorted(p.relative_to(packaged) for p in packaged.rglob("*") if p.is_file())
    assert files, "no example data inside the package"
    for relative in files:
        assert (REPO / "examples" / relative).read_bytes() == (packaged / relative).read_bytes(), relative


def test_progress_bar_off_with_quiet(monkeypatch, tmp_path):
    paths = []
    for i in range(cli.PROGRESS_MIN_INPUTS):
        path = tmp_path / f"run-{i}.json"
        path.write_text(canonical([({"benchmark": f"b{i}"}, "ns", [1.0, 2.0, 3.0])]))
        paths.append(path)
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert cli.main(["summary", *map(str, paths), "--format", "csv", "--quiet"]) == 0
    assert tty.getvalue() == ""


def test_progress_bar_for_a_few_large_inputs(monkeypatch, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(canonical([({"benchmark": "b"}, "ns", [1.0, 2.0, 3.0])]))
    monkeypatch.setattr(cli, "PROGRESS_MIN_BYTES", path.stat().st_size)  # "large" = this file's size
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert cli.main(["summary", str(path), "--format", "csv"]) == 0
    assert "reading [" in tty.getvalue() and "1/1" in tty.getvalue()
    monkeypatch.setattr(cli, "PROGRESS_MIN_BYTES", path.stat().st_size + 1)
    tty.truncate(0)
    tty.seek(0)
    assert cli.main(["summary", str(path), "--format", "csv"]) == 0
    assert tty.getvalue() == ""  # one small input: nothing drawn


def test_comparison_status_line_on_a_tty_for_large_comparisons(monkeypatch, capsys):
    monkeypatch.setattr(cli, "PROGRESS_MIN_SETS", 1)
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert cli.main(["compare", str(GBENCH), str(GBENCH), "--format", "json", "--resamples", "100"]) == 0
    drawn = tty.getvalue()
    assert drawn.startswith("\r\x1b[Kcomparing 22 sample sets (100 resamples)") and drawn.endswith("\r\x1b[K")
    tty.truncate(0)
    tty.seek(0)
    assert cli.main(["compare", str(GBENCH), str(GBENCH), "--format", "json", "--resamples", "100", "-q"]) == 0
    assert tty.getvalue() == ""
    capsys.readouterr()
    code = cli.main(["compare", str(GBENCH), str(GBENCH), "--format", "json", "--resamples", "100"])
    assert code == 0 and "comparing" not in capsys.readouterr().err  # real stderr here is not a TTY

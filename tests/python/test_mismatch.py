"""Inputs that do not line up (issue 35): the diagnosis, added/removed cases, Go's procs label,
absent metadata, history folders, runners without a suite label, reader notes, filters mode."""
import json
import re
import shutil
from pathlib import Path

import pytest

import benchreport as br
from benchreport import cli

DATA = Path(__file__).resolve().parents[1] / "data"
MISMATCH = DATA / "mismatch"  # made by tests/data/make_fixtures/make_mismatch.sh (real hyperfine and go)
GBENCH = DATA / "google_benchmark" / "repetitions.json"


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def cases(report_json: str) -> list:
    return [case for section in json.loads(report_json)["data"]["sections"] for case in section["cases"]]


def test_no_matching_case_names_both_sides_the_nearest_match_and_the_fix(capsys):
    code, _, err = run(capsys, "compare", MISMATCH / "hyperfine_one_base.json", MISMATCH / "hyperfine_one_head.json")
    assert code == 2
    assert "no case has sets on both sides" in err
    assert "only in base (1): sleep 0.001 / time" in err
    assert "only in head (1): sleep 0.002 / time" in err
    assert "sleep 0.001 / time ~ sleep 0.002 / time (0.06)" in err  # 1 edit over 18 characters
    assert "hyperfine -n NAME" in err and "--by metric" in err


def test_the_suggested_by_compares_them(capsys):
    code, out, err = run(capsys, "compare", MISMATCH / "hyperfine_one_base.json", MISMATCH / "hyperfine_one_head.json",
                         "--by", "metric", "--format", "json")
    assert code == 0, err
    assert len(cases(out)) == 1


def test_some_cases_match_the_rest_are_new_and_removed_in_every_format(capsys):
    base, head = MISMATCH / "hyperfine_base.json", MISMATCH / "hyperfine_head.json"
    code, out, err = run(capsys, "compare", base, head, "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    # One row each, in the stable order: base's order (sleep 0.001 ran before true), the head-only case after.
    assert [(c["name"], c["verdict"]) for c in cases(out)] == [
        ("sleep 0.001", "removed"), ("true", cases(out)[1]["verdict"]), ("sleep 0.002", "added")]
    assert report["data"]["new_cases"] == [{"benchmark": "sleep 0.002", "metric": "time"}]
    assert report["data"]["removed_cases"] == [{"benchmark": "sleep 0.001", "metric": "time"}]
    assert report["data"]["sections"][0]["cases_compared"] == 1
    for fmt in ("markdown", "html", "text", "csv"):
        code, out, err = run(capsys, "compare", base, head, "--format", fmt)
        assert code == 0, err  # a case added or removed is not a regression
        assert "New cases" not in out and "Removed cases" not in out
        row_of = {"markdown": lambda name: next(line for line in out.splitlines() if line.startswith(f"| {name} |")),
                  "html": lambda name: re.search(rf"<tr><td[^>]*>{name}</td>.*?</tr>", out).group(0),
                  "text": lambda name: next(line for line in out.splitlines() if line.startswith(f"{name} ")),
                  "csv": lambda name: next(line for line in out.splitlines() if line.startswith(f"{name},"))}[fmt]
        assert "removed" in row_of("sleep 0.001") and "base only" in row_of("sleep 0.001")
        assert "added" in row_of("sleep 0.002") and "head only" in row_of("sleep 0.002")
    # --fail-on slower reads only matched cases' verdicts.
    code, _, err = run(capsys, "compare", base, head, "--fail-on", "slower", "--format", "text")
    assert code in (0, 1), err
    assert (code == 1) == (cases(run(capsys, "compare", base, head, "--format", "json")[1])[1]["verdict"] == "slower")


def test_go_procs_suffix_is_a_label_and_cases_match_by_name(capsys):
    procs2, procs1 = br.load(MISMATCH / "go_procs2.txt"), br.load(MISMATCH / "go_procs1.txt")
    assert set(procs2.labels["procs"]) == {"2"} and set(procs1.labels["procs"]) == {"1"}
    assert not any(name.endswith("-2") for name in procs2.labels["benchmark"])
    measured = set(zip(procs2.labels["benchmark"], procs2.labels["metric"]))
    code, out, err = run(capsys, "compare", MISMATCH / "go_procs2.txt", MISMATCH / "go_procs1.txt", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert len(cases(out)) == len(measured)
    assert report["data"]["new_cases"] == [] and report["data"]["removed_cases"] == []
    code, out, _ = run(capsys, "compare", MISMATCH / "go_procs2.txt", MISMATCH / "go_procs1.txt", "--format",
                       "markdown")
    assert "GOMAXPROCS differs between the sides (procs 2 in base, 1 in head)" in out


def test_go_with_several_procs_on_one_side_keeps_procs_in_the_case(capsys):
    code, out, err = run(capsys, "compare", DATA / "go" / "bench.txt", MISMATCH / "go_procs1.txt", "--format", "json")
    assert code == 0, err  # procs 1 matches; bench.txt's procs 2 rows are removed cases, not pooled
    removed = json.loads(out)["data"]["removed_cases"]
    assert removed and all(case["procs"] == "2" for case in removed)


def test_canonical_json_against_its_canonical_csv_is_compared(tmp_path, capsys):
    ds = br.load(GBENCH)
    br.save(ds, tmp_path / "run.json")
    with pytest.warns(UserWarning, match="CSV does not carry"):
        br.save(ds, tmp_path / "run.csv")  # iterations are set metadata: not in the CSV
    code, _, err = run(capsys, "compare", tmp_path / "run.json", tmp_path / "run.csv", "--format", "json")
    assert code == 0, err  # CSV has no per-sample iterations: unknown, not different


def test_history_of_a_folder_is_one_commit_per_file_in_natural_order(tmp_path, capsys):
    history = sorted((DATA / "google_benchmark" / "history").glob("*.json"))[:3]
    runs = tmp_path / "runs"
    runs.mkdir()
    for name, source in zip(["run-10.json", "run-2.json", "run-1.json"], history):
        shutil.copy(source, runs / name)
    code, out, err = run(capsys, "history", runs, "--format", "json")
    assert code == 0, err
    series = json.loads(out)["data"]["series"]
    assert series and all(s["commits"] == ["run-1.json", "run-2.json", "run-10.json"] for s in series)
    code, out, err = run(capsys, "history", runs / "run-1.json", "--format", "markdown")
    assert code == 0, err
    assert " over 1 commit " in out


def test_runners_without_a_suite_label_says_why(capsys):
    code, out, err = run(capsys, "runners", GBENCH, "--label", "runner=ubuntu-24", "--format", "markdown")
    assert code == 0, err
    assert 'no set has a "suite" label of cpu, disk or cache' in out and "--label suite=cpu" in out


def test_normal_reader_notes_are_not_warnings(capsys):
    ds = br.load(GBENCH)
    assert any("aggregate rows" in note for note in ds.notes)
    assert not any("aggregate rows" in w for w in ds.warnings)
    code, out, err = run(capsys, "summary", GBENCH, "--format", "markdown")
    assert code == 0 and "aggregate rows" not in out and "aggregate rows" not in err
    code, out, err = run(capsys, "summary", GBENCH, "--format", "markdown", "--verbose")
    assert code == 0 and "aggregate rows" not in out
    assert err.count("benchreport: note:") == len(ds.notes) and "kept" in err
    pyperf = br.load(DATA / "pyperf" / "two_benchmarks.json")
    assert not any("calibration" in w for w in pyperf.warnings)


def test_the_same_warning_from_several_files_is_shown_once_with_a_count(tmp_path, capsys):
    source = DATA / "google_benchmark" / "some_aggregates_only.json"
    for name in ("a.json", "b.json"):
        shutil.copy(source, tmp_path / name)
    warning = br.load(source).warnings
    assert warning
    code, out, err = run(capsys, "summary", tmp_path / "a.json", tmp_path / "b.json", "--format", "markdown")
    assert code == 0, err
    assert "(2 files: a.json, b.json)" in out or "(2 files: " in out
    assert out.count("have only aggregate rows") == 1


def test_filters_mode_names_the_case_after_both_benchmarks(capsys):
    code, out, err = run(capsys, "compare", GBENCH, "--baseline", "benchmark=BM_Accumulate/64", "--head-value",
                         "BM_Accumulate/512", "--by", "metric", "--format", "json")
    assert code == 0, err
    names = [c["name"] for c in cases(out)]
    assert names and all(name.startswith("BM_Accumulate/64 vs BM_Accumulate/512") for name in names)

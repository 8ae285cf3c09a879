"""Output paths are the file system's bytes: a name that is not UTF-8 (from argv, held by Python as
surrogate escapes) is written under its own bytes and named back as os.fsdecode gives it; the files
the library writes (Dataset.to_json/to_csv/to_bmf, ComparisonResult.to_bmf) go through the same
atomic writer as the command line's outputs."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import benchreport as br
from benchreport._output import Output, OutputError, append_text, check_output_path, write_atomic, write_outputs

REPO = Path(__file__).resolve().parents[2]
BMF = REPO / "tests" / "data" / "bmf"
NITRO = [REPO / "examples" / "nitro" / "ios", REPO / "examples" / "nitro" / "android"]
LATIN1_NAME = b"r\xe9port"  # "réport" in Latin-1: not UTF-8

posix_bytes_names = pytest.mark.skipif(sys.platform == "win32" or sys.getfilesystemencoding() != "utf-8",
                                       reason="names that are not UTF-8 exist on POSIX file systems")


def undecodable(folder: Path, suffix: str) -> str:
    """A path in `folder` whose name is not UTF-8, as Python holds it (surrogate escapes)."""
    return os.fsdecode(os.fsencode(folder) + b"/" + LATIN1_NAME + suffix.encode())


@posix_bytes_names
def test_cli_writes_a_path_from_argv_that_is_not_utf8(tmp_path):
    target = os.fsencode(tmp_path) + b"/" + LATIN1_NAME + b".json"
    ran = subprocess.run([sys.executable, "-m", "benchreport", "convert", str(BMF / "reference-example.json"),
                          "--to", "bmf", "-o", target],
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), LC_ALL="C.UTF-8"),
                         capture_output=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert os.listdir(os.fsencode(tmp_path)) == [LATIN1_NAME + b".json"]
    assert json.loads(Path(os.fsdecode(target)).read_text()) == json.loads((BMF / "reference-example.json").read_text())


@posix_bytes_names
def test_outputs_take_undecodable_paths_and_give_them_back(tmp_path):
    report, summary = undecodable(tmp_path, ".md"), undecodable(tmp_path, ".summary")
    outputs = [Output(report, "x\n"), Output(summary, "s\n", append=True)]
    assert outputs[0].path == report and repr(outputs[0]) == f"Output(path={report!r}, append=False)"
    write_outputs(outputs)
    write_atomic(report, b"y\n")
    append_text(summary, "t\n")
    check_output_path(os.fsencode(report))
    assert Path(report).read_bytes() == b"y\n" and Path(summary).read_bytes() == b"s\nt\n"
    assert sorted(os.listdir(os.fsencode(tmp_path))) == [LATIN1_NAME + b".md", LATIN1_NAME + b".summary"]


@posix_bytes_names
def test_an_error_names_an_undecodable_path_as_python_holds_it(tmp_path):
    missing = undecodable(tmp_path, "-folder") + "/comment.md"
    with pytest.raises(OutputError) as raised:
        write_outputs([Output(missing, "x")])
    assert str(raised.value) == f"{missing}: its folder {os.path.dirname(missing)} does not exist"


def test_outputs_take_path_like_and_bytes(tmp_path):
    write_outputs([Output(tmp_path / "a.md", "a"), Output(os.fsencode(tmp_path / "b.md"), "b")])
    assert (tmp_path / "a.md").read_text() == "a" and (tmp_path / "b.md").read_text() == "b"
    assert Output(tmp_path / "a.md").path == str(tmp_path / "a.md")
    with pytest.raises(TypeError):
        Output("a\0b.md", "x")  # refused, never cut short at the NUL and written elsewhere


def test_dataset_and_comparison_files_are_written_by_the_atomic_writer(tmp_path):
    ds = br.load(NITRO)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("keep", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(elsewhere)
    result = br.compare(ds)
    for write in (ds.to_bmf, ds.to_json, ds.to_csv, lambda path: result.to_bmf("head", path)):
        with pytest.raises(OutputError, match="is a symbolic link"):
            write(link)
    assert elsewhere.read_text(encoding="utf-8") == "keep"
    ds.to_bmf(tmp_path / "bencher.json")
    result.to_bmf("base", tmp_path / "base.json")
    assert (tmp_path / "bencher.json").read_text(encoding="utf-8") == ds.to_bmf()
    assert (tmp_path / "base.json").read_text(encoding="utf-8") == result.to_bmf("base")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.json", "bencher.json", "elsewhere.json", "link.json"]

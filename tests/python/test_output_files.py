"""The CLI's output files: every path checked before any is written, atomic replacement
(temporary file + rename), symbolic links refused, errors naming the path (issue 17)."""
from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys

import numpy as np
import pytest

from benchreport import cli
from benchreport._output import Output, OutputError, write_atomic, write_outputs


def canonical_ab(tmp_path):
    rng = np.random.default_rng(3)
    sets = [{"labels": {"benchmark": name, "revision": rev}, "unit": "ns",
             "values": [float(v) for v in 1000 * f * rng.lognormal(0, 0.01, 20)]}
            for name in ("parse", "noop") for rev, f in (("base", 1.0), ("head", 1.2 if name == "parse" else 1.0))]
    path = tmp_path / "ab.json"
    path.write_text(json.dumps({"schema": "benchreport/1", "sets": sets}), encoding="utf-8")
    return path


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_output_replaces_atomically_and_keeps_mode(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    write_atomic(str(target), "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]  # no temporary file left


def test_symlink_at_output_path_is_refused_and_its_target_untouched(capsys, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    link = tmp_path / "report.md"
    link.symlink_to(victim)
    code, _, err = run(capsys, "summary", canonical_ab(tmp_path), "-o", link)
    assert code == 2
    assert f"{link}: is a symbolic link" in err and err.count("\n") == 1
    assert victim.read_text() == "keep me\n"
    assert link.is_symlink()


def test_failing_comment_file_leaves_no_output_written(capsys, monkeypatch, tmp_path):
    summary = tmp_path / "step-summary.md"
    summary.write_text("previous step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    out = tmp_path / "report.html"
    bad_comment = tmp_path / "no-such-folder" / "comment.md"
    code, _, err = run(capsys, "compare", canonical_ab(tmp_path), "--format", "html", "-o", out, "--github",
                       "--comment-file", bad_comment, "--resamples", "200")
    assert code == 2
    assert f"{bad_comment}: its folder" in err and "does not exist" in err
    assert not out.exists()
    assert summary.read_text() == "previous step\n"


def test_output_to_a_folder_or_twice_is_refused(tmp_path):
    with pytest.raises(OutputError, match="is not a regular file"):
        write_outputs([Output(str(tmp_path), "x")])
    target = str(tmp_path / "a.md")
    with pytest.raises(OutputError, match="named as two different outputs"):
        write_outputs([Output(target, "x"), Output(target, "y")])
    assert not (tmp_path / "a.md").exists()


def test_dev_null_is_written_in_place(capsys, tmp_path):
    code, _, err = run(capsys, "summary", canonical_ab(tmp_path), "-o", os.devnull)
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)  # still the device, not a renamed file


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="/dev/stdout is Linux")
@pytest.mark.parametrize("into", ["pipe", "file"])
def test_dev_stdout_is_written_in_place(tmp_path, into):
    """``-o /dev/stdout`` is a link to this process's descriptor: written through, to a pipe or a redirected file."""
    src = canonical_ab(tmp_path)
    argv = [sys.executable, "-m", "benchreport", "summary", str(src), "--format", "csv", "-o", "/dev/stdout"]
    if into == "pipe":
        proc = subprocess.run(argv, capture_output=True, text=True)
        written = proc.stdout
    else:
        target = tmp_path / "redirected.csv"
        with open(target, "w", encoding="utf-8") as fh:
            proc = subprocess.run(argv, stdout=fh, stderr=subprocess.PIPE, text=True)
        written = target.read_text(encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    assert "\nbenchmark,revision," in written and "parse" in written and "noop" in written


def test_convert_output_is_atomic_too(capsys, tmp_path):
    src = canonical_ab(tmp_path)
    link = tmp_path / "out.csv"
    link.symlink_to(tmp_path / "elsewhere.csv")
    code, _, err = run(capsys, "convert", src, "-o", link)
    assert code == 2 and "is a symbolic link" in err
    assert not (tmp_path / "elsewhere.csv").exists()
    plain = tmp_path / "plain.csv"
    assert run(capsys, "convert", src, "-o", plain)[0] == 0
    assert plain.read_text(encoding="utf-8").startswith("benchmark,revision")


def _large_report():
    """A report whose JSON is several MiB: many cells and a long one-line array."""
    import benchreport as br
    report = br.Report("Large")
    table = report.add_table(["Benchmark", ("p50", "right")], id="all")
    for i in range(30000):
        table.add_row(f"case {i} | <b>", br.Cell(br.format_time(i * 1e-9), value=i * 1e-9))
    report.data = {"values": [i * 0.25 for i in range(200000)]}
    return report


@pytest.mark.parametrize("fmt", ["json", "markdown", "html", "text", "csv"])
def test_rendering_into_a_file_gives_the_rendered_bytes(tmp_path, fmt):
    report = _large_report()
    target = tmp_path / f"out.{fmt}"
    write_outputs([Output(str(target), write_to=lambda fd: report.render_to_fd(fd, fmt, markdown_budget=0))])
    assert target.read_bytes() == bytes(report.render_utf8(fmt, markdown_budget=0))
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
    if fmt == "json":
        assert target.stat().st_size > 4 * 2**20  # several of the writer's 1 MiB pieces


def test_a_failed_write_while_rendering_raises_oserror_and_keeps_the_old_file(tmp_path):
    report = _large_report()
    read_only = os.open(os.devnull, os.O_RDONLY)
    try:
        with pytest.raises(OSError) as raised:
            report.render_to_fd(read_only, "json")
        assert raised.value.errno == errno.EBADF  # the descriptor is not open for writing
    finally:
        os.close(read_only)
    target = tmp_path / "report.json"
    target.write_text("old\n")

    def fails(fd):
        os.write(fd, b"partial")
        raise MemoryError("rendering ran out of memory")

    with pytest.raises(MemoryError):
        write_outputs([Output(str(target), write_to=fails), Output(str(tmp_path / "other.md"), "x\n")])
    assert target.read_text() == "old\n"  # the rendered output is written first: nothing else was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_cli_output_is_the_rendered_report(capsys, tmp_path):
    source = canonical_ab(tmp_path)
    out = tmp_path / "report.json"
    code, _, _ = run(capsys, "compare", source, "--format", "json", "-o", out)
    assert code == 0
    import benchreport as br
    expected = br.compare(br.load(str(source))).report.render_utf8("json")
    assert out.read_bytes() == bytes(expected)

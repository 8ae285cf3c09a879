"""Hardening of the command line: hostile folders, terminal-safe messages, BOMs,
empty and truncated inputs, the stdin size limit (docs/hardening.md)."""
import io
import os
import sys

import pytest

from benchreport import _core, cli

ESC_RED = "\x1b[31m"
RLO = "\u202e"


def run_main(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_terminal_safe(text):
    for bad in ("\x1b", "\x07", "\x9b", RLO, "\u2066", "\u200f"):
        assert bad not in text, repr(text)


GO = "goos: linux\nBenchmarkA-8 100 12 ns/op\nBenchmarkA-8 100 13 ns/op\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_symlink_loop_dangling_symlink_and_fifo_in_a_folder(tmp_path, capsys):
    # F1: a symlink loop gave a Python traceback (exit 1); dangling symlinks and FIFOs were skipped silently.
    d = tmp_path / "d"
    d.mkdir()
    os.symlink("s1", d / "s2")
    os.symlink("s2", d / "s1")
    os.symlink("nowhere", d / "dangling")
    os.mkfifo(d / "pipe")  # opening it would block the walk
    code, out, err = run_main(capsys, "validate", d)
    assert code == cli.EXIT_INPUT
    assert len(err.strip().splitlines()) == 1
    assert "no benchmark results found in this folder" in err
    assert "dangling (dangling symlink), pipe (FIFO), s1 (symlink loop), s2 (symlink loop)" in err
    (d / "bench.txt").write_text(GO)
    code, out, err = run_main(capsys, "validate", d)
    assert code == cli.EXIT_OK
    assert "2 samples" in out
    assert "warning:" in out and "skipped 4 entries that are not regular files" in out
    code, out, err = run_main(capsys, "summary", d, "-f", "text")
    assert code == cli.EXIT_OK


def test_terminal_safe_is_the_core_rule():
    assert cli.terminal_safe(f"a{ESC_RED}b{RLO}c\nd\x85e") == "a [31mb\ufffdc d e"
    assert cli.terminal_safe(b"x\xffy") == "x\ufffdy"
    assert cli.terminal_safe("f\udcffg") == "f\ufffdg"  # a file name decoded with surrogateescape
    assert _core.neutralize_text("plain µs – ok") == "plain µs – ok"


def test_escapes_in_inputs_never_reach_the_terminal(tmp_path, capsys):
    # F4: units, names, warnings and file names reached stderr/stdout raw.
    evil = tmp_path / f"ev{ESC_RED}il{RLO}.txt"
    evil.write_text(f"goos: linux\nBenchmark{RLO}B-8 100 12 x{ESC_RED}/op\nBenchmarkB-8 100 13 x{ESC_RED}/op\n")
    code, out, err = run_main(capsys, "validate", evil)
    assert code == cli.EXIT_OK
    assert "is not a unit benchreport knows" in out
    assert_terminal_safe(out + err)
    bad = tmp_path / f"bad{ESC_RED}.txt"
    bad.write_text(f"BenchmarkA-8 100 12 ns/op\nBenchmarkB 1 x\x1b]0;title\x07 ns/op\n")
    for argv in (("validate", bad), ("summary", bad)):
        code, out, err = run_main(capsys, *argv)
        assert code == cli.EXIT_INPUT
        assert "is not a number" in err
        assert_terminal_safe(out + err)
    code, out, err = run_main(capsys, "summary", tmp_path / f"missing{ESC_RED}")
    assert code == cli.EXIT_INPUT and "no such file" in err
    assert_terminal_safe(err)


def test_gate_message_names_cases_safely(tmp_path, capsys):
    rows = ["benchmark,revision,unit,value"]
    name = f"slow{ESC_RED}{RLO}case"
    rows += [f"{name},base,ms,{1 + i * 0.01}" for i in range(12)]
    rows += [f"{name},head,ms,{2 + i * 0.01}" for i in range(12)]
    path = tmp_path / "gate.csv"
    path.write_text("\n".join(rows) + "\n")
    # one process per side: the gate trips only under the assumption that launches run at one speed
    code, out, err = run_main(capsys, "compare", path, "--fail-on", "slower", "--resamples", 200, "-f", "text",
                              "--assume-launches-identical")
    assert code == cli.EXIT_GATE
    assert "gate tripped: 1 case(s) slower: slow [31m\ufffdcase" in err
    assert_terminal_safe(err)


def test_progress_line_shows_names_safely():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    progress = cli.Progress(10, stream)
    progress.update(3, f"a{ESC_RED}b{RLO}.json")
    text = stream.getvalue()
    assert text.startswith("\r\x1b[K")  # the progress bar's own control sequence
    assert_terminal_safe(text[len("\r\x1b[K"):])
    assert "a [31mb\ufffd.json" in text


def test_bom_go_text_reads_every_line(tmp_path, capsys):
    # F5: validate said 1 sample (the BOM hid the first result line).
    path = tmp_path / "bench.txt"
    path.write_bytes(b"\xef\xbb\xbf" + b"BenchmarkA-8 100 12 ns/op\nBenchmarkA-8 100 13 ns/op\n")
    code, out, _ = run_main(capsys, "validate", path)
    assert code == cli.EXIT_OK and "1 sample sets, 2 samples" in out
    path.write_bytes(b"\xef\xbb\xbf" + b'{"context":{},"benchmarks":[{"name":"a","iterations":1,'
                     b'"real_time":1,"cpu_time":1,"time_unit":"ns"}]}')
    code, out, err = run_main(capsys, "validate", path, "--input-format", "google-benchmark")
    assert code == cli.EXIT_OK, err


def test_empty_and_truncated_inputs_are_invalid(tmp_path, capsys):
    header_only = tmp_path / "h.csv"
    header_only.write_text("benchmark,unit,value\n")
    cut = tmp_path / "cut.txt"
    cut.write_text("BenchmarkA-8 100 0.0012 ns/op\nBenchmarkA-8 100 0.00")
    empty = tmp_path / "gb.json"
    empty.write_text('{"context":{},"benchmarks":[]}')
    code, out, err = run_main(capsys, "validate", header_only, cut, empty)
    assert code == cli.EXIT_INPUT
    lines = err.strip().splitlines()
    assert f"INVALID {header_only}: no samples" in lines[0]
    assert f"INVALID {cut}:2: the last line has no line break" in lines[1]
    assert f"INVALID {empty}: no samples" in lines[2]


def test_stdin_is_read_with_a_limit(capsys):
    class Stream:
        def __init__(self, data):
            self.buffer = io.BytesIO(data)

    data = GO.encode()
    assert cli.expand_inputs(["-"], stdin=Stream(data), max_bytes=len(data))[0].data == data
    with pytest.raises(cli.UsageError, match=r"<stdin>: more than 10 bytes exceeds the input size limit"):
        cli.expand_inputs(["-"], stdin=Stream(data), max_bytes=10)
    assert cli.MAX_STDIN_BYTES == 1 << 30


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_file_name_that_is_not_utf8(tmp_path, capsys, monkeypatch):
    # `benchreport validate $'r\xe9.json'`: argv holds the name undecodable (r\udce9.json); a usage error
    # quoting it failed to decode in the binding's exception translation (a traceback). Now: one line, U+FFFD.
    monkeypatch.chdir(tmp_path)
    name = os.fsdecode(b"r\xe9.json")
    code, out, err = run_main(capsys, "validate", name)  # no such file: a usage error naming it
    assert code == cli.EXIT_INPUT
    assert err.startswith("benchreport: error: r\ufffd.json") and len(err.splitlines()) == 1
    with open(b"r\xe9.json", "w") as f:
        f.write(GO)
    code, out, err = run_main(capsys, "validate", name)
    assert code in (cli.EXIT_OK, cli.EXIT_INPUT)
    assert "r\ufffd.json" in out + err and "Traceback" not in err
    assert_terminal_safe(out + err)
    code, out, err = run_main(capsys, "compare", name, "--base", name, "--head", name)
    assert code == cli.EXIT_INPUT
    assert err == ("benchreport: error: r\ufffd.json: give inputs either positionally or with --base/--head, "
                   "not both\n")

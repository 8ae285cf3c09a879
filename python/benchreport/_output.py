"""Writing the command line's output files: all checked first, each written atomically.

* Every path is checked before any file is written (its folder exists and is a
  folder, the path is no folder, no symbolic link), so a bad ``--comment-file``
  leaves ``-o`` and the step summary untouched.
* A file is written to a temporary file in the same folder and renamed over
  the path (``os.replace``): a reader sees the old file or the new one, never
  half of one, and a failed write leaves no partial file.
* A symbolic link at an output path is refused, never followed or replaced:
  ``-o report.md`` pointing somewhere else would otherwise write (or clobber)
  that other file. A character device or FIFO (``-o /dev/null``) is written
  in place, also through a link (``-o /dev/stdout``, ``/dev/fd/N``: a stream
  cannot be clobbered); any other existing non-file (a folder, a socket) is
  refused.
* The GitHub step summary is appended to (opened with ``O_NOFOLLOW``), as the
  runner expects.
* An output may be rendered while it is written (``Output.write_to``: a large
  JSON report goes to its temporary file through a small buffer instead of
  being held whole). Such outputs are written first, so if rendering fails
  nothing has been written and the temporary file is removed.

Errors are :class:`OutputError` (an ``OSError``), one line naming the path.
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence, Union


class OutputError(OSError):
    """An output path that cannot be written; the message names the path."""


@dataclass(frozen=True)
class Output:
    """Text for one path: replaced atomically, or appended to (``append=True``). ``text`` may be
    UTF-8 already, as bytes or a buffer. Instead of ``text``, ``write_to`` may render the output into
    an open binary file descriptor (a large report, never held whole)."""

    path: str
    text: Union[str, bytes, memoryview] = b""
    append: bool = False
    write_to: Optional[Callable[[int], None]] = None


def _lstat(path: Path) -> Optional[os.stat_result]:
    try:
        return path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"{path}: cannot be written ({exc.strerror})") from None


def check_output_path(path: str) -> None:
    """Raise OutputError unless ``path`` can be written as a regular file without following a link."""
    target = Path(path)
    info = _lstat(target)
    if _is_stream_path(path, info):
        return
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise OutputError(f"{path}: is a symbolic link; benchreport does not write through one "
                          "(remove it, or give the path it points to)")
    if info is not None and not (stat.S_ISREG(info.st_mode) or _is_stream(info)):
        raise OutputError(f"{path}: exists and is not a regular file")
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{path}: its folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: its folder {folder} is not writable")


def _is_stream(info: os.stat_result) -> bool:
    """A character device or FIFO (``-o /dev/null``): written in place, never renamed over."""
    return stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)


# The process's own descriptors: written in place whatever they are open on
# (``-o /dev/stdout`` with stdout redirected to a file).
_DESCRIPTOR_PATHS = ("/dev/stdout", "/dev/stderr")
_DESCRIPTOR_FOLDERS = ("/dev/fd/", "/proc/self/fd/")


def _is_stream_path(path: str, info: Optional[os.stat_result]) -> bool:
    """Whether ``path`` is written in place: a stream, a link to one, or one of this process's descriptors."""
    if info is None:
        return False
    if _is_stream(info):
        return True
    if not stat.S_ISLNK(info.st_mode):
        return False
    if path in _DESCRIPTOR_PATHS or path.startswith(_DESCRIPTOR_FOLDERS):
        return True
    try:
        return _is_stream(os.stat(path))
    except OSError:
        return False


def _new_file_mode(existing: Optional[os.stat_result]) -> int:
    if existing is not None:
        return stat.S_IMODE(existing.st_mode)
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _utf8(text: Union[str, bytes, memoryview]) -> Union[bytes, memoryview]:
    return text.encode("utf-8") if isinstance(text, str) else text


def _writer(text: Union[str, bytes, memoryview, Callable[[int], None]]) -> Callable[[int], None]:
    """What writes ``text`` into an open binary descriptor: ``text`` itself when it renders there."""
    if callable(text):
        return text
    data = _utf8(text)

    def write(fd: int) -> None:
        with open(fd, "wb", closefd=False) as fh:
            fh.write(data)

    return write


def write_atomic(path: str, text: Union[str, bytes, memoryview, Callable[[int], None]]) -> None:
    """Write ``text`` (UTF-8, or a callable that writes it into a descriptor) to ``path`` through a
    temporary file in its folder and a rename."""
    target = Path(path)
    existing = _lstat(target)
    write = _writer(text)
    if _is_stream_path(path, existing):
        _write_in_place(path, write)
        return
    mode = _new_file_mode(existing)
    fd, temporary = tempfile.mkstemp(dir=str(target.parent), prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh.fileno())
            os.fsync(fh.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot be written ({exc.strerror or exc})") from None
        raise


def _write_in_place(path: str, write: Callable[[int], None]) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    except OSError as exc:
        raise OutputError(f"{path}: cannot be written ({exc.strerror})") from None
    try:
        write(fd)
    except OSError as exc:
        raise OutputError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def append_text(path: str, text: Union[str, bytes, memoryview]) -> None:
    """Append ``text`` to ``path`` (created when missing), never through a symbolic link."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        raise OutputError(f"{path}: cannot be appended to ({exc.strerror})") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(_utf8(text))


def write_outputs(outputs: Sequence[Output]) -> None:
    """Check every path, then write each output (replacements first, appends last)."""
    for output in outputs:
        check_output_path(output.path)
    paths = [os.path.abspath(output.path) for output in outputs]
    if len(set(paths)) != len(paths):
        duplicate = next(p for p in paths if paths.count(p) > 1)
        raise OutputError(f"{duplicate}: named as two different outputs")
    # Rendered while written first (a rendering error then leaves every path untouched), appends last.
    for output in sorted(outputs, key=lambda o: (o.append, o.write_to is None)):
        if output.append:
            append_text(output.path, output.text)
        else:
            write_atomic(output.path, output.write_to or output.text)

"""A reusable checker for GitHub-flavoured Markdown tables.

GitHub (cmark-gfm) splits a table row on every ``|`` that is not directly
preceded by a backslash: its cell scanner takes the longest match of
"backslash + punctuation | any other byte", so ``\\|`` is always an escaped
pipe, whatever precedes the backslash. Code spans give no protection: a bare
``|`` inside backticks still splits the row (GFM spec, "Tables"), so the
checker counts it — exactly the bug that breaks a row like
``C++ number | string variant``.

Usage from any test::

    from markdown_check import assert_tables_well_formed
    assert_tables_well_formed(markdown_text)   # returns the tables found
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List

_DELIMITER_ROW = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


@dataclass
class MarkdownTable:
    line: int  # 1-based line of the header row
    header: List[str]
    aligns: List[str]
    rows: List[List[str]] = field(default_factory=list)


def split_row(line: str) -> List[str]:
    """Cells of one table row (outer pipes required), split the way GitHub splits them."""
    text = line.strip()
    if not (text.startswith("|") and text.endswith("|") and not text.endswith("\\|")):
        raise AssertionError(f"table row does not start and end with an unescaped '|': {line!r}")
    cells, current = [], []
    for i, ch in enumerate(text[1:], start=1):
        if ch == "|" and text[i - 1] != "\\":
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    return cells


def _align(cell: str) -> str:
    cell = cell.strip()
    if cell.startswith(":") and cell.endswith(":"):
        return "center"
    return "right" if cell.endswith(":") else "left"


def find_tables(markdown: str) -> List[MarkdownTable]:
    """Every pipe table outside fenced code blocks, with its split rows."""
    lines = markdown.split("\n")
    tables: List[MarkdownTable] = []
    fence = None
    i = 0
    while i < len(lines):
        line = lines[i]
        fence_match = _FENCE.match(line)
        if fence_match:
            marker = fence_match.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
            i += 1
            continue
        if fence is None and line.startswith("|") and i + 1 < len(lines) and _DELIMITER_ROW.match(lines[i + 1]):
            table = MarkdownTable(line=i + 1, header=split_row(line),
                                  aligns=[_align(c) for c in split_row(lines[i + 1])])
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                table.rows.append(split_row(lines[i]))
                i += 1
            tables.append(table)
            continue
        i += 1
    return tables


def assert_tables_well_formed(markdown: str) -> List[MarkdownTable]:
    """Fails when any row (or the delimiter row) has a cell count other than the header's."""
    tables = find_tables(markdown)
    for table in tables:
        width = len(table.header)
        if len(table.aligns) != width:
            raise AssertionError(f"table at line {table.line}: delimiter row has {len(table.aligns)} cells, "
                                 f"header has {width}")
        for offset, row in enumerate(table.rows):
            if len(row) != width:
                raise AssertionError(f"table at line {table.line}, row {offset + 1}: {len(row)} cells, "
                                     f"header has {width}: {row!r}")
    return tables

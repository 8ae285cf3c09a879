"""Reports: build a report from headings, paragraphs, notes, lists, tables,
collapsible details and footnotes, then render it as GitHub-flavoured Markdown,
standalone HTML (or a notebook fragment), aligned text, CSV or JSON.

Also the number and unit formatting used by every report (``format_time``,
``format_change``, ...). See docs/reports.md for the rules.

Everything you put into a report is treated as untrusted text: renderers escape
it for their target, so benchmark names like ``a | b`` or ``<script>`` are safe.

The classes and functions are the compiled core's (python/bindings/register_report.cpp):
argument conversion, keywords, chaining and pickling live there. What stays here is
the constants as typed Python values.
"""
from __future__ import annotations

from typing import Tuple

from . import _core
from ._core import (
    Cell,
    Details,
    Report,
    Table,
    code,
    format_bits,
    format_byte_rate,
    format_bytes,
    format_change,
    format_change_percent,
    format_fixed,
    format_integer,
    format_percent,
    format_range,
    format_rate,
    format_sparkline,
    format_time,
    link,
    strong,
)

__all__ = [
    "Report", "Table", "Details", "Cell", "strong", "code", "link",
    "REPORT_SCHEMA", "UNAVAILABLE", "FORMATS", "DEFAULT_MARKDOWN_BUDGET",
    "format_time", "format_change", "format_change_percent", "format_percent", "format_fixed", "format_range",
    "format_integer", "format_rate", "format_bytes", "format_byte_rate", "format_bits", "format_sparkline",
]

REPORT_SCHEMA: str = _core.REPORT_SCHEMA
UNAVAILABLE: str = _core.UNAVAILABLE
#: Names ``Report.render`` accepts (src/render/render.cpp), in the order the CLI lists them.
FORMATS: Tuple[str, ...] = tuple(_core.FORMATS)
#: Default Markdown size budget in UTF-8 bytes: a GitHub comment (RenderOptions::markdown_budget).
DEFAULT_MARKDOWN_BUDGET: int = _core.DEFAULT_MARKDOWN_BUDGET

#: Cell roles and column alignments, as the C++ report model names them (report/table.hpp).
ROLES: Tuple[str, ...] = tuple(_core.CELL_ROLES)
ALIGNS: Tuple[str, ...] = tuple(_core.ALIGNMENTS)

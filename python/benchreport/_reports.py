"""Reports: build a report from headings, paragraphs, notes, lists, tables,
collapsible details and footnotes, then render it as GitHub-flavoured Markdown,
standalone HTML (or a notebook fragment), aligned text, CSV or JSON.

Also the number and unit formatting used by every report (``format_time``,
``format_change``, ...). See docs/reports.md for the rules.

Everything you put into a report is treated as untrusted text: renderers escape
it for their target, so benchmark names like ``a | b`` or ``<script>`` are safe.
"""
from __future__ import annotations

import enum
import json
from typing import Any, Iterable, Mapping, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np

from . import _core
from ._pickling import reduce_remembered

__all__ = [
    "Report",
    "Table",
    "Details",
    "Cell",
    "strong",
    "code",
    "link",
    "REPORT_SCHEMA",
    "UNAVAILABLE",
    "FORMATS",
    "DEFAULT_MARKDOWN_BUDGET",
    "format_time",
    "format_change",
    "format_change_percent",
    "format_percent",
    "format_fixed",
    "format_range",
    "format_integer",
    "format_rate",
    "format_bytes",
    "format_byte_rate",
    "format_bits",
    "format_sparkline",
]

REPORT_SCHEMA: str = _core.REPORT_SCHEMA
UNAVAILABLE: str = _core.UNAVAILABLE
#: Names ``Report.render`` accepts (src/render/render.cpp), in the order the CLI lists them.
FORMATS: Tuple[str, ...] = tuple(_core.FORMATS)
#: Default Markdown size budget in UTF-8 bytes: a GitHub comment (RenderOptions::markdown_budget).
DEFAULT_MARKDOWN_BUDGET: int = _core.DEFAULT_MARKDOWN_BUDGET

Span = _core.Span
InlinePart = Union[str, Span]
ColumnSpec = Union[str, Tuple[str, str]]
CellLike = Union[str, int, float, "Cell"]

#: Cell roles and column alignments, as the C++ report model names them (report/table.hpp).
ROLES: Tuple[str, ...] = tuple(_core.CELL_ROLES)
ALIGNS: Tuple[str, ...] = tuple(_core.ALIGNMENTS)


def strong(text: str) -> Span:
    """Bold inline text."""
    return Span.bold(str(text))


def code(text: str) -> Span:
    """Inline code (shown verbatim)."""
    return Span.code(str(text))


def link(text: str, url: str) -> Span:
    """A link; URLs with schemes other than http, https and mailto render as plain text."""
    return Span.link(str(text), str(url))


class Cell(_core.Cell):
    """One table cell.

    text: exactly what is shown (already formatted, e.g. ``format_time(x)``).
    role: one of ``ROLES`` — drives colouring (HTML classes, ANSI colours),
        bold for ``best`` and a code span for ``code``.
    value: the number behind the text, kept in JSON (and HTML ``data-value``).
    samples: optional 1-D samples in measurement order, drawn as a sparkline.
    figures: more numbers behind the text as ``{name: number}`` (an interval's ``lower`` and
        ``upper``); CSV gives each a numeric column ``"<title> (<name>)"``. None reads as NaN.
    """

    def __init__(self, text: str, role: str = "none", value: Optional[float] = None, samples: Any = None,
                 figures: Optional[Mapping[str, Optional[float]]] = None) -> None:
        array = None if samples is None else np.asarray(samples, dtype=np.float64).ravel()
        named = [(str(k), float("nan") if v is None else float(v)) for k, v in (figures or {}).items()]
        super().__init__(str(text), str(role), None if value is None else float(value), array, named)


def _spans(parts: Iterable[InlinePart]) -> list:
    return [part if isinstance(part, Span) else Span.plain(str(part)) for part in parts]


def _item_spans(item: Union[InlinePart, Sequence[InlinePart]]) -> list:
    if isinstance(item, (str, Span)):
        return _spans([item])
    return _spans(item)


def _column(spec: ColumnSpec) -> Tuple[str, str]:
    if isinstance(spec, str):
        return (spec, "left")
    title, align = spec
    return (str(title), str(align))


def _cell(value: CellLike) -> "_core.Cell":
    if isinstance(value, _core.Cell):
        return value
    if isinstance(value, (bool, np.bool_)):
        return _core.Cell(str(value), "none", None, None)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return _core.Cell(str(value), "none", float(value), None)
    return _core.Cell(str(value), "none", None, None)


class Table:
    """A table inside a report; returned by ``add_table``."""

    def __init__(self, core_table: "_core.Table") -> None:
        self._core = core_table

    def add_row(self, *cells: CellLike) -> "Table":
        """Append one row (one cell per column: str, number or ``Cell``)."""
        self._core.add_row([_cell(c) for c in cells])
        return self

    def add_rows(self, rows: Iterable[Sequence[CellLike]]) -> "Table":
        """Append several rows."""
        for row in rows:
            self.add_row(*row)
        return self

    @property
    def footnote(self) -> str:
        return self._core.footnote

    @footnote.setter
    def footnote(self, text: str) -> None:
        self._core.footnote = str(text)

    @property
    def records_when_wide(self) -> bool:
        """Text: a table wider than 160 columns is written as one record per row (False: one line per row)."""
        return self._core.records_when_wide

    @records_when_wide.setter
    def records_when_wide(self, value: bool) -> None:
        self._core.records_when_wide = bool(value)

    @property
    def columns(self) -> list:
        """(title, align) pairs."""
        return self._core.columns

    def __len__(self) -> int:
        return len(self._core)


_Self = TypeVar("_Self", bound="_Builder")


class _Builder:
    """Block builders shared by Report and Details; each returns self for chaining
    except add_table and add_details, which return the new container."""

    _blocks: "_core.Blocks"

    def add_heading(self: _Self, text: str, level: int = 2) -> _Self:
        """A heading, level 1..6."""
        self._blocks.add_heading(int(level), str(text))
        return self

    def add_paragraph(self: _Self, *parts: InlinePart) -> _Self:
        """A paragraph of plain strings and ``strong``/``code``/``link`` spans."""
        self._blocks.add_paragraph(_spans(parts))
        return self

    def add_note(self: _Self, *parts: InlinePart, kind: str = "note") -> _Self:
        """A callout; kind "note" or "warning"."""
        self._blocks.add_note(_spans(parts), kind)
        return self

    def add_list(self: _Self, items: Iterable[Union[InlinePart, Sequence[InlinePart]]]) -> _Self:
        """A bullet list; each item is a string, a span or a sequence of them."""
        self._blocks.add_list([_item_spans(item) for item in items])
        return self

    def add_table(
        self,
        columns: Sequence[ColumnSpec],
        rows: Iterable[Sequence[CellLike]] = (),
        *,
        caption: str = "",
        id: str = "",
        footnote: str = "",
    ) -> Table:
        """A table. columns: titles or (title, align) with align left/right/center."""
        table = Table(self._blocks.add_table([_column(c) for c in columns], str(caption), str(id)))
        table.add_rows(rows)
        if footnote:
            table.footnote = footnote
        return table

    def add_details(self, summary: str, *, open: bool = False) -> "Details":
        """A collapsible section; add blocks to the returned Details."""
        return Details(self._blocks.add_details(str(summary), bool(open)))

    def add_footnote(self: _Self, text: str) -> _Self:
        """Small print under the preceding content."""
        self._blocks.add_footnote(str(text))
        return self


class Details(_Builder):
    """A collapsible section (``<details>`` in Markdown/HTML, expanded in text)."""

    def __init__(self, core_details: "_core.Details") -> None:
        self._core = core_details
        self._blocks = core_details.blocks

    @property
    def summary(self) -> str:
        return self._core.summary

    def __len__(self) -> int:
        return len(self._blocks)


def _json_value(value: Any, path: str) -> "_core.JsonValue":
    """Plain Python data (and numpy scalars/arrays) as a JSON value; ``path`` names the culprit."""
    if value is None:
        return _core.JsonValue.null()
    if isinstance(value, bool):
        return _core.JsonValue.boolean(value)
    if isinstance(value, int):
        if not -2 ** 63 <= value < 2 ** 63:
            raise _core.InputError(f"report data {path}: integer does not fit in 64 bits")
        return _core.JsonValue.integer(value)
    if isinstance(value, float):
        return _core.JsonValue.number(value)
    if isinstance(value, str):
        return _core.JsonValue.string(value)
    if isinstance(value, dict):
        members = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise _core.InputError(f"report data {path}: keys must be str, got {type(key).__name__}")
            members.append((key, _json_value(item, f"{path}.{key}")))
        return _core.JsonValue.object(members)
    if isinstance(value, (list, tuple)):
        return _core.JsonValue.array([_json_value(item, f"{path}[{i}]") for i, item in enumerate(value)])
    if hasattr(value, "tolist"):  # numpy scalars and arrays: their tolist() is plain Python data
        return _json_value(value.tolist(), path)
    raise _core.InputError(f"report data {path}: unsupported type {type(value).__name__} "
                           "(use None, bool, int, float, str, list, dict)")


def _options(**kwargs: Any) -> "_core.RenderOptions":
    options = _core.RenderOptions()
    for key, value in kwargs.items():
        if value is not None:
            setattr(options, key, value)
    return options


class Report(_Builder):
    """A report: a title, ordered blocks and a machine-readable ``data`` payload.

    >>> r = Report("Performance Report")
    >>> r.add_heading("iOS").add_table(["Benchmark", ("p50", "right")], [["C++ add()", "851.2 ns"]])
    """

    def __init__(self, title: str = "") -> None:
        self._core = _core.Report(str(title))
        self._blocks = self._core.blocks

    @classmethod
    def _from_core(cls, core_report: "_core.Report") -> "Report":
        """Wrap a report built in C++ (e.g. by a preset)."""
        report = cls.__new__(cls)
        report._core = core_report
        report._blocks = core_report.blocks
        return report

    @property
    def title(self) -> str:
        return self._core.title

    @title.setter
    def title(self, value: str) -> None:
        self._core.title = str(value)

    @property
    def data(self) -> Any:
        """JSON-compatible payload (dict/list/str/int/float/bool/None; numpy converted; NaN kept)."""
        return json.loads(self._core.data.to_python_json())

    @data.setter
    def data(self, value: Any) -> None:
        self._core.data = _json_value(value, "$")

    def __len__(self) -> int:
        return len(self._blocks)

    def render(self, format: str, **options: Any) -> str:
        """Render in one of ``FORMATS`` ("markdown", "html", "text", "csv", "json") with RenderOptions fields."""
        return self._core.render(format, _options(**options))

    def render_utf8(self, format: str, **options: Any) -> memoryview:
        """As :meth:`render`, as a read-only view of the rendered UTF-8 (for files: neither a str
        nor a bytes copy of a large report is built)."""
        return self._core.render_utf8(format, _options(**options)).data.toreadonly()

    def render_to_fd(self, fd: int, format: str, **options: Any) -> None:
        """As :meth:`render`, written into the open file descriptor ``fd`` a piece at a time (JSON
        through a buffer of about 1 MiB: a report of any size is never held whole). Raises OSError
        when a write fails."""
        self._core.render_to_fd(format, _options(**options), int(fd))

    def to_markdown(self, budget: int = DEFAULT_MARKDOWN_BUDGET, *, full_report_location: Optional[str] = None,
                    sparklines: bool = True) -> str:
        """GitHub-flavoured Markdown held to ``budget`` UTF-8 bytes (0 = unlimited)."""
        return self.render("markdown", markdown_budget=int(budget), full_report_location=full_report_location,
                           sparklines=sparklines)

    def to_html(self, *, sparklines: bool = True) -> str:
        """One standalone HTML document (inline CSS, no scripts, no external assets)."""
        return self.render("html", sparklines=sparklines)

    def to_html_fragment(self, *, sparklines: bool = True) -> str:
        """A <div class="benchreport"> with scoped CSS, for notebooks and embedding."""
        return self._core.render_html_fragment(_options(sparklines=sparklines))

    def to_text(self, color: bool = False, *, sparklines: bool = True) -> str:
        """Aligned plain text; ANSI colour only when ``color`` is true."""
        return self.render("text", color=bool(color), sparklines=sparklines)

    def to_csv(self, table: Optional[str] = None) -> str:
        """All tables (each after a "# caption" line), or only the table with id ``table``."""
        return self.render("csv", csv_table=table)

    def to_json(self, indent: int = 2) -> str:
        """JSON with schema REPORT_SCHEMA: title, blocks and data."""
        return self.render("json", json_indent=int(indent))

    def to_dict(self) -> dict:
        """The JSON rendering parsed into Python objects."""
        return json.loads(self.to_json(indent=0))

    def _repr_html_(self) -> str:
        return self.to_html_fragment()

    def _repr_markdown_(self) -> str:
        return self.to_markdown(budget=0)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text("Report(...)" if cycle else self.to_text())

    def __repr__(self) -> str:
        return f"<benchreport.Report {self.title!r}: {len(self)} blocks>"

    def __reduce__(self) -> Any:
        # Pickles as its JSON rendering (every block, span and cell) and its data payload (NaN kept),
        # rebuilt with the builders above. A plot (the scaling preset's) has no Python builder: such a
        # report pickles by recomputing the call that made it (_presets._remembers_call).
        blocks = json.loads(self.to_json(indent=0))["blocks"]
        if _has_plot(blocks):  # no Python builder for a plot: the call that made it
            return reduce_remembered(self)
        return (_report_from_state, (self.title, blocks, self._core.data.to_python_json()))


def _has_plot(blocks: list) -> bool:
    return any(b["type"] == "plot" or (b["type"] == "details" and _has_plot(b["blocks"])) for b in blocks)


def _json_spans(spans: list) -> list:
    return [strong(s["text"]) if s["type"] == "strong" else code(s["text"]) if s["type"] == "code"
            else link(s["text"], s["url"]) if s["type"] == "link" else s["text"] for s in spans]


def _add_json_blocks(builder: _Builder, blocks: list) -> None:
    """Rebuild blocks from their JSON rendering (the schema of src/report/report.cpp)."""
    for b in blocks:
        kind = b["type"]
        if kind == "heading":
            builder.add_heading(b["text"], b["level"])
        elif kind == "paragraph":
            builder.add_paragraph(*_json_spans(b["spans"]))
        elif kind == "note":
            builder.add_note(*_json_spans(b["spans"]), kind=b["kind"])
        elif kind == "list":
            builder.add_list([_json_spans(item) for item in b["items"]])
        elif kind == "footnote":
            builder.add_footnote(b["text"])
        elif kind == "details":
            _add_json_blocks(builder.add_details(b["summary"], open=b["open"]), b["blocks"])
        elif kind == "table":
            rows = [[Cell(c["text"], c.get("role", "none"), c.get("value"), c.get("samples"), c.get("figures"))
                     for c in row]
                    for row in b["rows"]]
            table = builder.add_table([(c["title"], c["align"]) for c in b["columns"]], rows,
                                      caption=b.get("caption", ""), id=b.get("id", ""), footnote=b.get("footnote", ""))
            table.records_when_wide = b.get("records_when_wide", True)
        else:
            raise ValueError(f"report JSON: unknown block type {kind!r}")


def _report_from_state(title: str, blocks: list, data_json: str) -> Report:
    report = Report(title)
    _add_json_blocks(report, blocks)
    report.data = json.loads(data_json)
    return report


def format_time(seconds: float) -> str:
    """Seconds with four significant digits; NaN/inf as "—".

    For example "851.2 ns", "2.250 µs", "1.600 ms", "1.500 s", "2.500 min".
    """
    return _core.format_time(float(seconds))


def _higher_is_better(direction: Any) -> bool:
    if isinstance(direction, bool):
        return direction
    name = (direction.name if isinstance(direction, enum.Enum) else str(direction)).lower()
    if name in ("lower_is_better", "lower"):
        return False
    if name in ("higher_is_better", "higher"):
        return True
    raise _core.InputError(f"direction {direction!r}: expected 'lower_is_better' or 'higher_is_better'")


def format_change(change: float, direction: Any = "lower_is_better") -> str:
    """Relative change (0.6003) as "+60.03% slower" (always two decimals).

    A change that rounds to 0.00% reads "~0% observed change".

    direction: "lower_is_better" (times: faster/slower) or "higher_is_better"
    (rates: better/worse), or an enum with those names.
    """
    return _core.format_change(float(change), _higher_is_better(direction))


def format_change_percent(change: float) -> str:
    """Relative change as a signed percentage without a word: "+60.03%", "-9.50%", "0.00%" (never "-0.00%")."""
    return _core.format_change_percent(float(change))


def format_percent(fraction: float, decimals: int = 1) -> str:
    """Fraction as a percentage with fixed decimals: 0.024 -> "2.4%"."""
    return _core.format_percent(float(fraction), int(decimals))


def format_fixed(value: float, decimals: int = 2) -> str:
    """Fixed decimals: 45851.1 -> "45851.10"."""
    return _core.format_fixed(float(value), int(decimals))


def format_range(low: float, high: float, decimals: int = 2) -> str:
    """En-dash range: "42062.37–51322.25"."""
    return _core.format_range(float(low), float(high), int(decimals))


def format_integer(value: float, thousands_separator: bool = False, separator: str = ",") -> str:
    """Rounded integer (ties to even), optionally grouped: 81920 -> "81,920"."""
    return _core.format_integer(float(value), bool(thousands_separator), separator)


def format_rate(per_second: float, unit: str = "ops/s") -> str:
    """Rate with k/M/G scaling: 45851.1 -> "45.85k ops/s"."""
    return _core.format_rate(float(per_second), str(unit))


def format_bytes(size: float) -> str:
    """Size with binary scaling, four significant digits above whole bytes: "512 B", "1.500 KiB", "512.0 MiB"."""
    return _core.format_bytes(float(size))


def format_byte_rate(bytes_per_second: float) -> str:
    """Throughput with binary scaling: "94.70 MiB/s"."""
    return _core.format_byte_rate(float(bytes_per_second))


def format_bits(bits_per_second: float) -> str:
    """Bit rate with decimal scaling, four significant digits: "273.7 Mbps"."""
    return _core.format_bits(float(bits_per_second))


def format_sparkline(samples: Any, width: int = 16) -> str:
    """Unicode block sparkline of the samples in order ("▁▃█▅")."""
    return _core.format_sparkline(np.asarray(samples, dtype=np.float64).ravel(), int(width))

"""Generate docs/api.md (the Python API reference) from the package's docstrings.

    PYTHONPATH=build/<dir>/python python3 docs/gen_api.py            # rewrite docs/api.md
    PYTHONPATH=build/<dir>/python python3 docs/gen_api.py --check    # exit 1 if docs/api.md is stale

Documents every name in ``benchreport.__all__`` (grouped by the module that
defines it) and the public names of ``benchreport.notebook``,
``benchreport.plot`` and ``benchreport.cli``. Output is deterministic: names in
``__all__`` order, members alphabetically.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

OUT = Path(__file__).resolve().parent / "api.md"
EXTRA_MODULES = ("benchreport.notebook", "benchreport.plot")
MODULE_TITLES = {
    "benchreport._stats": "Summary statistics",
    "benchreport._compare": "Comparison, rank tests and roll-ups",
    "benchreport._dataset": "Datasets and readers",
    "benchreport._reports": "Reports and formatting",
    "benchreport._presets": "Presets: compare, matrix, runners",
    "benchreport.notebook": "Notebook display (benchreport.notebook)",
    "benchreport.plot": "Plots (benchreport.plot, needs matplotlib)",
    "benchreport._core": "Compiled core types",
}


def _doc(obj: Any) -> str:
    return inspect.cleandoc(obj.__doc__) if getattr(obj, "__doc__", None) else ""


def _unquote(signature: str) -> str:
    """Postponed annotations print as strings ('ArrayLike'); show them bare."""
    signature = re.sub(r"(\w): '([^']*)'", r"\1: \2", signature)
    signature = re.sub(r'(\w): "([^"]*)"', r"\1: \2", signature)
    return re.sub(r"-> '([^']*)'$", r"-> \1", signature)


def _signature(name: str, obj: Any) -> str:
    try:
        return _unquote(f"{name}{inspect.signature(obj)}")
    except (TypeError, ValueError):
        # pybind11 functions put their signature on the docstring's first line.
        # A module's function (plot.human_number) keeps its module prefix.
        # A public name for a bound function under another name (br.compare = compare_dataset) shows
        # the public name with the bound function's parameters.
        first = _doc(obj).splitlines()[0] if _doc(obj) else ""
        short = name.split(".")[-1]
        own = _bound_name(obj, short)
        return name[:-len(short)] + short + first[len(own):] if first.startswith(own + "(") else f"{name}(...)"


def _bound_name(obj: Any, short: str) -> str:
    return getattr(getattr(obj, "__wrapped__", None), "__name__", short)


def _strip_pybind_signature(name: str, doc: str, obj: Any = None) -> str:
    lines = doc.splitlines()
    if lines and lines[0].startswith(_bound_name(obj, name.split(".")[-1]) + "("):
        lines = lines[1:]
    return "\n".join(lines).strip()


def _section_of(name: str, obj: Any) -> str:
    """The module that defines a name, or the package module that re-exports a compiled one."""
    module = getattr(obj, "__module__", None) or "benchreport._core"
    if module.startswith("benchreport._core"):
        for skin in MODULE_TITLES:
            if name in getattr(importlib.import_module(skin), "__all__", ()):
                return skin
    return module if module in MODULE_TITLES else "benchreport._core"


def _member_lines(cls: type) -> List[str]:
    lines: List[str] = []
    # A Python class over a bound base (Dataset over _core.DatasetBase) documents the base's members too.
    members: Dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if klass is cls or getattr(klass, "__module__", "").startswith("benchreport._core"):
            members.update(vars(klass))
    for name in sorted(members):
        if name.startswith("_") and name not in ("__init__",):
            continue
        member = members[name]
        if isinstance(member, property):
            doc = _doc(member)
            lines.append(f"- `{name}` (property){': ' + doc.splitlines()[0] if doc else ''}")
        elif isinstance(member, (staticmethod, classmethod)):
            func = member.__func__
            doc = _doc(func)
            lines.append(f"- `{_signature(name, func)}`{': ' + doc.splitlines()[0] if doc else ''}")
        elif inspect.isfunction(member) or inspect.isbuiltin(member) or callable(member):
            if inspect.isclass(member):
                continue
            doc = _strip_pybind_signature(name, _doc(member), member)
            if name == "__init__" and not doc:
                continue
            lines.append(f"- `{_signature(name, member)}`{': ' + doc.splitlines()[0] if doc else ''}")
        elif type(member).__name__ == "property" or hasattr(member, "__get__") and hasattr(member, "__set__"):
            doc = _doc(member)
            lines.append(f"- `{name}`{': ' + doc.splitlines()[0] if doc else ''}")
    return lines


def _entry(name: str, obj: Any) -> List[str]:
    if inspect.isclass(obj):
        out = [f"### class `{name}`", ""]
        doc = _doc(obj)
        if doc:
            out += [doc, ""]
        members = _member_lines(obj)
        if members:
            out += members + [""]
        return out
    if callable(obj):
        doc = _strip_pybind_signature(name, _doc(obj), obj)
        out = [f"### `{_signature(name, obj)}`", ""]
        return out + ([doc, ""] if doc else [])
    text = repr(obj)
    if len(text) > 300:
        text = text[:297] + "..."
    return [f"### `{name}`", "", f"Constant: `{text}`", ""]


def collect() -> Dict[str, List[Tuple[str, Any]]]:
    import benchreport

    sections: Dict[str, List[Tuple[str, Any]]] = {}
    for name in benchreport.__all__:
        if name == "__version__":
            continue
        obj = getattr(benchreport, name)
        sections.setdefault(_section_of(name, obj) if (inspect.isclass(obj) or callable(obj)) else "constants", []
                            ).append((name, obj))
    for module_name in EXTRA_MODULES:
        module = importlib.import_module(module_name)
        prefix = module_name.split(".")[-1]
        sections[module_name] = [(f"{prefix}.{n}", getattr(module, n)) for n in module.__all__]
    return sections


def render() -> str:
    import benchreport

    sections = collect()
    lines = [
        "# Python API reference",
        "",
        f"Generated by `docs/gen_api.py` from the docstrings of benchreport {benchreport.__version__}; "
        "do not edit by hand. `import benchreport as br` exposes everything below except the "
        "`notebook` and `plot` modules (import those explicitly).",
        "",
        "Contents:",
        "",
    ]
    order = [m for m in MODULE_TITLES if m in sections] + [m for m in sections if m not in MODULE_TITLES]
    for module in order:
        title = MODULE_TITLES.get(module, "Constants")
        anchor = title.lower()
        for ch in ",:()":
            anchor = anchor.replace(ch, "")
        lines.append(f"- [{title}](#{anchor.replace(' ', '-').replace('.', '')})")
    lines.append("")
    for module in order:
        lines += [f"## {MODULE_TITLES.get(module, 'Constants')}", ""]
        if module.startswith("benchreport.") and not module.startswith("benchreport._"):
            module_doc = _doc(importlib.import_module(module))
            if module_doc:
                lines += [module_doc.split("\n\n")[0], ""]
        for name, obj in sections[module]:
            lines += _entry(name, obj)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/api.md differs from the docstrings")
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale: run python3 docs/gen_api.py", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

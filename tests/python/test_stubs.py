"""The shipped type stubs cover every public name of the compiled core."""
import ast
from pathlib import Path

import benchreport
from benchreport import _core

PKG = Path(benchreport.__file__).parent


def _stub_names(name: str) -> set:
    tree = ast.parse((PKG / name).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


def _public(module) -> set:
    return {n for n in dir(module) if not n.startswith("_")}


def test_core_stub_lists_every_public_name():
    missing = _public(_core) - _stub_names("_core.pyi")
    assert not missing, f"_core.pyi is stale (run scripts/gen_stubs.py): {sorted(missing)}"


def test_compare_submodule_stub_lists_every_public_name():
    missing = _public(_core.compare) - _stub_names("_core_compare.pyi")
    assert not missing, f"_core_compare.pyi is stale (run scripts/gen_stubs.py): {sorted(missing)}"


def test_package_is_marked_typed():
    assert (PKG / "py.typed").exists()

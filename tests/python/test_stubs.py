"""The shipped type stubs (a stub package _core/ beside the extension) cover every
public name of the compiled core, and results are typed classes, not dicts."""
import ast
from pathlib import Path

import benchreport
from benchreport import _core

PKG = Path(benchreport.__file__).parent
STUBS = PKG / "_core"


def _tree(name: str) -> ast.Module:
    return ast.parse((STUBS / name).read_text(encoding="utf-8"))


def _stub_names(name: str) -> set:
    names = set()
    for node in _tree(name).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


def _public(module) -> set:
    return {n for n in dir(module) if not n.startswith("_")}


def _returns(name: str) -> dict:
    return {node.name: ast.unparse(node.returns) for node in _tree(name).body
            if isinstance(node, ast.FunctionDef) and node.returns is not None}


def test_stubs_are_a_package_beside_the_extension():
    assert (STUBS / "__init__.pyi").is_file() and (STUBS / "compare.pyi").is_file()
    assert not (STUBS / "__init__.py").exists(), "a real __init__.py would shadow the extension"
    assert not (PKG / "_core.pyi").exists() and not (PKG / "_core_compare.pyi").exists()
    # The directory of stubs does not shadow the compiled module at run time.
    assert Path(_core.__file__).suffix in (".so", ".pyd")


def test_core_stub_lists_every_public_name():
    missing = _public(_core) - _stub_names("__init__.pyi")
    assert not missing, f"_core/__init__.pyi is stale (run scripts/gen_stubs.py): {sorted(missing)}"


def test_compare_submodule_stub_lists_every_public_name():
    missing = _public(_core.compare) - _stub_names("compare.pyi")
    assert not missing, f"_core/compare.pyi is stale (run scripts/gen_stubs.py): {sorted(missing)}"


def test_statistics_results_are_typed_classes():
    compare = _returns("compare.pyi")
    for function, result in [("compare_samples", "CaseComparison"), ("mann_whitney_u", "MannWhitneyResult"),
                             ("brunner_munzel", "BrunnerMunzelResult"), ("wilcoxon_signed_rank", "WilcoxonResult"),
                             ("shift_bounds", "Bounds"), ("spread_bounds", "Bounds"),
                             ("bootstrap_median_ratio_ci", "BootstrapInterval"), ("rollup", "Rollup"),
                             ("calibrate_noise", "NoiseCalibration")]:
        assert compare[function] == result, (function, compare[function])
    core = _returns("__init__.pyi")
    assert (core["summarize"], core["drift"], core["median_ci"]) == ("Summary", "Drift", "MedianCI")
    classes = {node.name: node for node in _tree("compare.pyi").body if isinstance(node, ast.ClassDef)}
    properties = {f.name for f in classes["CaseComparison"].body if isinstance(f, ast.FunctionDef)}
    assert {"change", "change_ci", "verdict", "mann_whitney", "shift_bounds"} <= properties
    assert "to_dict" not in properties


def test_package_is_marked_typed():
    assert (PKG / "py.typed").exists()


def test_every_keyword_is_named_in_the_stubs():
    """Options are named keywords, never ``**kwargs``; a variadic keyword is a label filter (``**labels: str``)."""
    stubs = sorted(STUBS.rglob("*.pyi"))
    assert stubs
    for stub in stubs:
        text = stub.read_text(encoding="utf-8")
        assert "**kwargs" not in text and "**options" not in text, stub.name
        for line in text.splitlines():
            if "**" in line and "def " in line:
                assert "**labels: str)" in line, line

"""The one-way rule of docs/architecture.md, checked on the source tree."""
import importlib.util
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("check_layers", ROOT / "scripts" / "check_layers.py")
check_layers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_layers)


def test_every_stage_includes_only_earlier_stages():
    assert check_layers.violations(ROOT) == []


def test_a_backward_include_and_a_loose_source_are_reported(tmp_path):
    for part in ("include", "src"):
        shutil.copytree(ROOT / part, tmp_path / part)
    stats = tmp_path / "src" / "stats" / "quantile.cpp"
    stats.write_text('#include "benchreport/report/format.hpp"\n' + stats.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "src" / "loose.cpp").write_text("int x;\n", encoding="utf-8")
    found = check_layers.violations(tmp_path)
    assert found == ["src/loose.cpp: not inside a stage folder",
                     "src/stats/quantile.cpp (stats) includes a later stage: report"]


def test_no_cpp_test_name_holds_a_semicolon_or_starts_with_a_dash():
    # ctest registers Catch's test names through a CMake list (catch_discover_tests): a ";" splits
    # one test into two that match nothing, and both fail only under ctest (scripts/test.sh). ctest
    # runs each by passing its name to the test binary, which reads a leading "-" as an option.
    import re

    names = [(path.name, name) for path in sorted((ROOT / "tests" / "cpp").glob("*.cpp"))
             for name in re.findall(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"', path.read_text(encoding="utf-8"))]
    assert len(names) > 200
    assert [n for n in names if ";" in n[1] or n[1].startswith("-")] == []

"""Checks the one-way rule of docs/architecture.md: a file of a stage includes
headers of its own stage and of earlier stages only, and src/ holds no loose
sources. Prints each violation and exits 1 when there are any.

Usage: python3 scripts/check_layers.py [ROOT]
"""
import re
import sys
from pathlib import Path

STAGES = ["core", "data", "io", "stats", "compare", "report", "render", "presets", "store", "cli"]
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](?:benchreport/)?([a-z_]+)/[^">]+[">]', re.M)


def stage_of(path: Path, root: Path):
    parts = path.relative_to(root).parts
    if parts[0] == "include" and len(parts) > 3:
        return parts[2]
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    return None


def violations(root: Path):
    found = []
    for path in sorted([*root.glob("include/benchreport/**/*.hpp"), *root.glob("src/**/*.[ch]pp")]):
        own = stage_of(path, root)
        if own is None:
            found.append(f"{path.relative_to(root)}: not inside a stage folder")
            continue
        for included in INCLUDE.findall(path.read_text(encoding="utf-8")):
            if included in STAGES and STAGES.index(included) > STAGES.index(own):
                found.append(f"{path.relative_to(root)} ({own}) includes a later stage: {included}")
    return found


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    found = violations(root)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

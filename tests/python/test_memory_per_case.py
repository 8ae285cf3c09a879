"""Peak memory of `compare` per case and per sample (issue 33), as documented in
docs/hardening.md ("Memory per case and per sample"): the growth of the peak RSS
(VmHWM of a fresh process) between two sizes, so the import and fixed costs
cancel. Not getrusage's ru_maxrss: Linux carries it over fork and exec, so a
child of a large pytest process reports the parent's size. Bounds are about
1.5x the figures measured on the 2-core VM."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

# The bounds are the release build's: under scripts/sanitize.sh ASan's shadow memory and quarantine
# grow every allocation (15.8 kB per case there), so the module is skipped under ASan.
pytestmark = pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                                reason="the bounds are a release build's; ASan inflates every allocation")

BYTES_PER_CASE = 9_000  # measured 6.2 kB (10 samples per side); main before issue 33: 13.8 kB
BYTES_PER_SAMPLE = 110  # measured 68-71 bytes (one case, samples split over both sides)

PEAK = r"""
import sys
from benchreport import cli
code = cli.main(sys.argv[1:])
assert code in (0, None), code
with open("/proc/self/status", encoding="ascii") as fh:
    print(next(line.split()[1] for line in fh if line.startswith("VmHWM:")))
"""


def write_cases(path: Path, cases: int, samples: int) -> None:
    rng = random.Random(1)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("benchmark,revision,unit,value\n")
        for i in range(cases):
            for rev, scale in (("base", 1.0), ("head", 1.02)):
                fh.writelines(f"case{i:06d},{rev},ns,{100 * scale * (1 + 0.01 * rng.random()):.4f}\n"
                              for _ in range(samples))


def peak_rss(tmp_path: Path, cases: int, samples: int) -> int:
    """Peak RSS in bytes of `compare` of `cases` cases x `samples` per side, in a fresh process."""
    path = tmp_path / f"c{cases}x{samples}.csv"
    write_cases(path, cases, samples)
    out = subprocess.run([sys.executable, "-c", PEAK, "compare", str(path), "--format", "json",
                          "-o", str(tmp_path / "out.json")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    return int(out.stdout.split()[-1]) * 1024  # VmHWM is in kB (KiB)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM is Linux's")
def test_compare_memory_per_case(tmp_path):
    small, large = 4_000, 16_000
    per_case = (peak_rss(tmp_path, large, 10) - peak_rss(tmp_path, small, 10)) / (large - small)
    assert 0 < per_case <= BYTES_PER_CASE, f"{per_case:.0f} bytes per case"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM is Linux's")
def test_compare_memory_per_sample(tmp_path):
    small, large = 100_000, 400_000  # per side, one case
    per_sample = (peak_rss(tmp_path, 1, large) - peak_rss(tmp_path, 1, small)) / (2 * (large - small))
    assert 0 < per_sample <= BYTES_PER_SAMPLE, f"{per_sample:.0f} bytes per sample"

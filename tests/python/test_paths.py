"""Input paths in C++ (io/paths.hpp) against Python's own rules: fnmatch.fnmatchcase for every
pattern character, re.split for natural order, glob.glob where its rules and ours agree (no links)."""
import fnmatch
import glob
import random
import re

import pytest

import benchreport as br
from benchreport import _core, _dataset


def _random_text(rng, alphabet, longest):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))


def test_fnmatch_agrees_with_fnmatchcase_on_random_patterns():
    rng = random.Random(30)
    specials = ["a", "b", "z", "-", "]", "[", "!", "^", "\\", "\u00e9", "*", "?"]
    patterns = [_random_text(rng, specials, 7) for _ in range(1500)]
    names = [_random_text(rng, specials[:-2], 5) for _ in range(40)]
    mismatches = [(n, p) for p in patterns for n in names if _core.fnmatch(n, p) != fnmatch.fnmatchcase(n, p)]
    assert mismatches == []
    # The random patterns reach every branch: sets, negated sets, inverted ranges, unclosed brackets.
    assert sum(fnmatch.fnmatchcase(n, p) for p in patterns for n in names) > 1000


@pytest.mark.parametrize("name, pattern", [("]", "[]]"), ("-", "[a-]"), ("x", "[!z-a]"), ("x", "[z-a]"),
                                           ("[x", "[x"), ("\u00e9", "?"), ("a-c", "[a-c-e]*"), ("b", "[!]a]")])
def test_fnmatch_edge_cases(name, pattern):
    assert _core.fnmatch(name, pattern) == fnmatch.fnmatchcase(name, pattern)


def test_natural_key_orders_as_digit_runs_by_value():
    rng = random.Random(7)
    names = [_random_text(rng, ["a", "-", "0", "1", "2", "9", "\u00b2", "."], 8) for _ in range(400)]

    def reference(name):
        return [int(part) if i % 2 else part for i, part in enumerate(re.split(r"([0-9]+)", name))]

    # Stable sorts from one order: equal keys ("07" and "7") keep it in both.
    assert sorted(names, key=_dataset.natural_key) == sorted(names, key=reference)


def test_glob_paths_match_glob_without_links(tmp_path):
    for name in ["r/a/base-1.json", "r/a/base-10.json", "r/a/base-2.json", "r/a/.h.json", "r/b/c/x.json",
                 "r/b/notes.txt", "r/.d/y.json"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    for pattern in ["r/**/*.json", "r/*/b*", "r/[ab]/*", "r/a/base-?.json", "r/a/.*", "r/**/c/*", "r/?/[!n]*"]:
        full = str(tmp_path / pattern)
        ours = br._dataset.glob_paths(full)
        assert set(ours) == set(glob.glob(full, recursive=True)), pattern
        assert ours == sorted(ours, key=_dataset.natural_key)
    assert br._dataset.glob_paths(str(tmp_path / "r/a/*.json"))[-1].endswith("base-10.json")

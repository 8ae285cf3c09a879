"""A change point's likely cause (src/store/environment_diff.cpp): the environment difference as
Python names it, byte for byte: values as Python's str() of the json.loads value, dotted keys
sorted, at most four named, a missing side "(none)"."""
import json

import pytest

from benchreport import _core
from benchreport.store import environment_diff

MAX_CAUSES = 4

VALUES = ["gcc-13", "it's \"q\"", "caf\u00e9 \u2603 \U0001F600", "", "a\nb\tc\\", 0, -1, 7, 2**63 - 1, 2**64 - 1,
          -(2**63), 0.1, 1.0, -0.0, 1e16, 1e20, 1e-7, 2.5e-300, 123456789.123, True, False, None, [], {},
          [1, 2.0, "x", None, True, [False, {"k": "v"}]], {"n": [1.5, "it's"], "\u00e9": None}, ["caf\u00e9", "\u2603"]]


def reference_cause(old, new):
    """The text Python wrote (the old _store_history._cause)."""
    diff = environment_diff(old, new)
    if not diff:
        return ""
    parts = [f"{key}: {a if a is not None else '(none)'} \u2192 {b if b is not None else '(none)'}"
             for key, a, b in diff[:MAX_CAUSES]]
    more = f" (+{len(diff) - MAX_CAUSES} more)" if len(diff) > MAX_CAUSES else ""
    return "environment changed: " + "; ".join(parts) + more


def texts(old, new):
    return json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False)


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_each_value_shape_is_printed_as_python_str(value):
    for old, new in (({"tool": {"x": value}}, {"tool": {"x": "other"}}), ({}, {"k": value}), ({"k": value}, {})):
        a, b = texts(old, new)
        assert _core.store_environment_cause(a, b) == reference_cause(old, new)
        assert _core.store_environment_diff(a, b) == environment_diff(old, new)


def test_equal_values_compare_as_python_does():
    old = {"a": 1, "b": True, "c": [1, 0], "d": None, "e": {"f": 2.0}, "g": {}}
    new = {"a": 1.0, "b": 1, "c": [True, False], "e": {"f": 2}, "g": {}}
    assert environment_diff(old, new) == []
    assert _core.store_environment_diff(*texts(old, new)) == []
    assert _core.store_environment_cause(*texts(old, new)) == ""


def test_unicode_and_nested_keys_sort_as_python_sorts_them():
    old = {"\u00e9t\u00e9": {"z": 1, "\u2603": "a"}, "Zeta": 1, "alpha": {"b": {"c": [1]}}, "\U0001F600": 1}
    new = {"\u00e9t\u00e9": {"z": 2, "\u2603": "b"}, "Zeta": 2, "alpha": {"b": {"c": [2]}}, "\U0001F600": 2,
           "\u00e0": "new"}
    a, b = texts(old, new)
    assert [k for k, _, _ in _core.store_environment_diff(a, b)] == [k for k, _, _ in environment_diff(old, new)]
    assert _core.store_environment_cause(a, b) == reference_cause(old, new)
    assert _core.store_environment_cause(a, b).endswith(" (+2 more)")


def test_a_missing_environment_is_empty():
    assert _core.store_environment_cause("", json.dumps({"a": 1})) == "environment changed: a: (none) \u2192 1"
    assert _core.store_environment_diff("", "") == []

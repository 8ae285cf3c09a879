"""Every read-only property of a compiled-core result, recursively, for tests that
compare whole results (determinism across thread counts and call paths)."""
import math
from typing import Any


def _is_core_result(obj: Any) -> bool:
    return type(obj).__module__.startswith("benchreport._core")


def fields(obj: Any) -> Any:
    """Properties of a ``benchreport._core`` result as nested dicts; other values unchanged."""
    if isinstance(obj, (list, tuple)):
        return type(obj)(fields(x) for x in obj)
    if isinstance(obj, float) and math.isnan(obj):
        return "nan"  # NaN != NaN: results with NaN fields (e.g. interval_df of a sample interval) still compare
    if not _is_core_result(obj):
        return obj
    names = [n for n in dir(type(obj)) if isinstance(getattr(type(obj), n), property)]
    return {n: fields(getattr(obj, n)) for n in names}

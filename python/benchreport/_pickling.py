"""Pickling of results by recomputation (issue 30: every result pickles, with equal values).

A result holds C++ objects (the comparison view, CaseComparison, the report model) that have no
Python constructor for each field. Instead it remembers the call that made it: the function's
module and name and its arguments (a Dataset pickles as its canonical JSON; a path is read again
where it is loaded). Unpickling repeats the call; the analyses are deterministic (seeded
bootstraps, thread-independent streams), so the values are equal. A Report pickles on its own, as its
blocks and data (python/bindings/register_report.cpp).
"""
from __future__ import annotations

import copyreg
import functools
import importlib
from typing import Any, Callable, Optional, TypeVar, cast

from . import _core

_Function = TypeVar("_Function", bound=Callable[..., Any])
_MadeBy = tuple  # (module, function name, args, kwargs)


def rerun(made_by: _MadeBy, attribute: Optional[str] = None, index: Optional[int] = None) -> Any:
    """Repeat a remembered call; then take ``result.<attribute>`` or ``result[index]``."""
    module, name, args, kwargs = made_by
    result = getattr(importlib.import_module(module), name)(*args, **kwargs)
    if attribute is not None:
        return getattr(result, attribute)
    return result if index is None else result[index]


def remembers_call(function: _Function) -> _Function:
    """Decorate a function whose result pickles as the call that made it (and so does, for a list
    of results, each item)."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        made_by = (function.__module__, function.__name__, args, kwargs)
        result._call = (rerun, (made_by,))
        if isinstance(result, list):
            for i, item in enumerate(result):
                item._call = (rerun, (made_by, None, i))
        return result

    return cast(_Function, call)


def reduce_remembered(obj: Any) -> Any:
    """``__reduce__`` of an object that pickles as the call that made it."""
    call = getattr(obj, "_call", None)
    if call is None:
        raise TypeError(f"a {type(obj).__name__} pickles as the call that made it (br.compare, br.compare_samples, "
                        "...); this one was not made by such a call")
    return call


copyreg.pickle(_core.compare.CaseComparison, reduce_remembered)

"""benchreport: trustworthy statistics and readable reports from raw benchmark samples.

The compiled core lives in ``benchreport._core``; this package is a thin,
typed Python skin over it.
"""
import os as _os
import sys as _sys

# `benchreport --version` and `--help` need neither numpy nor the extension: answered (and the process
# exits) before they are imported, which saves about 150 ms of CPU (docs/performance.md).
from . import _cli_top
from ._version import __version__

if _cli_top.invoked_as_command():
    _cli_top.answer_without_core(_sys.argv[1:])

# Under an address-space limit (ulimit -v) OpenBLAS's per-thread buffers, reserved when numpy is
# imported, can fail to allocate; one BLAS thread is enough here (the statistics are C++ kernels).
try:
    import resource as _resource
except ImportError:  # not on Windows
    _resource = None  # type: ignore[assignment]
_ADDRESS_SPACE_LIMITED = (_resource is not None
                          and _resource.getrlimit(_resource.RLIMIT_AS)[0] != _resource.RLIM_INFINITY)
if _ADDRESS_SPACE_LIMITED:
    for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        _os.environ.setdefault(_name, "1")


def _exit_out_of_memory_while_starting() -> None:
    """The one line and exit 2 of a command that cannot load benchreport (also python -m's import of the CLI)."""
    _sys.stderr.write("benchreport: error: out of memory while starting: the process may not use enough "
                      "memory to load benchreport (ulimit -v, a container limit); give it more\n")
    raise SystemExit(2) from None


def _failed_for_memory(exc: BaseException) -> bool:
    """Whether an exception while loading benchreport (numpy, the extension, the CLI) is a lack of
    memory: a MemoryError, a library that could not be mapped, or, under an address-space limit, a
    SystemError from numpy's C start-up, whose allocations fail without setting an exception."""
    text = str(exc).lower()
    return (isinstance(exc, MemoryError) or "memory" in text or "failed to map segment" in text
            or (_ADDRESS_SPACE_LIMITED and isinstance(exc, (SystemError, ImportError))))


def _exit_if_command_lacks_memory(exc: BaseException) -> None:
    """`benchreport ...` and `python -m benchreport ...` get one line and exit 2, as a command that
    runs out of memory later does; a library import gets the exception."""
    cli = _os.path.basename(_sys.argv[0] or "") == "benchreport" or _sys.argv[0] == "-m"
    if cli and _failed_for_memory(exc):
        _exit_out_of_memory_while_starting()


try:
    import numpy as _numpy  # noqa: F401  (first here: its failure is reported as one line below)

    from ._core import InputError
except (MemoryError, ImportError, SystemError) as _exc:
    _exit_if_command_lacks_memory(_exc)
    raise
try:
    from ._compare import *  # noqa: F403
    from ._compare import __all__ as _compare_all
    from ._dataset import *  # noqa: F403
    from ._dataset import __all__ as _dataset_all
    from ._history import *  # noqa: F403
    from ._history import __all__ as _history_all
    from ._presets import *  # noqa: F403
    from ._presets import __all__ as _presets_all
    from ._reports import *  # noqa: F403
    from ._reports import __all__ as _reports_all
    from ._scaling import *  # noqa: F403
    from ._scaling import __all__ as _scaling_all
    from ._stats import *  # noqa: F403
    from ._stats import __all__ as _stats_all
except (MemoryError, ImportError, SystemError) as _exc:
    _exit_if_command_lacks_memory(_exc)
    raise

__all__ = ["__version__", "InputError", *_stats_all, *_compare_all, *_dataset_all, *_reports_all, *_presets_all,
           *_scaling_all, *_history_all]

# Results display in IPython/Jupyter through their own _repr_html_ / _repr_markdown_
# methods; no formatter is registered at import (notebook.enable() registers them).
from . import notebook as _notebook

_notebook._install_display_methods()

"""benchreport: trustworthy statistics and readable reports from raw benchmark samples.

The compiled core lives in ``benchreport._core``; this package is a thin,
typed Python skin over it.
"""
from ._version import __version__
from ._core import InputError
from ._stats import *  # noqa: F401,F403
from ._stats import __all__ as _stats_all
from ._compare import *  # noqa: F401,F403
from ._compare import __all__ as _compare_all
from ._dataset import *  # noqa: F401,F403
from ._dataset import __all__ as _dataset_all
from ._reports import *  # noqa: F401,F403
from ._reports import __all__ as _reports_all
from ._presets import *  # noqa: F401,F403
from ._presets import __all__ as _presets_all
from ._scaling import *  # noqa: F401,F403
from ._scaling import __all__ as _scaling_all
from ._history import *  # noqa: F401,F403
from ._history import __all__ as _history_all

__all__ = ["__version__", "InputError", *_stats_all, *_compare_all, *_dataset_all, *_reports_all, *_presets_all,
           *_scaling_all, *_history_all]

# Results display in IPython/Jupyter through their own _repr_html_ / _repr_markdown_
# methods; no formatter is registered at import (notebook.enable() registers them).
from . import notebook as _notebook

_notebook._install_display_methods()

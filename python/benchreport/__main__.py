"""``python -m benchreport``: the same command line as ``benchreport``."""
try:
    from .cli import main
except (MemoryError, ImportError, SystemError) as exc:  # the CLI's own modules did not fit (ulimit -v)
    from . import _exit_out_of_memory_while_starting, _failed_for_memory

    if _failed_for_memory(exc):
        _exit_out_of_memory_while_starting()
    raise

if __name__ == "__main__":
    raise SystemExit(main())

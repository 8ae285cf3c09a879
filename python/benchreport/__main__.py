"""``python -m benchreport``: the same command line as ``benchreport``."""
try:
    from .cli import main
except MemoryError:  # the package loaded but the CLI's modules did not fit (ulimit -v)
    from . import _exit_out_of_memory_while_starting

    _exit_out_of_memory_while_starting()

if __name__ == "__main__":
    raise SystemExit(main())

"""Writing the command line's output files: every path checked first, each written through a
temporary file and a rename, the step summary appended to (include/benchreport/cli/outputs.hpp)."""
from ._core import Output, OutputError, append_text, check_output_path, write_atomic, write_outputs

__all__ = ["Output", "OutputError", "append_text", "check_output_path", "write_atomic", "write_outputs"]

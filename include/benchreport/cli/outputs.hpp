#pragma once
// Writing the command line's output files: all checked first, each written atomically.
//
// * Every path is checked before any file is written (its folder exists and is
//   a folder, the path is no folder, no symbolic link), so a bad
//   `--comment-file` leaves `-o` and the step summary untouched.
// * A file is written to a temporary file in the same folder and renamed over
//   the path: a reader sees the old file or the new one, never half of one,
//   and a failed write leaves no partial file.
// * A symbolic link at an output path is refused, never followed or replaced
//   (`-o report.md` pointing elsewhere would write or clobber that other file).
//   A character device or FIFO (`-o /dev/null`) is written in place, also
//   through a link, and so are this process's own descriptors (`-o /dev/stdout`,
//   `/dev/fd/N`): a stream cannot be clobbered. Any other non-file is refused.
// * The GitHub step summary is appended to (opened without following a link).
// * An output may be rendered while it is written (a large JSON report goes to
//   its temporary file through a small buffer instead of being held whole).
//   Such outputs are written first, so if rendering fails nothing has been
//   written and the temporary file is removed.
//
// Errors are OutputError, one line naming the path (Python: benchreport._output.OutputError, an OSError).
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport::cli {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A write into a descriptor that the system refused; `reason` is its text ("No space left on device").
struct DescriptorWriteError {
  std::string reason;
};

// Writes an output's bytes into an open descriptor; throws DescriptorWriteError
// when the system refuses (anything else it throws passes through unchanged).
using FdWriter = std::function<void(int fd)>;

// Writes all of `bytes` (retrying short and interrupted writes).
void write_all(int fd, std::string_view bytes);

struct OutputFile {
  std::string path;
  FdWriter write;
  bool append = false;    // appended to (created when missing) instead of replaced
  bool rendered = false;  // rendered while written: written before the others
};

// Throws OutputError unless `path` can be written as a regular file without following a link.
void check_output_path(const std::string& path);

// Writes through a temporary file in the path's folder and a rename (a stream in place).
void write_atomic(const std::string& path, const FdWriter& write);

// Appends to `path` (created when missing), never through a symbolic link.
void append_output(const std::string& path, const FdWriter& write);

// Checks every path (and that no two name the same file), then writes each:
// the rendered ones first, the other replacements next, the appends last.
void write_outputs(const std::vector<OutputFile>& outputs);

}  // namespace benchreport::cli

#pragma once
// The inputs of a command as the user names them: files, folders, globs
// (natural order) and `-` for stdin, and how many bytes they hold, for the
// --max-input-bytes budget and for deciding whether a progress bar is worth it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport::cli {

inline constexpr std::string_view kStdinName = "<stdin>";
inline constexpr std::uint64_t kMaxStdinBytes = std::uint64_t{1} << 30;  // the readers' default max_file_size

// One input: a path (file or folder, file-system bytes) or the bytes read from stdin.
struct Source {
  std::string name;
  std::shared_ptr<const std::string> data;  // stdin's bytes (shared: a source is copied freely)
  bool is_stdin() const noexcept { return data != nullptr; }
};

// Reads at most the given number of bytes from stdin (the caller's stream).
using ReadStdin = std::function<std::string(std::uint64_t max_bytes)>;

// Each item expanded (globs in natural order, io/paths.hpp); `-` reads stdin
// once, refused past max_bytes or when blank. UsageError for an item that
// matches nothing, a second `-`, or no items.
std::vector<Source> expand_inputs(const std::vector<std::string>& items, const ReadStdin& read_stdin,
                                  std::uint64_t max_bytes = kMaxStdinBytes);

// Bytes of the inputs as stored (folders summed over the files below them;
// stdin as read); unreadable entries count 0 (reading them reports why).
std::uint64_t input_bytes(const std::vector<Source>& sources);

// Bytes a source decompresses to: as input_bytes, but a `.gz` file counts
// the larger of its size and its gzip trailer's length (ISIZE, modulo 2^32).
std::uint64_t source_bytes(const Source& source);

}  // namespace benchreport::cli

#pragma once
// Internal: gzip input (a .json.gz from pyperf, any compressed artifact).
// Every entry point (file, folder, buffer) decompresses here, in memory,
// under ReadOptions::max_file_size.
#include <cstdint>
#include <string>
#include <string_view>

namespace benchreport::io {

// The gzip magic bytes 1f 8b.
inline bool is_gzip(std::string_view bytes) { return bytes.starts_with("\x1f\x8b"); }

// The decompressed bytes of every member of a gzip stream. Throws InputError
// naming `name` when the stream is corrupt or truncated, or when the output
// would exceed `limit` bytes. With `prefix_only`, returns the first `limit`
// bytes instead (format detection needs no more).
// (With `prefix_only` the input may be cut short too: a truncated stream gives what it decompresses to.)
std::string gunzip(std::string_view bytes, std::string_view name, std::uint64_t limit, bool prefix_only = false);

}  // namespace benchreport::io

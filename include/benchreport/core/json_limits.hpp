#pragma once
// Limits every reader enforces so that hostile or broken input fails with a
// clear message instead of exhausting memory or the stack.
#include <cstddef>
#include <cstdint>

namespace benchreport {

struct ReadOptions {
  // Largest input accepted, in bytes (after decompression). Raise it with
  // ReadOptions::max_file_size (Python: br.load(..., max_file_size=...)).
  std::uint64_t max_file_size = std::uint64_t{1} << 30;  // 1 GiB
  // Deepest JSON nesting accepted (simdjson's own default is 1024).
  std::size_t max_depth = 256;
  // Most samples one file may contribute.
  std::uint64_t max_samples = std::uint64_t{1} << 28;  // 268 million (2 GiB of doubles)
  // Threads one large file may be parsed with: 0 = one per usable CPU,
  // 1 = serial. The result (and any error) does not depend on it. Used by the
  // Google Benchmark reader for files of 4 MiB and more (docs/formats.md).
  unsigned threads = 0;
};

}  // namespace benchreport

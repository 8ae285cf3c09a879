#pragma once
// Internal: the input every reader gets, and the readers. Free of simdjson,
// so that tests can call a reader directly.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "benchreport/data/dataset.hpp"
#include "benchreport/core/json_limits.hpp"

namespace benchreport::io {

// One input: its display name (path as given) and bytes.
struct Source {
  std::string name;
  std::string_view bytes;
  const ReadOptions& options;
  std::string_view companion;  // criterion: benchmark.json beside sample.json ("" if none)
  // True when bytes.data() is followed by at least simdjson::SIMDJSON_PADDING
  // readable bytes (read() loads files so): JSON is then parsed in place
  // instead of from a padded copy, which keeps peak memory near the file size.
  bool padded = false;
  // Set when the bytes are the library's own (a private mapping or a buffer
  // of the file): makes [offset, offset + length) writable and returns the
  // start of the bytes (bytes.data(), writable), or nullptr. Readers that
  // change bytes restore them before they return.
  std::function<char*(std::size_t offset, std::size_t length)> writable;
};

Dataset read_google_benchmark(const Source& source);
Dataset read_hyperfine(const Source& source);
Dataset read_pyperf(const Source& source);
Dataset read_pytest_benchmark(const Source& source);
Dataset read_go(const Source& source);
Dataset read_nitro(const Source& source);
Dataset read_criterion(const Source& source);
Dataset read_zfh(const Source& source);
Dataset read_bmf(const Source& source);
Dataset read_canonical_json(const Source& source);
Dataset read_canonical_csv(const Source& source);

// The two-thread path of read_google_benchmark on its own (for tests): the
// dataset, or none when the file cannot be cut or the parts do not make up
// exactly what one pass reads (read_google_benchmark then reads it in one pass).
std::optional<Dataset> read_google_benchmark_in_two_parts(const Source& source);

}  // namespace benchreport::io

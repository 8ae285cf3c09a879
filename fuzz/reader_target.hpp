#pragma once
// Shared body of the reader fuzz targets: parse arbitrary bytes with one
// reader under lowered limits. An InputError is the expected outcome for bad
// input; any other exception, a crash, a sanitizer report or a broken
// invariant on accepted input is a bug (abort() makes libFuzzer keep it).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"

namespace benchreport::fuzz {

// Small limits so the fuzzer reaches the limit checks and never runs out of memory.
inline ReadOptions fuzz_limits() {
  ReadOptions options;
  options.max_file_size = 1 << 20;
  options.max_depth = 64;
  options.max_samples = 1 << 16;
  return options;
}

[[noreturn]] inline void invariant_failed(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz invariant broken: %s %.*s\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// What every accepted dataset must satisfy: finite samples, consistent CSR
// offsets, and a canonical JSON form that reads back to the same values.
inline void check_dataset(const Dataset& dataset) {
  const auto offsets = dataset.offsets();
  if (offsets.empty() || offsets.front() != 0 || static_cast<std::size_t>(offsets.back()) != dataset.n_values()) {
    invariant_failed("CSR offsets do not cover the values");
  }
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    if (dataset.samples(set).empty()) invariant_failed("an accepted set is empty");
  }
  for (const double x : dataset.values()) {
    if (!std::isfinite(x)) invariant_failed("an accepted sample is not finite");
  }
  if (dataset.empty()) return;
  std::ostringstream json;
  write_canonical_json(dataset, json);
  const std::string text = json.str();
  Dataset again;
  try {
    ReadOptions relaxed;  // the canonical form may be larger than the fuzz input
    again = read_buffer(text, "roundtrip.json", "json", relaxed);
  } catch (const InputError& e) {
    invariant_failed("canonical JSON of an accepted dataset does not read back:", e.what());
  }
  if (again.n_sets() != dataset.n_sets() || again.n_values() != dataset.n_values()) {
    invariant_failed("canonical JSON round trip changed the set or value count");
  }
  for (std::size_t i = 0; i < dataset.n_values(); ++i) {
    if (again.values()[i] != dataset.values()[i]) invariant_failed("canonical JSON round trip changed a value");
  }
}

// Reads `data` as `format` under the fuzz limits and checks what was accepted.
inline void read_and_check(const std::uint8_t* data, std::size_t size, std::string_view name, std::string_view format) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Dataset dataset;
  try {
    dataset = read_buffer(bytes, name, format, fuzz_limits());
  } catch (const InputError&) {
    return;  // the documented outcome for bad input
  }
  check_dataset(dataset);
}

}  // namespace benchreport::fuzz

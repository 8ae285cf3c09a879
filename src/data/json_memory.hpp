// simdjson reports running out of memory as an error code (MEMALLOC) or, for a
// padded copy, as a null buffer (with the size still set, so parsing it would
// read through null). Both mean out of memory, not a property of the input:
// std::bad_alloc, which the CLI reports as "out of memory" (exit 2).
#pragma once

#include <new>
#include <string_view>

#include <simdjson.h>

namespace benchreport {

inline void throw_if_out_of_memory(simdjson::error_code error) {
  if (error == simdjson::MEMALLOC) throw std::bad_alloc();
}

// The text plus simdjson's padding, or std::bad_alloc.
inline simdjson::padded_string padded_copy(std::string_view text) {
  simdjson::padded_string copy(text.data(), text.size());
  if (copy.data() == nullptr) throw std::bad_alloc();
  return copy;
}

}  // namespace benchreport

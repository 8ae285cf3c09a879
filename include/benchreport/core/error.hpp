#pragma once
// Errors and input policies shared by every layer of benchreport.
#include <stdexcept>
#include <string>

namespace benchreport {

// Bad input from a user or a file: the message names the set, file, line or
// field and says what was expected. Bindings map it to ValueError.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What to do with NaN/±inf in a sample set.
enum class NanPolicy {
  raise,  // error naming the set and index (default)
  omit,   // drop them and report how many were dropped
};

// The library version (one string, from python/benchreport/_version.py).
const char* version() noexcept;

}  // namespace benchreport

#pragma once
// The message of the UsageError a call throws, for tests of the command line's checks.
#include <functional>
#include <string>

#include "benchreport/cli/usage_error.hpp"

inline std::string usage_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const benchreport::cli::UsageError& error) {
    return error.what();
  }
  return "(no UsageError)";
}

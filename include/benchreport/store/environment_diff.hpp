#pragma once
// What changed between the environments two stored runs recorded (docs/store.md): nested objects
// flattened to dotted keys (`tool.context.num_cpus`), lists and scalars as leaves, compared as
// Python compares json.loads values (1 == 1.0 == true), and the likely cause of a change point
// as text.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport::store {

// At most this many differences are named as a change point's likely cause.
inline constexpr std::size_t kMaxCauses = 4;

// One dotted key whose value differs: each side's value as minified JSON, none where that side
// lacks the key or holds null (Python's dict.get gives None for both, so they compare equal).
struct EnvironmentChange {
  std::string key;
  std::optional<std::string> old_value;
  std::optional<std::string> new_value;
};

// The differences of two environments (JSON objects; empty text = none recorded), sorted by key.
// InputError when a side is not JSON.
std::vector<EnvironmentChange> environment_diff(std::string_view old_json, std::string_view new_json);

// Python's str() of json.loads(`json`): strings bare, True/False/None, numbers as Python prints
// int and float, lists and objects as the repr of a list and a dict.
std::string python_str(std::string_view json);

// "environment changed: key: old → new; ..." naming at most kMaxCauses differences, then
// " (+N more)"; a missing side reads "(none)". Empty when there is no difference.
std::string environment_cause(const std::vector<EnvironmentChange>& changes);

}  // namespace benchreport::store

#include "benchreport/store/environment_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <simdjson.h>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/core/python_text.hpp"

namespace benchreport::store {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using Leaves = std::map<std::string, element>;  // dotted key -> value; byte order is code point order

element parse(simdjson::dom::parser& parser, std::string_view json, std::string_view what) {
  element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS)
    throw InputError(fmt::format("{} environment is not JSON: {}", what, json));
  return root;
}

// Nested non-empty objects as dotted keys; a later key replaces an earlier one (dict.update).
void flatten(element value, const std::string& prefix, Leaves& out) {
  simdjson::dom::object object;
  if (value.get_object().get(object) == simdjson::SUCCESS && object.size() > 0) {
    for (auto field : object) {
      const std::string key(field.key);
      flatten(field.value, prefix.empty() ? key : prefix + "." + key, out);
    }
    return;
  }
  if (!prefix.empty()) out.insert_or_assign(prefix, value);
}

bool is_number(element e) {
  const element_type t = e.type();
  return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE || t == element_type::BOOL;
}

// A JSON integer (bool as 0/1, as Python's bool is an int) as sign and magnitude, so that every
// int64 and uint64 compares exactly; none for a float.
struct ExactInteger {
  bool negative = false;
  std::uint64_t magnitude = 0;
  bool operator==(const ExactInteger&) const = default;
};

std::optional<ExactInteger> exact_integer(element e) {
  switch (e.type()) {
    case element_type::INT64: {
      const std::int64_t v = e.get_int64().value_unsafe();
      return ExactInteger{v < 0, v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v)};
    }
    case element_type::UINT64: return ExactInteger{false, e.get_uint64().value_unsafe()};
    case element_type::BOOL: return ExactInteger{false, e.get_bool().value_unsafe() ? 1U : 0U};
    default: return std::nullopt;
  }
}

// As Python compares an int with a float: equal when the float is that integer exactly.
bool numbers_equal(element a, element b) {
  const auto ia = exact_integer(a), ib = exact_integer(b);
  if (ia && ib) return *ia == *ib;
  if (!ia && !ib) return a.get_double().value_unsafe() == b.get_double().value_unsafe();
  const double d = (ia ? b : a).get_double().value_unsafe();
  if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) >= 18446744073709551616.0) return false;  // 2^64
  return ExactInteger{d < 0, static_cast<std::uint64_t>(std::fabs(d))} == (ia ? *ia : *ib);
}

bool json_equal(element a, element b);

bool objects_equal(simdjson::dom::object a, simdjson::dom::object b) {
  std::map<std::string_view, element> left, right;
  for (auto field : a) left.insert_or_assign(field.key, field.value);
  for (auto field : b) right.insert_or_assign(field.key, field.value);
  if (left.size() != right.size()) return false;
  for (const auto& [key, value] : left) {
    const auto found = right.find(key);
    if (found == right.end() || !json_equal(value, found->second)) return false;
  }
  return true;
}

bool arrays_equal(simdjson::dom::array a, simdjson::dom::array b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
    if (!json_equal(*i, *j)) return false;
  return true;
}

// Python's == of the json.loads values.
bool json_equal(element a, element b) {
  if (is_number(a) && is_number(b)) return numbers_equal(a, b);
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case element_type::STRING: return a.get_string().value_unsafe() == b.get_string().value_unsafe();
    case element_type::NULL_VALUE: return true;
    case element_type::ARRAY: return arrays_equal(a.get_array().value_unsafe(), b.get_array().value_unsafe());
    default: return objects_equal(a.get_object().value_unsafe(), b.get_object().value_unsafe());
  }
}

// A dict's items as Python keeps them: first position, last value.
std::vector<std::pair<std::string_view, element>> dict_items(simdjson::dom::object object) {
  std::vector<std::pair<std::string_view, element>> items;
  for (auto field : object) {
    auto same = std::find_if(items.begin(), items.end(), [&](const auto& item) { return item.first == field.key; });
    if (same == items.end()) {
      items.emplace_back(field.key, field.value);
    } else {
      same->second = field.value;
    }
  }
  return items;
}

// Python's repr() (`quoted`) or str() of a json.loads value.
void write_python(std::string& out, element value, bool quoted) {
  switch (value.type()) {
    case element_type::STRING: {
      const std::string_view text = value.get_string().value_unsafe();
      out += quoted ? repr_text(text) : std::string(text);
      break;
    }
    case element_type::INT64: out += std::to_string(value.get_int64().value_unsafe()); break;
    case element_type::UINT64: out += std::to_string(value.get_uint64().value_unsafe()); break;
    case element_type::DOUBLE: out += repr_number(value.get_double().value_unsafe()); break;
    case element_type::BOOL: out += value.get_bool().value_unsafe() ? "True" : "False"; break;
    case element_type::NULL_VALUE: out += "None"; break;
    case element_type::ARRAY: {
      out += '[';
      bool first = true;
      const simdjson::dom::array items = value.get_array().value_unsafe();  // not a temporary's member
      for (element item : items) {
        out += first ? "" : ", ";
        first = false;
        write_python(out, item, true);
      }
      out += ']';
      break;
    }
    default: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : dict_items(value.get_object().value_unsafe())) {
        out += (first ? "" : ", ") + repr_text(key) + ": ";
        first = false;
        write_python(out, item, true);
      }
      out += '}';
    }
  }
}

std::optional<std::string> minified(const Leaves& leaves, const std::string& key) {
  const auto found = leaves.find(key);
  if (found == leaves.end() || found->second.is_null()) return std::nullopt;
  return simdjson::minify(found->second);
}

}  // namespace

std::vector<EnvironmentChange> environment_diff(std::string_view old_json, std::string_view new_json) {
  simdjson::dom::parser old_parser, new_parser;
  Leaves old_leaves, new_leaves;
  if (!old_json.empty()) flatten(parse(old_parser, old_json, "old"), "", old_leaves);
  if (!new_json.empty()) flatten(parse(new_parser, new_json, "new"), "", new_leaves);
  Leaves all = old_leaves;
  all.insert(new_leaves.begin(), new_leaves.end());
  std::vector<EnvironmentChange> out;
  for (const auto& entry : all) {
    const std::string& key = entry.first;
    const auto a = old_leaves.find(key), b = new_leaves.find(key);
    const bool a_none = a == old_leaves.end() || a->second.is_null();
    const bool b_none = b == new_leaves.end() || b->second.is_null();
    if (a_none && b_none) continue;
    if (!a_none && !b_none && json_equal(a->second, b->second)) continue;
    out.push_back({key, minified(old_leaves, key), minified(new_leaves, key)});
  }
  return out;
}

std::string python_str(std::string_view json) {
  simdjson::dom::parser parser;
  std::string out;
  write_python(out, parse(parser, json, "a value of the"), false);
  return out;
}

std::string environment_cause(const std::vector<EnvironmentChange>& changes) {
  if (changes.empty()) return "";
  const auto side = [](const std::optional<std::string>& value) { return value ? python_str(*value) : "(none)"; };
  std::string out = "environment changed: ";
  for (std::size_t i = 0; i < changes.size() && i < kMaxCauses; ++i)
    out += fmt::format("{}{}: {} \u2192 {}", i ? "; " : "", changes[i].key, side(changes[i].old_value),
                       side(changes[i].new_value));
  if (changes.size() > kMaxCauses) out += fmt::format(" (+{} more)", changes.size() - kMaxCauses);
  return out;
}

}  // namespace benchreport::store

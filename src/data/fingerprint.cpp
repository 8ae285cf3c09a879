#include "benchreport/data/fingerprint.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/core/sha256.hpp"
#include "data/json_memory.hpp"

namespace benchreport {
namespace {

// Python's float repr: shortest round trip, and always a '.' or exponent.
void append_double(std::string& out, double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEni") == std::string::npos) text += ".0";
  out += text;
}

void append_value(std::string& out, simdjson::dom::element element);

void append_object(std::string& out, simdjson::dom::object object) {
  std::vector<std::pair<std::string_view, simdjson::dom::element>> fields;
  for (auto field : object) fields.emplace_back(field.key, field.value);
  std::sort(fields.begin(), fields.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto duplicate =
      std::adjacent_find(fields.begin(), fields.end(), [](const auto& a, const auto& b) { return a.first == b.first; });
  if (duplicate != fields.end()) {
    throw InputError(fmt::format("canonical JSON: duplicate key \"{}\" in an object", duplicate->first));
  }
  out.push_back('{');
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out.push_back(',');
    append_json_string(out, fields[i].first);
    out.push_back(':');
    append_value(out, fields[i].second);
  }
  out.push_back('}');
}

void append_value(std::string& out, simdjson::dom::element element) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::OBJECT: append_object(out, simdjson::dom::object(element)); break;
    case element_type::ARRAY: {
      const simdjson::dom::array array(element);
      out.push_back('[');
      bool first = true;
      for (auto item : array) {
        if (!first) out.push_back(',');
        first = false;
        append_value(out, item);
      }
      out.push_back(']');
      break;
    }
    case element_type::STRING: append_json_string(out, element.get_string().value_unsafe()); break;
    case element_type::INT64: out += fmt::format("{}", element.get_int64().value_unsafe()); break;
    case element_type::UINT64: out += fmt::format("{}", element.get_uint64().value_unsafe()); break;
    case element_type::DOUBLE: append_double(out, element.get_double().value_unsafe()); break;
    case element_type::BOOL: out += element.get_bool().value_unsafe() ? "true" : "false"; break;
    case element_type::NULL_VALUE: out += "null"; break;
  }
}

}  // namespace

std::string canonical_json(std::string_view json_text) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded = padded_copy(json_text);
  simdjson::dom::element root;
  if (const auto error = parser.parse(padded).get(root)) {
    throw_if_out_of_memory(error);
    throw InputError(fmt::format("canonical JSON: invalid JSON ({})", simdjson::error_message(error)));
  }
  std::string out;
  append_value(out, root);
  return out;
}

std::string fingerprint(std::string_view json_text, std::size_t hex_digits) {
  if (hex_digits < 1 || hex_digits > 64) {
    throw InputError(fmt::format("fingerprint: hex_digits must be 1–64, got {}", hex_digits));
  }
  return sha256_hex(canonical_json(json_text)).substr(0, hex_digits);
}

}  // namespace benchreport

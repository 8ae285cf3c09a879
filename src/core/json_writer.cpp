#include "benchreport/core/json_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "benchreport/core/escape.hpp"

namespace benchreport {
namespace {

void newline(std::string& out, const JsonWriteOptions& options, int depth) {
  if (options.indent <= 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(options.indent * depth), ' ');
}

void write(std::string& out, const Json& value, const JsonWriteOptions& options, int depth);

void write_array(std::string& out, const Json::Array& items, const JsonWriteOptions& options, int depth) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    newline(out, options, depth + 1);
    write(out, items[i], options, depth + 1);
  }
  if (!items.empty()) newline(out, options, depth);
  out += ']';
}

void write_object(std::string& out, const Json::Object& members, const JsonWriteOptions& options,
                  int depth) {
  std::vector<const std::pair<std::string, Json>*> order;
  order.reserve(members.size());
  for (const auto& member : members) order.push_back(&member);
  if (options.sort_keys) {
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  }
  out += '{';
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i > 0) out += ',';
    newline(out, options, depth + 1);
    out += json_string(order[i]->first);
    out += options.indent > 0 ? ": " : ":";
    write(out, order[i]->second, options, depth + 1);
  }
  if (!order.empty()) newline(out, options, depth);
  out += '}';
}

void write(std::string& out, const Json& value, const JsonWriteOptions& options, int depth) {
  if (value.is_null()) {
    out += "null";
  } else if (value.is_bool()) {
    out += value.as_bool() ? "true" : "false";
  } else if (value.is_integer()) {
    out += fmt::format("{}", value.as_integer());
  } else if (value.is_double()) {
    out += json_number(value.as_double());
  } else if (value.is_string()) {
    out += json_string(value.as_string());
  } else if (value.is_array()) {
    write_array(out, value.as_array(), options, depth);
  } else {
    write_object(out, value.as_object(), options, depth);
  }
}

// C0, DEL and C1 controls (C1 found by fuzz_render: U+0082 was written raw),
// line/paragraph separators and bidi controls stay visible as \uXXXX.
bool needs_unicode_escape(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || is_bidi_control(cp);
}

}  // namespace

Json::Json(const Json& other) {
  if (const auto* text = std::get_if<std::string>(&other.value_)) {
    std::string copy = *text;
    value_ = std::move(copy);
  } else if (const auto* items = std::get_if<Array>(&other.value_)) {
    Array copy = *items;
    value_ = std::move(copy);
  } else if (const auto* members = std::get_if<Object>(&other.value_)) {
    Object copy = *members;
    value_ = std::move(copy);
  } else {
    value_ = other.value_;  // null, bool or a number: nothing to allocate
  }
}

Json& Json::operator=(const Json& other) {
  if (this != &other) {
    Json copy(other);
    value_ = std::move(copy.value_);
  }
  return *this;
}

Json& Json::set(std::string key, Json value) {
  if (is_null()) value_ = Object{};
  auto* members = std::get_if<Object>(&value_);
  if (members == nullptr) throw std::logic_error("Json::set on a non-object");
  for (auto& member : *members) {
    if (member.first == key) {
      member.second = std::move(value);
      return *this;
    }
  }
  members->emplace_back(std::move(key), std::move(value));
  return *this;
}

Json& Json::push_back(Json value) {
  if (is_null()) value_ = Array{};
  auto* items = std::get_if<Array>(&value_);
  if (items == nullptr) throw std::logic_error("Json::push_back on a non-array");
  items->push_back(std::move(value));
  return *this;
}

const Json* Json::find(std::string_view key) const {
  const auto* members = std::get_if<Object>(&value_);
  if (members == nullptr) return nullptr;
  for (const auto& member : *members) {
    if (member.first == key) return &member.second;
  }
  return nullptr;
}

std::string to_json(const Json& value, const JsonWriteOptions& options) {
  std::string out;
  write(out, value, options, 0);
  return out;
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  std::string text = fmt::format("{}", value);
  // Keep doubles doubles for readers that type by syntax ("1.0", "-0.0").
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

// JSON text must be valid Unicode: invalid UTF-8 (e.g. a Go configuration
// value or a file name with stray bytes) is written as U+FFFD.
void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else if (static_cast<unsigned char>(c) < 0x80) {
          out += c;
        } else {
          const CodePoint cp = decode_utf8(text, i);
          const bool invalid = cp.value == 0xFFFD && text.substr(i, 3) != "\xEF\xBF\xBD";
          out += invalid ? std::string_view("\xEF\xBF\xBD") : text.substr(i, cp.length);
          i += cp.length - 1;
        }
    }
  }
  out += '"';
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode_utf8(text, pos);
    switch (cp.value) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (needs_unicode_escape(cp.value)) {
          out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(cp.value));
        } else if (cp.value == 0xFFFD) {
          append_utf8(out, cp.value);
        } else {
          out.append(text.substr(pos, cp.length));
        }
    }
    pos += cp.length;
  }
  out += '"';
  return out;
}

}  // namespace benchreport

#include "benchreport/core/python_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <string>

#include "benchreport/core/escape.hpp"

namespace benchreport {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

void append_hex(std::string& out, const char* prefix, unsigned value, int digits) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%s%0*x", prefix, digits, value);
  out += buffer;
}

// Code points Python's str.isprintable() refuses beyond the controls: format
// characters and separators that would otherwise hide in a message.
bool invisible(char32_t cp) {
  return cp == 0xA0 || cp == 0xAD || (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
         (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF || cp == 0x061C || cp == 0x3000;
}

}  // namespace

std::string_view strip(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::string repr_text(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const char quote = has_single && text.find('"') == std::string_view::npos ? '"' : '\'';
  std::string out(1, quote);
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode_utf8(text, pos);
    const bool invalid = cp.value == 0xFFFD && text.substr(pos, cp.length) != "\xEF\xBF\xBD";
    if (invalid) {
      for (std::size_t i = 0; i < cp.length; ++i)
        append_hex(out, "\\udc", static_cast<unsigned char>(text[pos + i]), 2);
    } else if (cp.value == static_cast<char32_t>(quote) || cp.value == '\\') {
      out += '\\';
      out += static_cast<char>(cp.value);
    } else if (cp.value == '\t' || cp.value == '\n' || cp.value == '\r') {
      out += cp.value == '\t' ? "\\t" : cp.value == '\n' ? "\\n" : "\\r";
    } else if (cp.value < 0x20 || (cp.value >= 0x7F && cp.value < 0xA0)) {
      append_hex(out, "\\x", static_cast<unsigned>(cp.value), 2);
    } else if (invisible(cp.value)) {  // as Python: \xhh below U+0100, else \uhhhh
      if (cp.value < 0x100) {
        append_hex(out, "\\x", static_cast<unsigned>(cp.value), 2);
      } else {
        append_hex(out, "\\u", static_cast<unsigned>(cp.value), 4);
      }
    } else {
      out.append(text.substr(pos, cp.length));
    }
    pos += cp.length;
  }
  out += quote;
  return out;
}

std::string repr_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific).ptr;
  const std::string scientific(buffer, end);  // [-]d[.ddd]e±XX, shortest round trip
  const std::size_t e = scientific.find('e');
  const bool negative = scientific[0] == '-';
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < e; ++i)
    if (scientific[i] != '.') digits += scientific[i];
  const int exponent = std::stoi(scientific.substr(e + 1));
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char tail[16];
    std::snprintf(tail, sizeof tail, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + tail;
  }
  if (exponent < 0) return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  const auto whole = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= whole) return out + digits + std::string(whole - digits.size(), '0') + ".0";
  return out + digits.substr(0, whole) + "." + digits.substr(whole);
}

std::optional<double> parse_float(std::string_view text) {
  text = strip(text);
  std::string cleaned;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '_') {
      cleaned += text[i];
      continue;
    }
    const bool between_digits = i > 0 && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                                std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!between_digits) return std::nullopt;
  }
  std::string_view body = cleaned;
  const bool negative = !body.empty() && body.front() == '-';
  if (!body.empty() && (body.front() == '+' || negative)) body.remove_prefix(1);
  if (body.empty() || body.front() == '-' || body.front() == '+' || body.find('(') != std::string_view::npos)
    return std::nullopt;
  double value = 0.0;
  const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value);
  if (end != body.data() + body.size()) return std::nullopt;
  if (error == std::errc::result_out_of_range)
    value = std::strtod(std::string(body).c_str(), nullptr);  // ±inf, 0
  else if (error != std::errc())
    return std::nullopt;
  return negative ? -value : value;
}

}  // namespace benchreport

#include "benchreport/core/escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace benchreport {
namespace {

constexpr char32_t kReplacement = 0xFFFD;
constexpr std::string_view kWordJoiner = "\u2060";

bool is_continuation(unsigned char byte, unsigned char low = 0x80, unsigned char high = 0xBF) {
  return byte >= low && byte <= high;
}

// Length and initial bits of a sequence starting with `lead`; 0 when it is no lead byte.
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Allowed range of the second byte (excludes overlongs, surrogates, > U+10FFFF).
std::pair<unsigned char, unsigned char> second_byte_range(unsigned char lead) {
  switch (lead) {
    case 0xE0: return {0xA0, 0xBF};
    case 0xED: return {0x80, 0x9F};
    case 0xF0: return {0x90, 0xBF};
    case 0xF4: return {0x80, 0x8F};
    default: return {0x80, 0xBF};
  }
}

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR end a line in
// JavaScript, some Markdown and CSV readers and editors (NEL, VT and FF are
// C0/C1 controls already).
bool is_line_separator(char32_t cp) { return cp == 0x2028 || cp == 0x2029; }

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

bool is_ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Calls fn(code point, its bytes) for each neutralised code point.
template <typename Fn>
void for_each_neutral(std::string_view text, Fn&& fn) {
  std::string buffer;
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode_utf8(text, pos);
    char32_t value = cp.value;
    if (is_control(value) || is_line_separator(value)) value = U' ';
    if (is_bidi_control(value)) value = kReplacement;
    buffer.clear();
    if (value == cp.value && value != kReplacement) {
      buffer.assign(text.substr(pos, cp.length));
    } else {
      append_utf8(buffer, value);
    }
    fn(value, std::string_view(buffer));
    pos += cp.length;
  }
}

bool in_ranges(char32_t cp, std::initializer_list<std::pair<char32_t, char32_t>> ranges) {
  return std::any_of(ranges.begin(), ranges.end(), [cp](const auto& r) { return cp >= r.first && cp <= r.second; });
}

bool is_zero_width(char32_t cp) {
  return in_ranges(cp, {{0x0300, 0x036F},
                        {0x0483, 0x0489},
                        {0x0591, 0x05BD},
                        {0x0610, 0x061A},
                        {0x064B, 0x065F},
                        {0x200B, 0x200F},
                        {0x2060, 0x2064},
                        {0x20D0, 0x20FF},
                        {0xFE00, 0xFE0F},
                        {0xFE20, 0xFE2F},
                        {0xFEFF, 0xFEFF}});
}

bool is_wide(char32_t cp) {
  return in_ranges(cp, {{0x1100, 0x115F},
                        {0x2E80, 0x303E},
                        {0x3041, 0x33FF},
                        {0x3400, 0x4DBF},
                        {0x4E00, 0x9FFF},
                        {0xA000, 0xA4CF},
                        {0xAC00, 0xD7A3},
                        {0xF900, 0xFAFF},
                        {0xFE30, 0xFE4F},
                        {0xFF00, 0xFF60},
                        {0xFFE0, 0xFFE6},
                        {0x1F300, 0x1F64F},
                        {0x1F900, 0x1F9FF},
                        {0x20000, 0x3FFFD}});
}

}  // namespace

CodePoint decode_utf8(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  const std::size_t length = sequence_length(lead);
  if (length == 1) return {lead, 1};
  if (length == 0) return {kReplacement, 1};
  char32_t value = lead & (0xFF >> (length + 1));
  for (std::size_t i = 1; i < length; ++i) {
    if (pos + i >= text.size()) return {kReplacement, i};
    const auto byte = static_cast<unsigned char>(text[pos + i]);
    const auto [low, high] = i == 1 ? second_byte_range(lead) : std::pair<unsigned char, unsigned char>{0x80, 0xBF};
    if (!is_continuation(byte, low, high)) return {kReplacement, i};
    value = (value << 6) | (byte & 0x3F);
  }
  return {value, length};
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode_utf8(text, pos);
    if (cp.value == kReplacement) {
      append_utf8(out, kReplacement);
    } else {
      out.append(text.substr(pos, cp.length));
    }
    pos += cp.length;
  }
  return out;
}

bool is_bidi_control(char32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
         cp == 0x061C;
}

std::string neutralize_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_neutral(text, [&](char32_t, std::string_view bytes) { out.append(bytes); });
  return out;
}

std::string escape_markdown(std::string_view text) {
  const std::string clean = neutralize_text(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 4);
  for (std::size_t i = 0; i < clean.size(); ++i) {
    const char c = clean[i];
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '~':
      case '[':
      case ']':
      case '|':
      case '$':
        out += '\\';
        out += c;
        break;
      case '#':
        out += "\\#";
        // "#123" would still autolink an issue; the joiner breaks the reference.
        if (i + 1 < clean.size() && is_ascii_digit(clean[i + 1])) out += kWordJoiner;
        break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '@':
        out += '@';
        out += kWordJoiner;
        break;
      case '-':
        out += '-';
        // "GH-123" (any case) autolinks an issue like "#123"; the joiner breaks it too.
        if (i >= 2 && (clean[i - 2] | 0x20) == 'g' && (clean[i - 1] | 0x20) == 'h' && i + 1 < clean.size() &&
            is_ascii_digit(clean[i + 1])) {
          out += kWordJoiner;
        }
        break;
      default: out += c;
    }
  }
  return out;
}

std::string protect_markdown_line_start(std::string_view escaped_line) {
  const std::size_t first = escaped_line.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  std::string line(escaped_line.substr(first));
  const char c = line.front();
  if (c == '-' || c == '+' || c == '=') return "\\" + line;
  std::size_t digits = 0;
  while (digits < line.size() && is_ascii_digit(line[digits])) ++digits;
  const bool list_marker = digits > 0 && digits < line.size() && (line[digits] == '.' || line[digits] == ')') &&
                           (digits + 1 == line.size() || line[digits + 1] == ' ');
  if (list_marker) {
    line.insert(digits, 1, '\\');
  }
  return line;
}

std::string markdown_code_span(std::string_view text, bool in_table) {
  std::string body = neutralize_text(text);
  if (body.empty()) return {};
  std::size_t longest_run = 0;
  std::size_t run = 0;
  for (const char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest_run = std::max(longest_run, run);
  }
  // Code spans are literal on GitHub, but a span that some renderer splits
  // differently must still not ping anyone: '@' gets the word joiner here too
  // (fuzz_render finding). In tables '|' must be escaped even inside a span.
  std::string guarded;
  for (const char c : body) {
    if (in_table && c == '|') guarded += '\\';
    guarded += c;
    if (c == '@') guarded += kWordJoiner;
  }
  body = std::move(guarded);
  const std::string fence(longest_run + 1, '`');
  const bool pad = body.front() == '`' || body.back() == '`' || body.front() == ' ';
  const char* space = pad ? " " : "";
  return fmt::format("{}{}{}{}{}", fence, space, body, space, fence);
}

std::string escape_html(std::string_view text) {
  const std::string clean = neutralize_text(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 4);
  for (const char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string escape_html_in_markdown(std::string_view text) {
  const std::string escaped = escape_html(text);
  std::string out;
  out.reserve(escaped.size());
  for (const char c : escaped) {
    out += c;
    if (c == '@') out += kWordJoiner;
  }
  return out;
}

bool is_safe_url(std::string_view url) {
  const std::size_t colon = url.find(':');
  const std::size_t delimiter = url.find_first_of("/?#");
  if (colon == std::string_view::npos || (delimiter != std::string_view::npos && delimiter < colon)) {
    return true;  // relative: no scheme
  }
  std::string scheme(url.substr(0, colon));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
  return scheme == "http" || scheme == "https" || scheme == "mailto";
}

std::string encode_url(std::string_view url) {
  constexpr std::string_view kEncoded = " ()<>\"'\\|`";
  std::string out;
  for (const char c : neutralize_text(url)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || kEncoded.find(c) != std::string_view::npos) {
      out += fmt::format("%{:02X}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

bool is_numeric_looking(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < text.size() && (is_ascii_digit(text[i]) || (text[i] == ',' && digits > 0))) {
    digits += is_ascii_digit(text[i]) ? 1 : 0;
    ++i;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_ascii_digit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    const std::size_t exponent_start = j;
    while (j < text.size() && is_ascii_digit(text[j])) ++j;
    if (j > exponent_start) i = j;
  }
  if (i < text.size() && text[i] == '%') ++i;
  // Then only space-separated words of letters (a unit or a verdict word).
  constexpr std::string_view kMicro = "\u00b5";
  while (i < text.size()) {
    if (text[i] != ' ' || i + 1 >= text.size()) return false;
    ++i;
    const std::size_t word_start = i;
    while (i < text.size() && text[i] != ' ') {
      if (is_ascii_alpha(text[i]) || text[i] == '/') {
        ++i;
      } else if (text.substr(i, kMicro.size()) == kMicro) {
        i += kMicro.size();
      } else {
        return false;
      }
    }
    if (i == word_start) return false;
  }
  return true;
}

namespace {

// A spreadsheet evaluates = + - @ as a formula also after leading blanks (a
// tab or CR in the input is a space once neutralised).
bool is_formula_like(std::string_view cell) {
  const std::size_t first = cell.find_first_not_of(' ');
  if (first == std::string_view::npos) return false;
  const std::string_view rest = cell.substr(first);
  return std::string_view("=+-@").find(rest.front()) != std::string_view::npos && !is_numeric_looking(rest);
}

}  // namespace

std::string escape_csv_field(std::string_view text) {
  std::string cell = neutralize_text(text);
  if (is_formula_like(cell)) cell.insert(0, 1, '\'');
  // A field starting with # is quoted: a reader skipping "# caption" comment
  // lines (pandas comment="#") must not skip a data row.
  const bool needs_quotes = cell.find_first_of(",\"") != std::string::npos ||
                            (!cell.empty() && (cell.front() == ' ' || cell.back() == ' ' || cell.front() == '#'));
  if (!needs_quotes) return cell;
  std::string out = "\"";
  for (const char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for_each_neutral(text, [&](char32_t cp, std::string_view) {
    if (is_zero_width(cp)) return;
    width += is_wide(cp) ? 2 : 1;
  });
  return width;
}

std::string truncate_display(std::string_view text, std::size_t max_columns) {
  std::string out = neutralize_text(text);
  if (display_width(out) <= max_columns) return out;
  // Keep whole code points within max_columns - 1 columns, then the ellipsis.
  const std::size_t room = max_columns > 0 ? max_columns - 1 : 0;
  std::size_t width = 0;
  std::size_t keep = 0;
  for (std::size_t pos = 0; pos < out.size();) {
    const CodePoint cp = decode_utf8(out, pos);
    width += is_zero_width(cp.value) ? 0 : is_wide(cp.value) ? 2 : 1;
    if (width > room) break;
    pos += cp.length;
    keep = pos;
  }
  out.resize(keep);
  if (max_columns > 0) out += "\u2026";
  return out;
}

}  // namespace benchreport

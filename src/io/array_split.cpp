#include "array_split.hpp"

#include <cstring>

namespace benchreport::io {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_indent(char c) { return c == ' ' || c == '\t'; }

// Offset of the last non-whitespace byte before `end`, or npos.
std::size_t last_token(std::string_view json, std::size_t end) {
  while (end > 0 && is_space(json[end - 1])) --end;
  return end == 0 ? std::string_view::npos : end - 1;
}

// The indent before json[at] when only indent bytes separate it from the
// previous line break; npos otherwise.
std::size_t indent_before(std::string_view json, std::size_t at) {
  std::size_t start = at;
  while (start > 0 && is_indent(json[start - 1])) --start;
  return start > 0 && json[start - 1] == '\n' ? at - start : std::string_view::npos;
}

// Whether json[at...] is a line break ("\n" or "\r\n"), then `indent`, then '{'.
bool row_starts_at(std::string_view json, std::size_t at, std::string_view indent) {
  if (at < json.size() && json[at] == '\r') ++at;
  if (at >= json.size() || json[at] != '\n') return false;
  ++at;
  return json.substr(at, indent.size()) == indent && at + indent.size() < json.size() &&
         json[at + indent.size()] == '{';
}

}  // namespace

std::optional<ArraySplit> find_array_split(std::string_view json, std::size_t near) {
  const std::size_t root_close = last_token(json, json.size());
  if (root_close == std::string_view::npos || json[root_close] != '}') return std::nullopt;
  const std::size_t array_close = last_token(json, root_close);
  if (array_close == std::string_view::npos || json[array_close] != ']') return std::nullopt;
  const std::size_t last_row_close = last_token(json, array_close);
  if (last_row_close == std::string_view::npos || json[last_row_close] != '}') return std::nullopt;
  const std::size_t width = indent_before(json, last_row_close);
  if (width == std::string_view::npos) return std::nullopt;
  const std::string_view indent = json.substr(last_row_close - width, width);
  for (std::size_t at = near; at < last_row_close;) {
    const void* found = std::memchr(json.data() + at, ',', last_row_close - at);
    if (found == nullptr) return std::nullopt;
    const std::size_t comma = static_cast<std::size_t>(static_cast<const char*>(found) - json.data());
    at = comma + 1;
    if (comma == 0 || json[comma - 1] != '}' || indent_before(json, comma - 1) != width) continue;
    if (json.substr(comma - 1 - width, width) != indent || !row_starts_at(json, comma + 1, indent)) continue;
    // The byte after the line break's first byte becomes '[': it must be
    // whitespace ('\n' of "\r\n", or the indent), not the row's '{'.
    if (!is_space(json[comma + 2])) continue;
    return ArraySplit{comma, comma + 2, array_close + 1};
  }
  return std::nullopt;
}

SplitEdit::SplitEdit(char* bytes, const ArraySplit& split) : bytes_(bytes), split_(split) {
  for (std::size_t i = 0; i < 3; ++i) saved_[i] = bytes_[split.comma + i];
  bytes_[split.comma] = ']';
  bytes_[split.comma + 1] = '}';
  bytes_[split.comma + 2] = '[';
}

SplitEdit::~SplitEdit() {
  for (std::size_t i = 0; i < 3; ++i) bytes_[split_.comma + i] = saved_[i];
}

}  // namespace benchreport::io

#include "array_split.hpp"

#include <cstring>

namespace benchreport::io {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Offset of the last non-whitespace byte before `end`, or npos.
std::size_t last_token(std::string_view json, std::size_t end) {
  while (end > 0 && is_space(json[end - 1])) --end;
  return end == 0 ? std::string_view::npos : end - 1;
}

}  // namespace

std::optional<ArraySplit> find_array_split(std::string_view json, std::size_t near) {
  const std::size_t root_close = last_token(json, json.size());
  if (root_close == std::string_view::npos || json[root_close] != '}') return std::nullopt;
  const std::size_t array_close = last_token(json, root_close);
  if (array_close == std::string_view::npos || json[array_close] != ']') return std::nullopt;
  for (std::size_t at = near; at < array_close;) {
    const void* found = std::memchr(json.data() + at, ',', array_close - at);
    if (found == nullptr) return std::nullopt;
    const std::size_t comma = static_cast<std::size_t>(static_cast<const char*>(found) - json.data());
    at = comma + 1;
    if (comma == 0 || json[comma - 1] != '}') continue;
    if (comma + 2 >= array_close || (json[comma + 1] != '\n' && json[comma + 1] != '\r') || !is_space(json[comma + 2])) continue;
    std::size_t next = comma + 3;
    while (next < array_close && is_space(json[next])) ++next;
    if (next >= array_close || json[next] != '{') continue;
    return ArraySplit{comma, comma + 2, comma + 2, array_close + 1};
  }
  return std::nullopt;
}

SplitEdit::SplitEdit(char* bytes, const ArraySplit& split) : bytes_(bytes), split_(split) {
  saved_[0] = bytes_[split.comma];
  saved_[1] = bytes_[split.head_size - 1];
  saved_[2] = bytes_[split.tail_begin];
  bytes_[split.comma] = ']';
  bytes_[split.head_size - 1] = '}';
  bytes_[split.tail_begin] = '[';
}

SplitEdit::~SplitEdit() {
  bytes_[split_.comma] = saved_[0];
  bytes_[split_.head_size - 1] = saved_[1];
  bytes_[split_.tail_begin] = saved_[2];
}

}  // namespace benchreport::io

#pragma once
// Internal: cutting a pretty-printed JSON document {..., "key": [e0, ..., en]}
// between two elements of its last member's array, so that two threads can
// parse the two parts as documents of their own:
//   head = {..., "key": [e0, ..., ek-1]}     tail = [ek, ..., en]
// Three bytes between the elements change: the comma becomes ']', the line
// break after it '}' and the next whitespace byte '['.
//
// A cut is only a candidate, found from the text's layout. The layout makes
// it right for valid JSON as Google Benchmark writes it (a raw line break
// cannot occur inside a string), but the text may be anything: the caller
// must check that both parts parse as complete, balanced documents and that
// the array is the head's last member. Only then are the parts the original.
#include <cstddef>
#include <optional>
#include <string_view>

namespace benchreport::io {

struct ArraySplit {
  std::size_t comma = 0;     // the separating comma (becomes ']')
  std::size_t boundary = 0;  // head = bytes [0, boundary), tail = [boundary, tail_end)
  std::size_t tail_end = 0;  // one past the array's closing ']'
  // The bytes that change: comma, boundary - 1 (the line break), boundary.
  std::size_t edit_length() const { return boundary + 1 - comma; }
};

// The first candidate cut at or after `near`. The document must end with
// "}" ws "]" ws "}" (its last member an array of objects, the last row's "}"
// alone on its line after an indent I). A cut is "}," where the "}" follows
// a line break and I, and the comma is followed by a line break, I and "{":
// rows of the array, not objects nested deeper inside a row (more indent).
// None when the text has no such place (e.g. minified JSON, rows at column 0).
std::optional<ArraySplit> find_array_split(std::string_view json, std::size_t near);

// The three bytes of a cut, changed while the parts are parsed and restored
// (whatever happens) when this goes out of scope. `bytes` must be writable.
class SplitEdit {
 public:
  SplitEdit(char* bytes, const ArraySplit& split);
  ~SplitEdit();
  SplitEdit(const SplitEdit&) = delete;
  SplitEdit& operator=(const SplitEdit&) = delete;

 private:
  char* bytes_;
  ArraySplit split_;
  char saved_[3];
};

}  // namespace benchreport::io

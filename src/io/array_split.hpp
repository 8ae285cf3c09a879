#pragma once
// Internal: cutting a pretty-printed JSON document {..., "key": [e0, ..., en]}
// between two elements of its last member's array, so that two threads can
// parse the two parts as documents of their own:
//   head = {..., "key": [e0, ..., ek-1]}     tail = [ek, ..., en]
// Three bytes between the elements change: the comma becomes ']', the line
// break after it '}' and the next whitespace byte '['. The cut is only a
// candidate: the caller must check that both parts parse as complete,
// balanced documents and that the array really is the head's last member;
// only then are the two parts the original array.
#include <cstddef>
#include <optional>
#include <string_view>

namespace benchreport::io {

struct ArraySplit {
  std::size_t comma = 0;       // the separating comma (becomes ']')
  std::size_t head_size = 0;   // head: bytes [0, head_size); its last byte was the line break (becomes '}')
  std::size_t tail_begin = 0;  // tail: bytes [tail_begin, tail_end); its first byte was whitespace (becomes '[')
  std::size_t tail_end = 0;    // one past the array's closing ']'
};

// The first candidate cut at or after `near`: "}," then a line break, more
// whitespace and '{' (a raw line break cannot occur inside a JSON string, so
// the comma is outside strings), with the document ending "]" ws "}" ws.
// None when the text has no such place (e.g. minified JSON).
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

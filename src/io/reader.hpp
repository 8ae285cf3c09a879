#pragma once
// Internal: what every reader shares (the source, JSON navigation with paths
// for messages, text helpers). Not installed.
#include <simdjson.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/core/json_limits.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/core/string_index.hpp"
#include "json_scan.hpp"
#include "source.hpp"

namespace benchreport::io {

namespace od = simdjson::ondemand;

// A JSON path built on the stack while walking a document; rendered only for
// messages, e.g. "results[2].times[5]".
struct JsonPath {
  static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);
  const JsonPath* parent = nullptr;
  std::string_view key;
  std::size_t index = kNoIndex;

  JsonPath field(std::string_view name) const { return JsonPath{this, name, kNoIndex}; }
  JsonPath at(std::size_t i) const { return JsonPath{this, {}, i}; }
  std::string str() const;
};

// A string's content (`raw` points just past its opening quote) as a view
// into the document when it holds no escape, so there is nothing to unescape;
// false when it does. Stage 1 has checked the quotes, so the scan ends.
inline bool unescaped_in_place(const char* raw, std::string_view& out) {
  const char* end = raw;
  while (*end != '"' && *end != '\\') ++end;
  if (*end == '\\') return false;
  out = std::string_view(raw, static_cast<std::size_t>(end - raw));
  return true;
}

// The member names of one object seen so far: a few compared in place, more hashed
// (a Google Benchmark row can hold 10^5 counters). Views into the document.
class MemberNames {
 public:
  // False when `key` was seen before.
  bool insert(std::string_view key) {
    if (count_ < kInline) {
      for (std::size_t i = 0; i < count_; ++i) {
        if (inline_[i] == key) return false;
      }
      inline_[count_++] = key;
      return true;
    }
    if (hashed_.empty()) {
      for (const std::string_view name : inline_) add_hashed(name);
    }
    return add_hashed(key);
  }

 private:
  bool add_hashed(std::string_view key) {
    const bool inserted = index_
                              .find_or_insert(key, static_cast<std::uint32_t>(hashed_.size()),
                                              [&](std::uint32_t i) { return hashed_[i]; })
                              .second;
    if (inserted) hashed_.push_back(key);
    return inserted;
  }

  static constexpr std::size_t kInline = 24;
  std::array<std::string_view, kInline> inline_{};
  std::size_t count_ = 0;
  std::vector<std::string_view> hashed_;  // every name once past the inline ones, indexed by index_
  StringIndex index_;
};

// A parsed (on-demand) JSON document with typed accessors whose errors name
// the file, the line and the JSON path.
// How messages name a JSON value's type ("an array", "a number", ...).
std::string_view type_name(od::json_type type);

class JsonInput {
 public:
  explicit JsonInput(const Source& source);
  JsonInput(const JsonInput&) = delete;
  JsonInput& operator=(const JsonInput&) = delete;

  od::value root();
  // The root value, which must be an object.
  od::object root_object();
  const std::string& name() const { return source_.name; }
  const ReadOptions& options() const { return source_.options; }

  [[noreturn]] void fail(const JsonPath& path, std::string_view what);
  // Throws when `error` is set, saying what was expected at `path`.
  void check(simdjson::error_code error, const JsonPath& path, std::string_view expected);

  od::object object(od::value& value, const JsonPath& path);
  od::array array(od::value& value, const JsonPath& path);
  double number(od::value& value, const JsonPath& path);
  // A number literal that parsed to 0 but has a nonzero digit (1e-400) is an error naming the path.
  void refuse_underflow(od::value& value, const JsonPath& path);
  std::int64_t integer(od::value& value, const JsonPath& path);
  std::string_view string(od::value& value, const JsonPath& path);
  bool boolean(od::value& value, const JsonPath& path);
  bool is_null(od::value& value);
  // The text of a value that must be an object, minified (kept verbatim as metadata).
  std::string raw_object(od::value& value, const JsonPath& path);
  // The value's JSON text, minified (kept verbatim as metadata). Validated in
  // full first: on-demand parsing skips unvisited values without checking them,
  // and text kept verbatim is written out again (canonical JSON, reports).
  std::string raw(od::value& value, const JsonPath& path);
  // The same text as it stands in the input (validated the same way; not
  // minified, trailing whitespace dropped), as a view into the document: for
  // readers that decide later whether to keep it.
  std::string_view raw_view(od::value& value, const JsonPath& path);
  // Appends every number of an array to `out` (counted against max_samples).
  void numbers(od::value& value, const JsonPath& path, std::vector<double>& out);

  // Calls f(key, value, path) for every member, in document order. A member
  // name that appears twice in one object is an error naming its path (JSON
  // leaves duplicates undefined; a second "benchmarks" must not be merged).
  template <class F>
  void fields(od::object object, const JsonPath& path, F&& f) {
    MemberNames names;
    for (auto member : object) {
      od::field field;
      check(std::move(member).get(field), path, "an object member");
      std::string_view key;
      if (!unescaped_in_place(field.key().raw(), key)) check(field.unescaped_key().get(key), path, "a member name");
      const JsonPath child = path.field(key);
      if (!names.insert(key)) fail(child, "this member appears twice in one object (duplicate key)");
      od::value value = field.value();
      f(key, value, child);
    }
  }

  // Calls f(index, value, path) for every element, in order.
  template <class F>
  void elements(od::array array, const JsonPath& path, F&& f) {
    std::size_t i = 0;
    for (auto element : array) {
      od::value value;
      const JsonPath child = path.at(i);
      check(std::move(element).get(value), child, "an array element");
      f(i, value, child);
      ++i;
    }
  }

  // Fails unless the whole document was consumed (trailing content).
  void finish();
  // Counts samples against ReadOptions::max_samples.
  void count_samples(std::size_t n, const JsonPath& path);
  // Bracket and comma counts from the pre-pass (for reserving arrays).
  const JsonShape& shape() const { return shape_; }

 private:
  std::string location();
  const Source& source_;
  simdjson::padded_string copy_;       // the bytes plus padding, only when the source has none
  simdjson::padded_string_view text_;  // what simdjson parses (the source's bytes or copy_)
  od::parser parser_;
  od::document document_;
  simdjson::dom::parser validator_;  // full (DOM) validation of the values kept raw
  std::uint64_t samples_ = 0;
  JsonShape shape_;
};

// "name:line: message" / "name: message" as InputError.
[[noreturn]] void fail_at_line(std::string_view name, std::size_t line, std::string_view message);

// The line-based readers' (Go, CSV) policy for a file cut short: a data line
// that ends the file without a line break, in a file with earlier lines (all
// ended by one), may have lost its last digits ("0.0012" cut to "0.00") and
// is refused naming the file and line. A one-line file without a final line
// break is read.
[[noreturn]] void fail_unterminated_last_line(std::string_view name, std::size_t line);

// Units in the canonical formats: a known symbol as is, a custom (unknown)
// unit as "custom:<symbol>" so that it reads back as custom instead of failing.
std::string canonical_unit_symbol(const Unit& unit);
Unit parse_canonical_unit(std::string_view symbol);

// Minified copy of a JSON text; the text must be valid JSON.
std::string minify_json(std::string_view json);
// A JsonInput::raw_view text as JsonInput::raw returns it (containers minified).
std::string compact_json(std::string_view raw_text);
// Appends a JSON string literal (quoted, escaped).
using benchreport::append_json_string;
std::string json_string(std::string_view text);
// Shortest round-trip decimal of a finite double.
std::string json_number(double value);
// Builds a JSON object text from key → JSON text pairs.
std::string json_object(const Metadata& members);

// Last path component without extension(s) (".json", ".json.gz").
std::string file_stem(std::string_view name);

}  // namespace benchreport::io

#include "benchreport/core/json_writer.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "benchreport/core/escape.hpp"
#include "benchreport/core/parallel.hpp"

namespace benchreport {
namespace {

// C0, DEL and C1 controls (C1 found by fuzz_render: U+0082 was written raw),
// line/paragraph separators and bidi controls stay visible as \uXXXX.
bool needs_unicode_escape(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || is_bidi_control(cp);
}

void append_json_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  // The shortest round-trip form of a double has at most 24 characters
  // ("-2.2250738585072014e-308"); a compiled format into a plain pointer
  // avoids the per-character bounds checks of format_to_n.
  char buffer[32];
  char* const end = fmt::format_to(buffer, FMT_COMPILE("{}"), value);
  const std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  out += text;
  // Keep doubles doubles for readers that type by syntax ("1.0", "-0.0").
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

// Printable ASCII other than " and \ is copied as it is, a run at a time.
bool plain_ascii(char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

void append_escaped(std::string& out, std::string_view text) {
  // Most strings (keys, numbers as text, names) need no escape: one append.
  if (std::all_of(text.begin(), text.end(), plain_ascii)) {
    const std::size_t at = out.size();
    out.resize(at + text.size() + 2);
    char* const p = out.data() + at;
    p[0] = '"';
    std::memcpy(p + 1, text.data(), text.size());
    p[text.size() + 1] = '"';
    return;
  }
  out += '"';
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t run = pos;
    while (run < text.size() && plain_ascii(text[run])) ++run;
    out.append(text.substr(pos, run - pos));
    if (run == text.size()) break;
    pos = run;
    const CodePoint cp = decode_utf8(text, pos);
    switch (cp.value) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (needs_unicode_escape(cp.value)) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<std::uint32_t>(cp.value));
        } else if (cp.value == 0xFFFD) {
          append_utf8(out, cp.value);
        } else {
          out.append(text.substr(pos, cp.length));
        }
    }
    pos += cp.length;
  }
  out += '"';
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
    value_ = other.value_;  // null, bool, a number or a shared source: nothing to allocate
  }
}

Json& Json::operator=(const Json& other) {
  if (this != &other) {
    Json copy(other);
    value_ = std::move(copy.value_);
  }
  return *this;
}

bool operator==(const Json& a, const Json& b) {
  if (a.is_source()) return a.as_source().tree() == b;
  if (b.is_source()) return a == b.as_source().tree();
  return a.value_ == b.value_;
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

void JsonStream::newline() {
  if (options_.indent <= 0) return;
  out_ += '\n';
  out_.append(static_cast<std::size_t>(options_.indent) * open_.size(), ' ');
}

// The separator before a member of the innermost container: "," after the
// first, then a new line, or ", " while the container is on one line.
void JsonStream::separate_member() {
  Frame& frame = open_.back();
  if (frame.one_line) {
    if (!frame.empty) {
      out_ += ", ";
      member_starts_.push_back(handed_over_ + out_.size());
    }
    frame.empty = false;
    return;
  }
  if (!frame.empty) out_ += ',';
  frame.empty = false;
  newline();
}

// In an object the key() before a value has already separated it.
void JsonStream::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (open_.empty()) return;  // the top-level value
  separate_member();
}

// The innermost container gets a nested one, so its members so far move from
// one line to a line each: the ", " between them become ",\n" plus indent.
void JsonStream::break_innermost_line() {
  Frame& frame = open_.back();
  frame.one_line = false;
  if (frame.empty) return;
  const std::string pad = '\n' + std::string(static_cast<std::size_t>(options_.indent) * open_.size(), ' ');
  const std::size_t start = frame.start - handed_over_;
  std::string members;
  members.reserve(out_.size() - start + pad.size() * (member_starts_.size() + 1));
  std::size_t from = start;
  for (const std::size_t member_start : member_starts_) {
    const std::size_t next = member_start - handed_over_;
    members += pad;
    members.append(out_, from, next - 2 - from);  // the member, without its ", "
    members += ',';
    from = next;
  }
  members += pad;
  members.append(out_, from, std::string::npos);
  out_.replace(start, std::string::npos, members);
  member_starts_.clear();
}

// Everything before an innermost one-line container is final (only that one
// can still be re-laid out): hand it to the sink once the buffer is large.
void JsonStream::flush_final_text() {
  if (!sink_ || out_.size() < kFlushBytes) return;
  const std::size_t final_bytes =
      !open_.empty() && open_.back().one_line ? open_.back().start - handed_over_ : out_.size();
  if (final_bytes == 0) return;
  sink_(std::string_view(out_).substr(0, final_bytes));
  out_.erase(0, final_bytes);
  handed_over_ += final_bytes;
}

void JsonStream::finish() {
  if (!sink_ || out_.empty()) return;
  sink_(out_);
  handed_over_ += out_.size();
  out_.clear();
}

void JsonStream::begin(char bracket) {
  if (!open_.empty() && open_.back().one_line) break_innermost_line();
  flush_final_text();
  before_value();
  out_ += bracket;
  open_.push_back(Frame{handed_over_ + out_.size(), true, options_.indent > 0});
  member_starts_.clear();
}

void JsonStream::close(char bracket) {
  const Frame frame = open_.back();
  open_.pop_back();
  if (!frame.empty && !frame.one_line) newline();
  out_ += bracket;
}

void JsonStream::begin_object() { begin('{'); }

void JsonStream::end_object() { close('}'); }

void JsonStream::begin_array() { begin('['); }

void JsonStream::end_array() { close(']'); }

void JsonStream::key(std::string_view name) {
  separate_member();
  append_escaped(out_, name);
  out_ += options_.indent > 0 ? ": " : ":";
  after_key_ = true;
}

void JsonStream::value(std::nullptr_t) {
  before_value();
  out_ += "null";
}

void JsonStream::value(bool b) {
  before_value();
  out_ += b ? "true" : "false";
}

void JsonStream::value(std::int64_t v) {
  before_value();
  fmt::format_to(std::back_inserter(out_), FMT_COMPILE("{}"), v);
}

void JsonStream::value(double v) {
  before_value();
  append_json_number(out_, v);
}

void JsonStream::value(std::string_view text) {
  before_value();
  append_escaped(out_, text);
}

// Each member on a line of its own, as the first container in the array puts
// it; a worker's part starts at the same depth, after a member unless it holds
// the array's first.
void JsonStream::container_items(std::size_t n, const WriteItem& write) {
  const std::size_t tasks = (n + kItemsPerTask - 1) / kItemsPerTask;
  const unsigned workers = resolve_thread_count(options_.threads, tasks);
  if (workers <= 1) {
    for (std::size_t i = 0; i < n; ++i) write(*this, i);
    return;
  }
  if (open_.back().one_line) break_innermost_line();
  const bool array_empty = open_.back().empty;
  const JsonWriteOptions part_options{options_.indent, options_.sort_keys, 1};
  std::vector<std::string> parts(workers);  // one round: a run of kItemsPerTask members per worker
  for (std::size_t round = 0; round < n; round += kItemsPerTask * workers) {
    const std::size_t round_items = std::min(n - round, kItemsPerTask * workers);
    parallel_for_chunks(round_items, kItemsPerTask, workers, [&](std::size_t begin, std::size_t end, unsigned) {
      // Written into a string of the worker's own (its buffer reused): neighbouring
      // strings in `parts` share a cache line, which every append would bounce.
      std::string text;
      text.swap(parts[begin / kItemsPerTask]);
      text.clear();
      JsonStream part(text, part_options);
      part.open_.assign(open_.size(), Frame{0, false, false});
      part.open_.back().empty = array_empty && round + begin == 0;
      for (std::size_t i = round + begin; i < round + end; ++i) write(part, i);
      text.swap(parts[begin / kItemsPerTask]);
    });
    for (std::size_t p = 0; p * kItemsPerTask < round_items; ++p) {
      out_ += parts[p];
      flush_final_text();
    }
  }
  open_.back().empty = false;
}

void JsonStream::value(const Json& tree) {
  if (tree.is_source()) {
    // A source writes its members in their own order: sorted keys need the tree.
    if (options_.sort_keys)
      value(tree.as_source().tree());
    else
      tree.as_source().write(*this);
  } else if (tree.is_array()) {
    const Json::Array& items = tree.as_array();
    begin_array();
    if (std::all_of(items.begin(), items.end(), [](const Json& item) { return item.is_array() || item.is_object(); })) {
      container_items(items.size(), [&](JsonStream& part, std::size_t i) { part.value(items[i]); });
    } else {
      for (const Json& item : items) value(item);
    }
    end_array();
  } else if (tree.is_object()) {
    std::vector<const std::pair<std::string, Json>*> order;
    order.reserve(tree.as_object().size());
    for (const auto& member : tree.as_object()) order.push_back(&member);
    if (options_.sort_keys) {
      std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    }
    begin_object();
    for (const auto* member : order) {
      key(member->first);
      value(member->second);
    }
    end_object();
  } else if (tree.is_string()) {
    value(std::string_view(tree.as_string()));
  } else if (tree.is_double()) {
    value(tree.as_double());
  } else if (tree.is_integer()) {
    value(tree.as_integer());
  } else if (tree.is_bool()) {
    value(tree.as_bool());
  } else {
    value(nullptr);
  }
}

std::string to_json(const Json& value, const JsonWriteOptions& options) {
  std::string out;
  JsonStream(out, options).value(value);
  return out;
}

std::string json_number(double value) {
  std::string text;
  append_json_number(text, value);
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
  std::string out;
  append_escaped(out, text);
  return out;
}

}  // namespace benchreport

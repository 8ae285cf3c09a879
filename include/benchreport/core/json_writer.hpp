#pragma once
// A small JSON value tree and a deterministic writer: object keys keep their
// insertion order (or are sorted on request), doubles print in their shortest
// round-trip form, and NaN/±inf — which JSON cannot hold — print as null.
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace benchreport {

class Json;
class JsonStream;

// A value produced when it is written rather than held as a tree: a report's
// per-case payload is rendered from the comparison it describes (a tree of
// 10^5 cases held about 9 kB each). write() must give exactly what writing
// tree() gives, in every layout.
class JsonSource {
 public:
  virtual ~JsonSource() = default;
  virtual void write(JsonStream& out) const = 0;
  virtual Json tree() const = 0;
};

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;  // insertion order, unique keys

  Json() = default;            // null
  Json(std::nullptr_t) {}      // NOLINT: implicit null
  Json(bool b) : value_(b) {}  // NOLINT
  template <std::integral T>
  requires(!std::same_as<T, bool>) Json(T v) : value_(static_cast<std::int64_t>(v)) {}  // NOLINT
  Json(double d) : value_(d) {}                                                         // NOLINT
  Json(std::string s) : value_(std::move(s)) {}                                         // NOLINT
  Json(std::string_view s) : value_(std::string(s)) {}                                  // NOLINT
  Json(const char* s) : value_(std::string(s)) {}                                       // NOLINT
  Json(Array a) : value_(std::move(a)) {}                                               // NOLINT
  Json(Object o) : value_(std::move(o)) {}                                              // NOLINT
  explicit Json(std::shared_ptr<const JsonSource> source) : value_(std::move(source)) {}

  // Copies build the new value aside and then move it in, so a copy that runs
  // out of memory throws std::bad_alloc and leaves nothing half-built (the
  // defaulted variant copy crashed under ulimit -v with g++ 12: F6 of issue 17).
  Json(const Json& other);
  Json& operator=(const Json& other);
  Json(Json&&) noexcept = default;
  Json& operator=(Json&&) noexcept = default;
  ~Json() = default;

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(value_); }
  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  bool is_integer() const { return std::holds_alternative<std::int64_t>(value_); }
  bool is_double() const { return std::holds_alternative<double>(value_); }
  bool is_string() const { return std::holds_alternative<std::string>(value_); }
  bool is_array() const { return std::holds_alternative<Array>(value_); }
  bool is_object() const { return std::holds_alternative<Object>(value_); }
  bool is_source() const { return std::holds_alternative<std::shared_ptr<const JsonSource>>(value_); }

  bool as_bool() const { return std::get<bool>(value_); }
  std::int64_t as_integer() const { return std::get<std::int64_t>(value_); }
  double as_double() const { return std::get<double>(value_); }
  const std::string& as_string() const { return std::get<std::string>(value_); }
  const Array& as_array() const { return std::get<Array>(value_); }
  const Object& as_object() const { return std::get<Object>(value_); }
  const JsonSource& as_source() const { return *std::get<std::shared_ptr<const JsonSource>>(value_); }

  // Sets key (replacing an existing value in place); a null becomes an object.
  // Throws std::logic_error on a non-object.
  Json& set(std::string key, Json value);
  // Appends to an array; a null becomes an array. Throws std::logic_error otherwise.
  Json& push_back(Json value);
  // The value under key, or nullptr (also for non-objects).
  const Json* find(std::string_view key) const;

  // A source equals the tree it writes.
  friend bool operator==(const Json& a, const Json& b);

 private:
  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object,
               std::shared_ptr<const JsonSource>>
      value_{nullptr};
};

struct JsonWriteOptions {
  int indent = 0;          // 0: compact on one line; n: pretty, n spaces per level
  bool sort_keys = false;  // true: canonical form (keys in byte order), e.g. for hashing
  // Long arrays of containers are written on this many threads (0 = hardware
  // concurrency); the text is the same for any count.
  unsigned threads = 1;
};

std::string to_json(const Json& value, const JsonWriteOptions& options = {});

// Writes JSON straight into a string, container by container, in exactly the
// layout to_json gives a tree (to_json is built on it): large reports are
// written without building a tree first. Calls must nest properly: inside an
// object every value follows a key().
//
// Pretty layout (indent > 0): a container that holds only scalars stays on one
// line ({"text": "1.0 ms", "value": 0.001}, [1.0, 2.0]); any other puts each
// member on a line of its own. A container is written on one line until its
// first nested container begins, and is then re-laid out once; only the
// innermost open container can still be on one line.
//
// With a sink, the text is handed over in pieces of about kFlushBytes as soon
// as it can no longer change (all but an innermost one-line container), and
// the rest by finish(): a report of any size is written through a small buffer.
using JsonSink = std::function<void(std::string_view)>;

class JsonStream {
 public:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

  JsonStream(std::string& out, const JsonWriteOptions& options, JsonSink sink = {})
      : out_(out), options_(options), sink_(std::move(sink)) {}
  // Hands everything still buffered to the sink (nothing without one).
  void finish();

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);
  void value(std::nullptr_t);
  void value(bool b);
  void value(std::int64_t v);
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, std::int64_t>) void value(T v) {
    value(static_cast<std::int64_t>(v));
  }
  void value(double v);
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(const Json& tree);
  // Writes n members of the array just opened (or holding only containers so
  // far), member i by write(stream, i), which must write one container. With
  // options.threads != 1 and more than kItemsPerTask members, runs of them are
  // written on worker threads into buffers of their own and appended in order.
  using WriteItem = std::function<void(JsonStream&, std::size_t)>;
  static constexpr std::size_t kItemsPerTask = 512;
  void container_items(std::size_t n, const WriteItem& write);
  // key(name) then value(v).
  template <class T>
  void member(std::string_view name, const T& v) {
    key(name);
    value(v);
  }

 private:
  struct Frame {
    std::size_t start;  // offset in the whole text just after the opening bracket
    bool empty = true;  // nothing written in it yet
    bool one_line;      // still laid out on one line
  };

  void before_value();
  void separate_member();
  void begin(char bracket);
  void break_innermost_line();
  void newline();
  void close(char bracket);
  void flush_final_text();

  std::string& out_;
  JsonWriteOptions options_;
  JsonSink sink_;
  std::size_t handed_over_ = 0;             // bytes already given to the sink: out_ holds the text after them
  std::vector<Frame> open_;                 // the open containers, outermost first
  std::vector<std::size_t> member_starts_;  // innermost one-line container: offset of each member after the first
  bool after_key_ = false;
};

// Shortest decimal that reads back to the same double ("0.1", "1e+21"), with
// ".0" added to integral values ("1.0", "-0.0") so they stay doubles for
// readers that type by syntax; NaN and ±inf give "null".
std::string json_number(double value);

// A quoted JSON string: invalid UTF-8 -> U+FFFD; " \ and control characters
// escaped; U+2028/2029 and bidi controls as \uXXXX so they stay visible.
std::string json_string(std::string_view text);

// Appends `text` as a JSON string the way Python's json.dumps(ensure_ascii=False)
// writes it (\b \f \n \r \t short escapes, other controls as \u00XX), with
// invalid UTF-8 replaced by U+FFFD. Readers re-serialise metadata with it and
// parameter fingerprints hash its output, so both must agree with Python.
void append_json_string(std::string& out, std::string_view text);

}  // namespace benchreport

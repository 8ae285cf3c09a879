// JSON navigation shared by the JSON readers: on-demand parsing with simdjson,
// and messages that name the file, line and JSON path.
#include <fmt/format.h>

#include <algorithm>
#include <new>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "data/json_memory.hpp"
#include "reader.hpp"

namespace benchreport::io {

std::string JsonPath::str() const {
  std::vector<const JsonPath*> chain;
  for (const JsonPath* p = this; p != nullptr && p->parent != nullptr; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->index != kNoIndex) {
      out += fmt::format("[{}]", (*it)->index);
    } else {
      if (!out.empty()) out += '.';
      out += (*it)->key;
    }
  }
  return out.empty() ? std::string("(top level)") : out;
}

void fail_unterminated_last_line(std::string_view name, std::size_t line) {
  fail_at_line(name, line,
               "the last line has no line break, so it may be cut short (a truncated file); "
               "if the file is complete, end it with a newline");
}

void fail_at_line(std::string_view name, std::size_t line, std::string_view message) {
  throw InputError(fmt::format("{}:{}: {}", name, line, message));
}

namespace {

// The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view t) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > start;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.' && (++i, !digits())) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

// A number literal with a nonzero digit before its exponent (1e-400), which a
// parse that gave 0 has underflowed: beyond the range of a double, as 1e400 is.
bool nonzero_literal(std::string_view t) {
  for (const char c : t) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return true;
  }
  return false;
}

// A scalar's text in the input without the whitespace simdjson includes after it (not consumed).
std::string_view scalar_token(od::value& value) {
  std::string_view token = value.raw_json_token();
  while (!token.empty() &&
         (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' || token.back() == '\r')) {
    token.remove_suffix(1);
  }
  return token;
}

// What the value actually is, for "expected X, found Y" messages.
std::string found(od::value& value) {
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return "invalid JSON";
  return std::string(type_name(type));
}

}  // namespace

std::string_view type_name(od::json_type type) {
  switch (type) {
    case od::json_type::array: return "an array";
    case od::json_type::object: return "an object";
    case od::json_type::number: return "a number";
    case od::json_type::string: return "a string";
    case od::json_type::boolean: return "a boolean";
    case od::json_type::null: return "null";
  }
  return "an unknown value";
}

JsonInput::JsonInput(const Source& source) : source_(source) {
  if (source.bytes.size() > source.options.max_file_size) {
    throw InputError(
        fmt::format("{}: {} bytes exceeds the input size limit of {} bytes (raise ReadOptions::max_file_size)",
                    source.name, source.bytes.size(), source.options.max_file_size));
  }
  shape_ = scan_json(source.bytes, source.options.max_depth, source.name);
  if (source.padded) {
    text_ = simdjson::padded_string_view(source.bytes.data(), source.bytes.size(),
                                         source.bytes.size() + simdjson::SIMDJSON_PADDING);
  } else {
    copy_ = padded_copy(source.bytes);
    text_ = copy_;
  }
  const auto error = parser_.allocate(std::max<std::size_t>(text_.size(), 64), source.options.max_depth);
  throw_if_out_of_memory(error);
  if (error != simdjson::SUCCESS) throw InputError(fmt::format("{}: {}", source.name, simdjson::error_message(error)));
  const auto parse_error = parser_.iterate(text_).get(document_);
  throw_if_out_of_memory(parse_error);
  if (parse_error == simdjson::DEPTH_ERROR) {
    throw InputError(fmt::format("{}: JSON nesting deeper than the limit of {} levels (raise ReadOptions::max_depth)",
                                 source.name, source.options.max_depth));
  }
  if (parse_error != simdjson::SUCCESS) {
    throw InputError(fmt::format("{}: not valid JSON ({})", source.name, simdjson::error_message(parse_error)));
  }
}

std::string JsonInput::location() {
  const char* at = nullptr;
  if (document_.current_location().get(at) != simdjson::SUCCESS || at == nullptr) return {};
  const char* begin = text_.data();
  if (at < begin || at > begin + text_.size()) return {};
  const auto line = 1 + std::count(begin, at, '\n');
  return fmt::format(":{}", line);
}

void JsonInput::fail(const JsonPath& path, std::string_view what) {
  throw InputError(fmt::format("{}{}: {}: {}", source_.name, location(), path.str(), what));
}

void JsonInput::check(simdjson::error_code error, const JsonPath& path, std::string_view expected) {
  if (error == simdjson::SUCCESS) return;
  throw_if_out_of_memory(error);
  if (error == simdjson::DEPTH_ERROR) {
    fail(path, fmt::format("JSON nesting deeper than the limit of {} levels (raise ReadOptions::max_depth)",
                           source_.options.max_depth));
  }
  fail(path, fmt::format("expected {} ({})", expected, simdjson::error_message(error)));
}

od::value JsonInput::root() {
  od::value value;
  check(document_.get_value().get(value), JsonPath{}, "a JSON object or array");
  return value;
}

od::object JsonInput::root_object() {
  od::value value = root();
  return object(value, JsonPath{});
}

od::object JsonInput::object(od::value& value, const JsonPath& path) {
  od::object out;
  if (value.get_object().get(out) != simdjson::SUCCESS)
    fail(path, fmt::format("expected an object, found {}", found(value)));
  return out;
}

od::array JsonInput::array(od::value& value, const JsonPath& path) {
  od::array out;
  if (value.get_array().get(out) != simdjson::SUCCESS)
    fail(path, fmt::format("expected an array, found {}", found(value)));
  return out;
}

double JsonInput::number(od::value& value, const JsonPath& path) {
  double out = 0;
  const auto error = value.get_double().get(out);
  if (error == simdjson::INCORRECT_TYPE) fail(path, fmt::format("expected a number, found {}", found(value)));
  if (error == simdjson::NUMBER_ERROR) {
    const std::string_view token = scalar_token(value);
    if (is_json_number(token)) fail(path, fmt::format("{} is beyond the range of a double", token.substr(0, 32)));
  }
  check(error, path, "a number");
  if (out == 0) refuse_underflow(value, path);
  return out;
}

void JsonInput::refuse_underflow(od::value& value, const JsonPath& path) {
  const std::string_view token = scalar_token(value);
  if (nonzero_literal(token)) fail(path, fmt::format("{} is beyond the range of a double", token.substr(0, 32)));
}

std::int64_t JsonInput::integer(od::value& value, const JsonPath& path) {
  std::int64_t out = 0;
  const auto error = value.get_int64().get(out);
  if (error == simdjson::INCORRECT_TYPE) fail(path, fmt::format("expected an integer, found {}", found(value)));
  check(error, path, "an integer");
  return out;
}

std::string_view JsonInput::string(od::value& value, const JsonPath& path) {
  std::string_view out;
  // Most strings hold no escape: then they are views into the document, left
  // unconsumed (on-demand iteration skips them) instead of copied out.
  const std::string_view token = value.raw_json_token();
  if (!token.empty() && token.front() == '"' && unescaped_in_place(token.data() + 1, out)) return out;
  const auto error = value.get_string().get(out);
  if (error == simdjson::INCORRECT_TYPE) fail(path, fmt::format("expected a string, found {}", found(value)));
  check(error, path, "a string");
  return out;
}

bool JsonInput::boolean(od::value& value, const JsonPath& path) {
  bool out = false;
  const auto error = value.get_bool().get(out);
  if (error == simdjson::INCORRECT_TYPE) fail(path, fmt::format("expected true or false, found {}", found(value)));
  check(error, path, "true or false");
  return out;
}

bool JsonInput::is_null(od::value& value) {
  bool out = false;
  return value.is_null().get(out) == simdjson::SUCCESS && out;
}

std::string JsonInput::raw_object(od::value& value, const JsonPath& path) {
  od::json_type type = od::json_type::null;
  check(value.type().get(type), path, "an object");
  if (type != od::json_type::object) fail(path, fmt::format("expected an object, found {}", type_name(type)));
  return raw(value, path);
}

std::string JsonInput::raw(od::value& value, const JsonPath& path) { return compact_json(raw_view(value, path)); }

std::string compact_json(std::string_view raw_text) {
  // Only containers can hold whitespace between tokens.
  const bool container = !raw_text.empty() && (raw_text.front() == '{' || raw_text.front() == '[');
  return container ? minify_json(raw_text) : std::string(raw_text);
}

std::string_view JsonInput::raw_view(od::value& value, const JsonPath& path) {
  od::json_type type = od::json_type::null;
  check(value.type().get(type), path, "a JSON value");
  if (type == od::json_type::object || type == od::json_type::array) {
    std::string_view text;
    check(simdjson::to_json_string(value).get(text), path, "a JSON value");
    // Skipped containers are only bracket-counted by on-demand parsing: check them in full.
    if (validator_.max_depth() != source_.options.max_depth) {
      check(validator_.allocate(std::max<std::size_t>(text.size(), 64), source_.options.max_depth), path,
            "a JSON value");
    }
    simdjson::dom::element element;
    const auto error = validator_.parse(text.data(), text.size()).get(element);
    throw_if_out_of_memory(error);
    if (error == simdjson::NUMBER_ERROR) {
      fail(path,
           "unsupported JSON value: an object or array holding a malformed number or one beyond the range of a double");
    }
    if (error != simdjson::SUCCESS)
      fail(path, fmt::format("malformed JSON value ({})", simdjson::error_message(error)));
    return text;
  }
  // A scalar's token (read before the typed parse consumes it), checked by parsing it as its type.
  const std::string_view text = scalar_token(value);
  simdjson::error_code error = simdjson::SUCCESS;
  switch (type) {
    case od::json_type::number: {
      // The DOM check of containers refuses integers beyond 64 bits and numbers beyond a
      // double; a number kept alone follows the same rule, so what one reads back the other accepts.
      const bool integer = text.find_first_of(".eE") == std::string_view::npos;
      if (integer) {
        error = text.front() == '-' ? value.get_int64().error() : value.get_uint64().error();
      } else {
        error = value.get_double().error();
      }
      if (error != simdjson::SUCCESS && is_json_number(text)) {
        fail(path, fmt::format("{} is beyond the range of a {} (not supported)", text.substr(0, 32),
                               integer ? "64-bit integer" : "double"));
      }
      break;
    }
    case od::json_type::string: error = value.get_string().error(); break;
    case od::json_type::boolean: error = value.get_bool().error(); break;
    default: {
      bool null = false;
      error = value.is_null().get(null);
      if (error == simdjson::SUCCESS && !null) error = simdjson::N_ATOM_ERROR;
    }
  }
  if (error != simdjson::SUCCESS) {
    fail(path,
         fmt::format("malformed JSON value {} ({})", json_string(text.substr(0, 32)), simdjson::error_message(error)));
  }
  return text;
}

void JsonInput::numbers(od::value& value, const JsonPath& path, std::vector<double>& out) {
  od::array items = array(value, path);
  std::size_t i = 0;
  for (auto element : items) {
    double x = 0;
    od::value v;
    const auto got = element.get(v);
    const auto error = got != simdjson::SUCCESS ? got : v.get_double().get(x);
    if (error != simdjson::SUCCESS) {
      const JsonPath child = path.at(i);
      if (got == simdjson::SUCCESS && error == simdjson::INCORRECT_TYPE) {
        fail(child, fmt::format("expected a number, found {}", found(v)));
      }
      check(error, child, "a number");
    }
    if (x == 0) refuse_underflow(v, path.at(i));
    out.push_back(x);
    ++i;
  }
  count_samples(i, path);
}

void JsonInput::count_samples(std::size_t n, const JsonPath& path) {
  samples_ += n;
  if (samples_ > source_.options.max_samples) {
    fail(path,
         fmt::format("more than {} samples in one file (raise ReadOptions::max_samples)", source_.options.max_samples));
  }
}

void JsonInput::finish() {
  // After the root value is consumed, a location exists only if content follows.
  const char* at = nullptr;
  if (document_.current_location().get(at) == simdjson::SUCCESS) {
    fail(JsonPath{}, "unexpected content after the end of the JSON document");
  }
}

std::string minify_json(std::string_view json) {
  std::string out(json.size(), '\0');
  std::size_t length = 0;
  if (simdjson::minify(json.data(), json.size(), out.data(), length) != simdjson::SUCCESS) return std::string(json);
  out.resize(length);
  return out;
}

std::string json_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

std::string json_number(double value) { return fmt::format("{}", value); }

std::string json_object(const Metadata& members) {
  std::string out = "{";
  for (const auto& [key, json] : members) {
    if (out.size() > 1) out += ',';
    append_json_string(out, key);
    out += ':';
    out += json;
  }
  out += '}';
  return out;
}

std::string file_stem(std::string_view name) {
  const auto slash = name.find_last_of("/\\");
  std::string_view base = slash == std::string_view::npos ? name : name.substr(slash + 1);
  for (std::string_view ext : {".gz", ".json", ".jsonl", ".txt", ".csv", ".log"}) {
    if (base.size() > ext.size() && base.ends_with(ext)) base.remove_suffix(ext.size());
  }
  return std::string(base);
}

}  // namespace benchreport::io

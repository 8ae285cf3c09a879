#pragma once
// Visitors of a result's field list (report/case_fields.hpp, the history and other presets'
// rows): one list builds both the JSON `data` rows and the columnar view. A visitor has
//   field(name, value)             a scalar: double, std::size_t, bool or std::string;
//   optional(name, present, value) a double that is null (JSON) / NaN (columns) when absent;
//   list(name, values)             numbers per process: JSON only (not a scalar column);
//   estimate(name, value, bounds)  JSON {value, lower, upper, achieved_misrate}; columns
//                                  name, name_lower, name_upper, name_achieved_misrate;
//   begin_group(name) / end_group  a nested JSON object; columns take its fields unprefixed;
//   begin_group(name, prefixed, present)  the same; columns name its fields "<name>_<field>" when
//                                  prefixed; JSON leaves it out when not present (columns keep it);
//   field_if(present, name, value) a scalar JSON writes only when present (columns always);
//   json(name, value)              a JSON value with no column (lists of objects);
//   texts(name, values)            strings (warnings): JSON only;
//   section(value)                 the row's section: a column, in JSON the parent's field.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "benchreport/core/columns.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/stats/hodges_lehmann.hpp"

namespace benchreport {

// Builds one JSON object (nested groups included) from a field list.
class JsonFields {
 public:
  JsonFields() { stack_.emplace_back(); }
  template <class T>
  void field(const char* name, T value) {
    if constexpr (std::is_same_v<T, std::size_t>) {
      add(name, Json(static_cast<std::int64_t>(value)));
    } else {
      add(name, Json(std::move(value)));
    }
  }
  void optional(const char* name, bool present, double value) { add(name, present ? Json(value) : Json()); }
  void list(const char* name, const std::vector<double>& values) {
    Json a = Json::array();
    for (const double x : values) a.push_back(x);
    add(name, std::move(a));
  }
  void estimate(const char* name, double value, const Bounds& b) {
    add(name, Json(Json::Object{
                  {"value", value}, {"lower", b.lower}, {"upper", b.upper}, {"achieved_misrate", b.achieved_misrate}}));
  }
  void begin_group(const char* name, bool /*prefixed*/ = false, bool present = true) {
    names_.emplace_back(name);
    present_.push_back(present);
    stack_.emplace_back();
  }
  void end_group() {
    Json::Object group = std::move(stack_.back());
    stack_.pop_back();
    if (present_.back()) add(names_.back().c_str(), Json(std::move(group)));
    names_.pop_back();
    present_.pop_back();
  }
  template <class T>
  void field_if(bool present, const char* name, T value) {
    if (present) field(name, std::move(value));
  }
  void json(const char* name, Json value) { add(name, std::move(value)); }
  void texts(const char* name, const std::vector<std::string>& values) {
    Json a = Json::array();
    for (const auto& text : values) a.push_back(text);
    add(name, std::move(a));
  }
  void section(const std::string& /*value*/) {}
  void add(const char* name, Json value) { stack_.back().emplace_back(name, std::move(value)); }
  Json::Object take() { return std::move(stack_.front()); }

 private:
  std::vector<Json::Object> stack_;
  std::vector<std::string> names_;
  std::vector<bool> present_;
};

// Writes one JSON object (nested groups included) from a field list straight into a stream:
// the same text JsonFields' tree gives, without the tree.
class StreamFields {
 public:
  explicit StreamFields(JsonStream& out) : out_(out) {}
  template <class T>
  void field(const char* name, const T& value) {
    if (hidden_ > 0) return;
    if constexpr (std::is_same_v<T, std::string>) {
      out_.member(name, std::string_view(value));
    } else {
      out_.member(name, value);
    }
  }
  void optional(const char* name, bool present, double value) {
    if (hidden_ > 0) return;
    out_.key(name);
    if (present)
      out_.value(value);
    else
      out_.value(nullptr);
  }
  void list(const char* name, const std::vector<double>& values) {
    if (hidden_ > 0) return;
    out_.key(name);
    out_.begin_array();
    for (const double x : values) out_.value(x);
    out_.end_array();
  }
  void estimate(const char* name, double value, const Bounds& b) {
    if (hidden_ > 0) return;
    out_.key(name);
    out_.begin_object();
    out_.member("value", value);
    out_.member("lower", b.lower);
    out_.member("upper", b.upper);
    out_.member("achieved_misrate", b.achieved_misrate);
    out_.end_object();
  }
  // A group not present is left out with everything in it (JsonFields drops it the same way).
  void begin_group(const char* name, bool /*prefixed*/ = false, bool present = true) {
    groups_.push_back(hidden_ > 0 || !present);
    if (groups_.back()) {
      ++hidden_;
      return;
    }
    out_.key(name);
    out_.begin_object();
  }
  void end_group() {
    if (groups_.back())
      --hidden_;
    else
      out_.end_object();
    groups_.pop_back();
  }
  template <class T>
  void field_if(bool present, const char* name, const T& value) {
    if (present) field(name, value);
  }
  void json(const char* name, const Json& value) { field(name, value); }
  void texts(const char* name, const std::vector<std::string>& values) {
    if (hidden_ > 0) return;
    out_.key(name);
    out_.begin_array();
    for (const auto& text : values) out_.value(std::string_view(text));
    out_.end_array();
  }
  void section(const std::string& /*value*/) {}

 private:
  JsonStream& out_;
  std::vector<bool> groups_;  // per open group: hidden
  int hidden_ = 0;            // open groups left out
};

// Appends one row to a Columns from a field list (lists skipped, groups flattened, prefixed
// groups' fields named "<group>_<field>").
class ColumnFields {
 public:
  explicit ColumnFields(Columns& out) : out_(out) {}
  void field(const char* name, double value) { out_.add(named(name), value); }
  void field(const char* name, std::size_t value) { out_.add(named(name), value); }
  void field(const char* name, bool value) { out_.add(named(name), value); }
  void field(const char* name, std::string value) { out_.add(named(name), std::move(value)); }
  template <class T>
  void field_if(bool /*present*/, const char* name, T value) {
    field(name, std::move(value));
  }
  void optional(const char* name, bool present, double value) { field(name, present ? value : std::nan("")); }
  void list(const char* /*name*/, const std::vector<double>& /*values*/) {}
  void json(const char* /*name*/, const Json& /*value*/) {}
  void estimate(const char* name, double value, const Bounds& b) {
    const std::string n = named(name);
    out_.add(n, value);
    out_.add(n + "_lower", b.lower);
    out_.add(n + "_upper", b.upper);
    out_.add(n + "_achieved_misrate", b.achieved_misrate);
  }
  void begin_group(const char* name, bool prefixed = false, bool /*present*/ = true) {
    prefixes_.push_back(prefixed ? named(name) + "_" : prefix());
  }
  void end_group() { prefixes_.pop_back(); }
  void texts(const char* /*name*/, const std::vector<std::string>& /*values*/) {}
  void section(const std::string& value) { out_.add("section", value); }

 private:
  std::string prefix() const { return prefixes_.empty() ? std::string() : prefixes_.back(); }
  std::string named(const char* name) const { return prefix() + name; }

  Columns& out_;
  std::vector<std::string> prefixes_;
};

}  // namespace benchreport

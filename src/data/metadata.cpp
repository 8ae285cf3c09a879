#include "benchreport/data/metadata.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include "benchreport/core/error.hpp"
#include "data/json_memory.hpp"

namespace benchreport::metadata {
namespace {

Json convert(simdjson::dom::element element) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::OBJECT: {
      Json out = Json::object();
      const simdjson::dom::object object(element);
      for (auto field : object) out.set(std::string(field.key), convert(field.value));
      return out;
    }
    case element_type::ARRAY: {
      Json out = Json::array();
      const simdjson::dom::array array(element);
      for (auto item : array) out.push_back(convert(item));
      return out;
    }
    case element_type::STRING: return Json(std::string_view(element));
    case element_type::INT64: return Json(std::int64_t(element));
    case element_type::UINT64: return Json(double(std::uint64_t(element)));
    case element_type::DOUBLE: return Json(double(element));
    case element_type::BOOL: return Json(bool(element));
    case element_type::NULL_VALUE: return Json();
  }
  return Json();
}

}  // namespace

Json parse_json(std::string_view text, std::string_view what) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded = padded_copy(text);
  simdjson::dom::element root;
  if (const auto error = parser.parse(padded).get(root)) {
    throw_if_out_of_memory(error);
    throw InputError(fmt::format("{}: invalid JSON metadata ({})", what, simdjson::error_message(error)));
  }
  return convert(root);
}

const Json* find_deep(const Json& root, std::string_view key) {
  if (root.is_object()) {
    if (const Json* direct = root.find(key)) return direct;
    for (const auto& [name, value] : root.as_object()) {
      if (const Json* nested = find_deep(value, key)) return nested;
    }
  }
  return nullptr;
}

std::string display_text(const Json& value) {
  if (value.is_string()) return value.as_string();
  return to_json(value);
}

Json run_metadata(const Dataset& dataset, std::size_t set) {
  const auto id = dataset.run_id(set);
  if (id.empty()) return Json::object();
  const Run* run = dataset.find_run(id);
  if (run == nullptr) return Json::object();
  return parse_json(run->metadata_json, fmt::format("run \"{}\"", id));
}

std::optional<std::string> set_metadata_text(const Dataset& dataset, std::size_t set, std::string_view key) {
  for (const auto& [name, text] : dataset.set_metadata(set)) {
    if (name == key) return text;
  }
  return std::nullopt;
}

std::optional<double> set_metadata_number(const Dataset& dataset, std::size_t set, std::string_view key) {
  const auto text = set_metadata_text(dataset, set, key);
  if (!text) return std::nullopt;
  const Json value = parse_json(*text, fmt::format("metadata \"{}\" of {}", key, format_labels(dataset.labels(set))));
  if (value.is_integer()) return static_cast<double>(value.as_integer());
  if (value.is_double()) return value.as_double();
  return std::nullopt;
}

std::optional<std::string> set_metadata_display(const Dataset& dataset, std::size_t set, std::string_view key) {
  const auto text = set_metadata_text(dataset, set, key);
  if (!text) return std::nullopt;
  return display_text(parse_json(*text, fmt::format("metadata \"{}\" of {}", key, format_labels(dataset.labels(set)))));
}

}  // namespace benchreport::metadata

#include "benchreport/store/stored_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <simdjson.h>

#include "benchreport/core/error.hpp"
#include "benchreport/data/label_roles.hpp"

namespace benchreport::store {
namespace {

std::string json_text(simdjson::ondemand::value value, std::string_view where) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) throw InputError(fmt::format("{}: expected a string", where));
  return std::string(text);
}

}  // namespace

// A stored labels object, less the labels the store adds itself.
Labels parse_stored_labels(std::string_view text, std::string_view where) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(text);
  Labels out;
  simdjson::ondemand::document document;
  simdjson::ondemand::object object;
  if (parser.iterate(json).get(document) != simdjson::SUCCESS ||
      document.get_object().get(object) != simdjson::SUCCESS) {
    throw InputError(fmt::format("{}: labels {} are not a JSON object", where, text));
  }
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key) != simdjson::SUCCESS) throw InputError(fmt::format("{}: bad labels", where));
    if (std::find(kStoreLabels.begin(), kStoreLabels.end(), key) != kStoreLabels.end()) continue;
    out.emplace_back(std::string(key), json_text(field.value(), where));
  }
  return out;
}

// A JSON list of strings, each element checked to be one.
std::vector<std::string> parse_stored_strings(std::string_view text, std::string_view where) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(text);
  std::vector<std::string> out;
  simdjson::ondemand::document document;
  simdjson::ondemand::array array;
  if (parser.iterate(json).get(document) != simdjson::SUCCESS || document.get_array().get(array) != simdjson::SUCCESS) {
    throw InputError(fmt::format("{}: {} is not a JSON list", where, text));
  }
  for (auto item : array) {
    simdjson::ondemand::array pair;
    if (item.get_array().get(pair) == simdjson::SUCCESS) {
      for (auto part : pair) out.push_back(json_text(part.value(), where));
    } else {
      out.push_back(json_text(item.value(), where));
    }
  }
  return out;
}

Metadata parse_stored_metadata(std::string_view text, std::string_view where) {
  const std::vector<std::string> flat = parse_stored_strings(text, where);
  Metadata out;
  for (std::size_t i = 0; i + 1 < flat.size(); i += 2) out.emplace_back(flat[i], flat[i + 1]);
  return out;
}

}  // namespace benchreport::store

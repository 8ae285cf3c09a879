#include "benchreport/store/run_context.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "benchreport/core/python_text.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/store/run_rows.hpp"

namespace benchreport::store {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// Tool-context keys that change from launch to launch without describing the machine or build
// (dates, load, durations, temporary paths, ids): left out of the environment so that it names
// what a run ran on, and equal set-ups share one environment row.
const std::set<std::string, std::less<>> kVolatileKeys{
    "date",        "startedAt",     "durationMs",  "duration",         "load_avg",   "load_avg_1min",
    "uptime",      "boot_time",     "runId",       "commitSha",        "commit_id",  "commit",
    "commit_date", "commit_branch", "mem_max_rss", "runnable_threads", "executable", "timestamp",
    "time"};

// One parsed run metadata document (kept alive with its parser: elements point into it).
struct Document {
  std::unique_ptr<simdjson::dom::parser> parser = std::make_unique<simdjson::dom::parser>();
  element root;
};

Document parse(const Run& run) {
  Document doc;
  if (doc.parser->parse(run.metadata_json).get(doc.root) != simdjson::SUCCESS) {
    throw InputError(fmt::format("{}: run metadata is not JSON this build reads: {}", run.id, run.metadata_json));
  }
  return doc;
}

simdjson::dom::object as_object(element value) {
  simdjson::dom::object out;
  if (value.get_object().get(out) != simdjson::SUCCESS) throw InputError("run metadata: expected a JSON object");
  return out;
}

simdjson::dom::array as_array(element value) {
  simdjson::dom::array out;
  if (value.get_array().get(out) != simdjson::SUCCESS) throw InputError("run metadata: expected a JSON list");
  return out;
}

// An object's fields as a Python dict holds them: a repeated key keeps its first place and last value.
std::vector<std::pair<std::string_view, element>> fields(element object) {
  std::vector<std::pair<std::string_view, element>> out;
  const simdjson::dom::object fields_of = as_object(object);
  for (auto [key, value] : fields_of) {
    // Clang before 16 cannot capture a structured binding in a lambda (the fuzz build): capture a copy.
    auto at = std::find_if(out.begin(), out.end(), [&, name = key](const auto& f) { return f.first == name; });
    if (at == out.end()) {
      out.emplace_back(key, value);
    } else {
      at->second = value;
    }
  }
  return out;
}

std::string strip(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return std::string(text);
}

// str() of a string, integer or boolean, as Python prints it; none for other kinds.
std::optional<std::string> scalar_text(element value) {
  switch (value.type()) {
    case element_type::STRING: return std::string(value.get_string().value_unsafe());
    case element_type::INT64: return std::to_string(value.get_int64().value_unsafe());
    case element_type::UINT64: return std::to_string(value.get_uint64().value_unsafe());
    case element_type::BOOL: return value.get_bool().value_unsafe() ? "True" : "False";
    default: return std::nullopt;
  }
}

// The first of `keys` in nested metadata, shallowest level first.
std::optional<std::string> find_key(element root, std::span<const std::string_view> keys) {
  std::vector<element> level{root};
  while (!level.empty()) {
    for (std::string_view key : keys) {
      for (element node : level) {
        if (node.type() != element_type::OBJECT) continue;
        for (const auto& [name, value] : fields(node)) {
          if (name != key) continue;
          if (auto text = scalar_text(value); text && !strip(*text).empty()) return strip(*text);
        }
      }
    }
    std::vector<element> next;
    for (element node : level) {
      if (node.type() == element_type::OBJECT) {
        for (const auto& field : fields(node)) next.push_back(field.second);
      } else if (node.type() == element_type::ARRAY) {
        const simdjson::dom::array items = as_array(node);
        for (element item : items) next.push_back(item);
      }
    }
    level = std::move(next);
  }
  return std::nullopt;
}

bool is_number(element value) {
  const auto type = value.type();
  return type == element_type::INT64 || type == element_type::UINT64 || type == element_type::DOUBLE ||
         type == element_type::BOOL;
}

// A number as Python compares it (True == 1 == 1.0); exact for integers up to 2^53.
long double number(element value) {
  switch (value.type()) {
    case element_type::INT64: return static_cast<long double>(value.get_int64().value_unsafe());
    case element_type::UINT64: return static_cast<long double>(value.get_uint64().value_unsafe());
    case element_type::BOOL: return value.get_bool().value_unsafe() ? 1 : 0;
    default: return value.get_double().value_unsafe();
  }
}

// Python's == of two parsed JSON values.
bool equal(element a, element b) {
  if (is_number(a) && is_number(b)) return number(a) == number(b);
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case element_type::STRING: return a.get_string().value_unsafe() == b.get_string().value_unsafe();
    case element_type::NULL_VALUE: return true;
    case element_type::ARRAY: {
      const simdjson::dom::array xs = as_array(a);
      const simdjson::dom::array ys = as_array(b);
      const std::vector<element> x(xs.begin(), xs.end());
      const std::vector<element> y(ys.begin(), ys.end());
      return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), equal);
    }
    default: {
      const auto x = fields(a);
      const auto y = fields(b);
      return x.size() == y.size() && std::all_of(x.begin(), x.end(), [&](const auto& f) {
               return std::any_of(y.begin(), y.end(),
                                  [&](const auto& g) { return f.first == g.first && equal(f.second, g.second); });
             });
    }
  }
}

// A leaf of flattened metadata: a scalar or list, or an object left empty once volatile keys are gone.
struct Leaf {
  std::optional<element> value;  // none: an empty object
};

bool equal(const Leaf& a, const Leaf& b) {
  if (!a.value || !b.value) return !a.value && !b.value;
  return equal(*a.value, *b.value);
}

// Dotted key -> leaf, in first-seen order, indexed: a context of 10^4 keys in a few files stays linear.
struct Flat {
  std::vector<std::pair<std::string, Leaf>> leaves;
  std::unordered_map<std::string, std::size_t> index;

  const Leaf* find(const std::string& key) const {
    const auto at = index.find(key);
    return at == index.end() ? nullptr : &leaves[at->second].second;
  }
};

void put(Flat& flat, std::string key, Leaf leaf) {
  const auto [at, added] = flat.index.emplace(key, flat.leaves.size());
  if (added) {
    flat.leaves.emplace_back(std::move(key), leaf);
  } else {
    flat.leaves[at->second].second = leaf;
  }
}

// Nested objects as dotted keys, volatile keys left out at every object level.
void flatten(element value, const std::string& prefix, Flat& out) {
  if (value.type() == element_type::OBJECT) {
    bool any = false;
    for (const auto& [key, item] : fields(value)) {
      if (kVolatileKeys.contains(key)) continue;
      any = true;
      flatten(item, prefix.empty() ? std::string(key) : prefix + "." + std::string(key), out);
    }
    if (!any && !prefix.empty()) put(out, prefix, Leaf{});
  } else if (!prefix.empty()) {
    put(out, prefix, Leaf{value});
  }
}

void write(std::string& out, element value);

void write_object(std::string& out, const std::vector<std::pair<std::string_view, element>>& items) {
  std::vector<std::pair<std::string_view, element>> sorted = items;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out += '{';
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    out += (i ? "," : "") + python_json_string(sorted[i].first) + ':';
    write(out, sorted[i].second);
  }
  out += '}';
}

// A value as Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False) writes it.
void write(std::string& out, element value) {
  switch (value.type()) {
    case element_type::OBJECT: write_object(out, fields(value)); break;
    case element_type::ARRAY: {
      out += '[';
      bool first = true;
      const simdjson::dom::array items = as_array(value);
      for (element item : items) {
        out += first ? "" : ",";
        first = false;
        write(out, item);
      }
      out += ']';
      break;
    }
    case element_type::STRING: out += python_json_string(value.get_string().value_unsafe()); break;
    case element_type::DOUBLE: out += json_float(value.get_double().value_unsafe()); break;
    case element_type::BOOL: out += value.get_bool().value_unsafe() ? "true" : "false"; break;
    case element_type::NULL_VALUE: out += "null"; break;
    default: out += *scalar_text(value);
  }
}

// Dotted keys nested again (a later key replaces what an earlier one put on its path).
struct Node {
  std::optional<Leaf> leaf;
  std::map<std::string, Node> children;  // sorted: code point order, as sort_keys
};

void write(std::string& out, const Node& node) {
  if (node.leaf) {
    if (node.leaf->value) {
      write(out, *node.leaf->value);
    } else {
      out += "{}";
    }
    return;
  }
  out += '{';
  bool first = true;
  for (const auto& [key, child] : node.children) {
    out += (first ? "" : ",") + python_json_string(key) + ':';
    first = false;
    write(out, child);
  }
  out += '}';
}

std::string write_strings(const Labels& pairs) {
  std::map<std::string, std::string> sorted;
  for (const auto& [key, value] : pairs) sorted[key] = value;
  std::string out = "{";
  for (const auto& [key, value] : sorted)
    out += (out.size() > 1 ? "," : "") + python_json_string(key) + ':' + python_json_string(value);
  return out + '}';
}

std::string tool_context(const Dataset& dataset) {
  std::vector<Flat> flats;
  std::vector<Document> documents;
  for (const Run& run : dataset.runs()) {
    documents.push_back(parse(run));
    flatten(documents.back().root, "", flats.emplace_back());
  }
  Node root;
  if (flats.empty()) return "{}";
  for (const auto& [key, leaf] : flats[0].leaves) {
    const bool common = std::all_of(flats.begin() + 1, flats.end(), [&name = key, &value = leaf](const Flat& other) {
      const Leaf* found = other.find(name);
      return found != nullptr && equal(*found, value);
    });
    if (!common) continue;
    Node* node = &root;
    std::size_t begin = 0;
    for (std::size_t dot = key.find('.'); dot != std::string::npos; begin = dot + 1, dot = key.find('.', begin)) {
      node = &node->children[key.substr(begin, dot - begin)];
      node->leaf.reset();
    }
    Node& last = node->children[key.substr(begin)];
    last.children.clear();
    last.leaf = leaf;
  }
  std::string out;
  write(out, root);
  return out;
}

std::string first_file(std::string_view source) {
  if (source.empty()) return "record";
  const std::size_t lines = static_cast<std::size_t>(std::count(source.begin(), source.end(), '\n'));
  const std::string_view first = source.substr(0, source.find('\n'));
  return lines ? fmt::format("{} (and {} more)", first, lines) : std::string(first);
}

std::string resolve(const std::optional<std::string>& from_files, const std::optional<std::string>& flag_value,
                    std::string_view what, std::string_view flag, std::string_view source) {
  const std::string given = flag_value ? strip(*flag_value) : std::string();
  if (from_files) {
    if (!given.empty() && given != *from_files) {
      throw InputError(fmt::format("{}: the file's metadata says {} {} but {} says {}", source, what,
                                   repr_text(*from_files), flag, repr_text(given)));
    }
    return *from_files;
  }
  if (given.empty()) throw InputError(fmt::format("{}: no {}: the files do not name one; pass {}", source, what, flag));
  return given;
}

}  // namespace

std::optional<std::string> agreed_metadata_value(const Dataset& dataset, std::span<const std::string_view> keys,
                                                 std::string_view what) {
  std::optional<std::pair<std::string, std::string>> first;  // run id, value
  for (const Run& run : dataset.runs()) {
    const Document doc = parse(run);
    const auto value = find_key(doc.root, keys);
    if (!value) continue;
    if (!first) {
      first.emplace(run.id, *value);
    } else if (*value != first->second) {
      throw InputError(fmt::format("{}: {} {} but {}: {} {}; record one {} at a time", first->first, what,
                                   repr_text(first->second), run.id, what, repr_text(*value), what));
    }
  }
  if (!first) return std::nullopt;
  return first->second;
}

RunIdentity run_identity(const Dataset& dataset, const std::optional<std::string>& commit,
                         const std::optional<std::string>& branch, std::string_view source) {
  const std::string named = first_file(source);
  if (dataset.empty()) throw InputError(fmt::format("{}: no sample sets to record", named));
  RunIdentity out;
  out.commit_sha = resolve(agreed_metadata_value(dataset, kCommitKeys, "commit"), commit, "commit", "--commit", named);
  out.branch = resolve(agreed_metadata_value(dataset, kBranchKeys, "branch"), branch, "branch", "--branch", named);
  return out;
}

std::string environment_json(const Dataset& dataset, const Labels& ci, const Labels& env) {
  return "{\"ci\":" + write_strings(ci) + ",\"env\":" + write_strings(env) + ",\"tool\":" + tool_context(dataset) + "}";
}

std::string json_float(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return repr_number(value);
}

}  // namespace benchreport::store

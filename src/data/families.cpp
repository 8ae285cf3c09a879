// Scaling families: see families.hpp.
#include "benchreport/data/families.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

// Google Benchmark's own name suffixes: settings, not arguments.
bool is_setting(std::string_view key) {
  return key == "threads" || key == "min_time" || key == "min_warmup_time" || key == "iterations" || key == "repeats" ||
         key == "process_time" || key == "real_time" || key == "manual_time";
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// One token that may carry a size, and where the size text sits in it.
struct Slot {
  std::size_t part = 0;
  std::size_t offset = 0;  // start of the number inside the part
  double size = 0;
};

std::string join_parts(const std::vector<std::string_view>& parts, char sep, const Slot& slot) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += i == slot.part ? fmt::format("{}*", parts[i].substr(0, slot.offset)) : std::string(parts[i]);
  }
  return out;
}

std::optional<SizedName> pick(const std::vector<std::string_view>& parts, char sep, const std::vector<Slot>& slots,
                              std::size_t argument, std::string_view prefix, std::string_view suffix) {
  if (argument >= slots.size()) return std::nullopt;
  const Slot& slot = slots[argument];
  return SizedName{fmt::format("{}{}{}", prefix, join_parts(parts, sep, slot), suffix), slot.size};
}

std::optional<SizedName> split_pytest(std::string_view name, std::size_t argument) {
  const std::size_t open = name.find('[');
  const std::string_view inside = name.substr(open + 1, name.size() - open - 2);
  const auto parts = split(inside, '-');
  std::vector<Slot> slots;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (const auto size = parse_size(parts[i])) slots.push_back({i, 0, *size});
  }
  return pick(parts, '-', slots, argument, name.substr(0, open + 1), "]");
}

std::optional<SizedName> split_google(std::string_view name, std::size_t argument) {
  const auto parts = split(name, '/');
  std::vector<Slot> slots;
  for (std::size_t i = 1; i < parts.size(); ++i) {  // parts[0] is the function's name
    const std::size_t colon = parts[i].find(':');
    if (colon == std::string_view::npos) {
      if (const auto size = parse_size(parts[i])) slots.push_back({i, 0, *size});
    } else if (!is_setting(parts[i].substr(0, colon))) {
      if (const auto size = parse_size(parts[i].substr(colon + 1))) slots.push_back({i, colon + 1, *size});
    }
  }
  return pick(parts, '/', slots, argument, "", "");
}

bool has(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Sets of `sets` whose value in `column` is a size; counts distinct sizes.
std::size_t distinct_label_sizes(const Dataset& dataset, std::span<const std::size_t> sets, std::string_view column,
                                 bool& all_numeric) {
  std::set<double> sizes;
  all_numeric = true;
  for (const std::size_t s : sets) {
    if (!dataset.has_label(s, column)) continue;
    const auto size = parse_size(dataset.label(s, column));
    if (!size) {
      all_numeric = false;
      return 0;
    }
    sizes.insert(*size);
  }
  return sizes.size();
}

// The size source: "name", a label column, or "" (no families).
std::string size_source(const Dataset& dataset, const FamilyOptions& options, std::span<const std::size_t> sets) {
  if (!options.size_column.empty()) {
    if (dataset.column(options.size_column) == nullptr) {
      throw InputError(fmt::format("size label '{}': no such label (the inputs have {})", options.size_column,
                                   fmt::join(dataset.columns(), ", ")));
    }
    return options.size_column;
  }
  if (dataset.column(options.name_column) != nullptr) {
    for (const std::size_t s : sets) {
      if (split_size(dataset.label(s, options.name_column), options.size_argument)) return "name";
    }
  }
  std::string found;
  for (const std::string& column : dataset.columns()) {
    if (column == options.name_column || has(options.ignore_columns, column)) continue;
    bool numeric = false;
    if (distinct_label_sizes(dataset, sets, column, numeric) >= options.min_sizes && numeric) {
      if (!found.empty()) return "";  // two candidates: the caller must name one
      found = column;
    }
  }
  return found;
}

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
}

// A command with the parameter's value written in (hyperfine "sleep 0.5") named
// by its placeholder ("sleep {delay}"), so that the sizes of one scan share a name.
std::string with_placeholder(std::string name, std::string_view value, std::string_view column) {
  const std::string placeholder = fmt::format("{{{}}}", column);
  for (std::size_t at = name.find(value); at != std::string::npos && !value.empty(); at = name.find(value, at)) {
    const bool starts = at == 0 || !is_number_char(name[at - 1]);
    const bool ends = at + value.size() == name.size() || !is_number_char(name[at + value.size()]);
    if (starts && ends) {
      name.replace(at, value.size(), placeholder);
      at += placeholder.size();
    } else {
      at += value.size();
    }
  }
  return name;
}

std::optional<double> size_of(const Dataset& dataset, std::size_t set, const FamilyOptions& options,
                              const std::string& source, std::string& name) {
  name = std::string(dataset.label(set, options.name_column));
  if (source == "name") {
    auto sized = split_size(name, options.size_argument);
    if (!sized) return std::nullopt;
    name = std::move(sized->family);
    return sized->size;
  }
  if (!dataset.has_label(set, source)) return std::nullopt;
  const std::string_view text = dataset.label(set, source);
  const auto size = parse_size(text);
  if (!size) {
    throw InputError(fmt::format("{}: size label '{}' is \"{}\" (expected a positive number)",
                                 format_labels(dataset.labels(set)), source, text));
  }
  name = with_placeholder(std::move(name), text, source);
  return size;
}

}  // namespace

std::optional<double> parse_size(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end || !std::isfinite(value) || value <= 0) return std::nullopt;
  return value;
}

std::optional<SizedName> split_size(std::string_view name, std::size_t argument) {
  const std::size_t open = name.find('[');
  if (open != std::string_view::npos && name.size() > open + 1 && name.back() == ']')
    return split_pytest(name, argument);
  return split_google(name, argument);
}

SizeFamilies find_families(const Dataset& dataset, const FamilyOptions& options, std::span<const std::size_t> sets) {
  std::vector<std::size_t> all;
  if (sets.empty()) {
    all.resize(dataset.n_sets());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    sets = all;
  }
  SizeFamilies out;
  out.size_source = size_source(dataset, options, sets);
  if (out.size_source.empty()) return out;
  for (const std::string& column : dataset.columns()) {
    if (!has(options.ignore_columns, column) && column != out.size_source) out.by.push_back(column);
  }
  std::map<std::vector<std::string>, std::size_t> index;
  std::vector<std::set<double>> sizes;
  for (const std::size_t s : sets) {
    std::string name;
    const auto size = size_of(dataset, s, options, out.size_source, name);
    if (!size) continue;
    std::vector<std::string> key;
    for (const std::string& column : out.by) {
      key.push_back(column == options.name_column ? name : std::string(dataset.label(s, column)));
    }
    const auto [it, inserted] = index.try_emplace(key, out.families.size());
    if (inserted) {
      out.families.push_back({key, join_key(key), {}, 0});
      sizes.emplace_back();
    }
    out.families[it->second].members.push_back({s, *size});
    sizes[it->second].insert(*size);
  }
  std::vector<Family> kept;
  for (std::size_t f = 0; f < out.families.size(); ++f) {
    out.families[f].distinct_sizes = sizes[f].size();
    if (sizes[f].size() >= options.min_sizes) kept.push_back(std::move(out.families[f]));
  }
  out.families = std::move(kept);
  return out;
}

}  // namespace benchreport

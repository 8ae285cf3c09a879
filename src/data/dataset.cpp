#include "benchreport/data/dataset.hpp"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <stdexcept>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"

namespace benchreport {
namespace {

// Labels, units and run ids reach Python as str and reports as text: they must be UTF-8.
bool is_valid_utf8(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    // ASCII runs (most metadata) are skipped eight bytes at a time.
    std::uint64_t word = 0;
    if (pos + 8 <= text.size() && (std::memcpy(&word, text.data() + pos, 8), (word & 0x8080808080808080ULL) == 0)) {
      pos += 8;
      continue;
    }
    const CodePoint cp = decode_utf8(text, pos);
    if (cp.value == 0xFFFD && text.substr(pos, 3) != "\xEF\xBF\xBD") return false;
    pos += cp.length;
  }
  return true;
}

}  // namespace

std::string format_labels(const Labels& labels) {
  std::string out;
  for (const auto& [name, value] : labels) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{}={}", sanitize_utf8(name), sanitize_utf8(value));  // messages stay valid UTF-8
  }
  return out.empty() ? std::string("(no labels)") : out;
}

std::string Dataset::describe_set(const Labels& labels) const {
  return fmt::format("set {} ({})", n_sets(), format_labels(labels));
}

LabelColumn& Dataset::column_for(std::string_view name) {
  if (const auto it = column_index_.find(name); it != column_index_.end()) return columns_[it->second];
  // A new column: every existing set lacks it.
  column_index_.emplace(std::string(name), columns_.size());
  columns_.push_back(LabelColumn{std::string(name), {}, std::vector<std::int32_t>(n_sets(), -1)});
  dictionary_index_.emplace_back();
  return columns_.back();
}

void Dataset::check_labels(const Labels& labels, const Unit& unit) const {
  std::vector<std::string_view> names;
  names.reserve(labels.size());
  std::size_t new_columns = 0;
  for (const auto& [name, value] : labels) {
    if (!is_valid_utf8(name) || !is_valid_utf8(value)) {
      throw InputError(fmt::format("{}: label \"{}\" is not valid UTF-8 (invalid bytes shown as U+FFFD)",
                                   describe_set(labels), sanitize_utf8(name)));
    }
    names.push_back(name);
    new_columns += column_index_.contains(name) ? 0 : 1;
  }
  if (!is_valid_utf8(unit.symbol)) {
    throw InputError(
        fmt::format("{}: unit symbol \"{}\" is not valid UTF-8", describe_set(labels), sanitize_utf8(unit.symbol)));
  }
  // Sorted names: duplicates are neighbours (O(n log n) however wide the set is).
  std::sort(names.begin(), names.end());
  if (const auto dup = std::adjacent_find(names.begin(), names.end()); dup != names.end()) {
    throw InputError(fmt::format("{}: label \"{}\" given twice", describe_set(labels), *dup));
  }
  if (columns_.size() + new_columns > kMaxLabelColumns) {
    constexpr std::size_t kShown = 8;  // the message names the set without quoting thousands of labels
    const Labels shown(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(std::min(labels.size(), kShown)));
    throw InputError(
        fmt::format("{}{}: more than {} label columns in one dataset (the limit kMaxLabelColumns; "
                    "labels name a few dimensions such as benchmark, platform, revision: keep "
                    "per-set values in metadata)",
                    describe_set(shown), labels.size() > kShown ? " ..." : "", kMaxLabelColumns));
  }
}

void Dataset::label_all(const Labels& labels) {
  check_labels(labels, Unit{});
  for (const auto& [name, value] : labels) {
    LabelColumn& column = column_for(name);
    // The column's old values go with it: dictionaries hold only values some set has.
    column.dictionary.assign(1, value);
    auto& index = dictionary_index_[static_cast<std::size_t>(&column - columns_.data())];
    index.clear();
    index.find_or_insert(value, 0, [&](std::uint32_t code) -> const std::string& { return column.dictionary[code]; });
    std::fill(column.codes.begin(), column.codes.end(), 0);
  }
}

std::int32_t Dataset::encode(LabelColumn& column, std::string_view value) {
  auto& index = dictionary_index_[static_cast<std::size_t>(&column - columns_.data())];
  const auto [code, inserted] =
      index.find_or_insert(value, static_cast<std::uint32_t>(column.dictionary.size()),
                           [&](std::uint32_t c) -> const std::string& { return column.dictionary[c]; });
  if (inserted) column.dictionary.emplace_back(value);
  return static_cast<std::int32_t>(code);
}

std::int32_t Dataset::unit_code(const Unit& unit) {
  const auto [first, last] = unit_index_.equal_range(unit.symbol);
  for (auto it = first; it != last; ++it) {
    if (unit_dictionary_[static_cast<std::size_t>(it->second)] == unit) return it->second;
  }
  unit_dictionary_.push_back(unit);
  const auto code = static_cast<std::int32_t>(unit_dictionary_.size() - 1);
  unit_index_.emplace(unit.symbol, code);
  return code;
}

std::size_t Dataset::add_set(const Labels& labels, std::span<const double> samples, const Unit& unit,
                             const SetOptions& options) {
  if (samples.empty())
    throw InputError(fmt::format("{}: empty sample list (need at least one sample)", describe_set(labels)));
  for (std::size_t i = 0; i < samples.size(); ++i) {
    // Checked in base units (to_base > 0, so a non-finite value stays one): every computation scales it.
    if (!std::isfinite(samples[i] * unit.to_base)) {
      throw InputError(
          fmt::format("{}: sample {} is {} (expected a finite number)", describe_set(labels), i, samples[i]));
    }
  }
  if (!options.weights.empty()) {
    if (options.weights.size() != samples.size()) {
      throw InputError(fmt::format("{}: {} weights for {} samples (expected one weight per sample)",
                                   describe_set(labels), options.weights.size(), samples.size()));
    }
    for (std::size_t i = 0; i < options.weights.size(); ++i) {
      const double w = options.weights[i];
      if (!std::isfinite(w) || w <= 0) {
        throw InputError(fmt::format("{}: weight {} is {} (expected a finite number > 0)", describe_set(labels), i, w));
      }
    }
  }
  std::int32_t run_code = -1;
  if (!options.run.empty()) {
    const Run* run = find_run(options.run);
    if (run == nullptr) throw InputError(fmt::format("{}: unknown run id \"{}\"", describe_set(labels), options.run));
    run_code = static_cast<std::int32_t>(run - runs_.data());
  }
  check_labels(labels, unit);
  for (const auto& [key, json] : options.metadata) {
    if (!is_valid_utf8(key) || !is_valid_utf8(json)) {
      throw InputError(fmt::format("{}: metadata \"{}\" is not valid UTF-8", describe_set(labels), sanitize_utf8(key)));
    }
  }

  // Validation done: from here on nothing throws except allocation.
  const std::size_t set = n_sets();
  for (const auto& [name, value] : labels) column_for(name);  // new columns: absent for earlier sets
  for (auto& column : columns_) column.codes.push_back(-1);
  for (const auto& [name, value] : labels) {
    LabelColumn& column = column_for(name);
    column.codes[set] = encode(column, value);
  }
  const std::size_t first = values_.size();
  values_.insert(values_.end(), samples.begin(), samples.end());  // as read: writers give them back bit for bit
  if (!options.weights.empty() && weights_.empty()) weights_.assign(first, 1.0);
  if (!options.weights.empty()) {
    weights_.insert(weights_.end(), options.weights.begin(), options.weights.end());
  } else if (!weights_.empty()) {
    weights_.resize(values_.size(), 1.0);
  }
  offsets_.push_back(static_cast<std::int64_t>(values_.size()));
  unit_codes_.push_back(unit_code(unit));
  directions_.push_back(
      options.direction.value_or(unit.higher_is_better ? Direction::higher_is_better : Direction::lower_is_better));
  set_metadata_.push_back(options.metadata);
  run_codes_.push_back(run_code);
  return set;
}

void Dataset::add_run(std::string id, std::string metadata_json) {
  if (const Run* existing = find_run(id)) {
    if (existing->metadata_json == metadata_json) return;
    throw InputError(fmt::format("duplicate run id \"{}\" with different metadata", sanitize_utf8(id)));
  }
  if (!is_valid_utf8(id)) throw InputError(fmt::format("run id \"{}\" is not valid UTF-8", sanitize_utf8(id)));
  if (!is_valid_utf8(metadata_json)) throw InputError(fmt::format("run \"{}\": metadata is not valid UTF-8", id));
  run_index_.emplace(id, runs_.size());
  runs_.push_back(Run{std::move(id), std::move(metadata_json), {}});
}

void Dataset::set_run_metadata(std::string_view id, std::string metadata_json) {
  const auto it = run_index_.find(id);
  if (it == run_index_.end()) throw InputError(fmt::format("unknown run id \"{}\"", sanitize_utf8(id)));
  if (!is_valid_utf8(metadata_json)) throw InputError(fmt::format("run \"{}\": metadata is not valid UTF-8", id));
  runs_[it->second].metadata_json = std::move(metadata_json);
}

void Dataset::set_run_format(std::string_view id, std::string format) {
  const auto it = run_index_.find(id);
  if (it == run_index_.end()) throw InputError(fmt::format("unknown run id \"{}\"", sanitize_utf8(id)));
  runs_[it->second].format = std::move(format);
}

void Dataset::copy_run(const Run& run) {
  add_run(run.id, run.metadata_json);
  Run& copy = runs_[run_index_.find(run.id)->second];
  if (copy.format.empty()) copy.format = run.format;
}

// Warnings quote file names and labels: keep them valid UTF-8 for Python and reports.
void Dataset::warn(std::string message) { warnings_.push_back(sanitize_utf8(message)); }
void Dataset::note(std::string message) { notes_.push_back(sanitize_utf8(message)); }

const Run* Dataset::find_run(std::string_view id) const noexcept {
  const auto it = run_index_.find(id);
  return it == run_index_.end() ? nullptr : &runs_[it->second];
}

void Dataset::check_set(std::size_t set) const {
  if (set >= n_sets()) throw std::out_of_range(fmt::format("set index {} out of range (n_sets = {})", set, n_sets()));
}

std::span<const double> Dataset::samples(std::size_t set) const {
  check_set(set);
  const auto begin = static_cast<std::size_t>(offsets_[set]);
  const auto end = static_cast<std::size_t>(offsets_[set + 1]);
  return std::span<const double>(values_).subspan(begin, end - begin);
}

BaseSamples Dataset::base_samples(std::size_t set) const { return BaseSamples(samples(set), unit(set).to_base); }

namespace {
void append_scaled(std::span<const double> as_read, double to_base, std::vector<double>& out) {
  if (to_base == 1.0) {
    out.insert(out.end(), as_read.begin(), as_read.end());
    return;
  }
  std::transform(as_read.begin(), as_read.end(), std::back_inserter(out), [to_base](double x) { return x * to_base; });
}
}  // namespace

void Dataset::append_base_samples(std::size_t set, std::vector<double>& out) const {
  append_scaled(samples(set), unit(set).to_base, out);
}

BaseSamples::BaseSamples(std::span<const double> as_read, double to_base) : view_(as_read) {
  if (to_base == 1.0) return;
  owned_.reserve(as_read.size());
  append_scaled(as_read, to_base, owned_);
  view_ = owned_;
}

std::span<const double> Dataset::sample_weights(std::size_t set) const {
  check_set(set);
  if (weights_.empty()) return {};
  const auto begin = static_cast<std::size_t>(offsets_[set]);
  const auto end = static_cast<std::size_t>(offsets_[set + 1]);
  return std::span<const double>(weights_).subspan(begin, end - begin);
}

std::vector<std::string> Dataset::columns() const {
  std::vector<std::string> names;
  names.reserve(columns_.size());
  for (const auto& column : columns_) names.push_back(column.name);
  return names;
}

const LabelColumn* Dataset::column(std::string_view name) const noexcept {
  const auto it = column_index_.find(name);
  return it == column_index_.end() ? nullptr : &columns_[it->second];
}

std::string_view Dataset::label(std::size_t set, std::string_view name) const {
  check_set(set);
  const LabelColumn* col = column(name);
  if (col == nullptr || col->codes[set] < 0) return {};
  return col->dictionary[static_cast<std::size_t>(col->codes[set])];
}

bool Dataset::has_label(std::size_t set, std::string_view name) const {
  check_set(set);
  const LabelColumn* col = column(name);
  return col != nullptr && col->codes[set] >= 0;
}

Labels Dataset::labels(std::size_t set) const {
  check_set(set);
  Labels out;
  for (const auto& column : columns_) {
    if (column.codes[set] >= 0)
      out.emplace_back(column.name, column.dictionary[static_cast<std::size_t>(column.codes[set])]);
  }
  return out;
}

const Unit& Dataset::unit(std::size_t set) const {
  check_set(set);
  return unit_dictionary_[static_cast<std::size_t>(unit_codes_[set])];
}

Direction Dataset::direction(std::size_t set) const {
  check_set(set);
  return directions_[set];
}

void Dataset::set_direction(std::size_t set, Direction direction) {
  check_set(set);
  directions_[set] = direction;
}

void Dataset::set_run(std::size_t set, std::string_view id) {
  check_set(set);
  const Run* run = find_run(id);
  if (run == nullptr) throw InputError(fmt::format("set {}: unknown run id \"{}\"", set, id));
  run_codes_[set] = static_cast<std::int32_t>(run - runs_.data());
}

const Metadata& Dataset::set_metadata(std::size_t set) const {
  check_set(set);
  return set_metadata_[set];
}

std::string_view Dataset::run_id(std::size_t set) const {
  check_set(set);
  return run_codes_[set] < 0 ? std::string_view{}
                             : std::string_view(runs_[static_cast<std::size_t>(run_codes_[set])].id);
}

std::vector<std::size_t> Dataset::select_if(const std::function<bool(const Dataset&, std::size_t)>& keep) const {
  std::vector<std::size_t> out;
  for (std::size_t set = 0; set < n_sets(); ++set) {
    if (keep(*this, set)) out.push_back(set);
  }
  return out;
}

std::vector<std::size_t> Dataset::select(const Labels& equal) const {
  // Resolve each condition to (column, code) once; a value missing from the
  // dictionary matches nothing.
  std::vector<std::pair<const LabelColumn*, std::int32_t>> conditions;
  for (const auto& [name, value] : equal) {
    const LabelColumn* col = column(name);
    if (col == nullptr) return {};
    auto it = std::find(col->dictionary.begin(), col->dictionary.end(), value);
    if (it == col->dictionary.end()) return {};
    conditions.emplace_back(col, static_cast<std::int32_t>(it - col->dictionary.begin()));
  }
  return select_if([&](const Dataset&, std::size_t set) {
    return std::all_of(conditions.begin(), conditions.end(),
                       [set](const auto& c) { return c.first->codes[set] == c.second; });
  });
}

Dataset Dataset::subset(std::span<const std::size_t> sets) const {
  Dataset out;
  out.warnings_ = warnings_;
  out.notes_ = notes_;
  for (std::size_t set : sets) out.copy_set_from(*this, set);
  return out;
}

void Dataset::copy_set_from(const Dataset& other, std::size_t set) {
  if (const auto run = other.run_id(set); !run.empty()) copy_run(*other.find_run(run));
  SetOptions options{other.directions_[set], std::string(other.run_id(set)), other.set_metadata_[set],
                     other.sample_weights(set)};
  add_set(other.labels(set), other.samples(set), other.unit(set), options);
}

Dataset Dataset::filter(const Labels& equal) const {
  const auto sets = select(equal);
  return subset(sets);
}

std::vector<Group> Dataset::group_by(std::span<const std::string> names) const {
  std::vector<const LabelColumn*> cols;
  for (const auto& name : names) cols.push_back(column(name));
  std::vector<Group> groups;
  std::map<std::vector<std::int32_t>, std::size_t> index;  // code tuple → group
  std::vector<std::int32_t> key(cols.size());
  for (std::size_t set = 0; set < n_sets(); ++set) {
    for (std::size_t c = 0; c < cols.size(); ++c) key[c] = cols[c] == nullptr ? -1 : cols[c]->codes[set];
    auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) {
      Group group;
      for (std::size_t c = 0; c < cols.size(); ++c) {
        group.key.push_back(key[c] < 0 ? std::string() : cols[c]->dictionary[static_cast<std::size_t>(key[c])]);
      }
      groups.push_back(std::move(group));
    }
    groups[it->second].sets.push_back(set);
  }
  return groups;
}

void Dataset::append(const Dataset& other) {
  if (&other == this) {
    const Dataset copy = other;
    append(copy);
    return;
  }
  for (const auto& run : other.runs_) copy_run(run);
  for (std::size_t set = 0; set < other.n_sets(); ++set) copy_set_from(other, set);
  warnings_.insert(warnings_.end(), other.warnings_.begin(), other.warnings_.end());
  notes_.insert(notes_.end(), other.notes_.begin(), other.notes_.end());
}

std::string join_key(const std::vector<std::string>& key) { return fmt::format("{}", fmt::join(key, " / ")); }

}  // namespace benchreport

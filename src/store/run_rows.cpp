#include "benchreport/store/run_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <map>
#include <set>

#include "benchreport/core/error.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/core/sha256.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/label_roles.hpp"

namespace benchreport::store {
namespace {

static_assert(std::endian::native == std::endian::little, "the store keeps float64 little-endian blobs");

std::string float64_bytes(std::span<const double> values) {
  std::string out(values.size() * sizeof(double), '\0');
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// Labels as Python's json.dumps(sort_keys=True, separators=(",", ":")) wrote them:
// keys in code point order, which is UTF-8 byte order.
std::string canonical_labels(Labels labels) {
  std::sort(labels.begin(), labels.end());
  std::string out = "{";
  for (const auto& [key, value] : labels) {
    if (out.size() > 1) out += ',';
    out += python_json_string(key) + ':' + python_json_string(value);
  }
  return out + '}';
}

// Per-set metadata as a JSON list of [key, verbatim JSON text] pairs, in order.
std::string canonical_metadata(const Metadata& metadata) {
  std::string out = "[";
  for (const auto& [key, value] : metadata) {
    if (out.size() > 1) out += ',';
    out += '[' + python_json_string(key) + ',' + python_json_string(value) + ']';
  }
  return out + ']';
}

std::string canonical_strings(const std::vector<std::string>& texts) {
  std::string out = "[";
  for (const auto& text : texts) {
    if (out.size() > 1) out += ',';
    out += python_json_string(text);
  }
  return out + ']';
}

const std::string* find_label(const Labels& labels, std::string_view name) {
  for (const auto& [key, value] : labels) {
    if (key == name) return &value;
  }
  return nullptr;
}

// The process label as an integer when it is one (Python's int(): blanks around, a sign, digits).
std::optional<std::int64_t> process_of(const Labels& labels) {
  const std::string* value = find_label(labels, kProcessLabel);
  if (value == nullptr) return std::nullopt;
  std::string_view text = *value;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t out = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    out = out * 10 + (c - '0');
  }
  return negative ? -out : out;
}

// The case a set measures: its benchmark label, else its non-process labels as k=v pairs.
std::string set_name(Labels labels) {
  if (const std::string* benchmark = find_label(labels, "benchmark"); benchmark != nullptr && !benchmark->empty()) {
    return *benchmark;
  }
  std::sort(labels.begin(), labels.end());
  std::string out;
  for (const auto& [key, value] : labels) {
    if (std::find(kProcessLabels.begin(), kProcessLabels.end(), key) != kProcessLabels.end()) continue;
    if (!out.empty()) out += ',';
    out += key + '=' + value;
  }
  return out;
}

void hash_part(Sha256& digest, std::string_view text) {
  digest.update(text);
  digest.update(std::string_view("\0", 1));
}

void hash_blob(Sha256& digest, std::string_view bytes) {
  std::uint64_t length = bytes.size();
  char le[8];
  std::memcpy(le, &length, sizeof le);
  digest.update(std::string_view(le, sizeof le));
  digest.update(bytes);
}

}  // namespace

std::string python_json_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

std::string content_hash(std::string_view commit_sha, std::string_view branch, std::span<const SetRow> sets) {
  Sha256 digest;
  hash_part(digest, commit_sha);
  hash_part(digest, branch);
  for (const SetRow& set : sets) {
    hash_part(digest, set.labels);
    hash_part(digest, set.unit);
    hash_part(digest, set.direction.value_or(""));
    hash_blob(digest, set.samples);
    if (set.iterations) {
      hash_blob(digest, *set.iterations);
    } else {
      digest.update(std::string_view("-"));
    }
  }
  std::string hex;
  for (std::uint8_t byte : digest.digest()) hex += fmt::format("{:02x}", byte);
  return hex;
}

RunRows run_rows(const Dataset& dataset, std::string_view commit_sha, std::string_view branch) {
  RunRows out;
  std::map<std::string, std::int64_t, std::less<>> position;
  std::set<std::string> tools;
  for (const Run& run : dataset.runs()) {
    const auto at = static_cast<std::int64_t>(out.files.size());
    position.emplace(run.id, at);
    if (!run.format.empty()) tools.insert(run.format);
    out.files.push_back({at, run.id, run.format.empty() ? std::nullopt : std::optional(run.format), run.metadata_json});
  }
  std::map<Labels, std::pair<std::string, std::string>> texts;  // labels -> (canonical JSON, name), once each
  for (std::size_t i = 0; i < dataset.n_sets(); ++i) {
    Labels labels = dataset.labels(i);
    auto found = texts.find(labels);
    if (found == texts.end())
      found = texts.emplace(labels, std::pair(canonical_labels(labels), set_name(labels))).first;
    SetRow row;
    row.name = found->second.second;
    row.labels = found->second.first;
    row.unit = dataset.unit(i).symbol;
    row.process = process_of(labels);
    row.samples = float64_bytes(dataset.samples(i));
    if (dataset.has_weights()) row.iterations = float64_bytes(dataset.sample_weights(i));
    row.direction = std::string(direction_name(dataset.direction(i)));
    row.exact = dataset.unit(i).exact ? 1 : 0;
    if (auto file = position.find(dataset.run_id(i)); file != position.end()) row.file = file->second;
    if (const Metadata& metadata = dataset.set_metadata(i); !metadata.empty())
      row.metadata = canonical_metadata(metadata);
    out.sets.push_back(std::move(row));
  }
  std::string joined;
  for (const auto& tool : tools) joined += (joined.empty() ? "" : ",") + tool;
  if (!joined.empty()) out.tool = joined;
  if (!dataset.warnings().empty()) out.warnings = canonical_strings(dataset.warnings());
  out.content_hash = content_hash(commit_sha, branch, out.sets);
  return out;
}

void check_blob(std::string_view where, std::optional<std::size_t> bytes, std::string_view type_name,
                std::int64_t set_id, std::string_view column, std::optional<std::size_t> expected_bytes) {
  if (bytes && *bytes % 8 == 0 && (!expected_bytes || *bytes == *expected_bytes)) return;
  const std::string length = bytes ? fmt::format("{} bytes", *bytes) : fmt::format("a {}", type_name);
  const std::string want = expected_bytes ? fmt::format("{} bytes, as the samples", *expected_bytes)
                                          : std::string("a multiple of 8 bytes (float64 LE)");
  throw InputError(fmt::format("{}: set {}: column {} holds {}, expected {}", where, set_id, column, length, want));
}

}  // namespace benchreport::store

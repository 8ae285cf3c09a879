// Canonical long CSV: one sample per row, label columns, then unit, value
// (and weight). A set is a run of consecutive rows with equal labels and unit.
#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <ostream>
#include <unordered_set>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"
#include "reader.hpp"

namespace benchreport {
namespace {

constexpr std::string_view kUnitColumn = "unit";
constexpr std::string_view kValueColumn = "value";
constexpr std::string_view kWeightColumn = "weight";

bool is_reserved(std::string_view name) { return name == kUnitColumn || name == kValueColumn || name == kWeightColumn; }

// An empty value is written quoted (""): an unquoted empty cell means "no such label".
void append_csv_field(std::string& out, std::string_view field) {
  if (!field.empty() && field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += field;
    return;
  }
  out += '"';
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

bool default_direction(const Dataset& dataset, std::size_t set) {
  const bool higher = dataset.direction(set) == Direction::higher_is_better;
  return higher == dataset.unit(set).higher_is_better;
}

bool same_labels_and_unit(const Dataset& dataset, std::size_t a, std::size_t b) {
  return dataset.labels(a) == dataset.labels(b) && dataset.unit(a).symbol == dataset.unit(b).symbol;
}

// What a CSV file will not carry for this dataset, one note per kind.
std::vector<std::string> csv_losses(const Dataset& dataset) {
  std::vector<std::string> notes;
  std::size_t with_metadata = 0, overridden = 0, exact = 0, merged = 0;
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    with_metadata += dataset.set_metadata(set).empty() ? 0 : 1;
    overridden += default_direction(dataset, set) ? 0 : 1;
    exact += dataset.unit(set).exact ? 1 : 0;
    merged += (set > 0 && same_labels_and_unit(dataset, set - 1, set)) ? 1 : 0;
  }
  if (!dataset.runs().empty())
    notes.push_back(fmt::format("CSV does not carry run metadata ({} runs)", dataset.runs().size()));
  if (with_metadata > 0)
    notes.push_back(fmt::format("CSV does not carry set metadata ({} sets have some)", with_metadata));
  if (overridden > 0) notes.push_back(fmt::format("CSV does not carry direction overrides ({} sets)", overridden));
  if (exact > 0) notes.push_back(fmt::format("CSV does not carry the exact flag ({} sets)", exact));
  if (!dataset.warnings().empty())
    notes.push_back(fmt::format("CSV does not carry warnings ({})", dataset.warnings().size()));
  if (merged > 0) {
    notes.push_back(
        fmt::format("{} sets have the same labels and unit as the set before them and will read back merged "
                    "(add a distinguishing label such as run or process)",
                    merged));
  }
  return notes;
}

}  // namespace

std::vector<std::string> write_canonical_csv(const Dataset& dataset, std::ostream& stream) {
  const auto columns = dataset.columns();
  for (const auto& name : columns) {
    if (is_reserved(name))
      throw InputError(fmt::format("label column \"{}\" clashes with a reserved CSV column", name));
  }
  std::string out;
  for (const auto& name : columns) {
    append_csv_field(out, name);
    out += ',';
  }
  out += fmt::format("{},{}{}\n", kUnitColumn, kValueColumn, dataset.has_weights() ? ",weight" : "");
  std::vector<const LabelColumn*> cols;
  for (const auto& name : columns) cols.push_back(dataset.column(name));
  std::string prefix;
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    prefix.clear();
    for (const LabelColumn* col : cols) {
      const auto code = col->codes[set];
      if (code >= 0) append_csv_field(prefix, col->dictionary[static_cast<std::size_t>(code)]);
      prefix += ',';
    }
    const Unit& unit = dataset.unit(set);
    append_csv_field(prefix, io::canonical_unit_symbol(unit));
    prefix += ',';
    const auto samples = dataset.samples(set);
    const auto weights = dataset.sample_weights(set);
    for (std::size_t i = 0; i < samples.size(); ++i) {
      out += prefix;
      fmt::format_to(std::back_inserter(out), "{}", samples[i]);  // as read
      if (!weights.empty()) fmt::format_to(std::back_inserter(out), ",{}", weights[i]);
      out += '\n';
    }
    if (out.size() > (1U << 20)) {
      stream << out;
      out.clear();
    }
  }
  stream << out;
  return csv_losses(dataset);
}

namespace io {
namespace {

// Splits RFC 4180 records, tracking the line each record starts on.
class CsvRecords {
 public:
  CsvRecords(std::string_view text, std::string_view name)
      : text_(text), name_(name) {}  // a UTF-8 byte order mark is dropped before any reader runs (read.cpp)

  // Reads the next record into `fields`; false at the end of input.
  bool next(std::vector<std::string>& fields) {
    fields.clear();
    quoted_.clear();
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) advance_line_break();
    if (pos_ >= text_.size()) return false;
    record_line_ = line_;
    std::string field;
    while (true) {
      quoted_.push_back(pos_ < text_.size() && text_[pos_] == '"' ? 1 : 0);
      if (quoted_.back() != 0) {
        read_quoted(field);
      } else {
        while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r')
          field += text_[pos_++];
      }
      fields.push_back(std::move(field));
      field.clear();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size()) {
        advance_line_break();
      } else if (line_ > 1) {
        fail_unterminated_last_line(name_, record_line_);
      }
      return true;
    }
  }

  std::size_t line() const { return record_line_; }
  // Whether field i of the last record was quoted: "" is an empty value, an empty cell none.
  bool quoted(std::size_t i) const { return i < quoted_.size() && quoted_[i] != 0; }

 private:
  void advance_line_break() {
    if (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ++pos_;
    ++pos_;
    ++line_;
  }

  void read_quoted(std::string& field) {
    ++pos_;  // opening quote
    while (true) {
      if (pos_ >= text_.size()) fail_at_line(name_, record_line_, "unterminated quoted field");
      const char c = text_[pos_++];
      if (c == '"') {
        if (pos_ < text_.size() && text_[pos_] == '"') {
          field += '"';
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r') {
          fail_at_line(name_, line_, "unexpected character after a closing quote (expected , or end of line)");
        }
        return;
      }
      if (c == '\n') ++line_;
      field += c;
    }
  }

  std::string_view text_;
  std::string_view name_;
  std::vector<char> quoted_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  std::size_t record_line_ = 1;
};

double parse_double(std::string_view text, std::string_view name, std::size_t line, std::string_view column) {
  double value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    fail_at_line(name, line,
                 fmt::format("column \"{}\": {} is beyond the range of a double", column, text.substr(0, 32)));
  }
  if (ec != std::errc() || ptr != end || text.empty()) {
    fail_at_line(name, line, fmt::format("column \"{}\": \"{}\" is not a number", column, text));
  }
  return value;
}

class CanonicalCsvReader {
 public:
  explicit CanonicalCsvReader(const Source& source) : source_(source), records_(source.bytes, source.name) {}

  Dataset read() {
    if (source_.bytes.size() > source_.options.max_file_size) {
      throw InputError(
          fmt::format("{}: {} bytes exceeds the input size limit of {} bytes (raise ReadOptions::max_file_size)",
                      source_.name, source_.bytes.size(), source_.options.max_file_size));
    }
    read_header();
    std::vector<std::string> row;
    while (records_.next(row)) read_row(row);
    flush();
    return std::move(dataset_);
  }

 private:
  void read_header() {
    if (!records_.next(header_))
      throw InputError(fmt::format("{}: empty CSV (expected a header row with unit and value)", source_.name));
    // A dataset holds at most kMaxLabelColumns label columns: a wider header is refused first, so that
    // the checks below (a hashed set of the names) never see more than that many columns.
    const auto label_columns =
        static_cast<std::size_t>(std::count_if(header_.begin(), header_.end(), [](const auto& n) {
          return n != kUnitColumn && n != kValueColumn && n != kWeightColumn;
        }));
    if (label_columns > kMaxLabelColumns) {
      fail_at_line(source_.name, 1,
                   fmt::format("{} label columns: more than {} label columns in one dataset (the limit "
                               "kMaxLabelColumns)",
                               label_columns, kMaxLabelColumns));
    }
    std::unordered_set<std::string_view> seen;  // hashed: the duplicate check stays linear in the width
    for (std::size_t i = 0; i < header_.size(); ++i) {
      const auto& name = header_[i];
      if (name.empty() && !records_.quoted(i)) {
        fail_at_line(source_.name, 1,
                     fmt::format("column {} has an empty name (a label named \"\" is written \"\")", i + 1));
      }
      if (!seen.insert(name).second) fail_at_line(source_.name, 1, fmt::format("column \"{}\" appears twice", name));
      if (name == kUnitColumn)
        unit_col_ = i;
      else if (name == kValueColumn)
        value_col_ = i;
      else if (name == kWeightColumn)
        weight_col_ = i;
      else
        label_cols_.push_back(i);
    }
    if (unit_col_ == kNone || value_col_ == kNone) {
      fail_at_line(source_.name, 1,
                   "header must have \"unit\" and \"value\" columns (label columns, unit, value[, weight])");
    }
  }

  void read_row(const std::vector<std::string>& row) {
    const std::size_t line = records_.line();
    if (row.size() != header_.size()) {
      fail_at_line(source_.name, line,
                   fmt::format("{} fields (expected {}, as in the header)", row.size(), header_.size()));
    }
    if (!same_set(row)) {
      flush();
      labels_.clear();
      for (std::size_t col : label_cols_) {
        if (has_label(row, col)) labels_.emplace_back(header_[col], row[col]);
      }
      unit_symbol_ = row[unit_col_];
      set_line_ = line;
    }
    values_.push_back(parse_double(row[value_col_], source_.name, line, kValueColumn));
    if (weight_col_ != kNone) weights_.push_back(parse_double(row[weight_col_], source_.name, line, kWeightColumn));
    if (++samples_ > source_.options.max_samples) {
      fail_at_line(source_.name, line,
                   fmt::format("more than {} samples (raise ReadOptions::max_samples)", source_.options.max_samples));
    }
  }

  bool has_label(const std::vector<std::string>& row, std::size_t col) const {
    return !row[col].empty() || records_.quoted(col);
  }

  // Whether the row continues the current set (same non-empty labels and unit), checked in
  // place: most rows do, and building their Labels first cost an allocation per row.
  bool same_set(const std::vector<std::string>& row) const {
    if (values_.empty() || row[unit_col_] != unit_symbol_) return false;
    std::size_t k = 0;
    for (std::size_t col : label_cols_) {
      if (!has_label(row, col)) continue;
      if (k == labels_.size() || labels_[k].first != header_[col] || labels_[k].second != row[col]) return false;
      ++k;
    }
    return k == labels_.size();
  }

  void flush() {
    if (values_.empty()) return;
    try {
      const Unit unit = parse_canonical_unit(unit_symbol_);
      SetOptions options;
      options.weights = weights_;
      dataset_.add_set(labels_, values_, unit, options);
    } catch (const InputError& e) {
      fail_at_line(source_.name, set_line_, e.what());
    }
    values_.clear();
    weights_.clear();
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const Source& source_;
  CsvRecords records_;
  std::vector<std::string> header_;
  std::vector<std::size_t> label_cols_;
  std::size_t unit_col_ = kNone, value_col_ = kNone, weight_col_ = kNone;
  Labels labels_;
  std::string unit_symbol_;
  std::size_t set_line_ = 0;
  std::vector<double> values_, weights_;
  std::uint64_t samples_ = 0;
  Dataset dataset_;
};

}  // namespace

Dataset read_canonical_csv(const Source& source) { return CanonicalCsvReader(source).read(); }

}  // namespace io
}  // namespace benchreport

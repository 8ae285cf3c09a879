#pragma once
// Dataset: many ordered sample sets in columnar (CSR) form, with
// dictionary-encoded label columns, per-set unit/direction/metadata, per-run
// metadata kept verbatim, and the warnings of whoever filled it.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "benchreport/core/string_index.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/units.hpp"

namespace benchreport {

// Most label columns one Dataset may have. Every column stores one code per
// set, so columns x sets is what an input can make us allocate: without a
// bound a small hostile file (many sets, each with a new label name) could
// ask for gigabytes. Real inputs use a handful (benchmark, platform, revision ...).
inline constexpr std::size_t kMaxLabelColumns = 256;

// Ordered name → value pairs (labels of one set).
using Labels = std::vector<std::pair<std::string, std::string>>;
// Ordered key → verbatim JSON text (e.g. {"iterations", "100"}).
using Metadata = std::vector<std::pair<std::string, std::string>>;

// One dictionary-encoded label column: codes[i] indexes dictionary, -1 = absent.
struct LabelColumn {
  std::string name;
  std::vector<std::string> dictionary;
  std::vector<std::int32_t> codes;  // one per set
};

// A run (file, process, invocation) and its metadata as verbatim JSON text.
struct Run {
  std::string id;
  std::string metadata_json = "{}";
  std::string format;  // the reader that made it ("hyperfine", "pyperf", ...; "" = not recorded)
  friend bool operator==(const Run&, const Run&) = default;
};

// Optional per-set extras for Dataset::add_set.
struct SetOptions {
  std::optional<Direction> direction;  // default: from the unit
  std::string run;                     // run id ("" = none); the run must exist
  Metadata metadata;                   // verbatim JSON values
  std::span<const double> weights;     // empty, or one positive weight per sample
};

// A group of sets sharing the values of the grouping columns ("" = absent).
struct Group {
  std::vector<std::string> key;
  std::vector<std::size_t> sets;
};

// A group key joined with " / " for display ("android / 200").
std::string join_key(const std::vector<std::string>& key);

// Samples of one set in base units (x * unit.to_base): a view when the unit
// is its own base unit, else a scaled copy it owns. Movable, not copyable
// (a moved vector keeps its buffer, so the view stays valid).
class BaseSamples {
 public:
  BaseSamples(std::span<const double> as_read, double to_base);
  BaseSamples(BaseSamples&&) noexcept = default;
  BaseSamples& operator=(BaseSamples&&) noexcept = default;
  BaseSamples(const BaseSamples&) = delete;
  BaseSamples& operator=(const BaseSamples&) = delete;

  std::span<const double> span() const noexcept { return view_; }
  operator std::span<const double>() const noexcept { return view_; }  // NOLINT: a view, like the span itself
  std::size_t size() const noexcept { return view_.size(); }
  double operator[](std::size_t i) const { return view_[i]; }
  auto begin() const noexcept { return view_.begin(); }
  auto end() const noexcept { return view_.end(); }

 private:
  std::vector<double> owned_;
  std::span<const double> view_;
};

class Dataset {
 public:
  // Adds a set; `samples` are in `unit` and are stored exactly as given, so
  // that writers and views give every value back bit for bit; base_samples()
  // scales them for computations. Throws InputError (naming the set by its labels) on
  // an empty set, a non-finite value, bad weights or an unknown run.
  std::size_t add_set(const Labels& labels, std::span<const double> samples, const Unit& unit,
                      const SetOptions& options = {});

  // Capacity for `values` samples in all (readers that know a bound up front:
  // the values array then never reallocates, which keeps peak memory down).
  void reserve_values(std::size_t values) { values_.reserve(values); }

  // Adds a run; a duplicate id with different metadata is an InputError,
  // an identical one is accepted once.
  void add_run(std::string id, std::string metadata_json = "{}");
  // Replaces the metadata of an existing run (readers that meet it late).
  void set_run_metadata(std::string_view id, std::string metadata_json);
  // Records which reader made an existing run (read() does, for every run of a file).
  void set_run_format(std::string_view id, std::string format);
  // Something a user should act on (a benchmark not read, a value refused).
  void warn(std::string message);
  // A normal remark of a reader (aggregate rows kept apart, calibration runs
  // skipped): shown on request (--verbose), never as a warning.
  void note(std::string message);

  std::size_t n_sets() const noexcept { return offsets_.size() - 1; }
  std::size_t n_values() const noexcept { return values_.size(); }
  bool empty() const noexcept { return n_sets() == 0; }

  // Raw CSR arrays (values as read, each set in its own unit). weights() is empty when no set has weights.
  std::span<const double> values() const noexcept { return values_; }
  std::span<const std::int64_t> offsets() const noexcept { return offsets_; }
  std::span<const double> weights() const noexcept { return weights_; }
  bool has_weights() const noexcept { return !weights_.empty(); }

  // Samples of a set as read, in unit(set).
  std::span<const double> samples(std::size_t set) const;
  // Samples of a set in base units (what statistics and comparisons use).
  BaseSamples base_samples(std::size_t set) const;
  // Appends a set's samples in base units to `out` (pooling: scaled straight
  // into place, no copy of the set first).
  void append_base_samples(std::size_t set, std::vector<double>& out) const;
  // Per-sample weights of a set (all 1 for unweighted sets); empty when the dataset has none.
  std::span<const double> sample_weights(std::size_t set) const;

  // Label column names in first-seen order.
  std::vector<std::string> columns() const;
  const LabelColumn* column(std::string_view name) const noexcept;
  // Label value of a set ("" when the set has no such label).
  std::string_view label(std::size_t set, std::string_view column) const;
  bool has_label(std::size_t set, std::string_view column) const;
  Labels labels(std::size_t set) const;  // only the labels the set has, column order

  const Unit& unit(std::size_t set) const;
  Direction direction(std::size_t set) const;
  void set_direction(std::size_t set, Direction direction);
  // Attaches a set to an existing run (readers that meet runs after sets).
  void set_run(std::size_t set, std::string_view run_id);
  const Metadata& set_metadata(std::size_t set) const;
  std::string_view run_id(std::size_t set) const;  // "" when none

  const std::vector<Run>& runs() const noexcept { return runs_; }
  const Run* find_run(std::string_view id) const noexcept;
  const std::vector<std::string>& warnings() const noexcept { return warnings_; }
  const std::vector<std::string>& notes() const noexcept { return notes_; }

  // Indices of the sets whose labels equal every given (column, value).
  std::vector<std::size_t> select(const Labels& equal) const;
  std::vector<std::size_t> select_if(const std::function<bool(const Dataset&, std::size_t)>& keep) const;
  // A new dataset with the given sets (in that order), their runs and all warnings.
  Dataset subset(std::span<const std::size_t> sets) const;
  Dataset filter(const Labels& equal) const;

  // Groups by label columns, groups and their sets in first-appearance order.
  std::vector<Group> group_by(std::span<const std::string> columns) const;

  // Sets each (column, value) on every set, replacing what the sets had in
  // that column (CLI --base/--head: side and process of a whole file).
  void label_all(const Labels& labels);

  // Appends every set, run and warning of `other`, merging label dictionaries.
  void append(const Dataset& other);

 private:
  void copy_set_from(const Dataset& other, std::size_t set);
  void copy_run(const Run& run);
  LabelColumn& column_for(std::string_view name);
  std::int32_t encode(LabelColumn& column, std::string_view value);
  std::int32_t unit_code(const Unit& unit);
  std::string describe_set(const Labels& labels) const;
  void check_labels(const Labels& labels, const Unit& unit) const;
  void check_set(std::size_t set) const;

  // Heterogeneous lookup (string_view keys) for the name -> index maps.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  using NameIndex = std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>>;

  std::vector<double> values_;
  std::vector<std::int64_t> offsets_{0};
  std::vector<double> weights_;
  std::vector<LabelColumn> columns_;
  NameIndex column_index_;  // column name -> position in columns_ (lookups stay O(1) for wide inputs)
  std::vector<StringIndex> dictionary_index_;  // one per column: value -> code (its place in the dictionary)
  std::vector<Unit> unit_dictionary_;
  // unit symbol -> codes of unit_dictionary_ spelled so (hashed: 10^5 distinct custom units stay linear to read)
  std::unordered_multimap<std::string, std::int32_t> unit_index_;
  std::vector<std::int32_t> unit_codes_;
  std::vector<Direction> directions_;
  std::vector<Metadata> set_metadata_;
  std::vector<std::int32_t> run_codes_;  // -1 = none
  std::vector<Run> runs_;
  NameIndex run_index_;  // run id -> position in runs_ (many runs stay linear to read)
  std::vector<std::string> warnings_;
  std::vector<std::string> notes_;
};

// "benchmark=foo, revision=base" (for messages).
std::string format_labels(const Labels& labels);

}  // namespace benchreport

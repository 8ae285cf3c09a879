#pragma once
// Internal: the rows of a Google Benchmark file's "benchmarks" array folded
// into series, one per run_name (src/io/google_benchmark.cpp reads the
// document around them). A large file is read as two parts by two threads,
// each into its own GoogleBenchmarkRows; append() then gives exactly what one
// pass would have.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "benchreport/core/string_index.hpp"
#include "reader.hpp"

namespace benchreport::io {

// Named entries in first-seen order with a hashed name → position index, so
// that a row with K counters costs O(K), not O(K²).
template <class T>
class Keyed {
 public:
  // The entry named `name`, appended (default-constructed) when new.
  T& operator[](std::string_view name) {
    const auto [position, inserted] = index_.find_or_insert(name, static_cast<std::uint32_t>(items_.size()), name_at());
    if (inserted) items_.emplace_back(std::string(name), T{});
    return items_[position].second;
  }
  const T* find(std::string_view name) const {
    const std::int64_t position = index_.find(name, name_at());
    return position < 0 ? nullptr : &items_[static_cast<std::size_t>(position)].second;
  }
  bool empty() const { return items_.empty(); }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  auto name_at() const {
    return [this](std::uint32_t i) -> const std::string& { return items_[i].first; };
  }

  std::vector<std::pair<std::string, T>> items_;
  StringIndex index_;
};

class GoogleBenchmarkRows {
 public:
  // Folds in every element of the array `rows` (at `path`), in order.
  void add_rows(JsonInput& json, od::value& rows, const JsonPath& path);

  // Appends the rows of the part of the array that follows this one. False
  // when the parts disagree on a series' time unit: this accumulator is then
  // half-merged and must be dropped (the caller reads the file in one pass,
  // which reports the row).
  bool append(GoogleBenchmarkRows&& later);

  // Samples so far, counted as JsonInput counts them (for the limit over both parts).
  std::uint64_t samples() const { return samples_; }

  // One set per (series, metric) into `dataset`, then the warnings about
  // aggregates, orphan aggregates and error rows. `name` is the file's.
  void emit(Dataset& dataset, const std::string& name) const;

 private:
  // One element of "benchmarks", parsed whatever its member order.
  struct Entry {
    // Views into the document (valid while it is parsed): no copy per row.
    std::string_view name, run_name, run_type = "iteration", time_unit = "ns", aggregate_name, error_message;
    bool error = false;
    std::string_view iterations = "null";
    double real_time = NAN, cpu_time = NAN;
    std::vector<std::pair<std::string_view, double>> counters;
    // Everything else, verbatim: views into the document, copied only for the
    // row whose values a series keeps (its first).
    std::vector<std::pair<std::string_view, std::string_view>> other;
  };

  // Samples of one run_name, accumulated across its repetition rows.
  struct Series {
    std::string run_name, time_unit;
    std::vector<double> real_time, cpu_time;
    Keyed<std::vector<double>> counters;
    std::string iterations;      // the rows' iteration counts as JSON, comma-separated
    Keyed<Metadata> aggregates;  // metric → (aggregate → value)
    Metadata other;
    // Google Benchmark's own complexity fit (its BigO and RMS rows, run_name
    // = the family's name): big_o, real/cpu_coefficient, rms, verbatim.
    Metadata complexity;
  };

  // Fills `e` (one Entry reused for every row, so its vectors keep their capacity).
  static void parse_entry(JsonInput& json, od::value& value, const JsonPath& path, Entry& e);

  Series& series_for(std::string_view run_name);

  static double checked_time(JsonInput& json, double value, const JsonPath& path, std::string_view field);

  void add(JsonInput& json, const Entry& e, const JsonPath& path);

  static void add_aggregate(Series& s, const Entry& e);

  // `later` holds rows of the same run_name that came after `s`'s; mirrors add().
  static bool merge_series(Series& s, Series&& later);

  static void emit_metric(const Series& s, Dataset& dataset, const std::string& file, const std::string& metric,
                          const std::vector<double>& samples, std::string_view unit_symbol, const Metadata* complexity);

  static void emit_series(const Series& s, Dataset& dataset, const std::string& file, const Metadata* complexity);

  // The complexity rows of the family `s` belongs to (run_name up to its first '/'), or null.
  const Metadata* family_complexity(const Series& s) const;

  void report(Dataset& dataset, const std::string& file, const std::vector<std::string>& aggregates_only) const;

  std::vector<Series> series_;
  std::unordered_map<std::string, std::size_t> series_index_;
  std::size_t last_series_ = static_cast<std::size_t>(-1);
  Entry entry_;
  std::size_t aggregate_rows_ = 0;
  std::uint64_t samples_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace benchreport::io

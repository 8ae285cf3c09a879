// Google Benchmark JSON (--benchmark_out_format=json).
// One set per (run_name, metric): real_time, cpu_time and every counter;
// samples are the iteration rows in document (repetition) order. Aggregate
// rows (mean, median, stddev, cv, BigO, RMS) never become samples: they are
// kept in the set metadata under "aggregates" and counted in the warnings.
#include <cmath>
#include <exception>
#include <fmt/format.h>
#include <optional>
#include <system_error>
#include <thread>
#include <unordered_map>

#include "array_split.hpp"
#include "benchreport/error.hpp"
#include "benchreport/parallel.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

// The members of a row: those read into an Entry, the other fixed ones
// (kept verbatim), and anything else (a number is a counter).
enum class Member {
  name, run_name, run_type, time_unit, aggregate_name, error_occurred, error_message, iterations, real_time, cpu_time,
  fixed, unknown
};

// By length first: a row has a dozen members, and this runs for each.
Member member_of(std::string_view key) {
  const auto either = [&](std::string_view a, Member ma, std::string_view b = {}, Member mb = Member::unknown) {
    return key == a ? ma : key == b ? mb : Member::unknown;
  };
  switch (key.size()) {
    case 3: return either("rms", Member::fixed);
    case 4: return either("name", Member::name);
    case 5: return either("label", Member::fixed, "big_o", Member::fixed);
    case 7: return either("threads", Member::fixed);
    case 8: return key == "cpu_time" ? Member::cpu_time : either("run_name", Member::run_name, "run_type", Member::run_type);
    case 9: return either("real_time", Member::real_time, "time_unit", Member::time_unit);
    case 10: return either("iterations", Member::iterations);
    case 11: return either("repetitions", Member::fixed);
    case 12: return either("family_index", Member::fixed);
    case 13: return either("error_message", Member::error_message);
    case 14:
      return key == "aggregate_unit" ? Member::fixed
                                     : either("aggregate_name", Member::aggregate_name, "error_occurred", Member::error_occurred);
    case 15: return either("cpu_coefficient", Member::fixed);
    case 16: return either("repetition_index", Member::fixed, "real_coefficient", Member::fixed);
    case 25: return either("per_family_instance_index", Member::fixed);
    default: return Member::unknown;
  }
}

std::string_view counter_unit(std::string_view counter) {
  if (counter == "bytes_per_second") return "B/s";
  if (counter == "items_per_second") return "items/s";
  return "1";
}

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
  std::vector<std::pair<std::string, std::vector<double>>> counters;
  std::string iterations;  // the rows' iteration counts as JSON, comma-separated
  std::vector<std::pair<std::string, Metadata>> aggregates;  // metric → (aggregate → value)
  Metadata other;
};

template <class T>
T& member(std::vector<std::pair<std::string, T>>& members, std::string_view name) {
  for (auto& [key, value] : members) {
    if (key == name) return value;
  }
  members.emplace_back(std::string(name), T{});
  return members.back().second;
}

void append_compact_json(std::string& out, std::string_view raw_text) {
  if (!raw_text.empty() && (raw_text.front() == '{' || raw_text.front() == '[')) out += minify_json(raw_text);
  else out += raw_text;
}

// The elements of "benchmarks" folded into series, in document order. A
// large file is read as two parts by two threads, each into its own
// RowAccumulator; append() then gives exactly what one pass would have.
class RowAccumulator {
 public:
  void add_rows(JsonInput& json, od::value& rows, const JsonPath& path) {
    json.elements(json.array(rows, path), path, [&](std::size_t, od::value& row, const JsonPath& p) {
      parse_entry(json, row, p, entry_);
      add(json, entry_, p);
    });
  }

  // Appends the rows of the part of the array that follows this one. False
  // when the parts disagree on a series' time unit: this accumulator is then
  // half-merged and must be dropped (the caller reads the file in one pass,
  // which reports the row).
  bool append(RowAccumulator&& later) {
    for (auto& s : later.series_) {
      auto [it, inserted] = series_index_.try_emplace(s.run_name, series_.size());
      if (inserted) {
        series_.push_back(std::move(s));
      } else if (!merge_series(series_[it->second], std::move(s))) {
        return false;
      }
    }
    aggregate_rows_ += later.aggregate_rows_;
    samples_ += later.samples_;
    errors_.insert(errors_.end(), std::make_move_iterator(later.errors_.begin()), std::make_move_iterator(later.errors_.end()));
    return true;
  }

  std::uint64_t samples() const { return samples_; }

  void emit(Dataset& dataset, const std::string& name) const {
    std::size_t orphan_aggregates = 0;
    for (const auto& s : series_) {
      if (s.real_time.empty()) orphan_aggregates += s.aggregates.empty() ? 0 : 1;
      else emit_series(s, dataset, name);
    }
    report(dataset, name, orphan_aggregates);
  }

 private:
  // Fills `e` (one Entry reused for every row, so its vectors keep their capacity).
  static void parse_entry(JsonInput& json, od::value& value, const JsonPath& path, Entry& e) {
    e.name = e.run_name = e.aggregate_name = e.error_message = {};
    e.run_type = "iteration";
    e.time_unit = "ns";
    e.error = false;
    e.iterations = "null";
    e.real_time = e.cpu_time = NAN;
    e.counters.clear();
    e.other.clear();
    json.fields(json.object(value, path), path, [&](std::string_view key, od::value& v, const JsonPath& p) {
      switch (member_of(key)) {
        case Member::name: e.name = json.string(v, p); break;
        case Member::run_name: e.run_name = json.string(v, p); break;
        case Member::run_type: e.run_type = json.string(v, p); break;
        case Member::time_unit: e.time_unit = json.string(v, p); break;
        case Member::aggregate_name: e.aggregate_name = json.string(v, p); break;
        case Member::error_occurred: e.error = json.boolean(v, p); break;
        case Member::error_message: e.error_message = json.string(v, p); break;
        case Member::iterations: e.iterations = json.raw_view(v, p); break;
        case Member::real_time: e.real_time = json.number(v, p); break;
        case Member::cpu_time: e.cpu_time = json.number(v, p); break;
        case Member::fixed: e.other.emplace_back(key, json.raw_view(v, p)); break;
        case Member::unknown: {
          od::json_type type = od::json_type::null;
          json.check(v.type().get(type), p, "a value");
          if (type == od::json_type::number) e.counters.emplace_back(key, json.number(v, p));
          else e.other.emplace_back(key, json.raw_view(v, p));
        }
      }
    });
    if (e.name.empty()) json.fail(path, "missing \"name\"");
    if (e.run_name.empty()) e.run_name = e.name;  // files written before run_name existed
  }

  Series& series_for(std::string_view run_name) {
    // Repetition rows of one benchmark usually follow each other: try the last series first.
    if (last_series_ < series_.size() && series_[last_series_].run_name == run_name) return series_[last_series_];
    auto [it, inserted] = series_index_.try_emplace(std::string(run_name), series_.size());
    if (inserted) series_.push_back(Series{std::string(run_name), {}, {}, {}, {}, {}, {}, {}});
    last_series_ = it->second;
    return series_[it->second];
  }

  static double checked_time(JsonInput& json, double value, const JsonPath& path, std::string_view field) {
    if (std::isnan(value)) json.fail(path, fmt::format("missing \"{}\"", field));
    if (!std::isfinite(value) || value < 0) json.fail(path.field(field), fmt::format("{} is not a valid time (expected a finite number >= 0)", value));
    return value;
  }

  void add(JsonInput& json, const Entry& e, const JsonPath& path) {
    if (e.error) {
      errors_.push_back(fmt::format("{} ({})", e.name, e.error_message));
      return;
    }
    Series& s = series_for(e.run_name);
    if (e.run_type == "aggregate") {
      ++aggregate_rows_;
      add_aggregate(s, e);
      return;
    }
    if (e.run_type != "iteration") json.fail(path.field("run_type"), fmt::format("\"{}\" (expected iteration or aggregate)", e.run_type));
    if (s.time_unit.empty()) {  // later rows must repeat it, so it is checked once per series
      bool known_unit = false;
      parse_unit_or_custom(e.time_unit, &known_unit);
      if (!known_unit) json.fail(path.field("time_unit"), fmt::format("unknown time unit \"{}\" (expected ns, us, ms or s)", e.time_unit));
      s.time_unit = e.time_unit;
    }
    if (s.time_unit != e.time_unit) {
      json.fail(path.field("time_unit"), fmt::format("\"{}\" differs from \"{}\" in earlier rows of {}", e.time_unit, s.time_unit, e.run_name));
    }
    s.real_time.push_back(checked_time(json, e.real_time, path, "real_time"));
    s.cpu_time.push_back(checked_time(json, e.cpu_time, path, "cpu_time"));
    if (!s.iterations.empty()) s.iterations += ',';
    append_compact_json(s.iterations, e.iterations);
    for (auto& [name, value] : e.counters) member(s.counters, name).push_back(value);
    if (s.other.empty()) {
      for (const auto& [key, text] : e.other) s.other.emplace_back(std::string(key), compact_json(text));
    }
    samples_ += 2 + e.counters.size();
    json.count_samples(2 + e.counters.size(), path);
  }

  static void add_aggregate(Series& s, const Entry& e) {
    const std::string name(e.aggregate_name.empty() ? e.name : e.aggregate_name);
    if (!std::isnan(e.real_time)) member(s.aggregates, "real_time").emplace_back(name, json_number(e.real_time));
    if (!std::isnan(e.cpu_time)) member(s.aggregates, "cpu_time").emplace_back(name, json_number(e.cpu_time));
    for (const auto& [counter, value] : e.counters) member(s.aggregates, counter).emplace_back(name, json_number(value));
  }

  // `later` holds rows of the same run_name that came after `s`'s; mirrors add().
  static bool merge_series(Series& s, Series&& later) {
    if (s.time_unit.empty()) s.time_unit = later.time_unit;
    if (!later.time_unit.empty() && later.time_unit != s.time_unit) return false;
    s.real_time.insert(s.real_time.end(), later.real_time.begin(), later.real_time.end());
    s.cpu_time.insert(s.cpu_time.end(), later.cpu_time.begin(), later.cpu_time.end());
    if (!s.iterations.empty() && !later.iterations.empty()) s.iterations += ',';
    s.iterations += later.iterations;
    for (auto& [name, values] : later.counters) {
      auto& mine = member(s.counters, name);
      mine.insert(mine.end(), values.begin(), values.end());
    }
    for (auto& [metric, values] : later.aggregates) {
      auto& mine = member(s.aggregates, metric);
      mine.insert(mine.end(), std::make_move_iterator(values.begin()), std::make_move_iterator(values.end()));
    }
    if (s.other.empty()) s.other = std::move(later.other);
    return true;
  }

  static void emit_metric(const Series& s, Dataset& dataset, const std::string& file, const std::string& metric,
                          const std::vector<double>& samples, std::string_view unit_symbol) {
    if (samples.empty()) return;
    Metadata metadata = s.other;
    metadata.emplace_back("iterations", fmt::format("[{}]", s.iterations));
    for (const auto& [m, values] : s.aggregates) {
      if (m == metric) metadata.emplace_back("aggregates", json_object(values));
    }
    SetOptions options;
    options.run = file;
    options.metadata = std::move(metadata);
    const Labels labels{{"benchmark", s.run_name}, {"metric", metric}};
    dataset.add_set(labels, samples, parse_unit(unit_symbol), options);
  }

  static void emit_series(const Series& s, Dataset& dataset, const std::string& file) {
    emit_metric(s, dataset, file, "real_time", s.real_time, s.time_unit);
    emit_metric(s, dataset, file, "cpu_time", s.cpu_time, s.time_unit);
    for (const auto& [counter, values] : s.counters) {
      if (values.size() != s.real_time.size()) {
        dataset.warn(fmt::format("{}: counter {} of {} appears in {} of {} repetitions", file, counter, s.run_name,
                                 values.size(), s.real_time.size()));
      }
      emit_metric(s, dataset, file, counter, values, counter_unit(counter));
    }
  }

  void report(Dataset& dataset, const std::string& file, std::size_t orphan_aggregates) const {
    if (aggregate_rows_ > 0) {
      dataset.warn(fmt::format("{}: kept {} aggregate rows apart from the samples (set metadata \"aggregates\")", file,
                               aggregate_rows_));
    }
    if (orphan_aggregates > 0) {
      dataset.warn(fmt::format("{}: {} benchmarks have aggregate rows but no iteration rows (run with "
                               "--benchmark_report_aggregates_only=false to get samples); their aggregates are not read",
                               file, orphan_aggregates));
    }
    if (!errors_.empty()) {
      dataset.warn(fmt::format("{}: {} benchmarks reported an error and have no samples: {}", file, errors_.size(),
                               fmt::join(errors_, "; ")));
    }
  }

  std::vector<Series> series_;
  std::unordered_map<std::string, std::size_t> series_index_;
  std::size_t last_series_ = static_cast<std::size_t>(-1);
  Entry entry_;
  std::size_t aggregate_rows_ = 0;
  std::uint64_t samples_ = 0;  // as JsonInput counts them, but summed over both parts by append()
  std::vector<std::string> errors_;
};

// The top-level object: "context", "benchmarks" and any other member, in order.
struct Document {
  std::string context = "{}";
  Metadata extra;
  std::size_t benchmarks_arrays = 0;
  bool benchmarks_last = false;  // "benchmarks" is the last member
};

Document read_document(JsonInput& json, RowAccumulator& rows) {
  Document doc;
  const JsonPath top;
  json.fields(json.root_object(), top, [&](std::string_view key, od::value& value, const JsonPath& path) {
    doc.benchmarks_last = key == "benchmarks";
    if (key == "context") {
      doc.context = json.raw_object(value, path);
    } else if (key == "benchmarks") {
      ++doc.benchmarks_arrays;
      rows.add_rows(json, value, path);
    } else {
      doc.extra.emplace_back(std::string(key), json.raw(value, path));
    }
  });
  json.finish();
  return doc;
}

Dataset make_dataset(Document&& doc, const RowAccumulator& rows, const std::string& file) {
  Dataset dataset;
  doc.extra.insert(doc.extra.begin(), {"context", std::move(doc.context)});
  dataset.add_run(file, json_object(doc.extra));
  rows.emit(dataset, file);
  return dataset;
}

Dataset read_in_one_pass(const Source& source) {
  JsonInput json(source);
  RowAccumulator rows;
  Document doc = read_document(json, rows);
  if (doc.benchmarks_arrays == 0) json.fail(JsonPath{}, "missing \"benchmarks\" (expected Google Benchmark JSON output)");
  return make_dataset(std::move(doc), rows, source.name);
}

constexpr std::size_t kMinSplitBytes = std::size_t{4} << 20;

// Each part is checked balanced (by the pre-pass, before any row is read: a
// cut in the wrong place, inside a row, usually shows here, cheaply).

// The tail array's rows; false when the tail is not exactly one complete array.
bool read_tail(const Source& tail, RowAccumulator& rows) {
  JsonInput json(tail);
  if (!json.shape().balanced()) return false;
  od::value root = json.root();
  rows.add_rows(json, root, JsonPath{});
  json.finish();
  return true;
}

// The head document; none unless "benchmarks" is its last member (so the
// cut array is that one) and appears once.
std::optional<Document> read_head(const Source& head, RowAccumulator& rows) {
  JsonInput json(head);
  if (!json.shape().balanced()) return std::nullopt;
  Document doc = read_document(json, rows);
  if (doc.benchmarks_arrays != 1 || !doc.benchmarks_last) return std::nullopt;
  return doc;
}

// Two threads: this one reads the head document (everything up to a cut in
// the middle of "benchmarks"), a second one the tail array. None when the
// parts do not make up the file exactly as one pass reads it, including any
// InputError in either part: the caller then reads it in one pass, which
// gives the result or the message of one pass. Other exceptions (out of
// memory) propagate; a thread that cannot be started is a decline.
std::optional<Dataset> read_in_two_parts(const Source& source, const ArraySplit& cut, char* bytes) {
  if (source.options.max_depth < 2) return std::nullopt;
  const SplitEdit edit(bytes, cut);
  // The tail starts one level down: its limit is one less, so that both parts refuse what one pass refuses.
  ReadOptions tail_options = source.options;
  tail_options.max_depth = source.options.max_depth - 1;
  // Each part is followed by the rest of the file and its padding: padded, and never changed by its reader.
  const Source head{.name = source.name, .bytes = source.bytes.substr(0, cut.boundary), .options = source.options,
                    .companion = {}, .padded = true, .writable = {}};
  const Source tail{.name = source.name, .bytes = source.bytes.substr(cut.boundary, cut.tail_end - cut.boundary),
                    .options = tail_options, .companion = {}, .padded = true, .writable = {}};
  RowAccumulator head_rows, tail_rows;
  bool tail_ok = false;
  std::exception_ptr tail_failure;
  std::thread tail_reader;
  try {
    tail_reader = std::thread([&] {
      try {
        tail_ok = read_tail(tail, tail_rows);
      } catch (const InputError&) {
      } catch (...) {
        tail_failure = std::current_exception();
      }
    });
  } catch (const std::system_error&) {
    return std::nullopt;
  }
  std::optional<Document> doc;
  std::exception_ptr head_failure;
  try {
    doc = read_head(head, head_rows);
  } catch (const InputError&) {
  } catch (...) {
    head_failure = std::current_exception();
  }
  tail_reader.join();
  if (head_failure) std::rethrow_exception(head_failure);
  if (tail_failure) std::rethrow_exception(tail_failure);
  if (!doc || !tail_ok || !head_rows.append(std::move(tail_rows)) || head_rows.samples() > source.options.max_samples) {
    return std::nullopt;
  }
  return make_dataset(std::move(*doc), head_rows, source.name);
}

}  // namespace

std::optional<Dataset> read_google_benchmark_in_two_parts(const Source& source) {
  // The size limit is one pass's to report (JsonInput checks each part only).
  if (!source.padded || !source.writable || source.bytes.size() > source.options.max_file_size) return std::nullopt;
  const auto cut = find_array_split(source.bytes, source.bytes.size() / 2);
  if (!cut) return std::nullopt;
  char* bytes = source.writable(cut->comma, cut->edit_length());
  return bytes != nullptr ? read_in_two_parts(source, *cut, bytes) : std::nullopt;
}

Dataset read_google_benchmark(const Source& source) {
  if (source.bytes.size() >= kMinSplitBytes && resolve_thread_count(source.options.threads, 2) >= 2) {
    if (auto dataset = read_google_benchmark_in_two_parts(source)) return std::move(*dataset);
  }
  return read_in_one_pass(source);
}

}  // namespace benchreport::io

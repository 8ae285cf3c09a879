// Google Benchmark JSON (--benchmark_out_format=json).
// One set per (run_name, metric): real_time, cpu_time and every counter;
// samples are the iteration rows in document (repetition) order. Aggregate
// rows (mean, median, stddev, cv, BigO, RMS) never become samples: they are
// kept in the set metadata under "aggregates" and counted in the warnings.
// This file reads the document around the rows (google_benchmark_rows.*),
// in one pass or, for a large file, as two parts on two threads.
#include <exception>
#include <fmt/format.h>
#include <optional>

#include "array_split.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/core/worker_pool.hpp"
#include "google_benchmark_rows.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

// The top-level object: "context", "benchmarks" and any other member, in order.
struct Document {
  std::string context = "{}";
  Metadata extra;
  std::size_t benchmarks_arrays = 0;
  bool benchmarks_last = false;  // "benchmarks" is the last member
};

Document read_document(JsonInput& json, GoogleBenchmarkRows& rows) {
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

Dataset make_dataset(Document&& doc, const GoogleBenchmarkRows& rows, const std::string& file) {
  Dataset dataset;
  doc.extra.insert(doc.extra.begin(), {"context", std::move(doc.context)});
  dataset.add_run(file, json_object(doc.extra));
  rows.emit(dataset, file);
  return dataset;
}

Dataset read_in_one_pass(const Source& source) {
  JsonInput json(source);
  GoogleBenchmarkRows rows;
  Document doc = read_document(json, rows);
  if (doc.benchmarks_arrays == 0)
    json.fail(JsonPath{}, "missing \"benchmarks\" (expected Google Benchmark JSON output)");
  return make_dataset(std::move(doc), rows, source.name);
}

constexpr std::size_t kMinSplitBytes = std::size_t{4} << 20;

// Each part is checked balanced (by the pre-pass, before any row is read: a
// cut in the wrong place, inside a row, usually shows here, cheaply).

// The tail array's rows; false when the tail is not exactly one complete array.
bool read_tail(const Source& tail, GoogleBenchmarkRows& rows) {
  JsonInput json(tail);
  if (!json.shape().balanced()) return false;
  od::value root = json.root();
  rows.add_rows(json, root, JsonPath{});
  json.finish();
  return true;
}

// The head document; none unless "benchmarks" is its last member (so the
// cut array is that one) and appears once.
std::optional<Document> read_head(const Source& head, GoogleBenchmarkRows& rows) {
  JsonInput json(head);
  if (!json.shape().balanced()) return std::nullopt;
  Document doc = read_document(json, rows);
  if (doc.benchmarks_arrays != 1 || !doc.benchmarks_last) return std::nullopt;
  return doc;
}

// Two parts, read at once when a helper thread is idle: the head document
// (everything up to a cut in the middle of "benchmarks") and the tail array. None when the
// parts do not make up the file exactly as one pass reads it, including any
// InputError in either part: the caller then reads it in one pass, which
// gives the result or the message of one pass. Other exceptions (out of
// memory) propagate.
std::optional<Dataset> read_in_two_parts(const Source& source, const ArraySplit& cut, char* bytes) {
  if (source.options.max_depth < 2) return std::nullopt;
  const SplitEdit edit(bytes, cut);
  // The tail starts one level down: its limit is one less, so that both parts refuse what one pass refuses.
  ReadOptions tail_options = source.options;
  tail_options.max_depth = source.options.max_depth - 1;
  // Each part is followed by the rest of the file and its padding: padded, and never changed by its reader.
  const Source head{.name = source.name,
                    .bytes = source.bytes.substr(0, cut.boundary),
                    .options = source.options,
                    .companion = {},
                    .padded = true,
                    .writable = {}};
  const Source tail{.name = source.name,
                    .bytes = source.bytes.substr(cut.boundary, cut.tail_end - cut.boundary),
                    .options = tail_options,
                    .companion = {},
                    .padded = true,
                    .writable = {}};
  GoogleBenchmarkRows head_rows, tail_rows;
  bool tail_ok = false;
  std::exception_ptr tail_failure;
  std::optional<Document> doc;
  std::exception_ptr head_failure;
  // Task 0 reads the head, task 1 the tail: on two threads when a helper is
  // idle, one after the other otherwise. Neither lets an exception out.
  fork_join(2, [&](unsigned part) {
    try {
      if (part == 0) {
        doc = read_head(head, head_rows);
      } else {
        tail_ok = read_tail(tail, tail_rows);
      }
    } catch (const InputError&) {
    } catch (...) {
      (part == 0 ? head_failure : tail_failure) = std::current_exception();
    }
  });
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

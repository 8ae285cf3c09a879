#pragma once
// Readers for benchmark result files and writers for the canonical formats.
#include <filesystem>
#include <iosfwd>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/comparability.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/core/json_limits.hpp"

namespace benchreport {

// Version string of the canonical JSON schema.
inline constexpr std::string_view kCanonicalSchema = "benchreport/1";

// Reads one file (or a directory: every file in it, recursively, sorted by
// path; a Nitro artifact folder is read as one). `format` is "auto" or one of
// reader_names(). Errors are InputError naming the file and the line or JSON path.
Dataset read(const std::filesystem::path& path, std::string_view format = "auto", const ReadOptions& options = {});

// Reads several files into one Dataset (in the given order).
Dataset read_many(std::span<const std::filesystem::path> paths, std::string_view format = "auto",
                  const ReadOptions& options = {});

// The inputs of br.load and the CLI: paths as given, glob patterns expanded (io/paths.hpp
// expand_paths), one Dataset per file in that order. InputError for a pattern nothing matches.
std::vector<Dataset> read_each(const std::vector<std::string>& items, std::string_view format = "auto",
                               const ReadOptions& options = {});

// read_each's Datasets as one (a single file's as it was read); InputError when no file is given.
Dataset read_inputs(const std::vector<std::string>& items, std::string_view format = "auto",
                    const ReadOptions& options = {});

// Parses bytes already in memory; `name` is used for detection (extension,
// file name) and in messages.
Dataset read_buffer(std::string_view bytes, std::string_view name, std::string_view format = "auto",
                    const ReadOptions& options = {});

// The reader name for a file, from its name and first bytes; throws
// InputError when no reader recognises it.
std::string detect_format(std::string_view name, std::string_view first_bytes);

// Which of benchreport's own reports the first bytes are: "a JSON report"
// ("schema": "benchreport-report/…"), "a CSV report" (a "# <table>" line, then
// a CSV header), "an HTML report" (class="benchreport"), "a Markdown report"
// (kMarkdownReportMarker first) or "a text report" (a title underlined with
// "=" to its width, as the text renderer begins); "" for anything else
// (benchmark results, canonical JSON/CSV). A folder read skips them with a
// warning; detect_format refuses them with a message saying so.
std::string_view own_report_kind(std::string_view first_bytes);

// "google-benchmark", "hyperfine", "pyperf", "pytest-benchmark", "go",
// "nitro", "criterion", "zfh", "bmf" (Bencher Metric Format), "json", "csv".
std::vector<std::string> reader_names();

// The metadata keys every reader declares must match between base and head
// (Google Benchmark and Go: `iterations`; Nitro: io/nitro.hpp; run metadata
// `commit` for any format), merged in that order: the comparison's defaults.
const Comparability& reader_comparability();

// How a format's results are presented, as its reader declares it: sections
// in this order with these titles, and a case name from a benchmark id, its
// section and its display name (nullptr: the display name, else the id).
struct FormatConventions {
  std::vector<std::string> section_order;
  std::map<std::string, std::string> section_titles;
  std::string (*case_name)(std::string_view id, std::string_view section, std::string_view display_name) = nullptr;
};

// The conventions of the format the dataset's runs were read with (Nitro's
// when a run was read by the Nitro reader); empty for every other format.
FormatConventions format_conventions(const Dataset& dataset);

// Canonical JSON (schema "benchreport/1"); values are written in each set's
// unit, shortest round-trip form.
void write_canonical_json(const Dataset& dataset, std::ostream& out);

// Canonical long CSV: label columns, unit, value (+ weight). Returns notes on
// what CSV cannot carry (run and set metadata, direction overrides, warnings)
// when the dataset has any of it.
std::vector<std::string> write_canonical_csv(const Dataset& dataset, std::ostream& out);

}  // namespace benchreport

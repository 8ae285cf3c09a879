#include "benchreport/store/summarise_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <simdjson.h>
#include <unordered_map>
#include <vector>

#include "benchreport/compare/series.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/json_writer.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/data/label_roles.hpp"
#include "benchreport/store/summary_cache.hpp"
#include "store/sqlite.hpp"

namespace benchreport::store {
namespace {

// One case_summaries row.
struct SummaryRow {
  std::string case_key;
  std::int64_t run_id = 0;
  std::int64_t position = 0;
  std::string labels;  // json.dumps(list(labels.items()))
  std::string unit, direction;
  double value = 0;
  std::int64_t processes = 0, samples = 0;
};

void add_unseen(std::vector<std::string>& names, std::string_view name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
}

// The case columns a dataset of one run alone has: the label names of its texts
// in order of appearance, the store's labels after each text's own, less commit
// and the per-process labels.
std::vector<std::string> run_columns(const std::vector<std::string>& texts, std::string_view where) {
  std::vector<std::string> all;
  simdjson::dom::parser parser;
  for (const std::string& text : texts) {
    simdjson::dom::object labels;
    if (parser.parse(text).get_object().get(labels) != simdjson::SUCCESS)
      throw InputError(fmt::format("{}: stored labels are not a JSON object: {}", where, text));
    for (auto field : labels)
      if (std::find(kStoreLabels.begin(), kStoreLabels.end(), field.key) == kStoreLabels.end())
        add_unseen(all, field.key);
    for (std::string_view name : kStoreLabels) add_unseen(all, name);
  }
  std::vector<std::string> out;
  for (std::string& name : all) {
    const bool skipped =
        name == "commit" || std::find(kProcessLabels.begin(), kProcessLabels.end(), name) != kProcessLabels.end();
    if (!skipped) out.push_back(std::move(name));
  }
  return out;
}

std::string labels_json(const std::vector<std::string>& names, const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}[{}, {}]", i ? ", " : "", ascii_json_string(names[i]), ascii_json_string(values[i]));
  return out + "]";
}

// case_summaries rows of each run summarised alone, from one dataset of all of
// them: the run label joins the case key, so each series is one (case, run)
// holding one commit, and one build_history summarises them all.
std::vector<SummaryRow> summary_rows(const Store& store, std::span<const StoredRun> runs, unsigned threads) {
  ReadRuns read = store.read_runs(runs);
  std::unordered_map<std::int64_t, std::vector<std::string>> columns_of;
  SeriesOptions options;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto& columns = columns_of[runs[i].run_id] = run_columns(read.label_texts[i], store.path());
    for (const std::string& c : columns) add_unseen(options.by, c);
  }
  options.by.emplace_back("run");
  const History history = build_history(read.dataset, options, threads);
  std::map<std::string, std::size_t> where;
  for (std::size_t i = 0; i < options.by.size(); ++i) where.emplace(options.by[i], i);
  std::unordered_map<std::int64_t, std::int64_t> positions;
  std::vector<SummaryRow> rows;
  for (const Series& s : history.series) {
    std::int64_t run_id = 0;
    const std::string& run = s.key.back();
    std::from_chars(run.data(), run.data() + run.size(), run_id);
    const auto& columns = columns_of.at(run_id);
    std::vector<std::string> values;
    for (const std::string& c : columns) values.push_back(s.key[where.at(c)]);
    rows.push_back({case_key(columns, values), run_id, positions[run_id]++, labels_json(columns, values), s.unit.symbol,
                    std::string(direction_name(s.direction)), s.values[0], static_cast<std::int64_t>(s.processes[0]),
                    static_cast<std::int64_t>(s.samples[0])});
  }
  // In key order: each case's rows go into one place of the (branch, case_key, run_id) index.
  std::stable_sort(rows.begin(), rows.end(), [](const SummaryRow& a, const SummaryRow& b) {
    return std::tie(a.case_key, a.run_id) < std::tie(b.case_key, b.run_id);
  });
  return rows;
}

void insert_rows(sqlite3* db, const std::string& branch, const std::vector<SummaryRow>& rows) {
  Statement insert(db,
                   "INSERT OR REPLACE INTO case_summaries(branch, case_key, run_id, position, labels, unit, direction,"
                   " value, processes, samples) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const SummaryRow& r : rows) {
    insert.reset();
    insert.bind(1, branch).bind(2, r.case_key).bind(3, r.run_id).bind(4, r.position).bind(5, r.labels);
    insert.bind(6, r.unit).bind(7, r.direction).bind(8, r.value).bind(9, r.processes).bind(10, r.samples);
    insert.step();
  }
}

}  // namespace

std::string ascii_json_string(std::string_view text) {
  const std::string plain = json_string(text);
  std::string out;
  for (std::size_t i = 0; i < plain.size();) {
    const auto byte = static_cast<unsigned char>(plain[i]);
    if (byte < 0x7f) {
      out += plain[i++];
      continue;
    }
    const std::size_t length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    char32_t code = length == 1 ? byte : byte & (0x7f >> length);
    for (std::size_t k = 1; k < length && i + k < plain.size(); ++k)
      code = (code << 6) | (static_cast<unsigned char>(plain[i + k]) & 0x3f);
    i += length;
    if (code >= 0x10000) {
      code -= 0x10000;
      out += fmt::format("\\u{:04x}\\u{:04x}", 0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff));
    } else {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(code));
    }
  }
  return out;
}

std::size_t summarise_new_runs(const Store& store, const std::string& branch, std::span<const StoredRun> runs,
                               bool rebuild, unsigned threads, const std::function<bool()>& should_stop) {
  sqlite3* db = store.handle();
  if (rebuild) {
    in_transaction(db, [&] {
      Statement remove(db, "DELETE FROM case_summaries WHERE branch = ?");
      remove.bind(1, branch);
      remove.step();
    });
  }
  std::set<std::int64_t> done;
  {
    Statement summarised(db, "SELECT DISTINCT run_id FROM case_summaries WHERE branch = ?");
    summarised.bind(1, branch);
    while (summarised.step()) done.insert(summarised.integer(0));
  }
  std::vector<StoredRun> fresh;
  for (const StoredRun& r : runs)
    if (!done.contains(r.run_id)) fresh.push_back(r);
  for (std::size_t begin = 0; begin < fresh.size(); begin += kRunsPerTransaction) {  // an interrupt keeps batches done
    const std::span<const StoredRun> batch(fresh.data() + begin, std::min(kRunsPerTransaction, fresh.size() - begin));
    const std::vector<SummaryRow> rows = summary_rows(store, batch, threads);
    in_transaction(db, [&] { insert_rows(db, branch, rows); });
    const std::size_t done_runs = begin + batch.size();
    if (done_runs < fresh.size() && should_stop && should_stop()) return done_runs;
  }
  return fresh.size();
}

}  // namespace benchreport::store

// Bindings for store/store.hpp, store/write_runs.hpp and store/run_rows.hpp:
// the results store's one connection (open, record, import, export, reading
// runs back) and a dataset as one run's rows. benchreport.store wraps them.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "benchreport/core/python_text.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/store/acknowledge.hpp"
#include "benchreport/store/environment_diff.hpp"
#include "benchreport/store/run_context.hpp"
#include "benchreport/store/run_rows.hpp"
#include "benchreport/store/store.hpp"
#include "benchreport/store/summarise_runs.hpp"
#include "benchreport/store/summary_cache.hpp"
#include "benchreport/store/utc_time.hpp"
#include "benchreport/store/write_runs.hpp"
#include "arrays.hpp"
#include "exceptions.hpp"
#include "interruptible.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

using benchreport::Dataset;
using store::SetRow;
using store::StoredRun;

// A run as Python names it to a read: (run_id, commit_sha, branch).
using RunTuple = std::tuple<std::int64_t, std::string, std::string>;

std::vector<StoredRun> stored_runs(const std::vector<RunTuple>& runs) {
  std::vector<StoredRun> infos;
  for (const auto& [run_id, commit, branch] : runs) {
    StoredRun& info = infos.emplace_back();
    info.run_id = run_id;
    info.commit_sha = commit;
    info.branch = branch;
  }
  return infos;
}

py::tuple run_tuple(const StoredRun& r) {
  return py::make_tuple(r.run_id, r.commit_sha, r.branch, r.time, r.seq, r.tool, r.source, r.environment_json);
}

std::optional<py::bytes> optional_bytes(const std::optional<std::string>& bytes) {
  if (!bytes) return std::nullopt;
  return py::bytes(*bytes);
}

py::tuple set_tuple(const SetRow& s) {
  return py::make_tuple(s.name, s.labels, s.unit, s.process, py::bytes(s.samples), optional_bytes(s.iterations),
                        s.direction, s.exact, s.file, s.metadata);
}

template <class T>
std::optional<T> optional_cell(const py::handle& cell) {
  if (cell.is_none()) return std::nullopt;
  return cell.cast<T>();
}

// A `sets` row from Python (name, labels, unit, process, samples, iterations, direction, exact, file, metadata).
SetRow set_row(const py::handle& row) {
  const auto cells = py::reinterpret_borrow<py::sequence>(row);
  return {cells[0].cast<std::string>(),          cells[1].cast<std::string>(),
          cells[2].cast<std::string>(),          optional_cell<std::int64_t>(cells[3]),
          cells[4].cast<std::string>(),          optional_cell<std::string>(cells[5]),
          optional_cell<std::string>(cells[6]),  optional_cell<std::int64_t>(cells[7]),
          optional_cell<std::int64_t>(cells[8]), optional_cell<std::string>(cells[9])};
}

py::list file_tuples(const std::vector<store::FileRow>& files) {
  py::list out;
  for (const auto& f : files) out.append(py::make_tuple(f.position, f.file, f.format, f.metadata));
  return out;
}

// A run of an export: its _runs.arrow row (a dict: run_id, seq, content_hash, commit_sha, branch, time,
// tool, source, environment, warnings, files as JSON, checksum) and its sets rows.
store::FullRun full_run(const py::dict& run, const py::iterable& sets) {
  const auto text = [&](const char* key) { return run[key].cast<std::string>(); };
  const auto optional_text = [&](const char* key) { return optional_cell<std::string>(run[key]); };
  store::FullRun out{optional_cell<std::int64_t>(run["run_id"]),
                     optional_cell<std::int64_t>(run["seq"]),
                     text("commit_sha"),
                     text("branch"),
                     text("time"),
                     optional_text("source"),
                     optional_text("environment"),
                     {},
                     optional_text("checksum")};
  out.rows.content_hash = text("content_hash");  // as stored: a harness may have written its own
  out.rows.tool = optional_text("tool");
  out.rows.warnings = optional_text("warnings");
  for (const auto& f : py::module_::import("json").attr("loads")(run["files"])) {
    const auto file = py::reinterpret_borrow<py::sequence>(f);
    out.rows.files.push_back({file[0].cast<std::int64_t>(), file[1].cast<std::string>(),
                              optional_cell<std::string>(file[2]), file[3].cast<std::string>()});
  }
  for (const auto& row : sets) out.rows.sets.push_back(set_row(row));
  return out;
}

// The columns of an export's _sets.arrow, in order.
constexpr std::array<const char*, 11> kExportSetColumns{"run_id", "name", "labels",   "unit", "process",   "direction",
                                                        "exact",  "file", "metadata", "n",    "iterations"};

// One run as Python's export writes it (see the export_sets binding).
py::dict export_sets(const store::Store& s, std::int64_t run_id, const std::string& commit_sha,
                     const std::string& branch, const std::vector<std::string>& columns) {
  const std::vector<SetRow> rows = store::export_sets(s, run_id);
  std::vector<double> values;
  std::vector<std::int64_t> counts;
  std::vector<py::list> sets(kExportSetColumns.size());
  py::list units;
  for (const SetRow& row : rows) {
    const std::size_t n = row.samples.size() / sizeof(double);
    values.resize(values.size() + n);
    if (n != 0) std::memcpy(values.data() + values.size() - n, row.samples.data(), row.samples.size());
    counts.push_back(static_cast<std::int64_t>(n));
    units.append(row.unit);
    const py::tuple cells = py::make_tuple(run_id, row.name, row.labels, row.unit, row.process, row.direction,
                                           row.exact, row.file, row.metadata, n, optional_bytes(row.iterations));
    for (std::size_t c = 0; c < sets.size(); ++c) sets[c].append(cells[c]);
  }
  py::dict set_columns;
  for (std::size_t c = 0; c < sets.size(); ++c) set_columns[kExportSetColumns[c]] = sets[c];
  py::dict out;
  out["values"] = py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
  out["counts"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(counts.size()), counts.data());
  out["units"] = units;
  out["labels"] = py::cast(store::label_table(rows, columns, s.path()));
  out["sets"] = set_columns;
  out["checksum"] = store::content_hash(commit_sha, branch, rows);
  return out;
}

// SQLite errors as benchreport.store.StoreError, a sqlite3.OperationalError (so `except
// sqlite3.OperationalError` keeps working); the text keeps a non-UTF-8 file name's bytes.
void register_store_error(py::module_& m) {
  register_decoded_exception<store::StoreError>(
      m, "StoreError", py::module_::import("sqlite3").attr("OperationalError"),
      "An SQLite failure on a store file (busy, locked, full, closed, I/O); the message names the file.");
}

Labels labels_of(const std::map<std::string, std::string>& pairs) { return {pairs.begin(), pairs.end()}; }

template <std::size_t N>
py::tuple string_tuple(const std::array<std::string_view, N>& texts) {
  py::tuple out(N);
  for (std::size_t i = 0; i < N; ++i) out[i] = py::str(std::string(texts[i]));
  return out;
}

// The change point a user names (store/acknowledge.hpp), marked acknowledged; the messages
// quote the user's words as Python shows them, like the rest of the command line.
py::tuple acknowledge(const store::Store& s, const std::string& spec, const std::string& commit,
                      const std::string& note, const std::optional<std::string>& branch) {
  const auto rows = store::matching_change_points(s, spec, commit, branch);
  const std::string where = fmt::format("case {} at commit {}{}", repr_text(spec), repr_text(commit),
                                        branch && !branch->empty() ? " on branch " + repr_text(*branch) : "");
  if (rows.empty()) {
    throw InputError(
        fmt::format("{}: no change point of {} (run benchreport history --store first; "
                    "CASE is LABEL=VALUE[,LABEL=VALUE] or one label's value)",
                    s.path(), where));
  }
  if (rows.size() > 1) {
    std::string listed;
    for (std::size_t i = 0; i < rows.size() && i < 5; ++i)
      listed += fmt::format("{}{} at {} on {}", i ? "; " : "", rows[i].case_key, rows[i].commit_sha, rows[i].branch);
    throw InputError(fmt::format("{}: {} change points match {}: {}; name more labels, the full commit or --branch",
                                 s.path(), rows.size(), where, listed));
  }
  store::acknowledge_change_point(s, rows[0].change_id, note);
  return py::make_tuple(rows[0].case_key, rows[0].commit_sha);
}

}  // namespace

void register_store(py::module_& m) {
  register_store_error(m);
  py::class_<store::Store>(m, "Store",
                           "The results store's one SQLite connection (store/store.hpp): every read and write of\n"
                           "the file goes through it. See benchreport.store.")
      .def_static(
          "open",
          [](const py::bytes& path, bool create, double busy_timeout) {
            std::string file = path;
            py::gil_scoped_release release;
            return store::Store::open(file, create, busy_timeout);
          },
          "path"_a, "create"_a = true, "busy_timeout"_a = store::kDefaultBusyTimeout,
          "Opens (with create, makes) the store at ``path`` (bytes, os.fsencode's), migrating an older schema\n"
          "forward.")
      .def_property_readonly(
          "path",
          [](const store::Store& s) -> py::str {
            return py::module_::import("os").attr("fsdecode")(py::bytes(s.path()));
          },
          "The store's file, as os.fsdecode gives it.")
      .def_property_readonly("schema_version", &store::Store::schema_version)
      .def("close", &store::Store::close, "Closes the connection; closing again does nothing.")
      .def(
          "record",
          [](const store::Store& s, const Dataset& dataset, const std::string& source,
             const std::optional<std::string>& commit, const std::optional<std::string>& branch,
             const std::optional<std::string>& time, const std::map<std::string, std::string>& ci,
             const std::map<std::string, std::string>& env) {
            const store::RecordRequest request{source, commit, branch, time, labels_of(ci), labels_of(env)};
            py::gil_scoped_release release;
            const store::Recorded recorded = store::record(s, dataset, request);
            return std::make_tuple(recorded.run_id, recorded.note);
          },
          "dataset"_a, "source"_a, "commit"_a = py::none(), "branch"_a = py::none(), "time"_a = py::none(),
          "ci"_a = std::map<std::string, std::string>(), "env"_a = std::map<std::string, std::string>(),
          "Stores ``dataset`` (read from ``source``, its files one a line) as one run in one transaction:\n"
          "(run id, note), or (None, note) when a run with the same content is stored. The commit and branch\n"
          "come from the files' metadata, else ``commit``/``branch``; ``time`` is ISO-8601 (None: now), kept\n"
          "in UTC; the environment is the tool's context, ``ci`` and ``env``.")
      .def(
          "import_runs",
          [](const store::Store& s, const std::vector<std::pair<py::dict, py::iterable>>& runs,
             const std::string& where) {
            std::vector<store::FullRun> given;
            for (const auto& [run, sets] : runs) given.push_back(full_run(run, sets));
            py::gil_scoped_release release;
            const store::ImportCounts counts = store::import_runs(s, given, where);
            return std::make_tuple(counts.imported, counts.skipped);
          },
          "runs"_a, "where"_a,
          "Adds the runs of an export (read from ``where``) in one transaction: (imported, skipped). Each run\n"
          "is (its _runs.arrow row as a dict, its sets rows as store_run_rows gives them); its checksum must\n"
          "match the rows (else InputError, nothing added). Into an empty store ids and seqs are kept, else\n"
          "runs are appended; a run whose content_hash is stored is skipped.")
      .def(
          "export_runs",
          [](const store::Store& s) {
            std::map<std::string, py::list> columns;
            for (const store::FullRun& r : store::export_runs(s)) {
              columns["run_id"].append(*r.run_id);
              columns["content_hash"].append(r.rows.content_hash);
              columns["commit_sha"].append(r.commit_sha);
              columns["branch"].append(r.branch);
              columns["time"].append(r.time);
              columns["seq"].append(*r.seq);
              columns["tool"].append(r.rows.tool);
              columns["source"].append(r.source);
              columns["warnings"].append(r.rows.warnings);
              columns["environment"].append(r.environment_json);
              columns["files"].append(file_tuples(r.rows.files));
            }
            py::dict out;  // in _runs.arrow's column order
            for (const char* name : {"run_id", "content_hash", "commit_sha", "branch", "time", "seq", "tool", "source",
                                     "warnings", "environment", "files"}) {
              out[name] = columns[name];
            }
            return out;
          },
          "Every run by id, as columns: run_id, content_hash, commit_sha, branch, time, seq, tool, source,\n"
          "warnings JSON, environment JSON, files as (position, file, format, metadata).")
      .def(
          "export_sets",
          [](const store::Store& s, std::int64_t run_id, const std::string& commit_sha, const std::string& branch,
             const std::vector<std::string>& columns) { return export_sets(s, run_id, commit_sha, branch, columns); },
          "run_id"_a, "commit_sha"_a, "branch"_a, "columns"_a,
          "One run as an export writes it, a dict: ``values`` (every sample, float64, sets in recorded order),\n"
          "``counts`` (samples per set), ``units``, ``labels`` (per column, each set's value or None),\n"
          "``sets`` (the _sets.arrow columns: run_id, name, labels, unit, process, direction, exact, file,\n"
          "metadata, n, iterations) and ``checksum`` (the content hash of the rows; blobs are checked).")
      .def("label_names", &store::label_names,
           "Every label name of the stored sets, sorted, less the store's own (commit, branch, run).")
      .def(
          "runs",
          [](const store::Store& s, const std::optional<std::string>& branch) {
            py::list out;
            for (const StoredRun& r : s.runs(branch)) out.append(run_tuple(r));
            return out;
          },
          "branch"_a = py::none(),
          "Runs as (run_id, commit_sha, branch, time, seq, tool, source, environment JSON) by branch, seq, id.")
      .def(
          "run", [](const store::Store& s, std::int64_t run_id) { return run_tuple(s.run(run_id)); }, "run_id"_a,
          "One run as runs() gives it; InputError when there is none.")
      .def(
          "read_runs",
          [](const store::Store& s, const std::vector<RunTuple>& runs) {
            const std::vector<StoredRun> infos = stored_runs(runs);
            store::ReadRuns read = [&] {
              py::gil_scoped_release release;
              return s.read_runs(infos);
            }();
            return py::make_tuple(py::cast(std::move(read.dataset)), py::cast(read.label_texts));
          },
          "runs"_a,
          "The sets of runs given as (run_id, commit_sha, branch), as one Dataset, and per run its distinct "
          "label texts as stored.")
      .def(
          "cached_history",
          [](const store::Store& s, const std::string& branch, const std::vector<RunTuple>& runs, long long threads) {
            const std::vector<StoredRun> infos = stored_runs(runs);
            const auto workers = static_cast<unsigned>(non_negative(threads, "threads"));
            py::gil_scoped_release release;
            return store::cached_branch_history(s, branch, infos, workers);
          },
          "branch"_a, "runs"_a, "threads"_a = 0,
          "The History of ``branch`` from its case_summaries rows (store/summary_cache.hpp); ``runs`` are the\n"
          "branch's runs in order as (run_id, commit_sha, branch).")
      .def(
          "summarise_new_runs",
          [](const store::Store& s, const std::string& branch, const std::vector<RunTuple>& runs, bool rebuild,
             long long threads) {
            const std::vector<StoredRun> infos = stored_runs(runs);
            const auto workers = static_cast<unsigned>(non_negative(threads, "threads"));
            return interruptible([&](const std::function<bool()>& should_stop) {
              return store::summarise_new_runs(s, branch, infos, rebuild, workers, should_stop);
            });
          },
          "branch"_a, "runs"_a, "rebuild"_a = false, "threads"_a = 0,
          "Adds the case_summaries rows of the branch's runs (as cached_history takes them) not yet summarised\n"
          "(rebuild: all again), in transactions of STORE_RUNS_PER_TRANSACTION runs; returns how many runs.\n"
          "Ctrl-C stops after the batch being summarised, which is kept, and raises KeyboardInterrupt.")
      .def("acknowledge", &acknowledge, "case"_a, "commit"_a, "note"_a, "branch"_a = py::none(),
           "Marks the change point of ``case`` at ``commit`` (a full sha or a unique prefix) acknowledged,\n"
           "with ``note``; returns (case key, commit sha). A history must have found it first. CASE is\n"
           "LABEL=VALUE[,LABEL=VALUE] or one label's value.");

  m.def(
      "store_run_rows",
      [](const Dataset& dataset, const std::string& commit_sha, const std::string& branch) {
        const store::RunRows rows = store::run_rows(dataset, commit_sha, branch);
        py::list files = file_tuples(rows.files);
        py::list sets;
        for (const auto& s : rows.sets) sets.append(set_tuple(s));
        return py::make_tuple(rows.content_hash, rows.tool, rows.warnings, files, sets);
      },
      "dataset"_a, "commit_sha"_a, "branch"_a,
      "A dataset as one stored run: (content hash, tool, warnings JSON, run_files rows, sets rows).");
  m.def(
      "store_content_hash",
      [](const std::string& commit_sha, const std::string& branch, const py::iterable& rows) {
        std::vector<SetRow> sets;
        for (const auto& row : rows) sets.push_back(set_row(row));
        return store::content_hash(commit_sha, branch, sets);
      },
      "commit_sha"_a, "branch"_a, "rows"_a,
      "SHA-256 of what makes a run the same run: commit, branch and, per set in order, labels, unit, direction,\n"
      "samples and iterations (rows as ``sets`` columns name..metadata). Time, environment and file names are\n"
      "left out: recording the same results again is a duplicate.");
  m.def(
      "store_check_blob",
      [](const std::string& where, const py::object& blob, std::int64_t set_id, const std::string& column,
         std::optional<std::size_t> size) {
        const bool is_bytes = py::isinstance<py::bytes>(blob);
        const std::optional<std::size_t> bytes =
            is_bytes ? std::optional<std::size_t>(py::len(blob)) : std::optional<std::size_t>();
        store::check_blob(where, bytes, py::type::of(blob).attr("__name__").cast<std::string>(), set_id, column, size);
      },
      "where"_a, "blob"_a, "set_id"_a, "column"_a, "size"_a = py::none(),
      "A samples/iterations blob must be whole float64 values (and as long as the samples); ``where``\n"
      "names the store file in the error.");
  m.attr("STORE_SCHEMA_VERSION") = store::kSchemaVersion;
  m.attr("STORE_APPLICATION_ID") = store::kApplicationId;
  m.attr("STORE_CACHE_KIB") = store::kCacheKib;
  m.attr("STORE_BUSY_TIMEOUT") = store::kDefaultBusyTimeout;
  m.def("store_case_key", &store::case_key, "names"_a, "values"_a,
        "A case's key in the store: its labels as a JSON object, keys sorted (json.dumps(sort_keys=True,\n"
        "separators=(\",\", \":\"), ensure_ascii=False)).");
  m.attr("STORE_RUNS_PER_TRANSACTION") = store::kRunsPerTransaction;
  m.attr("STORE_LABELS") = string_tuple(store::kStoreLabels);
  // Lists, not tuples: the stub generator writes a 1-tuple without its comma.
  m.attr("STORE_COMMIT_KEYS") = py::list(string_tuple(store::kCommitKeys));
  m.attr("STORE_BRANCH_KEYS") = py::list(string_tuple(store::kBranchKeys));
  m.attr("STORE_CI_VARIABLES") = string_tuple(store::kCiVariables);
  m.def("store_utc_time", &store::utc_time, "text"_a = py::none(),
        "A run's time as the store keeps it: ISO-8601 ``text`` (as datetime.fromisoformat reads it; no zone\n"
        "is UTC) in UTC, YYYY-MM-DDTHH:MM:SS[.ffffff]Z; the current second when None. InputError otherwise.");
  m.def(
      "store_agreed_value",
      [](const Dataset& dataset, const std::vector<std::string>& keys, const std::string& what) {
        const std::vector<std::string_view> views(keys.begin(), keys.end());
        return store::agreed_metadata_value(dataset, views, what);
      },
      "dataset"_a, "keys"_a, "what"_a,
      "The value the files' metadata gives for the first of keys found (shallowest first), or None;\n"
      "InputError when two files name different values.");
  m.def(
      "store_run_identity",
      [](const Dataset& dataset, const std::optional<std::string>& commit, const std::optional<std::string>& branch,
         const std::string& source) {
        const store::RunIdentity identity = store::run_identity(dataset, commit, branch, source);
        return py::make_tuple(identity.commit_sha, identity.branch);
      },
      "dataset"_a, "commit"_a, "branch"_a, "source"_a,
      "(commit, branch) of a run read from source (its files, one a line): the files' metadata wins, a\n"
      "different flag value is an InputError, and so is neither.");
  m.def(
      "store_environment_json",
      [](const Dataset& dataset, const std::map<std::string, std::string>& ci,
         const std::map<std::string, std::string>& env) {
        return store::environment_json(dataset, labels_of(ci), labels_of(env));
      },
      "dataset"_a, "ci"_a, "env"_a,
      "The environment a run records, as canonical JSON: the CI variables, the user's facts and the tool\n"
      "context every file agrees on (volatile keys such as dates and load left out).");
  // The store history (store/alert_states.hpp, store/environment_diff.hpp; register_history.cpp).
  m.def(
      "store_environment_diff",
      [](const std::string& old_json, const std::string& new_json) {
        const py::object loads = py::module_::import("json").attr("loads");
        const auto value = [&](const std::optional<std::string>& json) { return json ? loads(*json) : py::none(); };
        py::list out;
        for (const auto& c : store::environment_diff(old_json, new_json))
          out.append(py::make_tuple(c.key, value(c.old_value), value(c.new_value)));
        return out;
      },
      "old_json"_a, "new_json"_a,
      "What changed between two environments (JSON objects, '' = none): (dotted key, old value, new value)\n"
      "sorted by key, None where a side lacks the key; nested objects are dotted keys, lists are values.");
  m.def(
      "store_environment_cause",
      [](const std::string& old_json, const std::string& new_json) {
        return store::environment_cause(store::environment_diff(old_json, new_json));
      },
      "old_json"_a, "new_json"_a,
      "A change point's likely cause: 'environment changed: key: old \u2192 new; ...' (at most 4, then\n"
      "' (+N more)'), values as Python's str() prints them, '(none)' for a missing side; '' when equal.");
  bind_store_history(m);
}

}  // namespace benchreport::python

// Bindings for benchreport.dask and benchreport.launch_noise in _core: which labels name a case
// (data/label_roles.hpp case_labels), the checks that each case lies whole in one partition
// (data/whole_cases.hpp), and the runs of a store's Parquet export grouped by commit
// (io/store_export.hpp), and the per-commit and per-partition work of benchreport.dask.store_history
// (compare/export_history.hpp). Dask, pandas and pyarrow stay in Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "arrays.hpp"
#include "benchreport/compare/export_history.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/label_roles.hpp"
#include "benchreport/data/whole_cases.hpp"
#include "benchreport/io/store_export.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {

namespace {

// float64 values from little-endian bytes (the export's sample and iterations blobs), on any host.
std::vector<double> little_endian_doubles(const std::string& blob, std::string_view what) {
  if (blob.size() % 8 != 0) throw InputError(std::string(what) + ": not whole float64 values");
  std::vector<double> out(blob.size() / 8);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint64_t bits = 0;
    for (std::size_t b = 0; b < 8; ++b) bits |= std::uint64_t(static_cast<unsigned char>(blob[8 * i + b])) << (8 * b);
    out[i] = std::bit_cast<double>(bits);
  }
  return out;
}

// (run id, labels JSON, unit, samples, iterations, direction, exact) of one set.
using SetRow = std::tuple<std::int64_t, std::string, std::string, py::bytes, std::optional<py::bytes>,
                          std::optional<std::string>, bool>;

py::tuple summarise_commit(const std::vector<SetRow>& rows, const std::string& commit, const std::string& branch,
                           const std::string& where, unsigned threads) {
  std::vector<ExportSet> sets;
  for (const auto& [run, labels, unit, samples, iterations, direction, exact] : rows) {
    const std::string what = where + ": run " + std::to_string(run);
    std::optional<std::vector<double>> weights;
    if (iterations) weights = little_endian_doubles(std::string(*iterations), what + " iterations");
    sets.push_back({run, labels, unit, direction, exact, little_endian_doubles(std::string(samples), what), weights});
  }
  CommitCaseSummaries s;
  {
    py::gil_scoped_release release;
    s = summarise_export_commit(sets, commit, branch, where, threads);
  }
  py::dict out;
  out["case_key"] = s.case_key;
  out["unit"] = s.unit;
  out["direction"] = s.direction;
  out["value"] = s.value;
  out["processes"] = s.processes;
  out["samples"] = s.samples;
  return py::make_tuple(out, s.by);
}

}  // namespace

void register_dask(py::module_& m) {
  m.def(
      "case_labels",
      [](const std::vector<std::string>& columns, const std::vector<std::string>& excluded,
         const std::vector<std::string>& by) { return case_labels(columns, excluded, by); },
      "The labels naming a case: ``by`` when given, else every column neither in ``excluded`` nor a "
      "per-process label (PROCESS_LABELS).",
      "columns"_a, "excluded"_a, "by"_a = std::vector<std::string>{});
  m.def(
      "require_case_columns",
      [](const std::vector<std::string>& by, const std::vector<std::string>& cases, const std::string& caller) {
        require_case_columns(by, cases, caller);
      },
      "InputError unless ``by`` is empty or holds every case column: a summary group must not span partitions.", "by"_a,
      "cases"_a, "caller"_a);
  m.def(
      "refuse_split_cases",
      [](const std::vector<std::string>& columns, const py::object& keys) {
        std::vector<std::vector<std::string>> texts;  // each value as Python's str() of it
        for (const std::string& c : columns) {
          auto& column = texts.emplace_back();
          for (const auto& value : keys[py::str(c)].attr("tolist")()) column.emplace_back(py::str(value));
        }
        refuse_split_cases(columns, texts);
      },
      "InputError naming the first case key seen twice in ``keys`` (a DataFrame holding each partition's "
      "distinct keys, concatenated; values compared as text): that case is split across partitions.",
      "columns"_a, "keys"_a);
  m.def(
      "export_commits",
      [](const std::vector<std::int64_t>& run_ids, const std::vector<std::string>& branches,
         const std::vector<std::string>& commits, const std::vector<std::int64_t>& seqs, const std::string& branch,
         const std::string& where) {
        const auto groups = export_commits(run_ids, branches, commits, seqs, branch);
        if (groups.empty()) {
          throw InputError(where + ": no runs of branch " + std::string(py::repr(py::str(branch))) + " in this export");
        }
        py::list out;
        for (const auto& group : groups) {
          py::list runs;
          for (const auto& r : group) runs.append(py::make_tuple(r.run, r.batch, r.commit, r.seq));
          out.append(runs);
        }
        return out;
      },
      "The runs of ``branch`` in a store's Parquet export (the columns of its _runs.arrow) grouped by "
      "commit in branch order, each as (run id, its batch in _sets.arrow, commit, seq); InputError naming "
      "``where`` (the export) when the branch has no run.",
      "run_ids"_a, "branches"_a, "commits"_a, "seqs"_a, "branch"_a, py::kw_only(), "where"_a);
  m.def("summarise_export_commit", &summarise_commit,
        "One commit's sets of a store export, each (run id, labels JSON, unit, samples bytes, iterations bytes or "
        "None, direction or None, exact), summarised per case as ``history --store`` summarises a commit: "
        "(columns case_key, unit, direction, value, processes, samples; the case columns).",
        "sets"_a, "commit"_a, "branch"_a, "where"_a, "threads"_a = 1);
  m.def(
      "export_summary_schema", [] { return columns_dict(export_summary_schema()); },
      "The columns of summarise_export_commit's rows with each row's commit index and position, as empty numpy "
      "arrays of their dtypes (object, int64, float64): the frame store_history shuffles by case.");
  m.def(
      "assemble_export_cases",
      [](const std::vector<std::string>& case_key, const std::vector<std::string>& unit,
         const std::vector<std::string>& direction, const IndexArray& commit, const IndexArray& position,
         const DoubleArray& value, const IndexArray& processes, const IndexArray& samples, std::vector<std::string> by,
         std::vector<std::string> commits) {
        const ExportSummaryRows rows{case_key,
                                     unit,
                                     direction,
                                     one_dimensional(commit, "commit"),
                                     one_dimensional(position, "position"),
                                     one_dimensional(value, "value"),
                                     one_dimensional(processes, "processes"),
                                     one_dimensional(samples, "samples")};
        py::gil_scoped_release release;
        return assemble_export_cases(rows, std::move(by), std::move(commits));
      },
      "The History of commit summaries holding whole cases (the columns of summarise_export_commit with each "
      "row's commit index and position), and each case's first (commit, position), cases in that order.",
      "case_key"_a, "unit"_a, "direction"_a, "commit"_a, "position"_a, "value"_a, "processes"_a, "samples"_a,
      py::kw_only(), "by"_a, "commits"_a);
}

}  // namespace benchreport::python

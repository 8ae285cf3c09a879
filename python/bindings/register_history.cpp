// Bindings for stats/edivisive.hpp, compare/series.hpp, compare/history.hpp,
// compare/cached_history.hpp, presets/history.hpp and the inputs of a
// history: io/commit_entries.hpp, data/label_commits.hpp, data/long_table.hpp (br.read_arrow).
// The Python skins are python/benchreport/_history.py and _store_history.py; store_history
// (store/alert_states.hpp) is bound by register_store after the Store class (bind_store_history).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fmt/format.h>

#include <functional>

#include "benchreport/core/python_text.hpp"
#include "benchreport/data/direction.hpp"
#include "benchreport/compare/cached_history.hpp"
#include "benchreport/compare/history.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/csr.hpp"
#include "benchreport/data/label_commits.hpp"
#include "benchreport/data/long_table.hpp"
#include "benchreport/io/commit_entries.hpp"
#include "benchreport/presets/history.hpp"
#include "benchreport/stats/edivisive.hpp"
#include "benchreport/stats/pelt.hpp"
#include "benchreport/stats/steps.hpp"
#include "benchreport/store/alert_states.hpp"
#include "benchreport/store/run_context.hpp"
#include "benchreport/store/summarise_runs.hpp"
#include "benchreport/store/summary_cache.hpp"
#include "arrays.hpp"
#include "interruptible.hpp"
#include "preset_results.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

WithinMean parse_within(const std::string& name) {
  if (name == "pairs") return WithinMean::pairs;
  if (name == "squares") return WithinMean::squares;
  throw InputError(fmt::format("within is '{}': expected 'pairs' or 'squares'", name));
}

EDivisiveOptions detect_options(double max_p_value, long long permutations, long long min_segment, std::uint64_t seed,
                                const std::string& within, bool search_end, double screen_p_value) {
  return {max_p_value,
          non_negative(permutations, "permutations"),
          non_negative(min_segment, "min_segment"),
          seed,
          parse_within(within),
          search_end,
          screen_p_value};
}

ChangeMethod parse_method(const std::string& name) {
  if (name == "steps") return ChangeMethod::steps;
  if (name == "e_divisive") return ChangeMethod::e_divisive;
  throw InputError(fmt::format("method is '{}': expected 'steps' or 'e_divisive'", name));
}

StepOptions step_options(long long min_segment, double threshold, double min_effect, long long window) {
  StepOptions o;
  o.min_segment = non_negative(min_segment, "step_min_segment");
  o.threshold = threshold;
  o.min_effect = min_effect;
  o.window = non_negative(window, "window");
  return o;
}

Series make_series(std::vector<std::string> key, const std::string& unit, const std::string& direction,
                   std::vector<std::size_t> commits, std::vector<double> values, std::vector<std::size_t> processes,
                   std::vector<std::size_t> samples) {
  const Direction parsed = parse_direction(direction, "series direction");
  const std::size_t n = commits.size();
  if (values.size() != n || processes.size() != n || samples.size() != n || n == 0) {
    throw InputError(
        fmt::format("series {}: commits, values, processes and samples must have one equal, non-zero "
                    "length (got {}, {}, {}, {})",
                    join_key(key), n, values.size(), processes.size(), samples.size()));
  }
  for (std::size_t i = 1; i < n; ++i) {
    if (commits[i] <= commits[i - 1])
      throw InputError(fmt::format("series {}: commits must be strictly increasing", join_key(key)));
  }
  return {std::move(key),       parse_unit_or_custom(unit), parsed, std::move(commits), std::move(values),
          std::move(processes), std::move(samples)};
}

History make_history(std::string order, std::vector<std::string> by, std::vector<std::string> commits,
                     std::vector<Series> series) {
  for (const Series& s : series) {
    if (s.key.size() != by.size())
      throw InputError(
          fmt::format("series {}: {} key values for {} `by` columns", join_key(s.key), s.key.size(), by.size()));
    if (s.commits.back() >= commits.size())
      throw InputError(fmt::format("series {}: commit index {} beyond the {} commits", join_key(s.key),
                                   s.commits.back(), commits.size()));
  }
  return {std::move(order), std::move(by), std::move(commits), std::move(series)};
}

CachedRows cached_rows(const IndexArray& case_code, const IndexArray& run, const IndexArray& position,
                       const DoubleArray& value, const IndexArray& processes, const IndexArray& samples) {
  return {one_dimensional(case_code, "case"),      one_dimensional(run, "run"),
          one_dimensional(position, "position"),   one_dimensional(value, "value"),
          one_dimensional(processes, "processes"), one_dimensional(samples, "samples")};
}

// (labels as (name, value) pairs, unit symbol, "lower" | "higher") of each case, as the store has them.
using CaseTuple = std::tuple<std::vector<std::pair<std::string, std::string>>, std::string, std::string>;
// (case code, commit index, value, processes, samples) of a commit's runs pooled.
using PooledTuple = std::tuple<long long, long long, double, long long, long long>;

void bind_cached_history(py::module_& m) {
  m.def(
      "cached_first_rows",
      [](const IndexArray& case_code, const IndexArray& run, const IndexArray& position) {
        const std::vector<std::size_t> first = first_appearances(
            one_dimensional(case_code, "case"), one_dimensional(run, "run"), one_dimensional(position, "position"));
        return IndexArray(static_cast<py::ssize_t>(first.size()), reinterpret_cast<const std::int64_t*>(first.data()));
      },
      "case"_a, "run"_a, "position"_a,
      "The row of each case's first appearance (earliest run, then position), cases in that order.");
  m.def(
      "assemble_cached_history",
      [](const IndexArray& case_code, const IndexArray& run, const IndexArray& position, const DoubleArray& value,
         const IndexArray& processes, const IndexArray& samples, const IndexArray& commit_of_run,
         const IndexArray& first, const std::vector<CaseTuple>& cases, const std::vector<PooledTuple>& pooled,
         std::vector<std::string> by, std::vector<std::string> commits) {
        CachedHistoryInput in{cached_rows(case_code, run, position, value, processes, samples),
                              one_dimensional(commit_of_run, "commit_of_run"),
                              {},
                              {},
                              {},
                              std::move(by),
                              std::move(commits)};
        std::vector<std::size_t> first_rows;
        for (std::int64_t f : one_dimensional(first, "first")) first_rows.push_back(non_negative(f, "first"));
        in.first = first_rows;
        for (const auto& [labels, unit, direction] : cases)
          in.cases.push_back({labels, parse_unit_or_custom(unit), parse_direction(direction, "series direction")});
        for (const auto& [code, commit, v, p, n] : pooled) {
          in.pooled.push_back({non_negative(code, "pooled case"), non_negative(commit, "pooled commit"), v,
                               non_negative(p, "pooled processes"), non_negative(n, "pooled samples")});
        }
        py::gil_scoped_release release;
        return assemble_cached_history(std::move(in));
      },
      "case"_a, "run"_a, "position"_a, "value"_a, "processes"_a, "samples"_a, py::kw_only(), "commit_of_run"_a,
      "first"_a, "cases"_a, "pooled"_a, "by"_a, "commits"_a,
      "The History of cached per-(case, run) summaries (compare/cached_history.hpp): cases = (labels, unit, "
      "direction) of each first row, pooled = (case, commit, value, processes, samples) of multi-run commits.");
}

void bind_results(py::module_& m) {
  py::class_<EDivisiveSplit>(m, "EDivisiveSplit", "One significant split of an E-divisive run.")
      .def_readonly("index", &EDivisiveSplit::index)
      .def_readonly("q", &EDivisiveSplit::q)
      .def_readonly("p_value", &EDivisiveSplit::p_value)
      .def_readonly("permuted", &EDivisiveSplit::permuted, "False: kept by the Welch screen (p_value is its bound).")
      .def_readonly("end", &EDivisiveSplit::end, "End of Y = x[index, end) in the scan that found the split.");
  py::class_<Series>(m, "Series", "One case over its commits: per-commit summaries (base unit).")
      .def(py::init(&make_series), "key"_a, "unit"_a, "direction"_a, "commits"_a, "values"_a, "processes"_a,
           "samples"_a, "A series from summaries already made (a results store's cache); unit = the case's symbol.")
      .def_readonly("key", &Series::key)
      .def_property_readonly("unit", [](const Series& s) { return s.unit.symbol; })
      .def_property_readonly("base_unit", [](const Series& s) { return std::string(base_symbol(s.unit.dimension)); })
      .def_property_readonly("direction", [](const Series& s) { return direction_name(s.direction); })
      .def_readonly("commits", &Series::commits)
      .def_readonly("values", &Series::values)
      .def_readonly("processes", &Series::processes)
      .def_readonly("samples", &Series::samples);
  py::class_<History>(m, "History", "Cases as series over commits.")
      .def(py::init(&make_history), "order"_a, "by"_a, "commits"_a, "series"_a,
           "A history from series already made; each series' commits index `commits`.")
      .def_readonly("order", &History::order)
      .def_readonly("by", &History::by)
      .def_readonly("commits", &History::commits)
      .def_readonly("series", &History::series)
      .def(
          "points", [](const History& h) { return columns_dict(series_points(h)); },
          "Columnar view of every series' points: series (index), position (commit index), value, processes, "
          "samples.")
      .def(
          "series_frame", [](const History& h) { return data_frame(series_frame(h)); },
          "One row per (case, commit): case labels (the last first), commit, position, value (base unit), "
          "processes, samples (pandas).");
  py::class_<ChangePoint>(m, "ChangePoint", "A change point of one series.")
      .def_readonly("index", &ChangePoint::index)
      .def_readonly("commit", &ChangePoint::commit)
      .def_readonly("before", &ChangePoint::before)
      .def_readonly("after", &ChangePoint::after)
      .def_readonly("change", &ChangePoint::change)
      .def_readonly("lower", &ChangePoint::lower)
      .def_readonly("upper", &ChangePoint::upper)
      .def_readonly("p_value", &ChangePoint::p_value)
      .def_readonly("q", &ChangePoint::q)
      .def_readonly("permuted", &ChangePoint::permuted,
                    "False: kept without permutations (the Welch screen's bound, or the steps method's p).")
      .def_readonly("relative", &ChangePoint::relative,
                    "True: change = after / before - 1; False (a value <= 0 in the series): after - before.")
      .def_readonly("regression", &ChangePoint::regression);
  py::class_<StepChange>(m, "StepChange", "One step found by detect_steps.")
      .def_readonly("index", &StepChange::index)
      .def_readonly("step", &StepChange::step)
      .def_readonly("z", &StepChange::z)
      .def_readonly("p_value", &StepChange::p_value)
      .def_readonly("spread_ratio", &StepChange::spread_ratio,
                    "sd after / sd before for a change of spread alone (step 0); 1 for a step of the level.");
  py::class_<SeriesChanges>(m, "SeriesChanges", "Change points of one series and whether it is still regressed.")
      .def_readonly("change_points", &SeriesChanges::change_points)
      .def_readonly("regressed_since", &SeriesChanges::regressed_since)
      .def_readonly("latest_change", &SeriesChanges::latest_change)
      .def_readonly("relative", &SeriesChanges::relative);
  py::class_<HistoryAnalysis>(m, "HistoryAnalysis", "A History and the change points of each series.")
      .def_readonly("history", &HistoryAnalysis::history)
      .def_readonly("changes", &HistoryAnalysis::changes)
      .def(
          "commits_moving_cases",
          [](const HistoryAnalysis& a) {
            py::list out;
            for (const auto& c : commits_moving_cases(a))
              out.append(py::make_tuple(c.commit, c.regressions, c.improvements));
            return out;
          },
          "(commit index, regressions, improvements) for each commit with change points, most cases moved first.")
      .def(
          "columns", [](const HistoryAnalysis& a) { return columns_dict(history_columns(a)); },
          "Columnar view: one entry per change point (case labels, unit, the JSON change point's fields).")
      .def(
          "to_pandas", [](const HistoryAnalysis& a) { return data_frame(history_columns(a)); },
          "One row per change point: ``DataFrame(self.columns())``; ``relative`` False means change, lower and "
          "upper are after - before in the base unit (the series has a value <= 0).");
}

// (name, codes, dictionary) of a dictionary-encoded column: int32 codes, -1 = no value.
using CodedTuple = std::tuple<std::string, py::array_t<std::int32_t, py::array::c_style>, std::vector<std::string>>;

CodedColumn coded_column(const CodedTuple& column) {
  const auto& [name, codes, dictionary] = column;
  if (codes.ndim() != 1) throw InputError(fmt::format("column {}: codes must be one-dimensional", name));
  return {name, {codes.data(), static_cast<std::size_t>(codes.shape(0))}, dictionary};
}

void bind_inputs(py::module_& m) {
  m.def(
      "commit_entries",
      [](const std::vector<std::filesystem::path>& items) {
        std::vector<std::string> paths;
        for (const auto& item : items) paths.push_back(item.string());
        const py::object decode = py::module_::import("os").attr("fsdecode");
        py::list out;
        for (const std::string& path : commit_entries(paths)) out.append(decode(py::bytes(path)));
        return out;
      },
      "items"_a,
      "Inputs with each folder replaced by its entries (files and subfolders, hidden ones skipped) in natural "
      "file-name order (``run-2`` before ``run-10``): one commit per entry. A folder read whole would be one "
      "commit.");
  m.def(
      "label_commits",
      [](const std::vector<const Dataset*>& parts, const std::vector<std::string>& names, const std::string& column) {
        py::gil_scoped_release release;
        return label_commits(parts, names, column);
      },
      "parts"_a, "names"_a, "column"_a = "commit",
      "One Dataset from per-commit parts in series order: each part without a ``column`` label on every set gets "
      "``column`` = its name (e.g. the input file's name).");
  m.def(
      "long_table_sets",
      [](std::size_t rows, const std::vector<CodedTuple>& labels, const std::optional<CodedTuple>& unit,
         const std::string& default_unit) {
        std::vector<CodedColumn> columns;
        for (const CodedTuple& c : labels) columns.push_back(coded_column(c));
        const std::optional<CodedColumn> units = unit ? std::optional(coded_column(*unit)) : std::nullopt;
        LongTableSets sets = long_table_sets(rows, columns, units ? &*units : nullptr, default_unit);
        IndexArray offsets(static_cast<py::ssize_t>(sets.offsets.size()), sets.offsets.data());
        return py::make_tuple(offsets, sets.labels, sets.units);
      },
      "rows"_a, "labels"_a, "unit"_a, "default_unit"_a,
      "(offsets, labels per set, unit per set) of a long table: consecutive rows with equal codes in every "
      "column are one set (data/long_table.hpp).");
}

void bind_history(py::module_& m) {
  const HistoryReportOptions d;
  const ChangePointOptions& c = d.changes;
  m.def(
      "history",
      [](const py::object& data, const std::optional<std::string>& order,
         const std::optional<std::vector<std::string>>& by, double max_p_value, long long permutations,
         long long min_segment, std::uint64_t seed, double min_magnitude, double confidence, double threshold,
         long long threads, std::string title, const std::string& /*format: read by the skin*/, double screen_p_value,
         const std::string& method) {
        HistoryReportOptions o;
        o.title = std::move(title);
        o.series.order = order && !order->empty() ? *order : o.series.order;
        o.series.sort = order.has_value();
        o.series.by = by.value_or(std::vector<std::string>{});
        ChangePointOptions& c = o.changes;
        c.detect =
            detect_options(max_p_value, permutations, min_segment, seed, "pairs", c.detect.search_end, screen_p_value);
        c.min_magnitude = min_magnitude;
        c.confidence = confidence;
        c.threshold = threshold;
        c.threads = static_cast<unsigned>(non_negative(threads, "threads"));
        c.method = parse_method(method);
        const Dataset& dataset = native_dataset(data);
        py::gil_scoped_release release;
        return history(dataset, o);
      },
      "data"_a, py::kw_only(), "order"_a = py::none(), "by"_a = py::none(), "max_p_value"_a = c.detect.max_p_value,
      "permutations"_a = static_cast<long long>(c.detect.permutations),
      "min_segment"_a = static_cast<long long>(c.detect.min_segment), "seed"_a = c.detect.seed,
      "min_magnitude"_a = c.min_magnitude, "confidence"_a = c.confidence, "threshold"_a = c.threshold,
      "threads"_a = static_cast<long long>(c.threads), "title"_a = d.title, "format"_a = "auto",
      "screen_p_value"_a = c.detect.screen_p_value, "method"_a = "steps",
      R"doc(Change points of every case across commits.

``data`` is a Dataset, or files/folders/globs (Parquet/Feather too; ``format`` is how
the others are read, as br.load's): with ``order=None`` each input is one commit, in
the order given (a folder: one per entry, in natural order), labelled ``commit`` = its
file name (unless its sets already carry ``commit``); with ``order="LABEL"`` the
commits are that label's values, sorted (numerically when every value is a number). A
commit's summary is the median of its processes' medians. ``method="steps"`` (default)
finds the steps a person would mark and not the slopes or seasons between them (a step
against a local level and slope, docs/statistics-history.md); ``method="e_divisive"``
is E-divisive means (permutation p <= ``max_p_value``; a split whose
Bonferroni-adjusted Welch t-test is at most ``screen_p_value`` is kept without
permutations, 0 always permutes; ``permutations``, ``seed`` and ``min_segment`` apply
to it alone). Changes below ``min_magnitude`` are dropped. A series with a value <= 0
gets absolute changes (after - before) instead of relative ones
(``ChangePoint.relative``). The latest segment worse than the first by more than
``threshold`` is "still regressed". Returns a HistoryResult.)doc");
}

// The change-point options of a store's history (those benchreport.store_history takes).
ChangePointOptions store_change_options(double min_magnitude, double confidence, double threshold,
                                        const std::string& method, double max_p_value, long long permutations,
                                        std::uint64_t seed, double screen_p_value, long long threads) {
  ChangePointOptions c;
  c.detect = detect_options(max_p_value, permutations, static_cast<long long>(c.detect.min_segment), seed, "pairs",
                            c.detect.search_end, screen_p_value);
  c.min_magnitude = min_magnitude;
  c.confidence = confidence;
  c.threshold = threshold;
  c.method = parse_method(method);
  c.threads = static_cast<unsigned>(non_negative(threads, "threads"));
  return c;
}

// benchreport.store_history: summarise the new runs (Ctrl-C keeps the finished batches), analyse
// the cached history, update the alert states, and make the report.
StoreHistoryPreset store_history(const store::Store& s, const std::string& branch, long long confirm_after,
                                 bool rebuild, std::string title, const ChangePointOptions& options) {
  if (confirm_after < 1) throw InputError(fmt::format("confirm_after is {}: it must be at least 1", confirm_after));
  const std::vector<store::StoredRun> runs = s.runs(branch);
  if (runs.empty()) throw InputError(fmt::format("{}: no runs on branch {}", s.path(), repr_text(branch)));
  StoreHistoryPreset out;
  out.summarised_runs = interruptible([&](const std::function<bool()>& should_stop) {
    return store::summarise_new_runs(s, branch, runs, rebuild, options.threads, should_stop);
  });
  py::gil_scoped_release release;
  out.analysis = analyze_history(store::cached_branch_history(s, branch, runs, options.threads), options);
  out.alerts = store::update_alert_states(s, branch, out.analysis, runs, static_cast<std::size_t>(confirm_after));
  HistoryReportOptions o;
  o.title = std::move(title);
  o.alerts = out.alerts;
  out.report = history_report(out.analysis, o);
  return out;
}

}  // namespace

void bind_store_history(py::module_& m) {
  const ChangePointOptions c;
  m.def(
      "store_history",
      [](const store::Store& s, const std::string& branch, long long confirm_after, bool rebuild, long long threads,
         std::string title, double min_magnitude, double confidence, double threshold, const std::string& method,
         double max_p_value, long long permutations, std::uint64_t seed, double screen_p_value) {
        const ChangePointOptions options = store_change_options(
            min_magnitude, confidence, threshold, method, max_p_value, permutations, seed, screen_p_value, threads);
        return store_history(s, branch, confirm_after, rebuild, std::move(title), options);
      },
      "store"_a, "branch"_a = "main", py::kw_only(), "confirm_after"_a = 3, "rebuild"_a = false, "threads"_a = 0,
      "title"_a = HistoryReportOptions{}.title, "min_magnitude"_a = c.min_magnitude, "confidence"_a = c.confidence,
      "threshold"_a = c.threshold, "method"_a = "steps", "max_p_value"_a = c.detect.max_p_value,
      "permutations"_a = static_cast<long long>(c.detect.permutations), "seed"_a = c.detect.seed,
      "screen_p_value"_a = c.detect.screen_p_value,
      R"doc(The history of ``branch`` in ``store`` (a _core.Store; cases = every label but commit and the
per-process ones, commits in branch order), summarising only the runs not summarised before
(``rebuild=True``: every run again; Ctrl-C stops after a finished batch, which a later history
keeps), and the change points' alert states, updated in the store (store/alert_states.hpp). The
options are history()'s. Returns a StoreHistoryResult.)doc");
}

void register_history(py::module_& m) {
  bind_results(m);
  bind_history_results(m);
  bind_cached_history(m);
  bind_inputs(m);
  bind_history(m);
  const EDivisiveOptions d;
  m.def(
      "e_divisive",
      [](const DoubleArray& x, double max_p_value, long long permutations, long long min_segment, std::uint64_t seed,
         std::uint64_t stream, const std::string& within, bool search_end, double screen_p_value) {
        const auto o = detect_options(max_p_value, permutations, min_segment, seed, within, search_end, screen_p_value);
        const auto values = one_dimensional(x, "x");
        py::gil_scoped_release release;
        return e_divisive(values, o, stream);
      },
      "x"_a, py::kw_only(), "max_p_value"_a = d.max_p_value, "permutations"_a = static_cast<long long>(d.permutations),
      "min_segment"_a = static_cast<long long>(d.min_segment), "seed"_a = d.seed, "stream"_a = 0, "within"_a = "pairs",
      "search_end"_a = d.search_end, "screen_p_value"_a = d.screen_p_value,
      R"doc(Significant E-divisive means splits of one series (``EDivisiveSplit``: index, q, p_value, permuted), ascending.

A split whose Welch t-test between the two sides of its segment, times the number of splits the
segment allows, is at most ``min(screen_p_value, max_p_value)`` is kept without permutations
(``permuted`` False, ``p_value`` that bound); ``screen_p_value=0`` always permutes.

``within="pairs"`` averages within-segment distances over distinct pairs (Matteson & James 2014);
``"squares"`` over all n² ordered pairs, as signal-processing-algorithms 2.x does.
``search_end=True`` also searches where the second segment ends (Matteson & James, Otava);
False lets it run to the end of the segment (signal-processing-algorithms).)doc");
  m.def(
      "best_q_split",
      [](const DoubleArray& x, long long min_segment, const std::string& within, bool search_end) {
        EDivisiveOptions o;
        o.min_segment = non_negative(min_segment, "min_segment");
        o.within = parse_within(within);
        o.search_end = search_end;
        return best_q_split(one_dimensional(x, "x"), o);
      },
      "x"_a, "min_segment"_a = 2, "within"_a = "pairs", "search_end"_a = EDivisiveOptions{}.search_end,
      "The split of x with the largest q-statistic.");
  const ChangePointOptions cpo;
  m.def(
      "series_changes",
      [](const DoubleArray& x, bool higher_is_better, double max_p_value, long long permutations, long long min_segment,
         std::uint64_t seed, const std::string& within, bool search_end, double min_magnitude, double confidence,
         double threshold, std::uint64_t stream, double screen_p_value, const std::string& method,
         long long step_min_segment, double step_threshold, double min_effect, long long window) {
        ChangePointOptions c;
        c.method = parse_method(method);
        c.steps = step_options(step_min_segment, step_threshold, min_effect, window);
        c.detect = detect_options(max_p_value, permutations, min_segment, seed, within, search_end, screen_p_value);
        c.min_magnitude = min_magnitude;
        c.confidence = confidence;
        c.threshold = threshold;
        const auto values = one_dimensional(x, "x");
        py::gil_scoped_release release;
        return series_changes(values, higher_is_better ? Direction::higher_is_better : Direction::lower_is_better, c,
                              stream);
      },
      "x"_a, py::kw_only(), "higher_is_better"_a = false, "max_p_value"_a = cpo.detect.max_p_value,
      "permutations"_a = static_cast<long long>(cpo.detect.permutations),
      "min_segment"_a = static_cast<long long>(cpo.detect.min_segment), "seed"_a = cpo.detect.seed,
      "within"_a = "pairs", "search_end"_a = cpo.detect.search_end, "min_magnitude"_a = cpo.min_magnitude,
      "confidence"_a = cpo.confidence, "threshold"_a = cpo.threshold, "stream"_a = 0,
      "screen_p_value"_a = cpo.detect.screen_p_value, "method"_a = "steps",
      "step_min_segment"_a = static_cast<long long>(cpo.steps.min_segment), "step_threshold"_a = cpo.steps.threshold,
      "min_effect"_a = cpo.steps.min_effect, "window"_a = static_cast<long long>(cpo.steps.window),
      "Change points of one series of per-commit summaries (finite, any sign), as analyze_history finds them.");
  const StepOptions so_;
  m.def(
      "detect_steps",
      [](const DoubleArray& x, long long min_segment, double candidate_penalty, double threshold, double min_effect,
         long long window, double clip, double slope_penalty, double plain_noise, bool spreads, double spread_threshold,
         double min_spread_ratio) {
        StepOptions o = step_options(min_segment, threshold, min_effect, window);
        o.candidate_penalty = candidate_penalty;
        o.clip = clip;
        o.slope_penalty = slope_penalty;
        o.plain_noise = plain_noise;
        o.spreads = spreads;
        o.spread_threshold = spread_threshold;
        o.min_spread_ratio = min_spread_ratio;
        const auto values = one_dimensional(x, "x");
        py::gil_scoped_release release;
        return detect_steps(values, o);
      },
      "x"_a, py::kw_only(), "min_segment"_a = static_cast<long long>(so_.min_segment),
      "candidate_penalty"_a = so_.candidate_penalty, "threshold"_a = so_.threshold, "min_effect"_a = so_.min_effect,
      "window"_a = static_cast<long long>(so_.window), "clip"_a = so_.clip, "slope_penalty"_a = so_.slope_penalty,
      "plain_noise"_a = so_.plain_noise, "spreads"_a = so_.spreads, "spread_threshold"_a = so_.spread_threshold,
      "min_spread_ratio"_a = so_.min_spread_ratio,
      "Steps of one series against a local trend (stats/steps.hpp), ascending.");
  m.def(
      "pelt_mean_changes",
      [](const DoubleArray& x, double penalty, long long min_segment) {
        return pelt_mean_changes(one_dimensional(x, "x"), penalty, non_negative(min_segment, "min_segment"));
      },
      "x"_a, "penalty"_a, "min_segment"_a = 1,
      "Optimal partitioning into constant means: squared error plus penalty per change (stats/pelt.hpp).");
  m.def(
      "noise_scale", [](const DoubleArray& x) { return noise_scale(one_dimensional(x, "x")); }, "x"_a,
      "1.4826 MAD of the first differences / sqrt(2) (stats/steps.hpp).");
  const SeriesOptions so;
  const ChangePointOptions co;
  m.def(
      "analyze_history",
      [](const py::object& data, std::string order, bool sort, std::vector<std::string> by, double max_p_value,
         long long permutations, long long min_segment, std::uint64_t seed, const std::string& within, bool search_end,
         double min_magnitude, double confidence, double threshold, long long threads, double screen_p_value,
         const std::string& method, long long step_min_segment, double step_threshold, double min_effect,
         long long window) {
        SeriesOptions s;
        s.order = std::move(order);
        s.sort = sort;
        s.by = std::move(by);
        ChangePointOptions c;
        c.detect = detect_options(max_p_value, permutations, min_segment, seed, within, search_end, screen_p_value);
        c.min_magnitude = min_magnitude;
        c.confidence = confidence;
        c.threshold = threshold;
        c.threads = static_cast<unsigned>(non_negative(threads, "threads"));
        c.method = parse_method(method);
        c.steps = step_options(step_min_segment, step_threshold, min_effect, window);
        if (py::isinstance<History>(data)) {  // series already made: order, sort and by are the History's
          History history = data.cast<History>();
          py::gil_scoped_release release;
          return analyze_history(std::move(history), c);
        }
        const Dataset& dataset = data.cast<const Dataset&>();
        py::gil_scoped_release release;
        return analyze_history(build_history(dataset, s, c.threads), c);
      },
      "data"_a, py::kw_only(), "order"_a = so.order, "sort"_a = so.sort, "by"_a = so.by,
      "max_p_value"_a = co.detect.max_p_value, "permutations"_a = static_cast<long long>(co.detect.permutations),
      "min_segment"_a = static_cast<long long>(co.detect.min_segment), "seed"_a = co.detect.seed, "within"_a = "pairs",
      "search_end"_a = co.detect.search_end, "min_magnitude"_a = co.min_magnitude, "confidence"_a = co.confidence,
      "threshold"_a = co.threshold, "threads"_a = static_cast<long long>(co.threads),
      "screen_p_value"_a = co.detect.screen_p_value, "method"_a = "steps",
      "step_min_segment"_a = static_cast<long long>(co.steps.min_segment), "step_threshold"_a = co.steps.threshold,
      "min_effect"_a = co.steps.min_effect, "window"_a = static_cast<long long>(co.steps.window),
      "Series per case ordered by `order` (a Dataset), or the series of a History, and the change points of each.");
  const HistoryReportOptions ro;
  m.def(
      "presets_history_report",
      [](const HistoryAnalysis& analysis, std::string title,
         const std::vector<std::vector<std::tuple<std::string, std::string, std::string>>>& alerts) {
        HistoryReportOptions o;
        o.title = std::move(title);
        for (const auto& series : alerts) {
          auto& out = o.alerts.emplace_back();
          for (const auto& [state, note, cause] : series) out.push_back({state, note, cause});
        }
        py::gil_scoped_release release;
        return history_report(analysis, o);
      },
      "analysis"_a, py::kw_only(), "title"_a = ro.title,
      "alerts"_a = std::vector<std::vector<std::tuple<std::string, std::string, std::string>>>{},
      "The history preset of an analysis; alerts = per series, per change point (state, note, cause) from a store.");
  m.attr("HISTORY_SCHEMA") = std::string(kHistorySchema);
}

}  // namespace benchreport::python

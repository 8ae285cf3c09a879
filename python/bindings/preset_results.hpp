#pragma once
// What the presets return to Python (benchreport.ComparisonResult, ComparisonCase, MatrixResult,
// SummaryResult, RunnersResult, HistoryResult, StoreHistoryResult): a report to render and display, its columnar view,
// and what else the preset computed. The classes are bound in preset_results.cpp, the functions that make them in
// register_presets.cpp. Results pickle as the call that made them (benchreport/_pickling.py), so
// each class takes attributes (`_call`).
#include <pybind11/pybind11.h>

#include <memory>

#include "benchreport/compare/matrix.hpp"
#include "benchreport/presets/comparison.hpp"
#include "benchreport/presets/history.hpp"
#include "benchreport/presets/preset_result.hpp"
#include "benchreport/render/render.hpp"
#include "report_renderers.hpp"

namespace benchreport::python {

// br.compare: the comparison, its report and columns, and the Dataset compared (its sides become BMF).
struct ComparisonPreset {
  std::shared_ptr<const ComparisonView> view;  // shared with the report's payload, rendered from it
  Report report;
  Columns columns;
  pybind11::object dataset;                   // the benchreport.Dataset
  pybind11::object cases = pybind11::none();  // list of ComparisonCase, made on first access
};

// br.matrix: the matrix of one statistic with its report (one table) and one row per cell.
struct MatrixPreset {
  Matrix matrix;
  Report report;
  Columns columns;
};

// br.summary and br.runners: one C++ type each, so that Python sees two classes.
struct SummaryPreset : PresetResult {};
struct RunnersPreset : PresetResult {};

// The history of a store's branch (benchreport.store_history): br.history's result, each change
// point's alert (alerts[i][k]: change point k of series i) and how many runs were summarised now.
struct StoreHistoryPreset : HistoryResult {
  std::vector<std::vector<ChangePointAlert>> alerts;
  std::size_t summarised_runs = 0;
};

// The core Dataset of a benchreport.Dataset (a core Dataset as it is); TypeError naming what was given otherwise.
const Dataset& native_dataset(const pybind11::object& dataset);

// pandas.DataFrame of a result's columnar view (pandas is imported when asked for, never before).
pybind11::object data_frame(const Columns& columns);

void register_preset_results(pybind11::module_& m);
// HistoryResult, StoreHistoryResult and Alert: bound by register_history after HistoryAnalysis.
void bind_history_results(pybind11::module_& m);

}  // namespace benchreport::python

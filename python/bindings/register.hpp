#pragma once
#include <pybind11/pybind11.h>

namespace benchreport::python {
void register_summary(pybind11::module_& m);   // summary.hpp, drift.hpp
void register_compare(pybind11::module_& m);   // compare.hpp, inference.hpp, rollup.hpp
void register_dataset(pybind11::module_& m);   // dataset.hpp, units.hpp, io.hpp
void register_report(pybind11::module_& m);    // table.hpp, render.hpp, reports.hpp
void register_presets(pybind11::module_& m);   // dataset_compare.hpp, reports.hpp (presets)
void register_scaling(pybind11::module_& m);   // families.hpp, scaling.hpp (stats, compare, presets)
void register_history(pybind11::module_& m);   // edivisive.hpp, series.hpp, history.hpp, presets/history.hpp
void register_moderated(pybind11::module_& m);  // stats/moderated_t.hpp (into _core.compare)
}  // namespace benchreport::python

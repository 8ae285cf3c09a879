#pragma once
#include <pybind11/pybind11.h>

namespace benchreport::python {
void register_summary(pybind11::module_& m);  // stats/summary.hpp, grouped.hpp, drift.hpp
void register_compare(
    pybind11::module_& m);  // _core.compare: compare/case.hpp, batch.hpp, rollup.hpp, the stats they use
void register_dataset(pybind11::module_& m);      // data/dataset.hpp, data/units.hpp, io/read.hpp
void register_dataset_api(pybind11::module_& m);  // benchreport.Dataset's base, io/paths.hpp, label_sides.hpp
void register_report(pybind11::module_& m);       // report/*.hpp, render/render.hpp
void register_presets(pybind11::module_& m);      // compare/dataset.hpp, compare/matrix.hpp, presets/*.hpp
void register_scaling(pybind11::module_& m);      // families.hpp, scaling.hpp (stats, compare, presets)
void register_history(pybind11::module_& m);      // edivisive.hpp, series.hpp, history.hpp, presets/history.hpp
void register_moderated(pybind11::module_& m);    // stats/moderated_t.hpp (into _core.compare)
void register_notebook(pybind11::module_& m);     // _core.notebook, _core.plot: presets/notebook.hpp, report/forest.hpp
void register_outputs(pybind11::module_& m);      // cli/outputs.hpp, core/memory_limit.hpp
void register_cli(pybind11::module_& m);          // cli/*.hpp (into _core.cli)
void register_launch_noise(pybind11::module_& m);  // stats/launch_noise.hpp, compare/stored_runs.hpp (_core.compare)
void register_dask(pybind11::module_& m);          // label_roles.hpp case_labels, whole_cases.hpp, store_export.hpp
void register_store(pybind11::module_& m);         // store/*.hpp: Store, StoreError, records, export, import
void bind_store_history(pybind11::module_& m);     // store/alert_states.hpp (register_history.cpp; after Store)
}  // namespace benchreport::python

#pragma once
// What the bindings of a preset's result class share (br.scaling's ScalingResult, ...): the core
// Dataset behind the benchreport.Dataset a user passes, and rendering and notebook display
// through the result's `report` (the bound Report's own methods, keywords passed on).
#include <pybind11/pybind11.h>

#include "benchreport/data/dataset.hpp"

namespace benchreport::python {

// A benchreport.Dataset holds its core Dataset as `_ds`; a core Dataset is taken as it is.
inline const Dataset& native_dataset(const pybind11::object& data) {
  return (pybind11::hasattr(data, "_ds") ? data.attr("_ds") : data).cast<const Dataset&>();
}

template <class Result>
void def_report_renderers(pybind11::class_<Result>& cls) {
  namespace py = pybind11;
  const auto forward = [](const char* method) {
    return [method](const py::object& self, const py::KWArgs<py::object>& options) {
      return py::str(self.attr("report").attr(method)(**options));
    };
  };
  cls.def("to_markdown", forward("to_markdown"), "The report as Markdown (Report.to_markdown's keywords).")
      .def("to_html", forward("to_html"), "The report as a standalone HTML page (Report.to_html's keywords).")
      .def("to_text", forward("to_text"), "The report as aligned text (Report.to_text's keywords).")
      .def("to_json", forward("to_json"), "The report as JSON (Report.to_json's keywords).")
      .def("_repr_html_",
           [](const py::object& self) { return py::str(self.attr("report").attr("to_html_fragment")()); })
      .def("_repr_markdown_",
           [](const py::object& self) { return py::str(self.attr("report").attr("to_markdown")()); });
}

// pandas.DataFrame of a result's columnar view (pandas is imported when asked for, never before).
inline pybind11::object data_frame(const pybind11::dict& columns) {
  return pybind11::module_::import("pandas").attr("DataFrame")(columns);
}

}  // namespace benchreport::python

#pragma once
// NumPy arrays and integer counts as the binding files take them from Python.
#include <pybind11/numpy.h>

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "benchreport/core/columns.hpp"
#include "benchreport/core/error.hpp"

namespace benchreport::python {

namespace py = pybind11;

// forcecast: lists and other dtypes are converted; c_style: one contiguous buffer.
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;
using IndexArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

// The array's buffer as a span; `what` names the argument when it is not 1-D.
template <class T>
std::span<const T> one_dimensional(const py::array_t<T, py::array::c_style | py::array::forcecast>& a,
                                   const char* what) {
  if (a.ndim() != 1) throw InputError(fmt::format("{} must be 1-dimensional, got {} dimensions", what, a.ndim()));
  return {a.data(), static_cast<std::size_t>(a.size())};
}

// A read-only numpy view of memory owned by `owner` (kept alive by the array).
template <class T>
py::array readonly_view(std::span<const T> data, py::handle owner) {
  py::array_t<T> view({static_cast<py::ssize_t>(data.size())}, {static_cast<py::ssize_t>(sizeof(T))}, data.data(),
                      owner);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

// A count from Python's int: negative values are an InputError naming `what`.
inline std::size_t non_negative(long long v, const char* what) {
  if (v < 0) throw InputError(fmt::format("{} is {}: expected a non-negative integer", what, v));
  return static_cast<std::size_t>(v);
}

// A result's columnar view as Python sees it: {name: numpy array} in column order;
// reals float64, counts int64, flags bool, texts object arrays of str.
inline py::dict columns_dict(const Columns& columns) {
  py::dict out;
  for (const DataColumn& c : columns.columns()) {
    switch (c.kind) {
      case ColumnKind::real:
        out[py::str(c.name)] = py::array_t<double>(static_cast<py::ssize_t>(c.reals.size()), c.reals.data());
        break;
      case ColumnKind::count:
        out[py::str(c.name)] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(c.counts.size()), c.counts.data());
        break;
      case ColumnKind::flag: {
        py::array_t<bool> flags(static_cast<py::ssize_t>(c.counts.size()));
        auto w = flags.mutable_unchecked<1>();
        for (std::size_t i = 0; i < c.counts.size(); ++i) w(static_cast<py::ssize_t>(i)) = c.counts[i] != 0;
        out[py::str(c.name)] = flags;
        break;
      }
      case ColumnKind::text: {
        py::list texts;
        for (const auto& text : c.texts) texts.append(py::str(text));
        out[py::str(c.name)] = py::module_::import("numpy").attr("array")(texts, py::arg("dtype") = "object");
        break;
      }
    }
  }
  return out;
}

}  // namespace benchreport::python

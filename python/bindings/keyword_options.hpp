#pragma once
// Shared by the binding files that take options as keyword arguments.
#include <pybind11/pybind11.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace benchreport::python {

namespace py = pybind11;

// Keyword arguments onto the fields of an options struct: read() names each
// keyword a preset accepts; None keeps the field's C++ default; finish()
// refuses a keyword that no read() asked for.
class KeywordOptions {
 public:
  KeywordOptions(const py::kwargs& kwargs, const char* function) : kwargs_(kwargs), function_(function) {}

  template <class T>
  KeywordOptions& read(const char* name, T& field) {
    names_.emplace_back(name);
    if (kwargs_.contains(name)) {
      const py::object value = kwargs_[name];
      if (!value.is_none()) field = value.cast<T>();
    }
    return *this;
  }

  void finish() const {
    for (const auto& item : kwargs_) {
      const auto key = py::str(item.first).cast<std::string>();
      if (std::find(names_.begin(), names_.end(), key) == names_.end()) {
        throw py::type_error(fmt::format("{}() got an unexpected keyword argument '{}'", function_, key));
      }
    }
  }

 private:
  const py::kwargs& kwargs_;
  const char* function_;
  std::vector<std::string> names_;
};

}  // namespace benchreport::python

// C++ exception types as Python exception classes whose message is decoded as Python decodes a
// command line or a file name (UTF-8, undecodable bytes as surrogate escapes): a message quoting a
// path that is no UTF-8 still reaches the one line that prints it, instead of a UnicodeDecodeError.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <string_view>

namespace benchreport::python {

// The message as a Python str; bytes that are no UTF-8 become lone surrogates (os.fsdecode's rule).
inline pybind11::str message_text(std::string_view text) {
  return pybind11::reinterpret_steal<pybind11::str>(
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogateescape"));
}

// Adds `name` (a subclass of `base`) to `scope` and translates every Error thrown to it. The type is
// kept for the life of the process: the translator may run until exit.
template <class Error>
void register_decoded_exception(pybind11::module_ scope, const char* name, pybind11::handle base, const char* doc) {
  static PyObject* type = nullptr;
  pybind11::exception<Error> error(scope, name, base);
  error.attr("__doc__") = doc;
  type = error.release().ptr();
  pybind11::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const Error& failed) {
      PyErr_SetObject(type, message_text(failed.what()).ptr());
    }
  });
}

}  // namespace benchreport::python

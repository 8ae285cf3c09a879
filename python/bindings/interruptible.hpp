#pragma once
// Long C++ work that Ctrl-C can stop: it runs with the GIL released and asks, between its steps,
// whether to stop; the answer takes the GIL and runs Python's signal handlers.
#include <pybind11/pybind11.h>

#include <functional>

namespace benchreport::python {

// work(should_stop) with the GIL released; should_stop() is true once a signal handler raised
// (KeyboardInterrupt for SIGINT), and that error is raised when work returns.
template <class Work>
auto interruptible(Work&& work) {
  bool raised = false;
  const std::function<bool()> should_stop = [&raised] {
    pybind11::gil_scoped_acquire gil;
    raised = PyErr_CheckSignals() != 0;  // the error stays set on this thread until thrown below
    return raised;
  };
  auto result = [&] {
    pybind11::gil_scoped_release release;
    return work(should_stop);
  }();
  if (raised) throw pybind11::error_already_set();
  return result;
}

}  // namespace benchreport::python

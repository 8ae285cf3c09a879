#pragma once
// Files the bindings write (Dataset.to_csv/to_json/to_bmf(path), ComparisonResult.to_bmf(path)) go
// through the command line's one writer, cli/outputs.hpp: a temporary file and a rename, no
// symbolic link followed, the error an OutputError naming the path. Defined in register_outputs.cpp.
#include <pybind11/pybind11.h>

#include <string_view>

namespace benchreport::python {

// Writes `text` to `path` (str, bytes or os.PathLike, taken as os.fsencode gives it) as write_outputs
// writes one output: the path checked (no symbolic link, its folder there), then replaced atomically.
void write_file(const pybind11::handle& path, std::string_view text);

}  // namespace benchreport::python

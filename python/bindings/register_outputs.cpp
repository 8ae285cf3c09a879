// Bindings for cli/outputs.hpp (the command line's output files) and
// core/memory_limit.hpp (the cgroup memory limit and the address-space cap).
// The Python skins are python/benchreport/_output.py and _limits.py.
//
// Paths are taken as os.fsencode gives them (str, bytes or os.PathLike; a name from argv that is not
// UTF-8 keeps its bytes as surrogate escapes), and given back, also inside messages, as os.fsdecode does.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <deque>
#include <filesystem>
#include <memory>
#include <string_view>

#include "benchreport/cli/outputs.hpp"
#include "benchreport/core/memory_limit.hpp"
#include "exceptions.hpp"
#include "output_file.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace benchreport::python {
namespace {

// The bytes of a path the caster took from str, bytes or os.PathLike: os.fsencode's (UTF-8 on Windows).
std::string fs_bytes(const std::filesystem::path& path) {
#ifdef _WIN32
  const std::u8string text = path.u8string();
  return std::string(text.begin(), text.end());
#else
  return path.native();
#endif
}

// os.fsdecode of path bytes (undecodable ones as surrogate escapes), also for messages naming one.
py::str fs_text(std::string_view bytes) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeFSDefaultAndSize(bytes.data(), static_cast<py::ssize_t>(bytes.size())));
}

// One output as Python gives it: text (str, bytes or a buffer), or write_to(fd) rendering it.
struct Output {
  std::string path;
  py::object text;
  bool append = false;
  py::object write_to;
};

// The UTF-8 bytes of an output's text, held (not copied) while they are written.
class TextBytes {
 public:
  explicit TextBytes(const py::object& text)
      : owner_(py::isinstance<py::str>(text) ? py::reinterpret_steal<py::object>(PyUnicode_AsUTF8String(text.ptr()))
                                             : text) {
    if (!owner_ || PyObject_GetBuffer(owner_.ptr(), &view_, PyBUF_SIMPLE) != 0) throw py::error_already_set();
  }
  TextBytes(const TextBytes&) = delete;
  TextBytes& operator=(const TextBytes&) = delete;
  ~TextBytes() { PyBuffer_Release(&view_); }
  std::string_view bytes() const { return {static_cast<const char*>(view_.buf), static_cast<std::size_t>(view_.len)}; }

 private:
  py::object owner_;
  Py_buffer view_{};
};

// A SIGTERM or SIGINT that arrived while writing raises (Terminated, KeyboardInterrupt) before the
// rename, so the temporary file is removed and the old output kept.
void raise_pending_signals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

cli::FdWriter text_writer(std::string_view bytes) {
  return [bytes](int fd) {
    cli::write_all(fd, bytes);
    raise_pending_signals();
  };
}

// write_to(fd): an OSError it raises becomes the output's error naming the path, anything else passes.
cli::FdWriter callable_writer(py::object write_to) {
  return [write_to = std::move(write_to)](int fd) {
    try {
      write_to(fd);
    } catch (py::error_already_set& raised) {
      if (!raised.matches(PyExc_OSError)) throw;
      const py::object strerror = raised.value().attr("strerror");
      const bool has_text = !strerror.is_none() && !py::str(strerror).equal(py::str(""));
      throw cli::DescriptorWriteError{py::str(has_text ? strerror : raised.value())};
    }
    raise_pending_signals();
  };
}

// The writer of `content` (text, or a callable writing into a descriptor); text is held in `held`.
cli::FdWriter writer_of(const py::object& content, std::deque<TextBytes>& held) {
  if (PyCallable_Check(content.ptr())) return callable_writer(content);
  return text_writer(held.emplace_back(content).bytes());
}

void write_outputs(const py::iterable& given) {
  std::deque<TextBytes> held;
  std::vector<cli::OutputFile> outputs;
  for (const py::handle item : given) {
    const auto& output = item.cast<const Output&>();
    // An append writes its text; a replacement renders through write_to when it has one.
    const bool rendered = !output.append && !output.write_to.is_none();
    outputs.push_back(
        {output.path, writer_of(rendered ? output.write_to : output.text, held), output.append, rendered});
  }
  cli::write_outputs(outputs);
}

// OutputError, its message decoded as the path in it was encoded (exceptions.hpp).
void bind_output_error(py::module_& m) {
  register_decoded_exception<cli::OutputError>(m, "OutputError", PyExc_OSError,
                                               "An output path that cannot be written; the message names the path.");
}

void bind_outputs(py::module_& m) {
  bind_output_error(m);
  py::class_<Output>(m, "Output",
                     "Text for one path: replaced atomically, or appended to (append=True). text may be UTF-8 "
                     "already, as bytes or a buffer. Instead of text, write_to may render the output into an open "
                     "binary file descriptor (a large report, never held whole).")
      .def(py::init([](const std::filesystem::path& path, py::object text, bool append, py::object write_to) {
             return Output{fs_bytes(path), std::move(text), append, std::move(write_to)};
           }),
           py::arg("path"), py::arg("text") = py::bytes(""), py::arg("append") = false,
           py::arg("write_to") = py::none())
      .def_property_readonly(
          "path", [](const Output& o) { return fs_text(o.path); }, "The path as str (os.fsdecode of its bytes).")
      .def_readonly("text", &Output::text)
      .def_readonly("append", &Output::append)
      .def_readonly("write_to", &Output::write_to)
      .def("__repr__", [](const Output& o) {
        return "Output(path=" + py::repr(fs_text(o.path)).cast<std::string>() +
               ", append=" + (o.append ? "True" : "False") + ")";
      });
  m.def("write_outputs", &write_outputs,
        "Checks every output's path (its folder exists and is writable, it is no folder, no symbolic link, no "
        "two name one file), then writes each: those rendered by write_to first, then the other replacements, "
        "each through a temporary file and a rename, and the appends last. Raises OutputError naming the path.",
        py::arg("outputs"));
  m.def(
      "write_atomic",
      [](const std::filesystem::path& path, const py::object& text) {
        std::deque<TextBytes> held;
        cli::write_atomic(fs_bytes(path), writer_of(text, held));
      },
      "Writes text (str as UTF-8, bytes, a buffer, or a callable writing into a descriptor) to path through a "
      "temporary file in its folder and a rename; a stream (/dev/null, /dev/stdout) is written in place.",
      py::arg("path"), py::arg("text"));
  m.def(
      "append_text",
      [](const std::filesystem::path& path, const py::object& text) {
        const TextBytes bytes(text);
        cli::append_output(fs_bytes(path), [&bytes](int fd) { cli::write_all(fd, bytes.bytes()); });
      },
      "Appends text to path (created when missing), never through a symbolic link.", py::arg("path"), py::arg("text"));
  m.def(
      "check_output_path", [](const std::filesystem::path& path) { cli::check_output_path(fs_bytes(path)); },
      "Raises OutputError unless path can be written as a regular file without following a link.", py::arg("path"));
}

py::object limits_tuple(const std::optional<AddressSpaceLimit>& limits) {
  return limits ? py::object(py::make_tuple(limits->soft, limits->hard)) : py::object(py::none());
}

void bind_memory_limit(py::module_& m) {
  m.def(
      "memory_limit",
      [](const std::string& proc, const std::string& cgroup_root) -> py::object {
        const auto found = memory_limit(proc, cgroup_root);
        return found ? py::object(py::make_tuple(found->bytes, found->source)) : py::object(py::none());
      },
      "The smallest memory limit (bytes, the file that set it) of the cgroups listed in proc and their parents "
      "(v2 memory.max, v1 memory.limit_in_bytes under cgroup_root), or None.",
      py::arg("proc") = "/proc/self/cgroup", py::arg("cgroup_root") = "/sys/fs/cgroup");
  m.def("resident_bytes", &resident_bytes, "This process's resident memory in bytes (VmRSS; 0 where unknown).");
  m.def("estimated_need", &estimated_need,
        "Memory a read of input_bytes (after decompression) may need on top of what is resident: 12 bytes a byte.",
        py::arg("input_bytes"));
  m.def(
      "describe_memory_limit",
      [](std::uint64_t bytes, const std::string& source) {
        return describe(MemoryLimit{bytes, source});
      },
      "'the memory limit of N bytes (M MiB, source)', as the command line's errors name it.", py::arg("bytes"),
      py::arg("source"));
  m.def(
      "cap_address_space",
      [](std::uint64_t bytes, const std::string& source) {
        return cap_address_space(MemoryLimit{bytes, source});
      },
      "Lowers RLIMIT_AS so an allocation past the memory limit fails (MemoryError) instead of the OOM killer "
      "ending the process; False when no lower cap was set (docs/hardening.md).",
      py::arg("bytes"), py::arg("source"));
  m.def(
      "address_space_limit", [] { return limits_tuple(address_space_limit()); },
      "RLIMIT_AS as (soft, hard), or None where there is no such limit (Windows).");
  m.def(
      "restore_address_space_limit",
      [](const std::optional<std::pair<std::uint64_t, std::uint64_t>>& limits) {
        if (limits) restore_address_space_limit(AddressSpaceLimit{limits->first, limits->second});
      },
      "Puts back what address_space_limit() returned (nothing for None).", py::arg("limits"));
}

}  // namespace

void write_file(const py::handle& path, std::string_view text) {
  cli::write_outputs({{fs_bytes(path.cast<std::filesystem::path>()), text_writer(text)}});  // checked first
}

void register_outputs(py::module_& m) {
  bind_outputs(m);
  bind_memory_limit(m);
}

}  // namespace benchreport::python

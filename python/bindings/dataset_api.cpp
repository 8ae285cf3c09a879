// The public benchreport.Dataset (python/benchreport/_dataset.py subclasses `DatasetBase` for what
// is Python's own: pandas, metadata as parsed JSON, pickling) and the input paths of br.load and the
// CLI: io/paths.hpp (glob expansion, natural order) and data/label_sides.hpp (--base/--head labels).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <fmt/format.h>
#include <set>

#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_sides.hpp"
#include "benchreport/data/pooled.hpp"
#include "benchreport/io/paths.hpp"
#include "arrays.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

using Strings = std::vector<std::string>;

// A handle on a core Dataset: `_ds` is the _core.Dataset that the package's kernels take.
struct DatasetHandle {
  py::object core;
  const Dataset& ds() const { return core.cast<const Dataset&>(); }
};

const Dataset& ds_of(const py::object& self) { return self.cast<const DatasetHandle&>().ds(); }
py::object core_of(const py::object& self) { return self.cast<const DatasetHandle&>().core; }
py::object call_core(const py::object& self, const char* method) { return core_of(self).attr(method)(); }

// A new dataset of the caller's Python class (benchreport.Dataset) around a core Dataset.
py::object same_class(const py::object& self, const py::object& core) { return py::type::of(self)(core); }

// All samples in base units: a view when every set is in its base unit, else a read-only scaled copy.
py::array base_values(const py::object& self) {
  const Dataset& ds = ds_of(self);
  bool scaled = false;
  for (std::size_t i = 0; i < ds.n_sets(); ++i) scaled = scaled || ds.unit(i).to_base != 1.0;
  if (!scaled) return readonly_view(ds.values(), core_of(self));
  py::array_t<double> out(static_cast<py::ssize_t>(ds.n_values()));
  double* w = out.mutable_data();
  for (std::size_t i = 0; i < ds.n_sets(); ++i) {
    const double factor = ds.unit(i).to_base;
    for (std::int64_t k = ds.offsets()[i]; k < ds.offsets()[i + 1]; ++k) w[k] = ds.values()[k] * factor;
  }
  py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

// Set i in base units (a view when its unit is the base unit, else a scaled copy), or a copy as read.
py::array set_samples(const py::object& self, long long i, bool base) {
  const py::array_t<double> view = core_of(self).attr("samples")(i);  // checks the index
  const double factor = ds_of(self).unit(static_cast<std::size_t>(i)).to_base;
  if (base && factor == 1.0) return view;
  py::array_t<double> out(view.size(), view.data());
  if (base) {
    for (double& x : std::span<double>(out.mutable_data(), static_cast<std::size_t>(out.size()))) x *= factor;
  }
  return out;
}

py::typing::Dict<py::str, py::typing::List<py::typing::Optional<py::str>>> label_columns(const Dataset& ds) {
  py::typing::Dict<py::str, py::typing::List<py::typing::Optional<py::str>>> out;
  for (const std::string& name : ds.columns()) {
    const LabelColumn* column = ds.column(name);
    py::list values;
    for (std::int32_t code : column->codes) {
      values.append(code >= 0 ? py::object(py::str(column->dictionary[static_cast<std::size_t>(code)])) : py::none());
    }
    out[py::str(name)] = values;
  }
  return out;
}

std::string describe(const Dataset& ds) {
  std::vector<std::string> columns;
  for (const std::string& name : ds.columns()) {
    columns.push_back(fmt::format("{}({})", name, ds.column(name)->dictionary.size()));
  }
  std::set<std::string> units;
  for (std::size_t i = 0; i < ds.n_sets(); ++i) units.insert(ds.unit(i).symbol);
  const auto or_dash = [](const std::string& text) { return text.empty() ? std::string("-") : text; };
  return fmt::format("<benchreport.Dataset: {} sets, {} samples; labels: {}; units: {}; {} runs; {} warnings>",
                     ds.n_sets(), ds.n_values(), or_dash(fmt::format("{}", fmt::join(columns, ", "))),
                     or_dash(fmt::format("{}", fmt::join(units, ", "))), ds.runs().size(), ds.warnings().size());
}

// `text` written to `path` (UTF-8) and None, or `text` itself when path is None.
std::optional<std::string> write_or_return(const py::object& path, const std::string& text) {
  if (path.is_none()) return text;
  py::module_::import("pathlib").attr("Path")(path).attr("write_text")(text, "encoding"_a = "utf-8");
  return std::nullopt;
}

std::optional<std::string> to_csv(const py::object& self, const py::object& path) {
  const py::tuple text_notes = call_core(self, "to_csv_string");
  for (const auto& note : text_notes[1]) {  // what CSV cannot carry, warned at the caller's line
    if (PyErr_WarnEx(PyExc_UserWarning, note.cast<std::string>().c_str(), 1) != 0) throw py::error_already_set();
  }
  return write_or_return(path, text_notes[0].cast<std::string>());
}

std::optional<std::string> to_bmf(const py::object& self, const py::object& path, const py::object& by,
                                  double confidence) {
  const py::object bmf_string = py::module_::import("benchreport._core").attr("bmf_string");
  const py::list columns(py::bool_(by) ? by : py::list());
  return write_or_return(path,
                         bmf_string(core_of(self), "by"_a = columns, "confidence"_a = confidence).cast<std::string>());
}

// The sets of each group of `columns` concatenated, in the group's first unit: (values, offsets,
// first set of each group, group keys).
py::tuple pooled_by(const py::object& self, const std::vector<std::string>& columns) {
  PooledSets pooled = pool_by(ds_of(self), columns);
  py::list keys;
  for (const auto& key : pooled.keys) keys.append(py::tuple(py::cast(key)));
  return py::make_tuple(
      py::array_t<double>(static_cast<py::ssize_t>(pooled.values.size()), pooled.values.data()),
      py::array_t<std::int64_t>(static_cast<py::ssize_t>(pooled.offsets.size()), pooled.offsets.data()),
      pooled.first_set, keys);
}

py::object take(const py::object& self, const py::typing::Iterable<py::int_>& indices) {
  py::list sets;
  for (const auto& i : indices) sets.append(py::int_(py::reinterpret_borrow<py::object>(i)));
  return same_class(self, core_of(self).attr("subset")(sets));
}

py::object with_labels(const py::object& self, const py::object& labels) {
  py::list pairs;
  for (const auto& item : labels.attr("items")()) {
    const auto pair = py::reinterpret_borrow<py::tuple>(item);
    pairs.append(py::make_tuple(py::str(pair[0]), py::str(pair[1])));
  }
  return same_class(self, core_of(self).attr("with_labels")(pairs));
}

py::object concat(const py::object& self, const py::Args<py::object>& others) {
  py::list parts;
  parts.append(core_of(self));
  for (const auto& other : others) parts.append(other.attr("_ds"));
  return same_class(self, py::module_::import("benchreport._core").attr("concat")(parts));
}

void bind_dataset_base(py::module_& m) {
  py::class_<DatasetHandle>(m, "DatasetBase", "What benchreport.Dataset is built on: a handle on a _core.Dataset.")
      .def(py::init([](const py::object& core) {
             if (core.is_none()) return DatasetHandle{py::cast(Dataset{})};
             if (!py::isinstance<Dataset>(core)) throw py::type_error("Dataset(core): core must be a _core.Dataset");
             return DatasetHandle{core};
           }),
           "core"_a = py::none())
      .def_property_readonly("_ds", [](const DatasetHandle& h) { return h.core; })
      .def_property_readonly("values", &base_values,
                             "All samples in base units (seconds, bytes, ops, ...), set after set; read-only. "
                             "A view when every set is in its base unit, else a scaled copy (x * to_base).")
      .def_property_readonly(
          "values_as_read", [](const py::object& self) { return py::array(core_of(self).attr("values")); },
          "All samples exactly as the input gave them, each set in its own unit; read-only view.")
      .def_property_readonly(
          "offsets", [](const py::object& self) { return py::array(core_of(self).attr("offsets")); },
          "int64 offsets (n_sets + 1) into values; read-only view.")
      .def_property_readonly(
          "weights",
          [](const py::object& self) { return core_of(self).attr("weights").cast<std::optional<py::array>>(); },
          "Per-sample weights (1 for unweighted sets) or None when no set has weights.")
      .def("samples", &set_samples, "i"_a, "base"_a = true,
           "Samples of set i in base units, or a copy exactly as read, in the set's own unit (base=False). In base "
           "units a read-only view when the set's unit is its base unit, else a scaled copy.")
      .def_property_readonly(
          "columns", [](const py::object& self) { return ds_of(self).columns(); },
          "Label column names, in first-seen order.")
      .def_property_readonly(
          "labels", [](const py::object& self) { return label_columns(ds_of(self)); },
          "Label columns: name -> one value per set (None where a set lacks the label).")
      .def(
          "label_codes",
          [](const py::object& self,
             const std::string& column) -> py::typing::Tuple<py::array, py::typing::List<py::str>> {
            py::object codes = core_of(self).attr("label_codes")(column);
            if (codes.is_none()) throw py::key_error(column);
            return codes;
          },
          "column"_a, "Dictionary encoding of a column: (int32 codes per set, -1 = absent; dictionary).")
      .def(
          "set_labels",
          [](const py::object& self, long long i) {
            return py::typing::Dict<py::str, py::str>(core_of(self).attr("labels")(i));
          },
          "i"_a, "Labels of set i.")
      .def_property_readonly(
          "units", [](const py::object& self) { return call_core(self, "unit_symbols").cast<Strings>(); },
          "Unit symbol of each set, as the input spelled it.")
      .def(
          "unit", [](const py::object& self, long long i) { return core_of(self).attr("unit")(i).cast<Unit>(); }, "i"_a,
          "Full unit description of set i (a Unit, see parse_unit).")
      .def_property_readonly(
          "directions", [](const py::object& self) { return call_core(self, "directions").cast<Strings>(); },
          "\"lower\" or \"higher\" (is better) per set.")
      .def_property_readonly(
          "run_ids",
          [](const py::object& self) {
            const Dataset& ds = ds_of(self);
            std::vector<std::optional<std::string>> out;
            for (std::size_t i = 0; i < ds.n_sets(); ++i) {
              const std::string_view run = ds.run_id(i);
              out.push_back(run.empty() ? std::nullopt : std::optional<std::string>(run));
            }
            return out;
          },
          "Run id of each set (None when it has none).")
      .def_property_readonly(
          "warnings", [](const py::object& self) { return ds_of(self).warnings(); },
          "What the readers skipped or could not carry (nothing is dropped silently).")
      .def_property_readonly(
          "notes", [](const py::object& self) { return ds_of(self).notes(); },
          "The readers' normal remarks (aggregate rows kept apart, calibration runs skipped): not warnings.")
      .def("take", &take, "indices"_a, "A new Dataset with the given sets, in that order.")
      .def(
          "group_by",
          [](const py::object& self, const py::Args<py::str>& columns) {
            return core_of(self).attr("group_by")(py::list(columns));
          },
          "Groups in first-appearance order: (key values, set indices); \"\" where a label is absent.")
      .def("pooled_by", &pooled_by, "columns"_a,
           "Sets pooled by label columns (summarize(by=...)): (values, offsets, first set of each group, keys); each "
           "group's sets concatenated in set order, in the unit of its first set.")
      .def("with_labels", &with_labels, "labels"_a,
           "A copy with each column: value set on every set (replacing what the sets had there).")
      .def("concat", &concat, "A new Dataset with this one's sets followed by the others' (dictionaries merged).")
      .def(
          "to_json",
          [](const py::object& self, const py::object& path) {
            return write_or_return(path, call_core(self, "to_json_string").cast<std::string>());
          },
          "path"_a = py::none(),
          "Canonical JSON (schema benchreport/1): written to path, or returned when path is None.")
      .def("to_csv", &to_csv, "path"_a = py::none(),
           "Canonical long CSV; warns (UserWarning) about what CSV cannot carry.")
      .def("to_bmf", &to_bmf, "path"_a = py::none(), py::kw_only(), "by"_a = py::none(), "confidence"_a = 0.95,
           "Bencher Metric Format JSON: per benchmark (the values of by, default every label except the side, "
           "per-process labels and metric), latency in ns or throughput in ops/s (other units: a measure named by "
           "the metric label), value = median of the pooled samples, lower_value / upper_value = its "
           "distribution-free CI at confidence. Written to path, or returned when path is None. Reads back with "
           "br.load (format \"bmf\").")
      .def("__len__", [](const py::object& self) { return ds_of(self).n_sets(); })
      .def("__repr__", [](const py::object& self) { return describe(ds_of(self)); });
}

// A path as the file system's bytes: str (undecodable names as surrogate escapes), bytes or PathLike.
std::string fs_bytes(const py::handle& path) {
  return py::module_::import("os").attr("fsencode")(path).cast<std::string>();
}

py::typing::List<py::str> fs_texts(const std::vector<std::string>& paths) {
  const py::object decode = py::module_::import("os").attr("fsdecode");
  py::typing::List<py::str> out;
  for (const std::string& path : paths) out.append(decode(py::bytes(path)));
  return out;
}

void bind_paths(py::module_& m) {
  m.def(
      "fnmatch",
      [](const py::object& name, const py::object& pattern) { return fnmatch(fs_bytes(name), fs_bytes(pattern)); },
      "name"_a, "pattern"_a, "fnmatch.fnmatchcase of one name: *, ?, [...], [!...], on code points.");
  m.def(
      "natural_compare",
      [](const py::object& a, const py::object& b) { return natural_compare(fs_bytes(a), fs_bytes(b)); }, "a"_a, "b"_a,
      "-1, 0 or 1: runs of ASCII digits compare as numbers (base-2 before base-10), text as code points.");
  m.def(
      "glob_paths", [](const py::object& pattern) { return fs_texts(glob_paths(fs_bytes(pattern))); }, "pattern"_a,
      "Matches of a glob pattern (** = any folders below, never through a link to a folder; hidden entries only "
      "for a part starting with '.'), in natural order, each file once (the first of those resolving to it).");
  m.def(
      "expand_paths",
      [](const py::typing::Iterable<py::object>& items) {
        std::vector<std::string> paths;
        for (const auto& item : items) paths.push_back(fs_bytes(item));
        return fs_texts(expand_paths(paths));
      },
      "items"_a,
      "Paths as given, glob patterns expanded in natural order (the one expander of br.load and the CLI); "
      "InputError for a pattern nothing matches.");
  m.def(
      "label_sides",
      [](const std::vector<const Dataset*>& base, const std::vector<const Dataset*>& head, const std::string& column,
         const std::string& base_value, const std::string& head_value) {
        return label_sides(base, head, SideNames{column, base_value, head_value});
      },
      "base"_a, "head"_a, "column"_a = std::string(kSideLabel), "base_value"_a = "base", "head_value"_a = "head",
      "One Dataset from the files of each side: column names the side; pair pairs the i-th base file with the i-th "
      "head file (and, inside a file with several processes, process with process).");
}

}  // namespace

void register_dataset_api(py::module_& m) {
  bind_dataset_base(m);
  bind_paths(m);
}

}  // namespace benchreport::python

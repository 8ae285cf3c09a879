// The public benchreport.Dataset (python/benchreport/_dataset.py subclasses `DatasetBase` for what
// is Python's own: pandas, metadata as parsed JSON, pickling) and the input paths of br.load and the
// CLI: io/paths.hpp (glob expansion, natural order) and data/label_sides.hpp (--base/--head labels).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_sides.hpp"
#include "benchreport/data/pooled.hpp"
#include "benchreport/io/paths.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/core/error.hpp"
#include "arrays.hpp"
#include "output_file.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {
struct SameDataset;
}  // namespace
}  // namespace benchreport::python

namespace pybind11::detail {
template <>
struct handle_type_name<benchreport::python::SameDataset> {
  static constexpr auto name = const_name("typing_extensions.Self");
};
}  // namespace pybind11::detail

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

// A dataset of the caller's own Python class: stubs type it `Self`, so Dataset.take(...) is a Dataset.
struct SameDataset : py::object {
  using py::object::object;
};

// A new dataset of the caller's Python class (benchreport.Dataset) around a core Dataset.
SameDataset same_class(const py::object& self, const py::object& core) {
  return py::reinterpret_steal<SameDataset>(py::type::of(self)(core).release());
}

// The core Datasets of benchreport.Datasets (or core ones) given to label_sides.
std::vector<const Dataset*> core_datasets(const std::vector<py::object>& parts) {
  std::vector<const Dataset*> out;
  for (const auto& part : parts) {
    out.push_back(py::isinstance<DatasetHandle>(part) ? &ds_of(part) : &part.cast<const Dataset&>());
  }
  return out;
}

py::object core_module() { return py::module_::import("benchreport._core"); }

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

// One value per set (None where it has none) repeated over the set's samples: a numpy object array.
template <class OfSet>
py::object per_sample(const Dataset& ds, const OfSet& of_set) {
  py::list out(static_cast<py::ssize_t>(ds.n_values()));
  for (std::size_t i = 0; i < ds.n_sets(); ++i) {
    const py::object value = of_set(i);
    for (std::int64_t k = ds.offsets()[i]; k < ds.offsets()[i + 1]; ++k) out[static_cast<std::size_t>(k)] = value;
  }
  return py::module_::import("numpy").attr("array")(out, "dtype"_a = "object");
}

// A run id, None for a set outside any run.
py::object text_or_none(std::string_view text) {
  return text.empty() ? py::object(py::none()) : py::object(py::str(text.data(), text.size()));
}

// to_pandas's columns, one entry per sample: the label columns, run, set, sample, unit, value
// (as read, or in base units) and weight when the dataset has weights.
py::dict long_columns(const py::object& self, bool base_units) {
  const Dataset& ds = ds_of(self);
  py::dict out;
  for (const std::string& name : ds.columns()) {
    const LabelColumn* column = ds.column(name);
    out[py::str(name)] = per_sample(ds, [column](std::size_t i) {
      const std::int32_t code = column->codes[i];
      return code >= 0 ? py::object(py::str(column->dictionary[static_cast<std::size_t>(code)]))
                       : py::object(py::none());
    });
  }
  out["run"] = per_sample(ds, [&ds](std::size_t i) { return text_or_none(ds.run_id(i)); });
  const auto n = static_cast<py::ssize_t>(ds.n_values());
  py::array_t<std::int64_t> set(n), sample(n);
  for (std::size_t i = 0; i < ds.n_sets(); ++i) {
    for (std::int64_t k = ds.offsets()[i]; k < ds.offsets()[i + 1]; ++k) {
      set.mutable_at(k) = static_cast<std::int64_t>(i);
      sample.mutable_at(k) = k - ds.offsets()[i];
    }
  }
  out["set"] = set;
  out["sample"] = sample;
  const Strings units = call_core(self, "unit_symbols").cast<Strings>();
  out["unit"] = per_sample(ds, [&units](std::size_t i) { return py::str(units[i]); });
  const py::object numpy_array = py::module_::import("numpy").attr("array");
  out["value"] = numpy_array(base_units ? py::object(base_values(self)) : self.attr("values_as_read"));
  const py::object weights = self.attr("weights");
  if (!weights.is_none()) out["weight"] = numpy_array(weights);
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

// `text` written to `path` (atomically, as every output) and None, or `text` itself when path is None.
std::optional<std::string> write_or_return(const py::object& path, const std::string& text) {
  if (path.is_none()) return text;
  write_file(path, text);
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
  const py::object bmf_string = core_module().attr("bmf_string");
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

SameDataset take(const py::object& self, const py::typing::Iterable<py::int_>& indices) {
  py::list sets;
  for (const auto& i : indices) sets.append(py::int_(py::reinterpret_borrow<py::object>(i)));
  return same_class(self, core_of(self).attr("subset")(sets));
}

SameDataset with_labels(const py::object& self, const py::object& labels) {
  py::list pairs;
  for (const auto& item : labels.attr("items")()) {
    const auto pair = py::reinterpret_borrow<py::tuple>(item);
    pairs.append(py::make_tuple(py::str(pair[0]), py::str(pair[1])));
  }
  return same_class(self, core_of(self).attr("with_labels")(pairs));
}

SameDataset concat(const py::object& self, const py::Args<py::object>& others) {
  py::list parts;
  parts.append(core_of(self));
  for (const auto& other : others) parts.append(other.attr("_ds"));
  return same_class(self, core_module().attr("concat")(parts));
}

// The label filter of select/indices: column=value pairs, values as text.
Labels equal_labels(const py::kwargs& labels) {
  Labels out;
  for (const auto& [column, value] : labels) out.emplace_back(py::str(column), py::str(value));
  return out;
}

// Verbatim metadata JSON parsed by json.loads. Readers accept nesting up to their max_depth
// (documented up to 6000) and json.loads recurses once per level, so the recursion limit is raised
// for deep text, up to this many levels; deeper is an InputError.
constexpr int kMaxMetadataDepth = 20000;

py::object parse_metadata(const std::string& text) {
  const py::object loads = py::module_::import("json").attr("loads");
  try {
    return loads(text);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_RecursionError)) throw;
  }
  const py::module_ sys = py::module_::import("sys");
  const int old = sys.attr("getrecursionlimit")().cast<int>();
  sys.attr("setrecursionlimit")(std::max(old, kMaxMetadataDepth + 100));
  try {
    py::object parsed = loads(text);
    sys.attr("setrecursionlimit")(old);
    return parsed;
  } catch (py::error_already_set& e) {
    sys.attr("setrecursionlimit")(old);
    if (!e.matches(PyExc_RecursionError)) throw;
  }
  throw InputError(fmt::format("metadata nested deeper than {} levels cannot be parsed in Python", kMaxMetadataDepth));
}

py::typing::List<py::typing::Dict<py::str, py::object>> set_metadata(const Dataset& ds) {
  py::typing::List<py::typing::Dict<py::str, py::object>> out;
  for (std::size_t i = 0; i < ds.n_sets(); ++i) {
    py::dict parsed;
    for (const auto& [key, json] : ds.set_metadata(i)) parsed[py::str(key)] = parse_metadata(json);
    out.append(parsed);
  }
  return out;
}

py::typing::Dict<py::str, py::object> run_metadata(const Dataset& ds) {
  py::typing::Dict<py::str, py::object> out;
  for (const auto& run : ds.runs()) out[py::str(run.id)] = parse_metadata(run.metadata_json);
  return out;
}

// One 1-D column per statistic of summarize_grouped's result: the 2-D `quantiles` becomes q<p>
// columns (p from `probabilities`, which is per request, not per set, and is dropped).
py::dict flat_columns(const py::object& result) {
  const py::object asarray = py::module_::import("numpy").attr("asarray");
  py::dict columns(result);
  const py::object probabilities = asarray(columns.attr("pop")("probabilities", py::tuple()), "dtype"_a = "float64");
  py::dict out;
  for (const auto& [name, value] : columns) {
    const py::object column = asarray(value);
    if (column.attr("ndim").cast<int>() != 2) {
      out[name] = column;
      continue;
    }
    const py::object by_quantile = column.attr("T");
    py::ssize_t j = 0;
    for (const auto& p : probabilities)
      out[py::str(fmt::format("q{:g}", p.cast<double>()))] = by_quantile[py::int_(j++)];
  }
  return out;
}

// What Dataset.summarize puts in its DataFrame: (label or `by` columns, unit per row, statistics).
// With `by`, the sets of each group are pooled in set order, in the unit of its first set.
py::tuple summary_columns(const py::object& self, const std::vector<std::string>& by, const py::dict& options) {
  const Dataset& ds = ds_of(self);
  py::object values, offsets;
  py::dict keys;
  std::vector<std::size_t> first;
  if (by.empty()) {
    values = self.attr("values_as_read");
    offsets = self.attr("offsets");
    keys = label_columns(ds);
    for (std::size_t i = 0; i < ds.n_sets(); ++i) first.push_back(i);
  } else {
    const PooledSets pooled = pool_by(ds, by);
    values = py::array_t<double>(static_cast<py::ssize_t>(pooled.values.size()), pooled.values.data());
    offsets = py::array_t<std::int64_t>(static_cast<py::ssize_t>(pooled.offsets.size()), pooled.offsets.data());
    for (std::size_t j = 0; j < by.size(); ++j) {
      py::list column;
      for (const auto& key : pooled.keys) column.append(key[j]);
      keys[py::str(by[j])] = column;
    }
    first = pooled.first_set;
  }
  const py::object result = core_module().attr("summarize_grouped")(values, offsets, **options);
  py::list units;
  for (std::size_t i : first) units.append(ds.unit(i).symbol);
  return py::make_tuple(keys, units, flat_columns(result));
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
          [](const py::object& self, const py::Args<py::str>& columns)
              -> py::typing::List<py::typing::Tuple<py::typing::Tuple<py::str, py::ellipsis>, py::array>> {
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
          "Canonical JSON (schema benchreport/1): written to path (atomically, never through a symbolic link; "
          "OutputError when it cannot be), or returned when path is None.")
      .def("to_csv", &to_csv, "path"_a = py::none(),
           "Canonical long CSV; warns (UserWarning) about what CSV cannot carry.")
      .def("to_bmf", &to_bmf, "path"_a = py::none(), py::kw_only(), "by"_a = py::none(), "confidence"_a = 0.95,
           "Bencher Metric Format JSON: per benchmark (the values of by, default every label except the side, "
           "per-process labels and metric), latency in ns or throughput in ops/s (other units: a measure named by "
           "the metric label), value = median of the pooled samples, lower_value / upper_value = its "
           "distribution-free CI at confidence. Written to path, or returned when path is None. Reads back with "
           "br.load (format \"bmf\").")
      .def_property_readonly(
          "metadata", [](const py::object& self) { return set_metadata(ds_of(self)); },
          "Per-set metadata, parsed from the verbatim JSON the readers kept.")
      .def_property_readonly(
          "runs", [](const py::object& self) { return run_metadata(ds_of(self)); },
          "Run id → run metadata (parsed JSON): device, context, configuration, ...")
      .def(
          "select",
          [](const py::object& self, const py::KWArgs<py::str>& labels) {
            const Dataset& ds = ds_of(self);
            return same_class(self, py::cast(ds.subset(ds.select(equal_labels(labels)))));
          },
          "The sets whose labels equal every given ``column=value``.")
      .def(
          "indices",
          [](const py::object& self, const py::KWArgs<py::str>& labels) {
            const std::vector<std::size_t> sets = ds_of(self).select(equal_labels(labels));
            py::array_t<std::int64_t> out(static_cast<py::ssize_t>(sets.size()));
            std::copy(sets.begin(), sets.end(), out.mutable_data());
            return out;
          },
          "Indices of the sets whose labels equal every given ``column=value``.")
      .def("_long_columns", &long_columns, "base_units"_a,
           "{column: numpy array} of to_pandas: one entry per sample (label columns, run, set, sample, unit, "
           "value, weight when there are weights).")
      .def("_summary_columns", &summary_columns, "by"_a, "options"_a,
           "(label or by columns, unit per row, one column per statistic) of Dataset.summarize.")
      // Pickles as the core Dataset (its canonical JSON and the reader of each run), wrapped again
      // in the caller's class when unpickled.
      .def("__reduce__",
           [](const py::object& self) { return py::make_tuple(py::type::of(self), py::make_tuple(core_of(self))); })
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
      [](const std::vector<py::object>& base, const std::vector<py::object>& head, const std::string& column,
         const std::string& base_value, const std::string& head_value) {
        return label_sides(core_datasets(base), core_datasets(head), SideNames{column, base_value, head_value});
      },
      "base"_a, "head"_a, "column"_a = std::string(kSideLabel), "base_value"_a = "base", "head_value"_a = "head",
      "One Dataset from the files of each side: column names the side; pair pairs the i-th base file with the i-th "
      "head file (and, inside a file with several processes, process with process).");
}

// br.load's and br.read_bytes's limits: None keeps the reader's default.
ReadOptions read_options(const std::optional<std::uint64_t>& max_file_size, const std::optional<std::size_t>& max_depth,
                         const std::optional<std::uint64_t>& max_samples, const std::optional<long long>& threads) {
  ReadOptions options;
  if (threads) {
    if (*threads < 0)
      throw py::value_error(fmt::format("threads={}: expected 0 (one per core) or a positive count", *threads));
    options.threads = static_cast<unsigned>(*threads);
  }
  options.max_file_size = max_file_size.value_or(options.max_file_size);
  options.max_depth = max_depth.value_or(options.max_depth);
  options.max_samples = max_samples.value_or(options.max_samples);
  return options;
}

bool is_path(const py::handle& item) {
  return py::isinstance<py::str>(item) || py::isinstance(item, py::module_::import("os").attr("PathLike"));
}

std::vector<std::string> path_items(const py::handle& paths) {
  std::vector<std::string> items;
  if (is_path(paths)) return {fs_bytes(paths)};
  for (const auto& item : paths) items.push_back(fs_bytes(item));
  return items;
}

py::object read_inputs_unlocked(const std::vector<std::string>& items, const std::string& format,
                                const ReadOptions& options) {
  Dataset out;
  {
    py::gil_scoped_release release;
    out = read_inputs(items, format, options);
  }
  return py::cast(std::move(out));
}

// One side of br.load(base=..., head=...): a Dataset or a list of Datasets as given, else one
// Dataset per file of its paths, folders and globs.
std::vector<py::object> side_parts(const py::object& side, const std::string& format, const ReadOptions& options) {
  if (py::isinstance<DatasetHandle>(side)) return {core_of(side)};
  const py::list items = is_path(side) ? py::list(py::make_tuple(side)) : py::list(side);
  std::vector<py::object> parts;
  for (const auto& item : items) {
    if (!py::isinstance<DatasetHandle>(item)) break;
    parts.push_back(core_of(py::reinterpret_borrow<py::object>(item)));
  }
  if (parts.size() == items.size()) return parts;
  const std::vector<std::string> paths = path_items(items);
  std::vector<Dataset> read;
  {
    py::gil_scoped_release release;
    read = read_each(paths, format, options);
  }
  parts.clear();
  for (auto& part : read) parts.push_back(py::cast(std::move(part)));
  return parts;
}

py::object load(const py::object& paths, const std::string& format, const py::object& base, const py::object& head,
                const py::object& labels, const ReadOptions& options) {
  py::object out;
  if (!base.is_none() || !head.is_none()) {
    if (!paths.is_none() || base.is_none() || head.is_none()) {
      throw InputError("load(base=..., head=...) takes both sides and no positional paths");
    }
    const std::vector<py::object> base_parts = side_parts(base, format, options);
    const std::vector<py::object> head_parts = side_parts(head, format, options);
    out = py::cast(label_sides(core_datasets(base_parts), core_datasets(head_parts), SideNames{}));
  } else if (paths.is_none()) {
    throw InputError("no input files given (paths, or base=... and head=...)");
  } else {
    out = read_inputs_unlocked(path_items(paths), format, options);
  }
  if (!py::bool_(labels)) return out;
  Labels pairs;
  for (const auto& item : labels.attr("items")()) {
    const auto pair = py::reinterpret_borrow<py::tuple>(item);
    pairs.emplace_back(py::str(pair[0]), py::str(pair[1]));
  }
  out.cast<Dataset&>().label_all(pairs);
  return out;
}

// Dataset.from_arrays's offsets as int64: a float array only when every entry is a whole number
// within int64 (1.5 is refused, never truncated).
py::object integer_offsets(const py::object& offsets) {
  const py::module_ np = py::module_::import("numpy");
  const py::array o = np.attr("asarray")(offsets);
  const char kind = o.dtype().kind();
  if (kind == 'f') {
    for (const auto& entry : o.attr("ravel")()) {
      const double x = entry.cast<double>();
      if (!std::isfinite(x) || std::floor(x) != x || std::abs(x) >= 0x1p63) {
        throw InputError(fmt::format("offsets must be whole numbers (got {}); pass an integer array",
                                     py::repr(py::float_(x)).cast<std::string>()));
      }
    }
  } else if (o.size() != 0 && kind != 'i' && kind != 'u' && kind != 'b') {
    throw InputError(
        fmt::format("offsets must be integers (got an array of {})", py::str(o.dtype()).cast<std::string>()));
  }
  return o.attr("astype")(np.attr("int64"));
}

py::object dataset_from_arrays(const py::object& values, const py::object& offsets, const py::object& labels,
                               const py::object& unit, const py::object& weights, const py::object& directions) {
  const py::array o = integer_offsets(offsets);
  const std::size_t n = o.ndim() == 1 && o.shape(0) > 1 ? static_cast<std::size_t>(o.shape(0) - 1) : 0;
  std::vector<Labels> set_labels(n);
  if (!labels.is_none()) {
    for (const auto& [name, column] : py::dict(labels)) {
      const std::size_t size = py::len(column);
      if (size != n) {
        throw InputError(
            fmt::format("label column {} has {} entries for {} sets", py::repr(name).cast<std::string>(), size, n));
      }
      const py::sequence values_of_sets = py::reinterpret_borrow<py::sequence>(column);
      for (std::size_t i = 0; i < n; ++i) {
        const py::object value = values_of_sets[i];
        if (!value.is_none()) set_labels[i].emplace_back(py::str(name), py::str(value));
      }
    }
  }
  const py::list units = py::isinstance<py::str>(unit) ? py::list(py::make_tuple(unit)) : py::list(unit);
  return core_module().attr("dataset_from_csr")(
      values, o, set_labels, "units"_a = units, "weights"_a = weights,
      "directions"_a = directions.is_none() ? py::object(py::none()) : py::object(py::list(directions)),
      "custom_unit_ok"_a = false);
}

void bind_load(py::module_& m) {
  const ReadOptions d;
  m.def(
      "load",
      [](const py::object& paths, const std::string& format, const py::object& base, const py::object& head,
         const py::object& labels, const std::optional<std::uint64_t>& max_file_size,
         const std::optional<std::size_t>& max_depth, const std::optional<std::uint64_t>& max_samples,
         const std::optional<long long>& threads) {
        return load(paths, format, base, head, labels, read_options(max_file_size, max_depth, max_samples, threads));
      },
      "path_or_paths"_a = py::none(), "format"_a = "auto", py::kw_only(), "base"_a = py::none(), "head"_a = py::none(),
      "labels"_a = py::none(), "max_file_size"_a = py::none(), "max_depth"_a = py::none(), "max_samples"_a = py::none(),
      "threads"_a = py::none(),
      fmt::format(
          "Read files, folders (recursively), glob patterns and ``.gz`` files into one Dataset.\n\n"
          "``format`` is ``\"auto\"`` (detected per file) or one of :data:`READERS`. Limits default to 1 GiB per\n"
          "file, JSON nesting {}, 2**28 samples per file. Parsing runs in C++ without the GIL; ``threads``\n"
          "(default: one per core, 1 = serial) lets a Google Benchmark file of 4 MiB or more be parsed as two\n"
          "parts at once, with the same result (not ``.gz`` files, which are decompressed in memory and read in\n"
          "one pass). ``base=`` and ``head=`` (files, folders, globs) read the two sides of a\n"
          "comparison and label them as the CLI's ``--base``/``--head`` do: ``revision`` = base or head,\n"
          "``pair`` = the file's position on its side. ``labels`` sets each ``key: value`` on every set read\n"
          "(the CLI's ``--label``). Bad input raises :class:`benchreport.InputError` naming the file and line or\n"
          "JSON path.",
          d.max_depth)
          .c_str());
  m.def(
      "read_bytes",
      [](const py::bytes& data, const std::string& name, const std::string& format,
         const std::optional<std::uint64_t>& max_file_size, const std::optional<std::size_t>& max_depth,
         const std::optional<std::uint64_t>& max_samples, const std::optional<long long>& threads) {
        const ReadOptions options = read_options(max_file_size, max_depth, max_samples, threads);
        const std::string_view bytes(PyBytes_AS_STRING(data.ptr()),
                                     static_cast<std::size_t>(PyBytes_GET_SIZE(data.ptr())));
        py::gil_scoped_release release;  // `data` outlives the call
        return read_buffer(bytes, name, format, options);
      },
      "data"_a, "name"_a = "<bytes>", "format"_a = "auto", py::kw_only(), "max_file_size"_a = py::none(),
      "max_depth"_a = py::none(), "max_samples"_a = py::none(), "threads"_a = py::none(),
      "Parse bytes in memory (gzip-compressed bytes are decompressed first, under ``max_file_size``); the limits "
      "are load's.");
  m.def(
      "save",
      [](const py::object& dataset, const py::object& path, const std::optional<std::string>& format) {
        const bool csv = py::module_::import("os").attr("fspath")(path).attr("endswith")(".csv").cast<bool>();
        const std::string chosen = format && !format->empty() ? *format : csv ? "csv" : "json";
        if (chosen != "json" && chosen != "csv") {
          throw InputError(fmt::format("cannot save as {}: expected 'json' or 'csv'",
                                       py::repr(py::str(chosen)).cast<std::string>()));
        }
        dataset.attr(chosen == "json" ? "to_json" : "to_csv")(path);
      },
      "dataset"_a, "path"_a, "format"_a = py::none(),
      "Write canonical JSON or CSV (``format`` from the extension when None).");
  m.def("dataset_from_arrays", &dataset_from_arrays, "values"_a, "offsets"_a, "labels"_a = py::none(), "unit"_a = "s",
        "weights"_a = py::none(), "directions"_a = py::none(),
        "A core Dataset from CSR arrays (benchreport.Dataset.from_arrays): offsets must be whole numbers, labels "
        "maps a column to one value per set (None = absent), unit is one symbol or one per set.");
}

}  // namespace

void register_dataset_api(py::module_& m) {
  bind_dataset_base(m);
  bind_paths(m);
  bind_load(m);
}

}  // namespace benchreport::python

// Bindings for data/dataset.hpp (and dataset_from_csr over data/csr.hpp), data/units.hpp
// (the Unit class), data/display_unit.hpp, data/label_roles.hpp and io/read.hpp. The Python skin is
// python/benchreport/_dataset.py; these are its building blocks.
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "benchreport/data/direction.hpp"
#include "benchreport/data/csr.hpp"
#include "benchreport/data/dataset.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/io/read.hpp"
#include "benchreport/data/units.hpp"
#include "benchreport/data/display_unit.hpp"
#include "benchreport/data/label_roles.hpp"
#include "arrays.hpp"
#include "register.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

// The Unit's fields by name: attributes of the bound class, and its mapping view (unit["symbol"],
// dict(unit)) for code written when units were dicts.
constexpr const char* kUnitFields[] = {"symbol", "dimension", "to_base", "higher_is_better", "exact", "base_symbol"};

py::object unit_field(const Unit& unit, const std::string& name) {
  if (name == "symbol") return py::str(unit.symbol);
  if (name == "dimension") return py::str(std::string(dimension_name(unit.dimension)));
  if (name == "to_base") return py::float_(unit.to_base);
  if (name == "higher_is_better") return py::bool_(unit.higher_is_better);
  if (name == "exact") return py::bool_(unit.exact);
  if (name == "base_symbol") return py::str(std::string(base_symbol(unit.dimension)));
  throw py::key_error(name);
}

void register_unit(py::module_& m) {
  py::class_<Unit>(m, "Unit",
                   "A parsed unit: symbol as spelled, dimension, factor to the base unit, direction, "
                   "exactness. Also a read-only mapping of those names (unit[\"symbol\"]).")
      .def_property_readonly("symbol", [](const Unit& u) { return u.symbol; })
      .def_property_readonly("dimension", [](const Unit& u) { return std::string(dimension_name(u.dimension)); })
      .def_property_readonly(
          "to_base", [](const Unit& u) { return u.to_base; }, "value in the base unit = value × to_base")
      .def_property_readonly("higher_is_better", [](const Unit& u) { return u.higher_is_better; })
      .def_property_readonly("exact", [](const Unit& u) { return u.exact; })
      .def_property_readonly("base_symbol", [](const Unit& u) { return std::string(base_symbol(u.dimension)); })
      .def("__getitem__", &unit_field, "key"_a)
      .def("keys", [](const Unit&) { return std::vector<std::string>(std::begin(kUnitFields), std::end(kUnitFields)); })
      .def("__iter__",
           [](const Unit&) {
             return py::iter(py::cast(std::vector<std::string>(std::begin(kUnitFields), std::end(kUnitFields))));
           })
      .def("__len__", [](const Unit&) { return std::size(kUnitFields); })
      .def(py::self == py::self)
      .def(py::pickle(
          [](const Unit& u) {
            return py::make_tuple(u.symbol, static_cast<int>(u.dimension), u.to_base, u.higher_is_better, u.exact);
          },
          [](const py::tuple& t) {
            return Unit{t[0].cast<std::string>(), static_cast<Dimension>(t[1].cast<int>()), t[2].cast<double>(),
                        t[3].cast<bool>(), t[4].cast<bool>()};
          }))
      .def("__repr__", [](const Unit& u) {
        return fmt::format("Unit('{}', dimension='{}', to_base={})", u.symbol, dimension_name(u.dimension), u.to_base);
      });
}

ReadOptions make_read_options(std::uint64_t max_file_size, std::size_t max_depth, std::uint64_t max_samples,
                              unsigned threads) {
  return ReadOptions{max_file_size, max_depth, max_samples, threads};
}

void check_set_index(const Dataset& ds, long long i) {
  if (i < 0 || static_cast<std::size_t>(i) >= ds.n_sets()) {
    throw py::index_error(fmt::format("set index {} out of range (n_sets = {})", i, ds.n_sets()));
  }
}

std::size_t add_set(Dataset& ds, const Labels& labels, const DoubleArray& samples, const std::string& unit,
                    const std::optional<std::string>& direction, const std::string& run, const Metadata& metadata,
                    const std::optional<DoubleArray>& weights, bool custom_unit_ok, bool exact) {
  Unit parsed = custom_unit_ok ? parse_unit_or_custom(unit) : parse_unit(unit);
  parsed.exact = exact;
  SetOptions options;
  if (direction) options.direction = parse_direction(*direction);
  options.run = run;
  options.metadata = metadata;
  if (weights) options.weights = one_dimensional(*weights, "weights");
  return ds.add_set(labels, one_dimensional(samples, "samples"), parsed, options);
}

// Set i's unit among `units` (one for every set, or one each).
const Unit& unit_of_set(const std::vector<Unit>& units, std::size_t i) { return units[units.size() == 1 ? 0 : i]; }

// What add_sets_csr takes per set besides samples, labels and units; an absent vector means "none"
// for every set (no run, no metadata, not exact, direction from the unit).
struct CsrSetExtras {
  std::optional<DoubleArray> weights;  // aligned with values
  std::optional<std::vector<std::optional<std::string>>> directions;
  std::optional<std::vector<std::string>> runs;  // run ids, each added to the dataset before
  std::optional<std::vector<Metadata>> metadata;
  std::optional<std::vector<bool>> exact;
  bool custom_unit_ok = true;
};

template <typename T>
void check_per_set(const std::optional<std::vector<T>>& column, std::size_t n, const char* what) {
  if (column && column->size() != n) throw InputError(fmt::format("{} {} for {} sets", column->size(), what, n));
}

// Appends the sets of a CSR buffer to `ds` in one call: set i is values[offsets[i]:offsets[i+1]].
// One validation of the layout and one unit parse per distinct symbol, not one Python call per set.
void add_sets_csr(Dataset& ds, const DoubleArray& values, const IndexArray& offsets, const std::vector<Labels>& labels,
                  const std::vector<std::string>& unit_symbols, const CsrSetExtras& extras) {
  if (offsets.ndim() != 1) throw InputError("offsets must be 1-dimensional");
  const auto v = one_dimensional(values, "values");
  const std::span<const std::int64_t> o(offsets.data(), static_cast<std::size_t>(offsets.size()));
  const std::size_t n = csr_cases(v, o);
  if (labels.size() != n) throw InputError(fmt::format("{} label sets for {} sample sets", labels.size(), n));
  if (unit_symbols.size() != 1 && unit_symbols.size() != n) {
    throw InputError(fmt::format("{} units for {} sets", unit_symbols.size(), n));
  }
  check_per_set(extras.directions, n, "directions");
  check_per_set(extras.runs, n, "runs");
  check_per_set(extras.metadata, n, "metadata entries");
  check_per_set(extras.exact, n, "exact flags");
  std::span<const double> w;
  if (extras.weights) {
    w = one_dimensional(*extras.weights, "weights");
    if (w.size() != v.size()) throw InputError(fmt::format("weights has {} values, values {}", w.size(), v.size()));
  }
  std::map<std::string, Unit> parsed;  // a store's run repeats a few symbols over 10^4 sets
  std::vector<Unit> units;
  for (const auto& symbol : unit_symbols) {
    auto found = parsed.find(symbol);
    if (found == parsed.end()) {
      found = parsed.emplace(symbol, extras.custom_unit_ok ? parse_unit_or_custom(symbol) : parse_unit(symbol)).first;
    }
    units.push_back(found->second);
  }
  std::vector<std::optional<Direction>> parsed_directions(n);
  for (std::size_t i = 0; extras.directions && i < n; ++i) {
    if ((*extras.directions)[i]) parsed_directions[i] = parse_direction(*(*extras.directions)[i]);
  }
  py::gil_scoped_release release;
  ds.reserve_values(ds.n_values() + v.size());
  for (std::size_t i = 0; i < n; ++i) {
    SetOptions options;
    options.direction = parsed_directions[i];
    if (!w.empty()) options.weights = csr_case(w, o, i);
    if (extras.runs) options.run = (*extras.runs)[i];
    if (extras.metadata) options.metadata = (*extras.metadata)[i];
    Unit unit = unit_of_set(units, i);
    if (extras.exact) unit.exact = (*extras.exact)[i];
    ds.add_set(labels[i], csr_case(v, o, i), unit, options);
  }
}

void bind_dataset(py::module_& m) {
  py::class_<Dataset>(m, "Dataset", "Sample sets in CSR form with label columns (see benchreport.Dataset).")
      .def(py::init<>())
      .def_property_readonly("n_sets", &Dataset::n_sets)
      .def_property_readonly("n_values", &Dataset::n_values)
      .def("__len__", &Dataset::n_sets)
      .def_property_readonly(
          "values", [](py::object self) { return readonly_view(self.cast<const Dataset&>().values(), self); },
          "All samples as read, each set in its own unit, set after set (read-only view).")
      .def_property_readonly(
          "offsets", [](py::object self) { return readonly_view(self.cast<const Dataset&>().offsets(), self); },
          "n_sets + 1 offsets into values (read-only view).")
      .def_property_readonly(
          "weights",
          [](py::object self) -> py::object {
            const auto& ds = self.cast<const Dataset&>();
            if (!ds.has_weights()) return py::none();
            return readonly_view(ds.weights(), self);
          },
          "Per-sample weights (read-only view) or None.")
      .def("samples",
           [](py::object self, long long i) {  // as read, in unit(i)
             const auto& ds = self.cast<const Dataset&>();
             check_set_index(ds, i);
             return readonly_view(ds.samples(static_cast<std::size_t>(i)), self);
           })
      .def("columns", &Dataset::columns)
      .def(
          "label_codes",
          [](py::object self, const std::string& column) -> py::object {
            const LabelColumn* col = self.cast<const Dataset&>().column(column);
            if (col == nullptr) return py::none();
            return py::make_tuple(readonly_view(std::span<const std::int32_t>(col->codes), self), col->dictionary);
          },
          "(codes, dictionary) of a label column, codes -1 where absent; None for an unknown column.")
      .def("labels",
           [](const Dataset& ds, long long i) {
             check_set_index(ds, i);
             return ds.labels(static_cast<std::size_t>(i));
           })
      .def("unit",
           [](const Dataset& ds, long long i) {
             check_set_index(ds, i);
             return ds.unit(static_cast<std::size_t>(i));
           })
      .def("unit_symbols",
           [](const Dataset& ds) {
             std::vector<std::string> out;
             for (std::size_t i = 0; i < ds.n_sets(); ++i) out.push_back(ds.unit(i).symbol);
             return out;
           })
      .def("to_base_factors",
           [](const Dataset& ds) {
             py::array_t<double> out(static_cast<py::ssize_t>(ds.n_sets()));
             auto w = out.mutable_unchecked<1>();
             for (std::size_t i = 0; i < ds.n_sets(); ++i) w(static_cast<py::ssize_t>(i)) = ds.unit(i).to_base;
             return out;
           })
      .def("directions",
           [](const Dataset& ds) {
             std::vector<std::string> out;
             for (std::size_t i = 0; i < ds.n_sets(); ++i) out.emplace_back(direction_name(ds.direction(i)));
             return out;
           })
      .def("set_direction",
           [](Dataset& ds, long long i, const std::string& d) {
             check_set_index(ds, i);
             ds.set_direction(static_cast<std::size_t>(i), parse_direction(d));
           })
      .def("set_metadata",
           [](const Dataset& ds, long long i) {
             check_set_index(ds, i);
             return ds.set_metadata(static_cast<std::size_t>(i));
           })
      .def("run_ids",
           [](const Dataset& ds) {
             std::vector<std::string> out;
             for (std::size_t i = 0; i < ds.n_sets(); ++i) out.emplace_back(ds.run_id(i));
             return out;
           })
      .def("runs",
           [](const Dataset& ds) {
             std::vector<std::pair<std::string, std::string>> out;
             for (const auto& run : ds.runs()) out.emplace_back(run.id, run.metadata_json);
             return out;
           })
      .def("run_formats",
           [](const Dataset& ds) {  // the reader of each run, which canonical JSON does not carry
             std::vector<std::pair<std::string, std::string>> out;
             for (const auto& run : ds.runs()) out.emplace_back(run.id, run.format);
             return out;
           })
      .def("set_run_format", &Dataset::set_run_format, "id"_a, "format"_a)
      .def("warnings", [](const Dataset& ds) { return ds.warnings(); })
      .def("notes", [](const Dataset& ds) { return ds.notes(); })
      .def("warn", &Dataset::warn)
      .def("add_run", &Dataset::add_run, "id"_a, "metadata_json"_a = "{}")
      .def("add_set", &add_set, "labels"_a, "samples"_a, "unit"_a, "direction"_a = py::none(), "run"_a = "",
           "metadata"_a = Metadata{}, "weights"_a = py::none(), "custom_unit_ok"_a = false, "exact"_a = false,
           "Adds a set (samples in `unit`, stored exactly as given). Do not call while numpy views of this object are "
           "alive.")
      .def(
          "add_sets",
          [](Dataset& ds, const DoubleArray& values, const IndexArray& offsets, const std::vector<Labels>& labels,
             const std::vector<std::string>& units, const std::optional<DoubleArray>& weights,
             const std::optional<std::vector<std::optional<std::string>>>& directions,
             const std::optional<std::vector<std::string>>& runs, const std::optional<std::vector<Metadata>>& metadata,
             const std::optional<std::vector<bool>>& exact, bool custom_unit_ok) {
            add_sets_csr(ds, values, offsets, labels, units,
                         {weights, directions, runs, metadata, exact, custom_unit_ok});
          },
          "values"_a, "offsets"_a, "labels"_a, "units"_a, "weights"_a = py::none(), "directions"_a = py::none(),
          "runs"_a = py::none(), "metadata"_a = py::none(), "exact"_a = py::none(), "custom_unit_ok"_a = false,
          "Adds the sets of CSR arrays in one call, as add_set each: set i is values[offsets[i]:offsets[i+1]] "
          "with labels[i] in units[i] (or units[0] for all); weights align with values; per set, "
          "directions[i] (None = from the unit), runs[i] (added before), metadata[i], exact[i].")
      .def("select", &Dataset::select, "equal"_a)
      .def("subset",
           [](const Dataset& ds, const std::vector<std::size_t>& sets) {
             for (auto s : sets) check_set_index(ds, static_cast<long long>(s));
             return ds.subset(sets);
           })
      .def("group_by",
           [](const Dataset& ds, const std::vector<std::string>& columns) {
             py::list out;
             for (const auto& g : ds.group_by(columns)) {
               py::array_t<std::int64_t> sets(static_cast<py::ssize_t>(g.sets.size()));
               auto w = sets.mutable_unchecked<1>();
               for (std::size_t k = 0; k < g.sets.size(); ++k)
                 w(static_cast<py::ssize_t>(k)) = static_cast<std::int64_t>(g.sets[k]);
               out.append(py::make_tuple(py::tuple(py::cast(g.key)), sets));
             }
             return out;
           })
      .def("copy", [](const Dataset& ds) { return Dataset(ds); })
      // Pickles as its canonical JSON, which gives every value, label, unit, direction, weight and run
      // back as read (docs/dataset.md), and the reader of each run, which canonical JSON does not carry
      // and the presets use (Nitro's case names and platform titles).
      .def(py::pickle(
          [](const Dataset& ds) {
            std::ostringstream json;
            write_canonical_json(ds, json);
            std::vector<std::pair<std::string, std::string>> formats;
            for (const auto& run : ds.runs()) formats.emplace_back(run.id, run.format);
            return py::make_tuple(json.str(), formats);
          },
          [](const py::tuple& state) {
            const auto json = state[0].cast<std::string>();
            Dataset ds = read_buffer(json, "<pickle>", "json");
            for (const auto& [run, format] : state[1].cast<std::vector<std::pair<std::string, std::string>>>()) {
              ds.set_run_format(run, format);
            }
            return ds;
          }))
      .def(
          "with_labels",
          [](const Dataset& ds, const Labels& labels) {
            Dataset out(ds);
            out.label_all(labels);
            return out;
          },
          "labels"_a, "A copy with each (column, value) set on every set.")
      .def("to_json_string",
           [](const Dataset& ds) {
             std::ostringstream out;
             {
               py::gil_scoped_release release;
               write_canonical_json(ds, out);
             }
             return out.str();
           })
      .def("to_csv_string", [](const Dataset& ds) {
        std::ostringstream out;
        std::vector<std::string> notes;
        {
          py::gil_scoped_release release;
          notes = write_canonical_csv(ds, out);
        }
        return py::make_tuple(out.str(), notes);
      });

  m.def(
      "concat",
      [](const std::vector<const Dataset*>& parts) {
        Dataset out;
        py::gil_scoped_release release;
        for (const Dataset* part : parts) out.append(*part);
        return out;
      },
      "parts"_a, "A new Dataset with every set, run and warning of the parts, in order.");
}

void bind_io(py::module_& m) {
  m.def(
      "read",
      [](const std::filesystem::path& path, const std::string& format, std::uint64_t max_file_size,
         std::size_t max_depth, std::uint64_t max_samples, unsigned threads) {
        const ReadOptions options = make_read_options(max_file_size, max_depth, max_samples, threads);
        py::gil_scoped_release release;
        return read(path, format, options);
      },
      "path"_a, "format"_a = "auto", "max_file_size"_a = ReadOptions{}.max_file_size,
      "max_depth"_a = ReadOptions{}.max_depth, "max_samples"_a = ReadOptions{}.max_samples,
      "threads"_a = ReadOptions{}.threads);
  m.def(
      "read_buffer",
      [](const py::bytes& data, const std::string& name, const std::string& format, std::uint64_t max_file_size,
         std::size_t max_depth, std::uint64_t max_samples, unsigned threads) {
        const ReadOptions options = make_read_options(max_file_size, max_depth, max_samples, threads);
        char* buffer = nullptr;
        py::ssize_t length = 0;
        if (PyBytes_AsStringAndSize(data.ptr(), &buffer, &length) != 0) throw py::error_already_set();
        const std::string_view bytes(buffer, static_cast<std::size_t>(length));  // `data` outlives the call
        py::gil_scoped_release release;
        return read_buffer(bytes, name, format, options);
      },
      "data"_a, "name"_a, "format"_a = "auto", "max_file_size"_a = ReadOptions{}.max_file_size,
      "max_depth"_a = ReadOptions{}.max_depth, "max_samples"_a = ReadOptions{}.max_samples,
      "threads"_a = ReadOptions{}.threads);
  m.def(
      "detect_format",
      [](const std::string& name, const py::bytes& head) { return detect_format(name, std::string(head)); }, "name"_a,
      "first_bytes"_a, "The reader name for a file, from its name and first bytes (InputError if none fits).");
  m.def("reader_names", &reader_names);
  m.attr("DEFAULT_MAX_FILE_SIZE") = ReadOptions{}.max_file_size;
  // The one rule for input text shown on a terminal (the text renderer's): invalid UTF-8 -> U+FFFD,
  // C0/C1 controls, DEL and ESC -> a space, bidi controls -> U+FFFD. Takes str or bytes (UTF-8;
  // file names decoded with surrogateescape are passed as their bytes).
  m.def(
      "neutralize_text",
      [](const py::object& text) {
        std::string bytes;
        if (py::isinstance<py::bytes>(text)) {
          bytes = text.cast<std::string>();
        } else {
          bytes = py::str(text).attr("encode")("utf-8", "surrogateescape").cast<std::string>();
        }
        return neutralize_text(bytes);
      },
      "text"_a,
      "Input text made safe to print on a terminal: invalid UTF-8 -> U+FFFD; control characters "
      "(newline, tab, ESC, C1, DEL) -> one space each; bidi controls (U+202A-202E, U+2066-2069, "
      "U+200E, U+200F) -> U+FFFD. The rule of the text renderer (core/escape.hpp neutralize_text).");
  m.def(
      "parse_unit", [](const std::string& symbol) { return parse_unit(symbol); }, "symbol"_a,
      "Describe a unit symbol: a Unit (symbol, dimension, to_base, higher_is_better, exact, base_symbol). Raises "
      "benchreport.InputError for an unknown symbol.");
  m.def("known_unit_symbols", &known_unit_symbols);
  m.def(
      "display_unit",
      [](double base_value, const Unit& unit) {
        const DisplayUnit shown = display_unit(base_value, unit);
        return py::make_tuple(shown.symbol, shown.base_per_unit);
      },
      "base_value"_a, "unit"_a,
      "(symbol, base units per display unit) a value in base units of `unit` (a Unit "
      "from parse_unit) is shown in: times as format_time picks (after rounding), others their own unit.");
  m.attr("CANONICAL_SCHEMA") = std::string(kCanonicalSchema);
  m.attr("PROCESS_LABELS") = py::tuple(py::cast(process_labels()));  // data/label_roles.hpp
  m.attr("SIDE_LABEL") = std::string(kSideLabel);
  m.attr("PROCESS_LABEL") = std::string(kProcessLabel);
  m.attr("PAIR_LABEL") = std::string(kPairLabel);
}

}  // namespace

void register_dataset(py::module_& m) {
  register_unit(m);
  bind_dataset(m);  // before the functions that return a Dataset, so that their signatures name it
  m.def(
      "dataset_from_csr",
      [](const DoubleArray& values, const IndexArray& offsets, const std::vector<Labels>& labels,
         const std::string& unit, const std::optional<std::vector<std::string>>& units,
         const std::optional<DoubleArray>& weights,
         const std::optional<std::vector<std::optional<std::string>>>& directions, bool custom_unit_ok) {
        Dataset ds;
        add_sets_csr(ds, values, offsets, labels, units ? *units : std::vector<std::string>{unit},
                     {weights, directions, std::nullopt, std::nullopt, std::nullopt, custom_unit_ok});
        return ds;
      },
      "values"_a, "offsets"_a, "labels"_a, "unit"_a = "s", "units"_a = py::none(), "weights"_a = py::none(),
      "directions"_a = py::none(), "custom_unit_ok"_a = true,
      "A Dataset from CSR arrays read in place (an Arrow float64 column and its group offsets, "
      "Dataset.from_arrays): set i is values[offsets[i]:offsets[i+1]] with labels[i], in `unit` "
      "(or units[i]); weights align with values; directions[i] None = from the unit.");
  bind_io(m);
  register_dataset_api(m);  // dataset_api.cpp: benchreport.Dataset's base, input paths
}

}  // namespace benchreport::python

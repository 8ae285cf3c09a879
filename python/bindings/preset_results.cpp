// The preset results as Python classes (preset_results.hpp): properties read from the C++ result,
// rendering through its report, the columnar view, and pandas/BMF conveniences on top.
#include "preset_results.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "benchreport/compare/series.hpp"
#include "benchreport/presets/bmf.hpp"
#include "benchreport/render/render.hpp"
#include "arrays.hpp"
#include "output_file.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace benchreport::python {
namespace {

// One matched case of a comparison with the name and section the report shows it under.
struct ComparisonCase {
  Labels key;  // (column of `by`, value), in the order of `by`
  std::string name, section;
  std::vector<std::string> pairs;
  CaseComparison comparison;
};

py::dict labels_dict(const Labels& labels) {
  py::dict out;
  for (const auto& [column, value] : labels) out[py::str(column)] = value;
  return out;
}

Labels zipped(const std::vector<std::string>& columns, const std::vector<std::string>& values) {
  Labels out;
  for (std::size_t i = 0; i < columns.size() && i < values.size(); ++i) out.emplace_back(columns[i], values[i]);
  return out;
}

py::list key_dicts(const std::vector<std::string>& by, const std::vector<std::vector<std::string>>& keys) {
  py::list out;
  for (const auto& key : keys) out.append(labels_dict(zipped(by, key)));
  return out;
}

// The columnar view of a result, and its report's renderers (def_report_renderers).
template <class Result>
void def_report_and_columns(py::class_<Result>& cls, const char* columns_doc, const char* pandas_doc) {
  def_report_renderers(cls);
  cls.def_property_readonly(
         "report", [](Result& r) -> Report& { return r.report; }, py::return_value_policy::reference_internal,
         "The preset's Report.")
      .def(
          "columns", [](const Result& r) { return columns_dict(r.columns); }, columns_doc)
      .def(
          "to_pandas", [](const Result& r) { return data_frame(r.columns); }, pandas_doc);
}

py::array_t<double> matrix_values(const Matrix& m) {
  py::array_t<double> values({m.n_rows(), m.n_cols()});
  auto v = values.mutable_unchecked<2>();
  for (std::size_t r = 0; r < m.n_rows(); ++r) {
    for (std::size_t c = 0; c < m.n_cols(); ++c) {
      const auto& cell = m.at(r, c);
      v(r, c) = cell ? *cell : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return values;
}

std::vector<std::string> joined_keys(const std::vector<std::vector<std::string>>& keys) {
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (const auto& key : keys) out.push_back(join_key(key));
  return out;
}

void bind_matrix(py::module_& m) {
  py::class_<Matrix>(m, "Matrix", "Rows × columns of one statistic (values in base units, NaN = no data).")
      .def_readonly("row_columns", &Matrix::row_columns)
      .def_readonly("col_columns", &Matrix::col_columns)
      .def_readonly("row_keys", &Matrix::row_keys)
      .def_readonly("col_keys", &Matrix::col_keys)
      .def_property_readonly(
          "row_names", [](const Matrix& x) { return joined_keys(x.row_keys); },
          "Row keys joined with \" / \" (as the report shows them).")
      .def_property_readonly("col_names", [](const Matrix& x) { return joined_keys(x.col_keys); })
      .def_property_readonly("values", &matrix_values, "n_rows × n_cols float64 array in base units, NaN = no data.")
      .def_readonly("set_counts", &Matrix::set_counts)
      .def_property_readonly("unit", [](const Matrix& x) { return x.unit.symbol; })
      .def_property_readonly("base_unit", [](const Matrix& x) { return std::string(base_symbol(x.unit.dimension)); })
      .def_readonly("higher_is_better", &Matrix::higher_is_better)
      .def_property_readonly("stat", [](const Matrix& x) { return std::string(matrix_stat_name(x.stat)); })
      .def("best_col", &Matrix::best_col, py::arg("row"),
           "Column of the best value of a row (direction-aware, the first on a tie); None for an empty row.");

  py::class_<MatrixPreset> result(m, "MatrixResult", py::dynamic_attr(),
                                  "Result of matrix(): rows × columns of one statistic; values are in the base unit "
                                  "(seconds for times), NaN = no data.");
  result.def_property_readonly("row_columns", [](const MatrixPreset& r) { return r.matrix.row_columns; })
      .def_property_readonly("col_columns", [](const MatrixPreset& r) { return r.matrix.col_columns; })
      .def_property_readonly("rows", [](const MatrixPreset& r) { return joined_keys(r.matrix.row_keys); })
      .def_property_readonly("cols", [](const MatrixPreset& r) { return joined_keys(r.matrix.col_keys); })
      .def_property_readonly("values", [](const MatrixPreset& r) { return matrix_values(r.matrix); })
      .def_property_readonly("unit", [](const MatrixPreset& r) { return r.matrix.unit.symbol; })
      .def_property_readonly("base_unit",
                             [](const MatrixPreset& r) { return std::string(base_symbol(r.matrix.unit.dimension)); })
      .def_property_readonly("higher_is_better", [](const MatrixPreset& r) { return r.matrix.higher_is_better; })
      .def_property_readonly("stat", [](const MatrixPreset& r) { return std::string(matrix_stat_name(r.matrix.stat)); })
      .def_property_readonly(
          "core", [](MatrixPreset& r) -> Matrix& { return r.matrix; }, py::return_value_policy::reference_internal,
          "The C++ Matrix.")
      .def(
          "best",
          [](const MatrixPreset& r) {
            std::vector<std::optional<std::string>> out;
            const auto cols = joined_keys(r.matrix.col_keys);
            for (std::size_t row = 0; row < r.matrix.n_rows(); ++row) {
              const auto col = r.matrix.best_col(row);
              out.push_back(col ? std::optional(cols[*col]) : std::nullopt);
            }
            return out;
          },
          "Best column per row (direction-aware; the first on a tie), None for an empty row.")
      .def(
          "pivot",
          [](const MatrixPreset& r) {
            const py::module_ pd = py::module_::import("pandas");
            const auto index = [&](const auto& keys, const auto& columns) {
              return pd.attr("Index")(joined_keys(keys), "name"_a = join_key(columns));
            };
            return pd.attr("DataFrame")(matrix_values(r.matrix),
                                        "index"_a = index(r.matrix.row_keys, r.matrix.row_columns),
                                        "columns"_a = index(r.matrix.col_keys, r.matrix.col_columns));
          },
          "Rows × columns of ``values`` as a DataFrame indexed by the row and column names.");
  def_report_and_columns(result,
                         "The long form, ``{field: numpy array}`` with one entry per cell: the row and column "
                         "labels, ``value`` (base unit, NaN = no data), ``unit``, ``sets`` and ``best`` (the fields "
                         "of the JSON ``data[\"cells\"]``).",
                         "One row per cell: ``DataFrame(self.columns())``; :meth:`pivot` gives rows × columns.");
}

void bind_comparison_case(py::module_& m) {
  py::class_<ComparisonCase>(m, "ComparisonCase",
                             "One matched case of compare(): its key (label values of ``by``), display name, "
                             "section, process pairs and its CaseComparison (``comparison``; ``stats`` is the same "
                             "object under its earlier name).")
      .def_property_readonly("key", [](const ComparisonCase& c) { return labels_dict(c.key); })
      .def_readonly("name", &ComparisonCase::name)
      .def_readonly("section", &ComparisonCase::section)
      .def_readonly("pairs", &ComparisonCase::pairs)
      .def_readonly("comparison", &ComparisonCase::comparison, "The case's CaseComparison.")
      .def_readonly("stats", &ComparisonCase::comparison, "The case's CaseComparison (its earlier name).")
      .def_property_readonly(
          "change", [](const ComparisonCase& c) { return c.comparison.change; },
          "head p50 / base p50 - 1 over pooled samples.")
      .def_property_readonly("verdict",
                             [](const ComparisonCase& c) { return std::string(to_string(c.comparison.verdict)); })
      .def("__repr__", [](const ComparisonCase& c) {
        return fmt::format("<CaseResult {}: {} {}>", std::string(py::repr(py::str(c.name))),
                           py::str("{:+.2%}").attr("format")(c.comparison.change).cast<std::string>(),
                           to_string(c.comparison.verdict));
      });
}

py::list comparison_cases(ComparisonPreset& r) {
  if (r.cases.is_none()) {
    const DatasetComparison& c = r.view->comparison;
    py::list cases;
    for (std::size_t i = 0; i < c.cases.size(); ++i) {
      cases.append(ComparisonCase{zipped(c.by, c.cases[i].key), r.view->names[i], r.view->sections[i], c.cases[i].pairs,
                                  c.cases[i].comparison});
    }
    r.cases = cases;
  }
  return r.cases;
}

std::string comparison_repr(const ComparisonPreset& r) {
  const DatasetComparison& c = r.view->comparison;
  std::map<std::string, std::size_t> verdicts;
  for (const CaseResult& one : c.cases) ++verdicts[std::string(to_string(one.comparison.verdict))];
  std::vector<std::string> counts;
  for (const auto& [verdict, n] : verdicts) counts.push_back(fmt::format("{} {}", n, verdict));
  return fmt::format("<ComparisonResult {} vs {}: {} cases ({}); {} new, {} removed>", c.head_value, c.base_value,
                     c.cases.size(), fmt::join(counts, ", "), c.new_cases.size(), c.removed_cases.size());
}

py::object side_bmf_of(const ComparisonPreset& r, const std::string& side, const py::object& path, double confidence,
                       const py::KWArgs<py::str>& labels) {
  if (side != "head" && side != "base") {
    throw py::value_error(fmt::format("side must be 'head' or 'base', got {}", std::string(py::repr(py::str(side)))));
  }
  Labels wanted;
  for (const auto& [column, value] : labels) wanted.emplace_back(py::str(column), py::str(value));
  const DatasetComparison& c = r.view->comparison;
  std::optional<std::string> text;
  {
    const Dataset& dataset = native_dataset(r.dataset);
    py::gil_scoped_release release;
    text = side_bmf(dataset, c.baseline_column, side == "head" ? c.head_value : c.base_value, wanted, c.by, confidence);
  }
  if (!text) throw py::value_error(fmt::format("no {} sets with {}", side, std::string(py::repr(labels))));
  if (path.is_none()) return py::str(*text);
  write_file(path, *text);
  return py::none();
}

std::vector<std::pair<std::string, std::string>> bmf_files(const ComparisonPreset& r, const std::string& split,
                                                           double confidence) {
  const Dataset& dataset = native_dataset(r.dataset);
  std::vector<BmfFile> files;
  {
    py::gil_scoped_release release;
    files = comparison_bmf_files(dataset, r.view->comparison, split, confidence);
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& f : files) out.emplace_back(std::move(f.name), std::move(f.text));
  return out;
}

void bind_comparison(py::module_& m) {
  using R = ComparisonPreset;
  const auto field = [](auto member) { return [member](const R& r) { return r.view->comparison.*member; }; };
  py::class_<R> result(m, "ComparisonResult", py::dynamic_attr(),
                       "Result of compare(): matched cases, new/removed cases and the rendered report.");
  result.def_property_readonly("by", field(&DatasetComparison::by))
      .def_property_readonly("base_value", field(&DatasetComparison::base_value))
      .def_property_readonly("head_value", field(&DatasetComparison::head_value))
      .def_property_readonly("base_commit", field(&DatasetComparison::base_commit))
      .def_property_readonly("head_commit", field(&DatasetComparison::head_commit))
      .def_property_readonly("same_revision", field(&DatasetComparison::same_revision))
      .def_property_readonly(
          "new_cases", [](const R& r) { return key_dicts(r.view->comparison.by, r.view->comparison.new_cases); },
          "Keys (``{column: value}``) of the cases only head has.")
      .def_property_readonly(
          "removed_cases",
          [](const R& r) { return key_dicts(r.view->comparison.by, r.view->comparison.removed_cases); },
          "Keys (``{column: value}``) of the cases only base has.")
      .def_property_readonly("cases", &comparison_cases,
                             "The matched cases in input order (ComparisonCase), made on first access: a report of "
                             "100 000 cases rendered without reading them (the CLI) never builds their Python "
                             "objects. They are copies: the report's JSON payload is rendered from the same view.")
      .def("to_bmf", &side_bmf_of, py::arg("side") = "head", py::arg("path") = py::none(), py::kw_only(),
           py::arg("confidence") = BmfOptions{}.confidence,
           "One side (\"head\" or \"base\") as Bencher Metric Format JSON, one benchmark per case (named by the case "
           "key), optionally only the sets with the given labels (e.g. platform=\"ios\"; that label then leaves the "
           "name); written to path, or returned when path is None. See Dataset.to_bmf.")
      .def("bmf_files", &bmf_files, py::kw_only(), py::arg("split") = "platform",
           py::arg("confidence") = BmfOptions{}.confidence,
           "(file name, BMF text) pairs: ``bencher-<split value>.json`` (head) and ``bencher-base-<split "
           "value>.json`` (base) per value of the ``split`` label (Nitro's naming), or ``bencher.json`` / "
           "``bencher-base.json`` when the sets have no such label (a value \"\" is ``bencher-empty.json``); a side "
           "with no sets there (all cases new or removed) gets no file.")
      .def(
          "write_bmf_dir",
          [](const R& r, const py::object& directory, const std::string& split, double confidence) {
            const auto files = bmf_files(r, split, confidence);
            const py::object out = py::module_::import("pathlib").attr("Path")(directory);
            out.attr("mkdir")("parents"_a = true, "exist_ok"_a = true);
            // Checked and written as the CLI's outputs are (cli/outputs.hpp, bound with its signal handling).
            const py::module_ output = py::module_::import("benchreport._core");
            py::list outputs, paths;
            for (const auto& [name, text] : files) {
              const py::object path = out.attr("__truediv__")(name);
              outputs.append(output.attr("Output")(py::str(path), text));
              paths.append(path);
            }
            output.attr("write_outputs")(outputs);
            return paths;
          },
          py::arg("directory"), py::kw_only(), py::arg("split") = "platform",
          py::arg("confidence") = BmfOptions{}.confidence,
          "Writes bmf_files() into ``directory`` (made if missing): every file rendered and every path checked "
          "first, each file replaced atomically, never through a symbolic link. Returns the paths written.")
      .def("__repr__", &comparison_repr);
  def_report_and_columns(result,
                         "The columnar view: ``{field: numpy array}``, one entry per matched case, with exactly the "
                         "scalar fields of the JSON ``data`` cases (``key`` and ``robust`` flattened, ``section`` "
                         "from the case's section); values in base units (``unit_base``). Built from the fields the "
                         "JSON rows are built from (src/report/case_fields.hpp).",
                         "One row per case: ``DataFrame(self.columns())``.");
}

template <class Result>
void bind_preset(py::module_& m, const char* name, const char* doc, const char* columns_doc) {
  py::class_<Result> result(m, name, py::dynamic_attr(), doc);
  def_report_and_columns(result, columns_doc, "One row per entry of columns(): ``DataFrame(self.columns())``.");
}

void bind_alert(py::module_& m) {
  py::class_<ChangePointAlert>(m, "Alert", "What a results store remembers of one change point.")
      .def(py::init([](std::string state, std::string note, std::string cause) {
             return ChangePointAlert{std::move(state), std::move(note), std::move(cause)};
           }),
           py::arg("state"), py::arg("note") = "", py::arg("cause") = "")
      .def_readonly("state", &ChangePointAlert::state, "'new', 'confirmed', 'acknowledged' or 'resolved'.")
      .def_readonly("note", &ChangePointAlert::note, "The acknowledgement's note.")
      .def_readonly("cause", &ChangePointAlert::cause, "The environment difference at the change point, or ''.")
      .def(
          "__eq__",
          [](const ChangePointAlert& a, const ChangePointAlert& b) {
            return std::tie(a.state, a.note, a.cause) == std::tie(b.state, b.note, b.cause);
          },
          py::is_operator())  // anything else: NotImplemented, so == is False
      .def(py::pickle(
          [](const ChangePointAlert& a) { return py::make_tuple(a.state, a.note, a.cause); },
          [](const py::tuple& t) {
            return ChangePointAlert{t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<std::string>()};
          }))
      .def("__hash__", [](const ChangePointAlert& a) { return py::hash(py::make_tuple(a.state, a.note, a.cause)); })
      .def("__repr__", [](const ChangePointAlert& a) {
        return fmt::format("Alert(state={}, note={}, cause={})", py::repr(py::str(a.state)).cast<std::string>(),
                           py::repr(py::str(a.note)).cast<std::string>(),
                           py::repr(py::str(a.cause)).cast<std::string>());
      });
}

}  // namespace

void bind_history_results(py::module_& m) {
  bind_alert(m);
  py::class_<HistoryResult> result(m, "HistoryResult", py::dynamic_attr(),
                                   "Result of history(): the series, their change points and the report.");
  def_report_renderers(result);
  result
      .def_property_readonly(
          "core", [](HistoryResult& r) -> HistoryAnalysis& { return r.analysis; },
          py::return_value_policy::reference_internal, "The HistoryAnalysis: the series and their change points.")
      .def_property_readonly(
          "report", [](HistoryResult& r) -> Report& { return r.report; }, py::return_value_policy::reference_internal,
          "The history preset's Report.")
      .def_property_readonly("commits", [](const HistoryResult& r) { return r.analysis.history.commits; })
      .def_property_readonly("by", [](const HistoryResult& r) { return r.analysis.history.by; })
      .def(
          "columns", [](const HistoryResult& r) { return columns_dict(history_columns(r.analysis)); },
          "``{field: numpy array}``, one entry per change point: the case labels, ``unit`` (base unit) and the "
          "fields of a JSON change point (commit, index, before, after, change, lower, upper, p_value, test, "
          "regression).")
      .def(
          "to_pandas", [](const HistoryResult& r) { return data_frame(history_columns(r.analysis)); },
          "One row per change point: ``DataFrame(self.columns())``; ``relative`` False means change, lower and "
          "upper are after - before in the base unit (the series has a value <= 0).")
      .def(
          "series_frame", [](const HistoryResult& r) { return data_frame(series_frame(r.analysis.history)); },
          "One row per (case, commit): case labels, commit, position, value (base unit), processes, samples.")
      .def(
          "plot",
          [](const py::object& self, const py::object& ax, long long max_cases) {
            return py::module_::import("benchreport.plot")
                .attr("plot_history")(self, py::arg("ax") = ax, py::arg("max_cases") = max_cases);
          },
          py::kw_only(), py::arg("ax") = py::none(), py::arg("max_cases") = 12,
          "Each case's summaries relative to its first commit, change points marked (matplotlib).");
  py::class_<StoreHistoryPreset, HistoryResult>(
      m, "StoreHistoryResult", py::dynamic_attr(),
      "HistoryResult of a store's branch, with each change point's Alert (``alerts[i][k]`` for change point k of "
      "series i) and how many runs were summarised now.")
      .def_readonly("alerts", &StoreHistoryPreset::alerts)
      .def_readonly("summarised_runs", &StoreHistoryPreset::summarised_runs)
      .def(
          "regressions_in",
          [](const StoreHistoryPreset& r, const std::vector<std::string>& states) {
            std::size_t n = 0;
            for (std::size_t i = 0; i < r.alerts.size(); ++i) {
              const auto& points = r.analysis.changes[i].change_points;
              for (std::size_t k = 0; k < points.size(); ++k)
                n += points[k].regression &&
                     std::find(states.begin(), states.end(), r.alerts[i][k].state) != states.end();
            }
            return n;
          },
          py::arg("states"), "Regression change points whose state is one of ``states``.");
}

py::object data_frame(const Columns& columns) {
  return py::module_::import("pandas").attr("DataFrame")(columns_dict(columns));
}

const Dataset& native_dataset(const py::object& dataset) {
  if (py::isinstance<Dataset>(dataset)) return dataset.cast<const Dataset&>();
  if (!py::isinstance(dataset, py::module_::import("benchreport._core").attr("DatasetBase"))) {
    const py::handle kind = py::type::handle_of(dataset);
    throw py::type_error(fmt::format("expected a benchreport.Dataset (br.load, Dataset.from_pandas), got {}.{}",
                                     py::str(kind.attr("__module__")).cast<std::string>(),
                                     py::str(kind.attr("__qualname__")).cast<std::string>()));
  }
  return dataset.attr("_ds").cast<const Dataset&>();
}

void register_preset_results(py::module_& m) {
  m.def(
      "native_dataset",
      [](const py::object& dataset) {
        native_dataset(dataset);
        return py::object(dataset.attr("_ds"));
      },
      py::arg("dataset"), "The _core.Dataset behind a benchreport.Dataset; TypeError for anything else.");
  bind_matrix(m);
  bind_comparison_case(m);
  bind_comparison(m);
  bind_preset<SummaryPreset>(m, "SummaryResult", "Result of summary(): the summary preset's report and its columns.",
                             "``{field: numpy array}``, one entry per row: the label values (unprefixed, \"\" where a "
                             "set has none) and the scalar fields of the JSON ``data`` groups (NaN where JSON has "
                             "null).");
  bind_preset<RunnersPreset>(m, "RunnersResult", "Result of runners(): the runners preset's report and its columns.",
                             "``{field: numpy array}``, one entry per compared set (the fields of the JSON "
                             "``data[\"results\"]``): runner, suite, metric, backend, service, unit, pinned, then "
                             "median, min, max, cv_population and n in the set's own unit.");
}

}  // namespace benchreport::python

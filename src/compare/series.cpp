// Grouping a Dataset into per-case series of per-commit summaries.
#include "benchreport/compare/series.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

std::vector<std::string> series_columns(const Dataset& dataset, const SeriesOptions& o) {
  for (const auto& column : o.by) {
    if (dataset.column(column) == nullptr) {
      throw InputError(fmt::format("history: `by` column \"{}\" is not a label of the dataset (labels: {})", column,
                                   fmt::join(dataset.columns(), ", ")));
    }
  }
  if (!o.by.empty()) return o.by;
  std::vector<std::string> by;
  for (const auto& column : dataset.columns()) {
    const auto& skip = o.process_columns;
    if (column != o.order && std::find(skip.begin(), skip.end(), column) == skip.end()) by.push_back(column);
  }
  return by;
}

bool parse_number(const std::string& s, double& out) {
  return !s.empty() && std::from_chars(s.data(), s.data() + s.size(), out).ptr == s.data() + s.size();
}

// Position of each dictionary code of the order column in the series. Sorted,
// numbers come first in numeric order, then the other values as text; each case
// is then checked to hold only numbers or only text (check_case_order), so a
// case's order never depends on the values of another case.
std::vector<std::size_t> commit_positions(const LabelColumn& column, bool sort, std::vector<char>& numeric) {
  const std::size_t n = column.dictionary.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});  // dictionary order = first appearance
  numeric.assign(n, 0);
  if (sort) {
    std::vector<double> numbers(n);
    for (std::size_t i = 0; i < n; ++i) numeric[i] = parse_number(column.dictionary[i], numbers[i]) ? 1 : 0;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (numeric[a] != numeric[b]) return numeric[a] > numeric[b];
      return numeric[a] ? numbers[a] < numbers[b] : column.dictionary[a] < column.dictionary[b];
    });
  }
  std::vector<std::size_t> position(n);
  for (std::size_t p = 0; p < n; ++p) position[order[p]] = p;
  return position;
}

// A sorted case holds only numeric or only non-numeric order values: a mix has
// no order that is both numeric and textual, so it is refused rather than guessed.
void check_case_order(const std::vector<std::string>& key, const LabelColumn& column, const std::vector<char>& numeric,
                      const std::vector<std::size_t>& codes) {
  const std::size_t* number = nullptr;
  const std::size_t* text = nullptr;
  for (const std::size_t& code : codes) (numeric[code] ? number : text) = &code;
  if (number != nullptr && text != nullptr) {
    throw InputError(
        fmt::format("history: case {} mixes numeric and non-numeric \"{}\" values (\"{}\" and \"{}\"), "
                    "which have no common order; give its commits labels of one kind",
                    join_key(key), column.name, column.dictionary[*number], column.dictionary[*text]));
  }
}

// Median of per-process medians of the sets of one (case, commit).
void summarize_commit(const Dataset& dataset, const std::vector<std::size_t>& sets, const LabelColumn* process,
                      double& value, std::size_t& processes, std::size_t& samples) {
  std::map<std::int32_t, std::vector<double>> pooled;  // process label code -> samples
  std::vector<double> medians;
  samples = 0;
  for (const std::size_t set : sets) {
    samples += dataset.samples(set).size();
    const std::int32_t code = process == nullptr ? -1 : process->codes[set];
    if (code < 0) {
      medians.push_back(median(dataset.base_samples(set)));
    } else {
      dataset.append_base_samples(set, pooled[code]);
    }
  }
  for (auto& [code, x] : pooled) medians.push_back(median_inplace(x));
  processes = medians.size();
  value = median_inplace(medians);
}

}  // namespace

History build_history(const Dataset& dataset, const SeriesOptions& options, unsigned threads) {
  const LabelColumn* order = dataset.column(options.order);
  if (order == nullptr) {
    throw InputError(
        fmt::format("history: no label \"{}\" orders the sets (labels: {}); label each input with its "
                    "commit or choose another --order",
                    options.order, fmt::join(dataset.columns(), ", ")));
  }
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    if (order->codes[set] < 0) {
      throw InputError(fmt::format("history: set {} ({}) has no \"{}\" label", set, format_labels(dataset.labels(set)),
                                   options.order));
    }
  }
  History out;
  out.order = options.order;
  out.by = series_columns(dataset, options);
  std::vector<char> numeric;
  const std::vector<std::size_t> position = commit_positions(*order, options.sort, numeric);
  out.commits.resize(position.size());
  for (std::size_t code = 0; code < position.size(); ++code) out.commits[position[code]] = order->dictionary[code];
  const LabelColumn* process = dataset.column(options.process_column);
  const std::vector<Group> cases = dataset.group_by(out.by);
  out.series.resize(cases.size());
  run_indexed(cases.size(), threads, [&](std::size_t c) {
    const Group& group = cases[c];
    Series& s = out.series[c];
    s.key = group.key;
    const std::size_t first = group.sets.front();
    s.unit = dataset.unit(first);
    s.direction = dataset.direction(first);
    std::map<std::size_t, std::vector<std::size_t>> by_commit;  // series position -> sets
    std::vector<std::size_t> codes;
    for (const std::size_t set : group.sets) {
      if (dataset.unit(set).dimension != s.unit.dimension || dataset.direction(set) != s.direction) {
        throw InputError(fmt::format("history: case {} mixes units {} and {}; add a label such as metric to --by",
                                     join_key(s.key), s.unit.symbol, dataset.unit(set).symbol));
      }
      const auto code = static_cast<std::size_t>(order->codes[set]);
      by_commit[position[code]].push_back(set);
      if (options.sort) codes.push_back(code);
    }
    if (options.sort) check_case_order(s.key, *order, numeric, codes);
    for (const auto& [commit, sets] : by_commit) {
      double value = 0;
      std::size_t processes = 0, samples = 0;
      summarize_commit(dataset, sets, process, value, processes, samples);
      s.commits.push_back(commit);
      s.values.push_back(value);
      s.processes.push_back(processes);
      s.samples.push_back(samples);
    }
  });
  return out;
}

namespace {

// Point k of series i (position, value, processes, samples) on the current row.
void add_point(Columns& out, const Series& s, std::size_t k) {
  out.add("position", s.commits[k]);
  out.add("value", s.values[k]);
  out.add("processes", s.processes[k]);
  out.add("samples", s.samples[k]);
}

}  // namespace

Columns series_points(const History& history) {
  Columns out;
  for (std::size_t i = 0; i < history.series.size(); ++i) {
    const Series& s = history.series[i];
    for (std::size_t k = 0; k < s.commits.size(); ++k) {
      out.begin_row();
      out.add("series", i);
      add_point(out, s, k);
    }
  }
  if (out.rows() == 0) {  // names and kinds without rows
    out.begin_row();
    out.add("series", std::size_t{0});
    add_point(out, Series{{}, {}, {}, {0}, {0.0}, {0}, {0}}, 0);
    out.drop_rows();
  }
  return out;
}

Columns series_frame(const History& history) {
  Columns out;
  for (const Series& s : history.series) {
    for (std::size_t k = 0; k < s.commits.size(); ++k) {
      out.begin_row();
      for (std::size_t c = history.by.size(); c-- > 0;) out.add(history.by[c], s.key[c]);
      out.add("commit", history.commits[s.commits[k]]);
      add_point(out, s, k);
    }
  }
  return out;
}

}  // namespace benchreport

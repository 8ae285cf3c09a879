#include "benchreport/compare/dataset.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "benchreport/core/error.hpp"
#include "benchreport/compare/contamination.hpp"
#include "benchreport/compare/matrix.hpp"
#include "benchreport/compare/mismatch.hpp"
#include "benchreport/data/metadata.hpp"

namespace benchreport {
namespace {

using Key = std::vector<std::string>;

constexpr std::string_view kAbsent = "(absent)";  // a metadata value not recorded

struct Sides {
  std::vector<std::size_t> base, head;
};

std::vector<std::string> values_of(const Dataset& dataset, const std::string& column) {
  std::vector<std::string> values;
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    if (!dataset.has_label(set, column)) continue;
    std::string value(dataset.label(set, column));
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(std::move(value));
  }
  return values;
}

std::string pick_head_value(const std::vector<std::string>& values, const DatasetCompareOptions& o) {
  const auto has = [&](const std::string& v) { return std::find(values.begin(), values.end(), v) != values.end(); };
  if (!has(o.baseline_value)) {
    throw InputError(fmt::format("compare: no set has {}={} (values of \"{}\": {})", o.baseline_column,
                                 o.baseline_value, o.baseline_column, fmt::join(values, ", ")));
  }
  if (!o.head_value.empty()) {
    if (!has(o.head_value)) {
      throw InputError(fmt::format("compare: no set has {}={} (values of \"{}\": {})", o.baseline_column, o.head_value,
                                   o.baseline_column, fmt::join(values, ", ")));
    }
    return o.head_value;
  }
  std::vector<std::string> others;
  for (const auto& v : values) {
    if (v != o.baseline_value) others.push_back(v);
  }
  if (others.size() != 1) {
    throw InputError(
        fmt::format("compare: {} other value(s) of \"{}\" besides the baseline \"{}\" ({}); choose one "
                    "with head_value",
                    others.size(), o.baseline_column, o.baseline_value, fmt::join(others, ", ")));
  }
  return others.front();
}

std::vector<std::string> case_columns(const Dataset& dataset, const DatasetCompareOptions& o) {
  if (!o.by.empty()) {
    for (const auto& column : o.by) {
      if (dataset.column(column) == nullptr) {
        throw InputError(fmt::format("compare: `by` column \"{}\" is not a label of the dataset (labels: {})", column,
                                     fmt::join(dataset.columns(), ", ")));
      }
    }
    return o.by;
  }
  std::vector<std::string> by;
  for (const auto& column : dataset.columns()) {
    const bool per_process =
        std::find(o.process_columns.begin(), o.process_columns.end(), column) != o.process_columns.end();
    if (column != o.baseline_column && !per_process) by.push_back(column);
  }
  return by;
}

// Integers compare numerically ("2" < "10"), anything else as text; integers first.
bool pair_less(const std::string& a, const std::string& b) {
  long long x = 0;
  long long y = 0;
  const bool a_int = std::from_chars(a.data(), a.data() + a.size(), x).ptr == a.data() + a.size() && !a.empty();
  const bool b_int = std::from_chars(b.data(), b.data() + b.size(), y).ptr == b.data() + b.size() && !b.empty();
  if (a_int && b_int) return x < y;
  if (a_int != b_int) return a_int;
  return a < b;
}

// Run metadata parsed once per run id.
class RunMetadataCache {
 public:
  explicit RunMetadataCache(const Dataset& dataset) : dataset_(dataset) {}

  // Display text of `key` in the set's metadata, else in its run's metadata; kAbsent when missing.
  std::string value(std::size_t set, const std::string& key) {
    if (auto own = metadata::set_metadata_display(dataset_, set, key)) return std::move(*own);
    const std::string run(dataset_.run_id(set));
    auto it = parsed_.find(run);
    if (it == parsed_.end()) it = parsed_.emplace(run, metadata::run_metadata(dataset_, set)).first;
    const Json* found = metadata::find_deep(it->second, key);
    return found == nullptr ? std::string(kAbsent) : metadata::display_text(*found);
  }

 private:
  const Dataset& dataset_;
  std::map<std::string, Json> parsed_;
};

struct Conflict {
  std::string field;
  std::set<std::string> base, head;
  std::string first_case;
  std::size_t cases = 0;
};

std::string quoted_set(const std::set<std::string>& values) {
  std::vector<std::string> quoted;
  for (const auto& v : values) quoted.push_back(fmt::format("\"{}\"", v));
  return fmt::format("{}", fmt::join(quoted, ", "));
}

class ComparabilityCheck {
 public:
  ComparabilityCheck(const Dataset& dataset, const DatasetCompareOptions& options)
      : ds_(dataset), opt_(options), runs_(dataset) {}

  void check_case(const std::string& case_name, const Sides& sides) {
    for (const auto& key : opt_.run_checks) {
      compare_field(case_name, key, sides, [&](std::size_t set) { return runs_.value(set, key); });
    }
    for (const auto& key : opt_.work_checks) {
      compare_field(case_name, key, sides, [&](std::size_t set) { return work_of(set, key); });
    }
  }

  void check_side_declarations() {
    if (opt_.side_declarations.empty()) return;
    for (const auto& run : ds_.runs()) {
      const Json metadata = metadata::parse_json(run.metadata_json, fmt::format("run \"{}\"", run.id));
      for (const auto& declared : opt_.side_declarations) {
        const Json* base = metadata::find_deep(metadata, declared.base_key);
        const Json* head = metadata::find_deep(metadata, declared.head_key);
        if (base != nullptr && head != nullptr && !(*base == *head)) {
          conflicts_.push_back(
              Conflict{declared.field, {metadata::display_text(*base)}, {metadata::display_text(*head)}, run.id, 1});
        }
      }
    }
  }

  void throw_if_any() const {
    if (conflicts_.empty()) return;
    std::vector<std::string> parts;
    for (const auto& c : conflicts_) {
      parts.push_back(fmt::format("{} differs: base {} vs head {} (in {}{})", c.field, quoted_set(c.base),
                                  quoted_set(c.head), c.first_case,
                                  c.cases > 1 ? fmt::format(" and {} more case(s)", c.cases - 1) : ""));
    }
    throw InputError(
        fmt::format("compare: refusing to compare base and head — they executed unequal work or ran in "
                    "different environments: {}. To compare them anyway, pass --no-check (Python: "
                    "check_comparability=False).",
                    fmt::join(parts, "; ")));
  }

 private:
  // A scalar fixes the work behind every sample (Nitro's iterations). An array
  // holds per-sample counts chosen by an adaptive tool (Google Benchmark, Go)
  // whose samples are already per-iteration times: not a difference in work.
  std::string work_of(std::size_t set, const std::string& key) const {
    const auto text = metadata::set_metadata_text(ds_, set, key);
    if (!text) return std::string(kAbsent);
    if (!text->empty() && text->front() == '[') return "(per-sample counts)";
    return metadata::set_metadata_display(ds_, set, key).value_or(std::string(kAbsent));
  }

  template <typename ValueOf>
  void compare_field(const std::string& case_name, const std::string& field, const Sides& sides, ValueOf value_of) {
    // Absent means unknown, not different (a canonical CSV carries no per-sample
    // iterations): only values known on both sides can differ.
    std::set<std::string> base;
    std::set<std::string> head;
    for (const auto set : sides.base) base.insert(value_of(set));
    for (const auto set : sides.head) head.insert(value_of(set));
    base.erase(std::string(kAbsent));
    head.erase(std::string(kAbsent));
    if (base.empty() || head.empty() || base == head) return;
    for (auto& c : conflicts_) {
      if (c.field == field && c.base == base && c.head == head) {
        ++c.cases;
        return;
      }
    }
    conflicts_.push_back({field, std::move(base), std::move(head), case_name, 1});
  }

  const Dataset& ds_;
  const DatasetCompareOptions& opt_;
  RunMetadataCache runs_;
  std::vector<Conflict> conflicts_;
};

// The one commit of a side's runs, or "" when unknown or mixed.
std::string side_commit(const std::vector<std::size_t>& sets, const std::vector<std::string>& keys,
                        RunMetadataCache& runs) {
  std::set<std::string> commits;
  for (const auto set : sets) {
    std::string found;
    for (const auto& key : keys) {
      if (auto v = runs.value(set, key); v != kAbsent) {
        found = std::move(v);
        break;
      }
    }
    commits.insert(found);
  }
  return commits.size() == 1 ? *commits.begin() : std::string();
}

// Processes of one side in base units, ordered by `order`; same-pair sets
// are concatenated (and scaled sets copied) into `storage`.
std::vector<std::span<const double>> side_processes(const Dataset& dataset, const std::vector<std::size_t>& sets,
                                                    const std::string& pair_column,
                                                    const std::vector<std::string>& order,
                                                    std::vector<std::vector<double>>& storage) {
  std::vector<std::span<const double>> processes;
  for (const auto& members : process_sets(dataset, sets, pair_column, order)) {
    if (members.size() == 1 && dataset.unit(members.front()).to_base == 1.0) {
      processes.push_back(dataset.samples(members.front()));
      continue;
    }
    std::vector<double> joined;
    for (const auto set : members) dataset.append_base_samples(set, joined);
    storage.push_back(std::move(joined));
    processes.emplace_back(storage.back());
  }
  return processes;
}

// Pair labels: those on both sides (sorted), then base-only, then head-only.
std::vector<std::string> pair_order(const Dataset& dataset, const Sides& sides, const std::string& pair_column) {
  // Hashed membership throughout: thousands of process files per side stay linear (issue 33).
  const auto labels = [&](const std::vector<std::size_t>& sets) {
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    for (const auto set : sets) {
      if (!dataset.has_label(set, pair_column)) continue;
      std::string p(dataset.label(set, pair_column));
      if (seen.insert(p).second) out.push_back(std::move(p));
    }
    std::sort(out.begin(), out.end(), pair_less);
    return out;
  };
  const auto base = labels(sides.base);
  const auto head = labels(sides.head);
  const std::unordered_set<std::string> in_head(head.begin(), head.end());
  std::vector<std::string> order;
  std::unordered_set<std::string> ordered;
  for (const auto& p : base) {
    if (in_head.count(p) != 0 && ordered.insert(p).second) order.push_back(p);
  }
  for (const auto* side : {&base, &head}) {
    for (const auto& p : *side) {
      if (ordered.insert(p).second) order.push_back(p);
    }
  }
  return order;
}

// Values of a case are compared in base units, so every set must measure the
// same kind of quantity (custom units are not scaled: the same symbol) with the
// same direction; otherwise the change would compare, say, seconds with bytes.
void check_case_units(const Dataset& dataset, const std::string& name, const Sides& sides) {
  const std::size_t first = sides.base.front();
  const Unit& unit = dataset.unit(first);
  const auto check_side = [&](const std::vector<std::size_t>& sets, std::string_view side) {
    for (const std::size_t set : sets) {
      const Unit& other = dataset.unit(set);
      const bool same_kind =
          other.dimension == unit.dimension && (unit.dimension != Dimension::custom || other.symbol == unit.symbol);
      if (!same_kind) {
        throw InputError(fmt::format(
            "compare: case '{}' mixes units that cannot be compared: base {} ({}) vs {} {} ({}); "
            "every set of a case needs the same kind of unit",
            name, unit.symbol, dimension_name(unit.dimension), side, other.symbol, dimension_name(other.dimension)));
      }
      if (dataset.direction(set) != dataset.direction(first)) {
        throw InputError(fmt::format("compare: case '{}' mixes lower-is-better and higher-is-better sets", name));
      }
    }
  };
  check_side(sides.base, "base");
  check_side(sides.head, "head");
}

// Paired when every set of both sides carries a pair label and both sides have
// the same labels (process p of head ran in the same interleaving block as
// process p of base); otherwise the processes are independent (Welch).
ProcessPairing pairing_of(const Dataset& dataset, const Sides& sides, const std::string& pair_column) {
  const auto labels = [&](const std::vector<std::size_t>& sets, std::set<std::string>& out) {
    for (const auto set : sets) {
      if (!dataset.has_label(set, pair_column)) return false;
      out.emplace(dataset.label(set, pair_column));
    }
    return true;
  };
  std::set<std::string> base, head;
  if (!labels(sides.base, base) || !labels(sides.head, head)) return ProcessPairing::unpaired;
  return base == head ? ProcessPairing::paired : ProcessPairing::unpaired;
}

}  // namespace

std::vector<std::vector<std::size_t>> process_sets(const Dataset& dataset, const std::vector<std::size_t>& sets,
                                                   const std::string& pair_column,
                                                   const std::vector<std::string>& pairs) {
  // One pass over the sets with the pairs hashed (was a pass per pair: quadratic in process files).
  std::unordered_map<std::string_view, std::size_t> pair_index;
  pair_index.reserve(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) pair_index.emplace(pairs[i], i);  // the first of equal pairs
  std::vector<std::vector<std::size_t>> members(pairs.size());
  for (const auto set : sets) {
    if (!dataset.has_label(set, pair_column)) continue;
    const auto it = pair_index.find(dataset.label(set, pair_column));
    if (it != pair_index.end()) members[it->second].push_back(set);
  }
  std::vector<std::vector<std::size_t>> processes;
  for (auto& m : members) {
    if (!m.empty()) processes.push_back(std::move(m));
  }
  for (const auto set : sets) {
    if (!dataset.has_label(set, pair_column)) processes.push_back({set});
  }
  return processes;
}

std::string case_metric(const CaseResult& c, const std::vector<std::string>& by) {
  const auto metric = std::find(by.begin(), by.end(), std::string(kMetricLabel));
  return metric == by.end() ? std::string() : c.key[static_cast<std::size_t>(metric - by.begin())];
}

// Metrics of one measurement (Google Benchmark's real_time, cpu_time, bytes_per_second,
// counters; Go's ns/op, B/op, ...) come from one run of the code.
std::vector<std::string> measurement_key(const CaseResult& c, const std::vector<std::string>& by) {
  std::vector<std::string> key = c.key;
  const auto metric = std::find(by.begin(), by.end(), std::string(kMetricLabel));
  if (metric != by.end()) key.erase(key.begin() + (metric - by.begin()));
  return key;
}

// The first metric a reader emitted (its primary: real_time, ns/op, time) stands for the
// measurement in BH, the rest follow it.
std::vector<std::size_t> measurement_primaries(std::span<const CaseResult* const> cases,
                                               const std::vector<std::string>& by) {
  std::vector<std::size_t> primary_of(cases.size());
  std::map<std::vector<std::string>, std::size_t> first;
  for (std::size_t i = 0; i < cases.size(); ++i)
    primary_of[i] = first.emplace(measurement_key(*cases[i], by), i).first->second;
  return primary_of;
}

namespace {

// Go's procs label (the -N of BenchmarkX-N) names a case only when a side ran
// one benchmark at several GOMAXPROCS (-cpu 1,2). Otherwise -8 on one side and
// -4 (or none) on the other are the same benchmark, matched by name, and the
// difference is a note of the comparison.
void drop_procs_when_one_per_side(const Dataset& dataset, DatasetComparison& out) {
  const auto procs = std::find(out.by.begin(), out.by.end(), std::string(kProcsLabel));
  if (procs == out.by.end()) return;
  std::map<std::pair<std::string, Key>, std::string> seen;  // (side, key without procs) -> procs
  std::set<std::string> base_procs, head_procs;
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    if (!dataset.has_label(set, out.baseline_column) || !dataset.has_label(set, kProcsLabel)) continue;
    const std::string side(dataset.label(set, out.baseline_column));
    if (side != out.base_value && side != out.head_value) continue;
    Key key;
    for (const auto& column : out.by) {
      if (column != kProcsLabel) key.emplace_back(dataset.label(set, column));
    }
    const std::string value(dataset.label(set, kProcsLabel));
    const auto [it, inserted] = seen.try_emplace({side, std::move(key)}, value);
    if (!inserted && it->second != value) return;  // several GOMAXPROCS on one side: part of the case
    (side == out.base_value ? base_procs : head_procs).insert(value);
  }
  out.by.erase(procs);
  if (base_procs != head_procs) {
    out.notes.push_back(fmt::format(
        "Go's GOMAXPROCS differs between the sides (procs {} in base, {} in head); cases are matched by name.",
        fmt::join(base_procs, ","), fmt::join(head_procs, ",")));
  }
}

}  // namespace

std::string head_value_of(const Dataset& dataset, const DatasetCompareOptions& options) {
  return pick_head_value(values_of(dataset, options.baseline_column), options);
}

DatasetComparison compare(const Dataset& dataset, const DatasetCompareOptions& options) {
  if (dataset.column(options.baseline_column) == nullptr) {
    throw InputError(fmt::format("compare: the dataset has no \"{}\" label to choose base and head by (labels: {})",
                                 options.baseline_column, fmt::join(dataset.columns(), ", ")));
  }
  DatasetComparison out;
  out.baseline_column = options.baseline_column;
  out.base_value = options.baseline_value;
  out.head_value = pick_head_value(values_of(dataset, options.baseline_column), options);
  out.by = case_columns(dataset, options);
  if (options.by.empty()) drop_procs_when_one_per_side(dataset, out);
  out.options = static_cast<const CompareOptions&>(options);

  std::vector<Key> order;
  std::map<Key, Sides> cases;
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    if (!dataset.has_label(set, options.baseline_column)) continue;
    const auto side = dataset.label(set, options.baseline_column);
    if (side != out.base_value && side != out.head_value) continue;
    Key key;
    for (const auto& column : out.by) key.emplace_back(dataset.label(set, column));
    auto [it, inserted] = cases.try_emplace(key);
    if (inserted) order.push_back(key);
    (side == out.base_value ? it->second.base : it->second.head).push_back(set);
  }

  ComparabilityCheck check(dataset, options);
  RunMetadataCache runs(dataset);
  std::vector<std::size_t> all_base;
  std::vector<std::size_t> all_head;
  std::vector<Key> matched;
  for (const auto& key : order) {
    const Sides& sides = cases.at(key);
    if (sides.head.empty()) {
      out.removed_cases.push_back(key);
      out.removed_case_sets.push_back(sides.base);
    } else if (sides.base.empty()) {
      out.new_cases.push_back(key);
      out.new_case_sets.push_back(sides.head);
    } else {
      matched.push_back(key);
      check_case_units(dataset, join_key(key), sides);
      if (options.check_comparability) check.check_case(join_key(key), sides);
      all_base.insert(all_base.end(), sides.base.begin(), sides.base.end());
      all_head.insert(all_head.end(), sides.head.begin(), sides.head.end());
    }
  }
  if (options.check_comparability) {
    check.check_side_declarations();
    check.throw_if_any();
  }
  if (!options.allow_new_and_removed && (!out.new_cases.empty() || !out.removed_cases.empty())) {
    const auto names = [](const std::vector<Key>& keys) {
      std::vector<std::string> joined;
      for (const auto& k : keys) joined.push_back(join_key(k));
      return fmt::format("{}", fmt::join(joined, ", "));
    };
    throw InputError(fmt::format("compare: the case sets differ (new in head: {}; removed from base: {})",
                                 out.new_cases.empty() ? "none" : names(out.new_cases),
                                 out.removed_cases.empty() ? "none" : names(out.removed_cases)));
  }
  if (matched.empty()) {
    MismatchContext context{
        out.by, out.removed_cases, out.new_cases, options.baseline_column, out.base_value, out.head_value, {}};
    for (const auto& run : dataset.runs()) {
      if (!run.format.empty()) context.formats.insert(run.format);
    }
    throw InputError(explain_no_match(context));
  }
  out.base_commit = side_commit(all_base, options.commit_keys, runs);
  out.head_commit = side_commit(all_head, options.commit_keys, runs);
  out.same_revision = !out.base_commit.empty() && out.base_commit == out.head_commit;

  // Cases are compared in batches of equal direction/exactness (usually one batch).
  std::vector<std::vector<double>> storage;  // concatenated processes; moving it keeps the spans valid
  std::map<std::pair<bool, bool>, std::vector<std::size_t>> batches;
  std::vector<CaseInput> inputs;
  for (std::size_t i = 0; i < matched.size(); ++i) {
    const Sides& sides = cases.at(matched[i]);
    CaseResult result;
    result.key = matched[i];
    result.base_sets = sides.base;
    result.head_sets = sides.head;
    result.pairs = pair_order(dataset, sides, options.pair_column);
    CaseInput input;
    input.name = join_key(matched[i]);
    input.base.processes = side_processes(dataset, sides.base, options.pair_column, result.pairs, storage);
    input.head.processes = side_processes(dataset, sides.head, options.pair_column, result.pairs, storage);
    input.pairing = pairing_of(dataset, sides, options.pair_column);
    if (!options.launch_noise.empty()) {  // a store was given: a case it lacks says so
      const auto noise = options.launch_noise.find(input.name);
      LaunchNoise none;
      none.branch = options.launch_noise.begin()->second.branch;
      input.launch_noise = noise != options.launch_noise.end() ? noise->second : none;
    }
    const std::size_t first = sides.base.front();
    batches[{dataset.direction(first) == Direction::higher_is_better, dataset.unit(first).exact}].push_back(i);
    inputs.push_back(std::move(input));
    out.cases.push_back(std::move(result));
  }
  for (const auto& [kind, indices] : batches) {
    CompareOptions batch_options = options;
    batch_options.control_fdr = false;  // BH runs once over every case below
    batch_options.direction = kind.first ? Direction::higher_is_better : Direction::lower_is_better;
    batch_options.exact_unit = batch_options.exact_unit || kind.second;
    std::vector<CaseInput> batch;
    for (const auto i : indices) batch.push_back(std::move(inputs[i]));  // each case is in one batch
    auto results = compare_cases(batch, batch_options, options.threads);
    for (std::size_t j = 0; j < indices.size(); ++j) out.cases[indices[j]].comparison = std::move(results[j]);
  }
  // Benjamini–Hochberg across the measurements of the comparison (exact-unit cases are not in the family).
  std::vector<CaseComparison*> family;
  std::vector<const CaseResult*> members;
  for (auto& c : out.cases) {
    if (!is_exact(c.comparison.verdict_code)) {
      family.push_back(&c.comparison);
      members.push_back(&c);
    }
  }
  const std::vector<std::size_t> primary_of = measurement_primaries(members, out.by);
  control_false_discoveries(std::span<CaseComparison* const>(family), primary_of, options);
  flag_contamination(dataset, out);
  return out;
}

}  // namespace benchreport

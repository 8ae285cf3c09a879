// Scaling over a Dataset: see scaling.hpp.
#include "benchreport/compare/scaling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "benchreport/compare/dataset.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

std::vector<std::string> pair_labels(const Dataset& dataset, const std::vector<std::size_t>& sets,
                                     const std::string& pair_column) {
  std::vector<std::string> pairs;
  for (const std::size_t s : sets) {
    if (dataset.has_label(s, pair_column)) pairs.emplace_back(dataset.label(s, pair_column));
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

// One value per process: the median of its samples (its sets concatenated).
std::vector<double> process_medians(const Dataset& dataset, const std::vector<std::size_t>& sets,
                                    const std::string& pair_column) {
  std::vector<double> medians;
  for (const auto& process : process_sets(dataset, sets, pair_column, pair_labels(dataset, sets, pair_column))) {
    std::vector<double> samples;
    for (const std::size_t s : process) dataset.append_base_samples(s, samples);
    medians.push_back(median_inplace(samples));
  }
  return medians;
}

std::optional<double> number_in(const Json& object, std::string_view key) {
  const Json* value = metadata::find_deep(object, key);
  if (value == nullptr) return std::nullopt;
  if (value->is_integer()) return static_cast<double>(value->as_integer());
  if (value->is_double()) return value->as_double();
  return std::nullopt;
}

// Google Benchmark's BigO/RMS of the family (reader: set metadata "complexity").
std::optional<ReportedComplexity> reported_complexity(const Dataset& dataset, std::size_t set) {
  const auto text = metadata::set_metadata_text(dataset, set, "complexity");
  if (!text) return std::nullopt;
  const Json complexity = metadata::parse_json(*text, "complexity");
  const Json* big_o = metadata::find_deep(complexity, "big_o");
  if (big_o == nullptr) return std::nullopt;
  ReportedComplexity r;
  r.big_o = metadata::display_text(*big_o);
  const std::string_view metric = dataset.label(set, "metric");
  const auto coefficient = number_in(complexity, metric == "cpu_time" ? "cpu_coefficient" : "real_coefficient");
  if (metric != "cpu_time" && metric != "real_time") return std::nullopt;  // counters have no coefficient
  r.coefficient = coefficient.value_or(0) * dataset.unit(set).to_base;
  r.rms = number_in(complexity, "rms").value_or(0);
  return r;
}

FamilyFit fit_family(const Dataset& dataset, const Family& family, const std::vector<FamilyMember>& members,
                     const ScalingOptions& options) {
  std::map<double, std::vector<std::size_t>> by_size;
  for (const FamilyMember& m : members) by_size[m.size].push_back(m.set);
  FamilyFit f;
  f.key = family.key;
  f.name = family.name;
  f.unit = dataset.unit(members.front().set);
  for (const auto& [size, sets] : by_size)
    f.levels.push_back({size, process_medians(dataset, sets, options.pair_column)});
  f.fit = fit_scaling(f.levels, options.fit);
  f.reported = reported_complexity(dataset, members.front().set);
  return f;
}

std::size_t distinct_sizes(const std::vector<FamilyMember>& members) {
  std::vector<double> sizes;
  for (const FamilyMember& m : members) sizes.push_back(m.size);
  std::sort(sizes.begin(), sizes.end());
  return static_cast<std::size_t>(std::unique(sizes.begin(), sizes.end()) - sizes.begin());
}

bool same_unit(const Dataset& dataset, const std::vector<FamilyMember>& members) {
  return std::all_of(members.begin(), members.end(),
                     [&](const FamilyMember& m) { return dataset.unit(m.set) == dataset.unit(members.front().set); });
}

// One family fitted (one side) or compared (two sides) into `out`.
void add_family(const Dataset& dataset, const Family& family, const ScalingOptions& options, std::size_t need,
                ScalingResult& out) {
  if (!out.compared) {
    out.fits.push_back(fit_family(dataset, family, family.members, options));
    return;
  }
  std::vector<FamilyMember> base, head;
  for (const FamilyMember& m : family.members) {
    const std::string_view side = dataset.label(m.set, options.baseline_column);
    if (side == out.base_value)
      base.push_back(m);
    else if (side == out.head_value)
      head.push_back(m);
  }
  if (distinct_sizes(base) < need || distinct_sizes(head) < need) {
    out.skipped.push_back(fmt::format("{}: {} sizes on {}, {} on {} (need {} on each side)", family.name,
                                      distinct_sizes(base), out.base_value, distinct_sizes(head), out.head_value,
                                      need));
    return;
  }
  FamilyComparison c{family.key,
                     family.name,
                     fit_family(dataset, family, base, options),
                     fit_family(dataset, family, head, options),
                     {}};
  c.change = compare_growth(c.base.fit, c.head.fit, options.change);
  out.comparisons.push_back(std::move(c));
}

}  // namespace

ScalingResult scaling(const Dataset& dataset, const ScalingOptions& options) {
  ScalingResult out;
  out.options = options;
  FamilyOptions family_options = options.families;
  family_options.ignore_columns.push_back(options.baseline_column);
  family_options.ignore_columns.push_back(options.pair_column);
  const SizeFamilies families = find_families(dataset, family_options);
  out.by = families.by;
  out.size_source = families.size_source;
  const LabelColumn* sides = dataset.column(options.baseline_column);
  out.compared = sides != nullptr && (sides->dictionary.size() > 1 || !options.head_value.empty());
  if (out.compared) {
    DatasetCompareOptions side_options;
    side_options.baseline_column = options.baseline_column;
    side_options.baseline_value = options.baseline_value;
    side_options.head_value = options.head_value;
    out.baseline_column = options.baseline_column;
    out.base_value = options.baseline_value;
    out.head_value = head_value_of(dataset, side_options);
  }
  const std::size_t need = std::max<std::size_t>(3, options.families.min_sizes);
  for (const Family& family : families.families) {
    if (!same_unit(dataset, family.members)) {
      out.skipped.push_back(fmt::format("{}: its sets have different units", family.name));
      continue;
    }
    try {
      add_family(dataset, family, options, need, out);
    } catch (const InputError& e) {  // e.g. a zero cost: this family cannot be fitted, the others can
      out.skipped.push_back(fmt::format("{}: {}", family.name, e.what()));
    }
  }
  return out;
}

}  // namespace benchreport

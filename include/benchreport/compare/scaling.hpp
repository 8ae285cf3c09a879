#pragma once
// Scaling over a Dataset: find the size families, summarise each size by its
// processes' medians (the process is the independent unit), fit the growth,
// and — when the data has two sides — compare base and head growth per family.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/data/families.hpp"
#include "benchreport/data/label_roles.hpp"
#include "benchreport/stats/scaling.hpp"

namespace benchreport {

struct ScalingOptions {
  FamilyOptions families;
  // Sides: a baseline label and value; without the label every family is fitted once.
  std::string baseline_column{kSideLabel};
  std::string baseline_value = "base";
  std::string head_value;  // "" = the only other value
  // Sets sharing this label at one size are one process (concatenated); others are one process each.
  std::string pair_column{kPairLabel};
  ScalingFitOptions fit;
  GrowthChangeOptions change;
};

// Google Benchmark's own complexity fit of a family (its BigO/RMS rows), when the input had one.
struct ReportedComplexity {
  std::string big_o;       // "N", "NlgN", "N^2", ...
  double coefficient = 0;  // of the family's metric (real_coefficient or cpu_coefficient)
  double rms = 0;          // relative RMS of Google Benchmark's fit
};

struct FamilyFit {
  std::vector<std::string> key;  // values of ScalingResult::by
  std::string name;
  Unit unit;                      // of the family's first set (values are in its base unit)
  std::vector<SizeLevel> levels;  // per size: per-process medians, ascending size
  ScalingFit fit;
  std::optional<ReportedComplexity> reported;
};

struct FamilyComparison {
  std::vector<std::string> key;
  std::string name;
  FamilyFit base, head;
  GrowthChange change;
};

struct ScalingResult {
  std::vector<std::string> by;
  std::string size_source;  // "name" or the size label
  bool compared = false;    // base vs head (comparisons), else one fit per family (fits)
  std::string baseline_column, base_value, head_value;
  std::vector<FamilyFit> fits;
  std::vector<FamilyComparison> comparisons;
  std::vector<std::string> skipped;  // families left out, with the reason
  ScalingOptions options;
};

// Throws InputError when the head side is ambiguous or a named size label is
// missing; a family that cannot be fitted (fewer than 3 sizes on a side) is
// listed in `skipped`. No families is an empty result, not an error.
ScalingResult scaling(const Dataset& dataset, const ScalingOptions& options = {});

}  // namespace benchreport

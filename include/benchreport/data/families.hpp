#pragma once
// Scaling families: cases that differ only by a numeric size (Google Benchmark
// `BM_sort/1024`, `BM_x/8/1024`, pytest-benchmark `test_x[1024]`, a hyperfine
// --parameter-scan label, or any label the caller names), grouped by what is
// left of their labels once the size is taken out. docs/statistics-scaling.md.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_roles.hpp"

namespace benchreport {

struct FamilyOptions {
  std::string name_column = "benchmark";  // label holding the case name
  // A label whose value is the size (hyperfine parameter, user label); "" = take
  // it from the case name, else from the only label whose values are all numbers.
  std::string size_column;
  std::size_t size_argument = 0;  // which numeric argument of a name is the size (0 = first)
  std::size_t min_sizes = 3;      // fewer distinct sizes is not a family
  // Labels that never form a family key (sides and processes).
  std::vector<std::string> ignore_columns = process_labels({kSideLabel, kFileLabel});
};

// A case name with its size taken out: "BM_x/*/64" and 1024 for "BM_x/1024/64".
struct SizedName {
  std::string family;
  double size = 0;
};

// The size in `name`: the numeric '/'-separated arguments of a Google Benchmark
// name (also `size:1024`; threads/min_time/iterations/repeats are not sizes), or
// the numeric '-'-separated parameters of a pytest-benchmark id `test_x[1024-a]`.
// nullopt when the name has no such argument number `argument`.
std::optional<SizedName> split_size(std::string_view name, std::size_t argument = 0);

// A label value as a size: a finite number > 0 ("1024", "1e6", "0.5"), else nullopt.
std::optional<double> parse_size(std::string_view text);

struct FamilyMember {
  std::size_t set = 0;
  double size = 0;
};

struct Family {
  std::vector<std::string> key;       // values of SizeFamilies::by; the name column holds the family name
  std::string name;                   // key joined with " / "
  std::vector<FamilyMember> members;  // dataset order
  std::size_t distinct_sizes = 0;
};

struct SizeFamilies {
  std::vector<std::string> by;   // key columns
  std::string size_source;       // "name" or the size label's column
  std::vector<Family> families;  // first-appearance order
};

// Families among `sets` (all sets when empty). Throws InputError when a named
// size_column is missing or one of its values is not a positive number.
SizeFamilies find_families(const Dataset& dataset, const FamilyOptions& options = {},
                           std::span<const std::size_t> sets = {});

}  // namespace benchreport

#pragma once
// `compare --fail-on slower`: which cases trip the gate, and the stderr line
// that names them.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace benchreport::cli {

// What the gate needs of one compared case.
struct GateCase {
  std::string verdict;                                   // "slower", "faster", ...
  std::vector<std::pair<std::string, std::string>> key;  // the case's labels
  std::string name;
};

// Names of the slower cases, one per measurement: real_time, cpu_time and
// bytes_per_second of one Google Benchmark run are one measurement (its key
// without `metric`), named by its first slower metric.
std::vector<std::string> slower_measurements(const std::vector<GateCase>& cases);

// "benchreport: gate tripped: N case(s) slower: a, b ... and M more" (the
// first five named, neutralised); nullopt when no case is slower.
std::optional<std::string> gate_message(const std::vector<GateCase>& cases);

}  // namespace benchreport::cli

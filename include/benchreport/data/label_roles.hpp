#pragma once
// Roles of label columns beyond naming a case, declared once: the label that
// names the side of a comparison, and the labels that tell the processes of a
// case apart. Comparisons, histories, families, BMF names and the Python
// layer (benchreport._core.PROCESS_LABELS) all read them from here.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace benchreport {

// The side of a comparison (base or head) by default.
inline constexpr std::string_view kSideLabel = "revision";
// Sets of one side (or one commit) sharing this label's value are one process.
inline constexpr std::string_view kProcessLabel = "process";
// Pairs a head process with the base process of the same value.
inline constexpr std::string_view kPairLabel = "pair";
// A process's position in an interleaved run (ABBA...), when the tool records it.
inline constexpr std::string_view kOrderLabel = "order";
// The input file a set came from, when several files are read as one dataset.
inline constexpr std::string_view kFileLabel = "file";

// Go's GOMAXPROCS (the -N of BenchmarkX-N): part of a case only when one side
// ran a benchmark at several values (compare/dataset.cpp).
inline constexpr std::string_view kProcsLabel = "procs";

// Labels a results store adds to every set it reads back (the run's commit, branch and id), never
// kept in a stored set's own labels.
inline constexpr std::array<std::string_view, 3> kStoreLabels{"commit", "branch", "run"};

// Labels naming a process within a case (which process, its pair, its
// position in an interleaved run, its run, its repetition): never part of a
// case key, a family key or a BMF benchmark name.
inline constexpr std::array<std::string_view, 5> kProcessLabels{kProcessLabel, kPairLabel, kOrderLabel, "run",
                                                                "repetition"};

// kProcessLabels, after `first` (e.g. the side label), as option defaults.
inline std::vector<std::string> process_labels(std::initializer_list<std::string_view> first = {}) {
  std::vector<std::string> out(first.begin(), first.end());
  out.insert(out.end(), kProcessLabels.begin(), kProcessLabels.end());
  return out;
}

// The labels naming a case: `by` when given, else every column that is neither
// in `excluded` (the baseline column, a table's value/unit/order columns) nor a
// process label. Comparisons with a store and Dask partitions choose them so.
inline std::vector<std::string> case_labels(std::span<const std::string> columns, std::span<const std::string> excluded,
                                            std::span<const std::string> by) {
  if (!by.empty()) return {by.begin(), by.end()};
  std::vector<std::string> out;
  for (const auto& c : columns) {
    const bool process = std::find(kProcessLabels.begin(), kProcessLabels.end(), c) != kProcessLabels.end();
    if (!process && std::find(excluded.begin(), excluded.end(), c) == excluded.end()) out.push_back(c);
  }
  return out;
}

}  // namespace benchreport

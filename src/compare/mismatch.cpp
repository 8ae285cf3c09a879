#include "benchreport/compare/mismatch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "benchreport/core/edit_distance.hpp"
#include "benchreport/data/dataset.hpp"

namespace benchreport {
namespace {

constexpr std::size_t kListed = 5;  // cases named per side; the rest are counted

std::string listed(const std::vector<std::vector<std::string>>& keys) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < keys.size() && i < kListed; ++i) names.push_back(join_key(keys[i]));
  std::string out = fmt::format("{}", fmt::join(names, "; "));
  if (keys.size() > kListed) out += fmt::format("; and {} more", keys.size() - kListed);
  return out;
}

// The case columns in which every near match differs, when it is one column.
std::optional<std::size_t> differing_column(const std::vector<NearMatch>& near, std::size_t n_columns) {
  std::optional<std::size_t> column;
  for (const auto& m : near) {
    std::vector<std::size_t> differ;
    for (std::size_t c = 0; c < n_columns; ++c) {
      if (m.base[c] != m.head[c]) differ.push_back(c);
    }
    if (differ.size() != 1 || (column && *column != differ.front())) return std::nullopt;
    column = differ.front();
  }
  return column;
}

// Leaving `column` out of the case key keeps the cases of each side apart.
bool removable(const MismatchContext& x, std::size_t column) {
  for (const auto* keys : {&x.base_only, &x.head_only}) {
    std::set<std::vector<std::string>> rest;
    for (auto key : *keys) {
      key.erase(key.begin() + static_cast<std::ptrdiff_t>(column));
      if (!rest.insert(std::move(key)).second) return false;
    }
  }
  return true;
}

std::string fix_for(const MismatchContext& x, const std::vector<NearMatch>& near) {
  const auto column = differing_column(near, x.by.size());
  if (!column) return fmt::format("Fix: choose the labels that name a case with --by (now: {}).", fmt::join(x.by, ","));
  std::vector<std::string> others;
  for (std::size_t c = 0; c < x.by.size(); ++c) {
    if (c != *column) others.push_back(x.by[c]);
  }
  // Leaving the column out helps only when the other labels still tell each side's cases apart.
  const std::string by_others = !others.empty() && removable(x, *column)
                                    ? fmt::format(", or compare with --by {}", fmt::join(others, ","))
                                    : std::string();
  const std::string& name = x.by[*column];
  if (name == "procs") {
    return fmt::format(
        "Fix: the cases differ only in Go's GOMAXPROCS suffix (the procs label, the -N of BenchmarkX-N): run both "
        "sides with the same -cpu{} to match by name.",
        by_others);
  }
  if (name == "benchmark" && x.formats.count("hyperfine") != 0) {
    return fmt::format(
        "Fix: hyperfine names a benchmark by its command line, which differs between the sides: give each side's "
        "command the same name with hyperfine -n NAME (--command-name){}.",
        by_others);
  }
  return fmt::format("Fix: the cases differ only in the \"{}\" label: give both sides the same values{}.", name,
                     by_others);
}

}  // namespace

std::vector<NearMatch> nearest_matches(const std::vector<std::vector<std::string>>& base_only,
                                       const std::vector<std::vector<std::string>>& head_only, std::size_t limit) {
  std::vector<NearMatch> out;
  if (head_only.empty()) return out;
  for (const auto& base : base_only) {
    const std::string name = join_key(base);
    NearMatch best{base, head_only.front(), 2.0};
    for (const auto& head : head_only) {
      const double d = normalized_edit_distance(name, join_key(head));
      if (d < best.distance) best = NearMatch{base, head, d};  // the first of equal distances
    }
    out.push_back(std::move(best));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.distance < b.distance; });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::string explain_no_match(const MismatchContext& x) {
  // One line (the CLI prints an error as one line): parts joined by " \u2014 ", cases by "; ".
  std::string out = fmt::format("compare: no case has sets on both sides ({}={} and {}={}), matching cases by {}",
                                x.side_column, x.base_value, x.side_column, x.head_value, fmt::join(x.by, ","));
  out += fmt::format(" \u2014 only in base ({}): {}", x.base_only.size(), listed(x.base_only));
  out += fmt::format(" \u2014 only in head ({}): {}", x.head_only.size(), listed(x.head_only));
  const auto near = nearest_matches(x.base_only, x.head_only, kListed);
  if (!near.empty()) {
    std::vector<std::string> pairs;
    for (const auto& m : near) {
      pairs.push_back(fmt::format("{} ~ {} ({:.2f})", join_key(m.base), join_key(m.head), m.distance));
    }
    out += fmt::format(" \u2014 nearest matches (normalized edit distance): {}", fmt::join(pairs, "; "));
  }
  out += " \u2014 " + fix_for(x, near);
  return out;
}

}  // namespace benchreport

// A History from cached per-(case, run) summaries (a results store's case_summaries).
#include "benchreport/compare/cached_history.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

std::size_t as_index(std::int64_t v, const char* what, std::size_t row) {
  if (v < 0) throw InputError(fmt::format("cached summaries: row {} has {} {}: expected >= 0", row, what, v));
  return static_cast<std::size_t>(v);
}

void check_lengths(const CachedRows& r) {
  const std::size_t n = r.case_code.size();
  if (r.run.size() != n || r.position.size() != n || r.value.size() != n || r.processes.size() != n ||
      r.samples.size() != n) {
    throw InputError(
        fmt::format("cached summaries: case, run, position, value, processes and samples must have one length "
                    "(got {}, {}, {}, {}, {}, {})",
                    n, r.run.size(), r.position.size(), r.value.size(), r.processes.size(), r.samples.size()));
  }
}

std::size_t case_count(const CachedRows& r) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < r.case_code.size(); ++i) n = std::max(n, as_index(r.case_code[i], "case code", i) + 1);
  return n;
}

// Rows grouped by case code (CSR: rows of code c at [offsets[c], offsets[c + 1])), in row order.
struct RowsByCase {
  std::vector<std::size_t> offsets, rows;
};

RowsByCase group_by_case(const CachedRows& r, std::size_t cases) {
  RowsByCase g{std::vector<std::size_t>(cases + 1, 0), {}};
  for (std::size_t i = 0; i < r.case_code.size(); ++i) {
    if (r.run[i] >= 0) ++g.offsets[static_cast<std::size_t>(r.case_code[i]) + 1];
  }
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.rows.resize(g.offsets.back());
  std::vector<std::size_t> next(g.offsets.begin(), g.offsets.end() - 1);
  for (std::size_t i = 0; i < r.case_code.size(); ++i) {
    if (r.run[i] >= 0) g.rows[next[static_cast<std::size_t>(r.case_code[i])]++] = i;
  }
  return g;
}

struct Point {
  double value;
  std::size_t processes, samples;
};

using CommitPoint = std::pair<std::size_t, Point>;

// One case's summaries by ascending commit: of a commit's runs the last stands for it.
std::vector<CommitPoint> case_points(const CachedRows& r, std::span<const std::size_t> case_rows,
                                     std::span<const std::size_t> commit_of_run) {
  std::vector<std::size_t> order(case_rows.begin(), case_rows.end());
  const auto commit = [&](std::size_t i) { return commit_of_run[static_cast<std::size_t>(r.run[i])]; };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(commit(a), r.run[a]) < std::pair(commit(b), r.run[b]);
  });
  std::vector<CommitPoint> points;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (k + 1 < order.size() && commit(order[k + 1]) == commit(i)) continue;  // a later run of this commit follows
    points.emplace_back(
        commit(i), Point{r.value[i], as_index(r.processes[i], "processes", i), as_index(r.samples[i], "samples", i)});
  }
  return points;
}

// The points of a group of cases, each case's pooled summaries replacing its own, a later case
// replacing an earlier one at a commit both hold.
std::vector<CommitPoint> merged_points(const std::vector<std::vector<CommitPoint>>& parts,
                                       const std::vector<std::span<const PooledSummary* const>>& pooled) {
  if (parts.size() == 1 && pooled.front().empty()) return parts.front();  // the usual case
  std::map<std::size_t, Point> points;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    for (const auto& [commit, point] : parts[k]) points.insert_or_assign(commit, point);
    for (const PooledSummary* p : pooled[k])
      points.insert_or_assign(p->commit, Point{p->value, p->processes, p->samples});
  }
  return {points.begin(), points.end()};
}

std::string label_of(const CachedCase& c, const std::string& column) {
  std::string value;
  for (const auto& [name, v] : c.labels) {
    if (name == column) value = v;
  }
  return value;
}

std::vector<std::size_t> run_commits(std::span<const std::int64_t> commit_of_run, std::size_t commits) {
  std::vector<std::size_t> out(commit_of_run.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::size_t>(commit_of_run[i]);
    if (commit_of_run[i] < 0 || out[i] >= commits) {
      throw InputError(fmt::format("cached summaries: run {} is at commit {} of {}", i, commit_of_run[i], commits));
    }
  }
  return out;
}

}  // namespace

std::vector<std::size_t> first_appearances(std::span<const std::int64_t> case_code, std::span<const std::int64_t> run,
                                           std::span<const std::int64_t> position) {
  if (run.size() != case_code.size() || position.size() != case_code.size()) {
    throw InputError(fmt::format("cached summaries: case, run and position must have one length (got {}, {}, {})",
                                 case_code.size(), run.size(), position.size()));
  }
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> first;
  const auto earlier = [&](std::size_t a, std::size_t b) {
    return std::pair(run[a], position[a]) < std::pair(run[b], position[b]);
  };
  for (std::size_t i = 0; i < case_code.size(); ++i) {
    if (run[i] < 0) continue;  // a run no longer listed
    const std::size_t code = as_index(case_code[i], "case code", i);
    if (code >= first.size()) first.resize(code + 1, none);
    if (first[code] == none || earlier(i, first[code])) first[code] = i;
  }
  std::erase(first, none);  // codes without rows (their runs are gone)
  std::sort(first.begin(), first.end(), earlier);
  return first;
}

History assemble_cached_history(CachedHistoryInput in) {
  const CachedRows& r = in.rows;
  check_lengths(r);
  if (in.first.size() != in.cases.size()) {
    throw InputError(fmt::format("cached summaries: {} cases for {} first rows", in.cases.size(), in.first.size()));
  }
  for (std::size_t f : in.first) {
    if (f >= r.case_code.size() || r.run[f] < 0)
      throw InputError(fmt::format("cached summaries: first row {} of {}", f, r.case_code.size()));
  }
  const std::vector<std::size_t> commit_of_run = run_commits(in.commit_of_run, in.commits.size());
  for (std::size_t i = 0; i < r.run.size(); ++i) {
    if (r.run[i] >= static_cast<std::int64_t>(commit_of_run.size()))
      throw InputError(fmt::format("cached summaries: row {} has run {} of {}", i, r.run[i], commit_of_run.size()));
  }
  const std::size_t codes = case_count(r);
  const RowsByCase by_case = group_by_case(r, codes);
  std::vector<std::vector<const PooledSummary*>> pooled_of(codes);
  for (const PooledSummary& p : in.pooled) {
    if (p.case_code < codes) pooled_of[p.case_code].push_back(&p);
  }
  // Cases in order of first appearance, merged by their key; a group's first case gives unit and direction.
  std::map<std::vector<std::string>, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;  // indices into in.first / in.cases
  std::vector<std::vector<std::string>> keys;
  for (std::size_t c = 0; c < in.cases.size(); ++c) {
    std::vector<std::string> key;
    key.reserve(in.by.size());
    for (const auto& column : in.by) key.push_back(label_of(in.cases[c], column));
    auto [it, added] = group_of.try_emplace(key, groups.size());
    if (added) {
      groups.emplace_back();
      keys.push_back(std::move(key));
    }
    groups[it->second].push_back(c);
  }
  History history{"commit", std::move(in.by), std::move(in.commits), {}};
  history.series.reserve(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::vector<std::vector<CommitPoint>> parts;
    std::vector<std::span<const PooledSummary* const>> pooled;
    for (std::size_t c : groups[g]) {
      const std::size_t code = static_cast<std::size_t>(r.case_code[in.first[c]]);
      const std::size_t begin = by_case.offsets[code], end = by_case.offsets[code + 1];
      parts.push_back(case_points(r, std::span(by_case.rows).subspan(begin, end - begin), commit_of_run));
      pooled.emplace_back(pooled_of[code]);
    }
    const CachedCase& head = in.cases[groups[g].front()];
    Series s{std::move(keys[g]), head.unit, head.direction, {}, {}, {}, {}};
    for (const auto& [commit, point] : merged_points(parts, pooled)) {
      if (commit >= history.commits.size()) {
        throw InputError(
            fmt::format("cached summaries: pooled summary at commit {} of {}", commit, history.commits.size()));
      }
      s.commits.push_back(commit);
      s.values.push_back(point.value);
      s.processes.push_back(point.processes);
      s.samples.push_back(point.samples);
    }
    history.series.push_back(std::move(s));
  }
  return history;
}

}  // namespace benchreport

#include "benchreport/io/store_export.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "benchreport/core/error.hpp"

namespace benchreport {

std::vector<std::vector<ExportRun>> export_commits(std::span<const std::int64_t> run_ids,
                                                   std::span<const std::string> branches,
                                                   std::span<const std::string> commits,
                                                   std::span<const std::int64_t> seqs, std::string_view branch) {
  const std::size_t n = run_ids.size();
  if (branches.size() != n || commits.size() != n || seqs.size() != n) {
    throw InputError("_runs.arrow: its columns run_id, branch, commit_sha and seq differ in length");
  }
  const auto key = [&](std::size_t i) { return std::tie(branches[i], seqs[i], run_ids[i]); };
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // std::string compares as unsigned bytes (char_traits<char>::lt): UTF-8 byte order, as SQLite sorts.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  std::vector<std::vector<ExportRun>> grouped;
  for (std::size_t batch = 0; batch < n; ++batch) {
    const std::size_t i = order[batch];
    if (branches[i] != branch) continue;
    if (grouped.empty() || grouped.back().back().seq != seqs[i]) grouped.emplace_back();
    grouped.back().push_back({run_ids[i], static_cast<std::int64_t>(batch), commits[i], seqs[i]});
  }
  return grouped;
}

}  // namespace benchreport

#include "benchreport/compare/stored_runs.hpp"

#include <algorithm>
#include <map>

#include "benchreport/data/label_roles.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

// Samples of one run of one case, per process in order of first appearance.
struct RunProcesses {
  std::vector<std::string> names;
  std::vector<std::vector<double>> samples;

  std::vector<double>& of(const std::string& process) {
    const auto at = std::find(names.begin(), names.end(), process);
    if (at != names.end()) return samples[static_cast<std::size_t>(at - names.begin())];
    names.push_back(process);
    return samples.emplace_back();
  }
};

std::string case_name(const Dataset& history, std::size_t set, std::span<const std::string> by) {
  std::string name;
  for (std::size_t c = 0; c < by.size(); ++c) name += (c ? " / " : "") + std::string(history.label(set, by[c]));
  return name;
}

std::string process_of(const Dataset& history, std::size_t set) {
  for (std::string_view label : {kProcessLabel, kPairLabel}) {
    const std::string_view value = history.label(set, label);
    if (!value.empty()) return std::string(value);
  }
  return "set" + std::to_string(set);
}

}  // namespace

std::vector<CaseRuns> stored_runs(const Dataset& history, std::span<const std::string> by,
                                  std::span<const std::string> run_order) {
  const auto columns = history.columns();
  const auto has = [&](std::string_view c) { return std::find(columns.begin(), columns.end(), c) != columns.end(); };
  if (!has("run") || !has("commit") || !std::all_of(by.begin(), by.end(), has)) return {};
  std::map<std::string, std::size_t, std::less<>> position;
  for (std::size_t i = 0; i < run_order.size(); ++i) position.emplace(run_order[i], i);

  std::vector<std::string> names;                             // cases, first appearance
  std::map<std::string, std::size_t, std::less<>> index_of;   // case name → its place in names
  std::vector<std::map<std::size_t, RunProcesses>> per_case;  // run position → its processes
  std::map<std::size_t, std::string> commit_of;               // run position → commit
  for (std::size_t i = 0; i < history.n_sets(); ++i) {
    const auto run = position.find(history.label(i, "run"));
    if (run == position.end()) continue;
    const std::string name = case_name(history, i, by);
    const auto [at, added] = index_of.emplace(name, names.size());
    if (added) {
      names.push_back(name);
      per_case.emplace_back();
    }
    commit_of[run->second] = std::string(history.label(i, "commit"));
    auto& samples = per_case[at->second][run->second].of(process_of(history, i));
    history.append_base_samples(i, samples);
  }
  std::vector<CaseRuns> out;
  for (std::size_t c = 0; c < names.size(); ++c) {
    CaseRuns& runs = out.emplace_back(CaseRuns{names[c], {}});
    for (auto& [run, processes] : per_case[c]) {
      std::vector<double> medians;
      for (auto& samples : processes.samples) medians.push_back(median_inplace(samples));
      runs.runs.emplace_back(commit_of[run], std::move(medians));
    }
  }
  return out;
}

}  // namespace benchreport

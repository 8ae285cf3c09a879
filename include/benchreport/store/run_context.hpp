#pragma once
// What a stored run records besides its sets: the commit and branch measured
// (named by the files' own metadata, else given) and the environment it ran in
// (the tool's context that every file agrees on, the CI variables, the user's
// KEY=VALUE facts) as the canonical JSON the store has always written.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "benchreport/data/dataset.hpp"

namespace benchreport::store {

// Run-metadata keys naming the commit measured, in the order they are looked for: Nitro's
// configuration.commitSha, pyperformance's commit_id (pyperf metadata), any commit.
inline constexpr std::array<std::string_view, 3> kCommitKeys{"commitSha", "commit_id", "commit"};
// Environment variables of CI systems recorded with every run (when set): the runner, its OS image.
inline constexpr std::array<std::string_view, 10> kCiVariables{
    "RUNNER_NAME",           "RUNNER_OS",      "RUNNER_ARCH",       "RUNNER_ENVIRONMENT",  "ImageOS", "ImageVersion",
    "CI_RUNNER_DESCRIPTION", "CI_RUNNER_TAGS", "CI_RUNNER_VERSION", "BUILDKITE_AGENT_NAME"};
// Run-metadata keys naming the branch (pyperformance's commit_branch).
inline constexpr std::array<std::string_view, 1> kBranchKeys{"commit_branch"};

struct RunIdentity {
  std::string commit_sha;
  std::string branch;
};

// The value the files' metadata gives for the first of `keys` found
// (shallowest first; a non-empty string or integer), or none. InputError when
// two files disagree (`what` names the value in the message).
std::optional<std::string> agreed_metadata_value(const Dataset& dataset, std::span<const std::string_view> keys,
                                                 std::string_view what);

// The commit and branch of a run read from `source` (its input files, one a
// line): the files' value wins, a different flag value is an InputError, and
// so is neither (or no sets at all).
RunIdentity run_identity(const Dataset& dataset, const std::optional<std::string>& commit,
                         const std::optional<std::string>& branch, std::string_view source);

// {"ci": ci, "env": env, "tool": the run metadata every file agrees on, less
// keys that change from launch to launch}, keys sorted, as Python's
// json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False).
std::string environment_json(const Dataset& dataset, const Labels& ci, const Labels& env);

// A float as Python's json.dumps writes it in the environment JSON: repr()
// digits (core/python_text.hpp), NaN and Infinity spelled as json.dumps does.
std::string json_float(double value);

}  // namespace benchreport::store

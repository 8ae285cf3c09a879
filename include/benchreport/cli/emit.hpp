#pragma once
// A command's report written where it was asked for: stdout (coloured text on
// a terminal) or -o, plus the GitHub outputs with --github (a PR comment body
// within the budget, and the same text appended to the step summary). Every
// path is checked before any is written; -o is rendered straight into its
// temporary file, first, so a failure to render it leaves every path untouched.
#include <cstddef>
#include <string>
#include <vector>

#include "benchreport/cli/command.hpp"
#include "benchreport/cli/outputs.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport::cli {

inline constexpr std::size_t kGithubCommentBudget = 65536;  // GitHub's comment limit
inline constexpr const char* kDefaultCommentFile = "benchreport-comment.md";

// An output file of text held by the caller until it is written.
OutputFile text_output(const std::string& path, const std::string& text, const CommandIo& io, bool append = false);

// Writes the report (and `extra` outputs); with --github says where the comment went.
void emit(const Report& report, const CommandOptions& options, const CommandIo& io,
          const std::vector<OutputFile>& extra = {});

// The comment body (held to the budget, never past GitHub's limit; 0 = that
// limit) and, when `step_summary` is set, the same text appended there. The
// texts live in `held` while the outputs do.
std::vector<OutputFile> github_outputs(const Report& report, std::size_t budget, const std::string& comment_file,
                                       const std::optional<std::string>& step_summary, const CommandIo& io,
                                       std::vector<std::string>& held);

// "benchreport: PR comment body written to PATH[ and appended to SUMMARY]" on
// stderr; returns the comment file's path.
std::string say_github_written(const std::vector<OutputFile>& outputs, const CommandIo& io);

// Text with a newline at its end (added when missing).
std::string with_newline(std::string text);

// Makes the folder and its parents (os.makedirs(exist_ok=True)); OutputError naming it.
void make_folders(const std::string& path);

}  // namespace benchreport::cli

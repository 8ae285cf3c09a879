#include "benchreport/cli/emit.hpp"

#include <algorithm>
#include <filesystem>

#include <system_error>

#include "benchreport/core/escape.hpp"
#include "benchreport/render/render.hpp"

namespace benchreport::cli {

OutputFile text_output(const std::string& path, const std::string& text, const CommandIo& io, bool append) {
  return {path,
          [&text, &io](int fd) {
            write_all(fd, text);
            io.check_signals();
          },
          append, false};
}

std::string with_newline(std::string text) {
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

void emit(const Report& report, const CommandOptions& options, const CommandIo& io,
          const std::vector<OutputFile>& extra) {
  RenderOptions render_options;
  render_options.markdown_budget = options.budget;
  const Format format = format_from_name(options.format);
  std::vector<OutputFile> outputs;
  if (options.output) {
    // Rendered into the descriptor a piece at a time: a large JSON report is never held whole.
    outputs.push_back({*options.output,
                       [&](int fd) {
                         if (io.render_to_fd)
                           io.render_to_fd(report, fd, options.format, options.budget);
                         else
                           render_into(report, format, render_options,
                                       [fd](std::string_view piece) { write_all(fd, piece); });
                         io.check_signals();
                       },
                       false, true});
  }
  std::string text;
  if (!options.output) {
    render_options.color = options.format == "text" && io.out_is_terminal;
    text = with_newline(render(report, format, render_options));
  }
  outputs.insert(outputs.end(), extra.begin(), extra.end());
  std::vector<std::string> held;
  if (options.github) {
    const auto github = github_outputs(report, options.budget, options.comment_file.value_or(kDefaultCommentFile),
                                       options.step_summary, io, held);
    outputs.insert(outputs.end(), github.begin(), github.end());
  }
  write_outputs(outputs);
  if (!options.output) io.out(text);
  if (options.github) say_github_written(outputs, io);
}

std::vector<OutputFile> github_outputs(const Report& report, std::size_t budget, const std::string& comment_file,
                                       const std::optional<std::string>& step_summary, const CommandIo& io,
                                       std::vector<std::string>& held) {
  RenderOptions options;
  options.markdown_budget = budget > 0 ? std::min(budget, kGithubCommentBudget) : kGithubCommentBudget;
  held.reserve(2);  // the writers below refer to these strings: no reallocation after
  held.push_back(render_markdown(report, options));
  std::vector<OutputFile> outputs{text_output(comment_file, held.back(), io)};
  if (step_summary) {
    held.push_back(with_newline(held.front()));
    outputs.push_back(text_output(*step_summary, held.back(), io, true));
  }
  return outputs;
}

std::string say_github_written(const std::vector<OutputFile>& outputs, const CommandIo& io) {
  std::string comment, summary;
  for (const OutputFile& output : outputs) {
    if (!output.append) comment = output.path;
    if (output.append && summary.empty()) summary = output.path;
  }
  const std::string where = summary.empty() ? "" : " and appended to " + summary;
  io.err(neutralize_text("benchreport: PR comment body written to " + comment + where) + "\n");
  return comment;
}

// As os.makedirs(path, exist_ok=True): missing parents first; the error names the folder that failed.
void make_folders(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path name(path);
  if (!name.has_filename()) name = name.parent_path();
  const fs::path parent = name.parent_path();
  if (!parent.empty() && name.has_filename() && !fs::exists(parent, error)) make_folders(parent.string());
  // std::filesystem, not ::mkdir: the cli stage is also built for Windows (scripts/check_mingw.sh).
  if (fs::create_directory(name, error) || (!error && fs::is_directory(name, error))) return;
  if (!error) error = std::make_error_code(std::errc::file_exists);
  throw OutputError(path + ": " + error.message());
}

}  // namespace benchreport::cli

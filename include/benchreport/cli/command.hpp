#pragma once
// What one command of the command line is given: its options as argparse
// parsed them (one struct for every command; a command reads the fields it
// declares in commands.hpp, the others keep their defaults), and the caller's
// side of the world: the readers, stdin, stdout, stderr and whether they are
// terminals. The Python skin fills both in one place (register_cli.cpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchreport/cli/budget.hpp"
#include "benchreport/cli/inputs.hpp"
#include "benchreport/cli/progress.hpp"
#include "benchreport/core/memory_limit.hpp"

namespace benchreport {
class Dataset;
struct Report;
}  // namespace benchreport

namespace benchreport::cli {

inline constexpr int kExitOk = 0, kExitGate = 1, kExitInput = 2;

struct CommandOptions {
  // Inputs (input_options).
  std::vector<std::string> inputs, labels;
  std::string input_format = "auto";
  std::optional<std::uint64_t> max_samples, max_input_bytes;
  std::optional<MemoryLimit> memory_limit;  // the container's, when the caller found one
  bool quiet = false, verbose = false;
  // Output (output_options, github_options).
  std::string format = "markdown";
  std::optional<std::string> output, comment_file;
  std::size_t budget = 65536;
  bool github = false;
  std::optional<std::string> step_summary;  // $GITHUB_STEP_SUMMARY when set and not empty
  // Grouping columns, each option as given (comma-separated, repeatable).
  std::vector<std::string> by, rows, cols, tables;
  // compare and scaling: the sides.
  std::vector<std::string> base, head;
  std::string baseline = "revision=base";
  std::optional<std::string> head_value;
  // compare.
  std::string threshold = "5%";
  double alpha = 0.05, confidence = 0.95;
  std::uint64_t seed = 0;
  long long resamples = 10000;
  std::optional<std::string> fail_on, bmf_dir;
  bool no_check = false, assume_launches_identical = false;
  // scaling.
  std::optional<std::string> size_label, at;
  std::size_t size_argument = 0;
  double exponent_threshold = 0.1;
  // history.
  std::optional<std::string> order;
  std::string min_magnitude = "1%", method = "steps";
  double max_p_value = 0.02, screen_p_value = 0.0005;
  std::size_t permutations = 199;
  // summary, matrix, convert, demo.
  std::size_t k = 5;
  std::string stat = "median";
  std::optional<std::string> output_dir;
  // When a progress bar and compare's status line appear (the skin's constants).
  ProgressPolicy progress;
  std::size_t status_min_sets = 200;
};

// Reads one source within the limits (the readers of the skin: files, stdin's
// bytes); the dataset stays valid while the pointer lives.
using ReadDataset = std::function<std::shared_ptr<const Dataset>(const Source&, const ReadLimits&)>;

struct CommandIo {
  ReadDataset read;
  ReadStdin read_stdin;
  Write out, err;  // stdout and stderr (text as UTF-8)
  bool out_is_terminal = false, err_is_terminal = false;
  // Raises a pending signal (SIGINT, SIGTERM) between output files; may throw.
  std::function<void()> check_signals = [] {};
  // Renders -o's report into its open descriptor (empty: render_into here); throws
  // DescriptorWriteError when a write fails. The skin renders through its Report.
  std::function<void(const Report&, int fd, const std::string& format, std::size_t budget)> render_to_fd;
};

}  // namespace benchreport::cli

#pragma once
// The totals of --max-samples and --max-input-bytes over every input of one
// command: each read gets the rest as its reader limits, and the running sums
// are checked. Under a memory limit, inputs whose estimated need exceeds it
// are refused before they are read.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "benchreport/cli/inputs.hpp"

namespace benchreport::cli {

// What a reader may still take (the readers' max_samples and max_file_size).
struct ReadLimits {
  std::optional<std::uint64_t> max_samples, max_file_size;
};

// A memory limit: its size, how a message names it, and the memory reading
// `total_bytes` of decompressed input would need (the caller's estimate).
struct MemoryBudget {
  std::uint64_t bytes = 0;
  std::string description;
  std::function<std::uint64_t(std::uint64_t total_bytes)> need;
};

class InputBudget {
 public:
  InputBudget(std::optional<std::uint64_t> max_samples = std::nullopt,
              std::optional<std::uint64_t> max_bytes = std::nullopt, std::optional<MemoryBudget> memory = std::nullopt);

  ReadLimits limits() const;
  // Adds the source's bytes (when bytes or memory are limited); UsageError past either.
  void before(const Source& source);
  // Adds the samples read; UsageError past --max-samples.
  void after(const Source& source, std::uint64_t samples);
  // A reader's limit message that came from these totals, naming the option
  // instead of ReadOptions.
  std::string explain(std::string message) const;

  std::uint64_t total_samples() const noexcept { return total_samples_; }
  std::uint64_t total_bytes() const noexcept { return total_bytes_; }

 private:
  std::optional<std::uint64_t> samples_, bytes_;
  std::optional<MemoryBudget> memory_;
  std::uint64_t total_samples_ = 0, total_bytes_ = 0;
};

}  // namespace benchreport::cli

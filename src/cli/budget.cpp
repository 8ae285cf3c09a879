#include "benchreport/cli/budget.hpp"

#include <algorithm>

#include "benchreport/cli/usage_error.hpp"

namespace benchreport::cli {
namespace {

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

std::uint64_t rest(std::uint64_t limit, std::uint64_t used) { return limit > used ? limit - used : 0; }

}  // namespace

InputBudget::InputBudget(std::optional<std::uint64_t> max_samples, std::optional<std::uint64_t> max_bytes,
                         std::optional<MemoryBudget> memory)
    : samples_(max_samples), bytes_(max_bytes), memory_(std::move(memory)) {}

ReadLimits InputBudget::limits() const {
  ReadLimits out;
  if (samples_) out.max_samples = rest(*samples_, total_samples_);
  if (bytes_) out.max_file_size = rest(*bytes_, total_bytes_);
  return out;
}

void InputBudget::before(const Source& source) {
  if (!bytes_ && !memory_) return;
  total_bytes_ += source_bytes(source);
  if (bytes_ && total_bytes_ > *bytes_)
    throw UsageError(source.name + ": the inputs so far hold " + std::to_string(total_bytes_) +
                     " bytes, more than --max-input-bytes " + std::to_string(*bytes_));
  if (!memory_) return;
  const std::uint64_t need = memory_->need(total_bytes_);
  if (need > memory_->bytes)
    throw UsageError(source.name + ": the inputs so far (" + std::to_string(total_bytes_) +
                     " bytes after decompression) need about " + std::to_string(need) + " bytes, more than " +
                     memory_->description + "; give the job more memory, or fewer inputs at once");
}

void InputBudget::after(const Source& source, std::uint64_t samples) {
  if (!samples_) return;
  total_samples_ += samples;
  if (total_samples_ > *samples_)
    throw UsageError(source.name + ": the inputs so far hold " + std::to_string(total_samples_) +
                     " samples, more than --max-samples " + std::to_string(*samples_));
}

std::string InputBudget::explain(std::string message) const {
  if (samples_)
    replace_all(message, "(raise ReadOptions::max_samples)",
                "(--max-samples " + std::to_string(*samples_) + " in all; " + std::to_string(total_samples_) +
                    " read before this input)");
  if (bytes_) {
    const std::string option = "(--max-input-bytes " + std::to_string(*bytes_) + " in all)";
    replace_all(message, "(raise ReadOptions::max_file_size)", option);
    replace_all(message, "(raise max_file_size)", option);
  }
  return message;
}

}  // namespace benchreport::cli

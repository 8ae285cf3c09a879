#include "benchreport/cli/progress.hpp"

#include "benchreport/core/escape.hpp"

namespace benchreport::cli {
namespace {

constexpr std::uint64_t kWidth = 24;
constexpr std::size_t kMaxTail = 40, kKeptTail = 38;  // code points of " name"

std::size_t code_points(std::string_view utf8) {
  std::size_t n = 0;
  for (const char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The last `n` code points of valid UTF-8.
std::string_view last_code_points(std::string_view utf8, std::size_t n) {
  std::size_t pos = utf8.size();
  for (std::size_t seen = 0; pos > 0 && seen < n;) {
    --pos;
    seen += (static_cast<unsigned char>(utf8[pos]) & 0xC0) != 0x80;
  }
  return utf8.substr(pos);
}

}  // namespace

Progress::Progress(std::uint64_t total, Write write, std::string label, std::uint64_t size, bool quiet, bool terminal,
                   ProgressPolicy policy)
    : total_(total), write_(std::move(write)), label_(std::move(label)) {
  const bool large = total >= policy.min_inputs || size >= policy.min_bytes;
  enabled_ = large && !quiet && total > 0 && terminal;
}

void Progress::update(std::uint64_t done, std::string_view name) {
  if (!enabled_) return;
  const std::uint64_t filled = kWidth * done / total_;
  std::string tail = name.empty() ? "" : " " + neutralize_text(name);
  if (code_points(tail) > kMaxTail) tail = " …" + std::string(last_code_points(tail, kKeptTail));
  write_(std::string(kEraseLine) + label_ + " [" + std::string(filled, '#') +
         std::string(filled < kWidth ? kWidth - filled : 0, '.') + "] " + std::to_string(done) + "/" +
         std::to_string(total_) + tail);
}

void Progress::close() {
  if (enabled_) write_(kEraseLine);
}

std::string status_text(std::string_view text) { return std::string(kEraseLine) + neutralize_text(text); }

}  // namespace benchreport::cli

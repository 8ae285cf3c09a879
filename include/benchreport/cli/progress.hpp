#pragma once
// A one-line progress bar and a status line on the caller's stderr, drawn
// through a write function (so Python's sys.stderr, captured or not, sees
// them). Input names in them are neutralised like every other message.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace benchreport::cli {

// Writes text to the stream and flushes it.
using Write = std::function<void(std::string_view)>;

// When the bar is drawn: on a terminal, without --quiet, for at least
// `min_inputs` inputs or `min_bytes` bytes of them.
struct ProgressPolicy {
  std::uint64_t min_inputs = 8;
  std::uint64_t min_bytes = std::uint64_t{64} << 20;
};

class Progress {
 public:
  Progress(std::uint64_t total, Write write, std::string label, std::uint64_t size, bool quiet, bool terminal,
           ProgressPolicy policy = {});
  bool enabled() const noexcept { return enabled_; }
  // "\r\x1b[K<label> [####....] done/total name" (a long name keeps its end).
  void update(std::uint64_t done, std::string_view name = "");
  // Erases the line.
  void close();

 private:
  std::uint64_t total_;
  Write write_;
  std::string label_;
  bool enabled_;
};

// The status line (text neutralised, at the start of a cleared line) and what erases it.
std::string status_text(std::string_view text);
inline constexpr std::string_view kEraseLine = "\r\x1b[K";

}  // namespace benchreport::cli

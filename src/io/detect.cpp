// Format detection from the file name and the first bytes.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/core/report_markers.hpp"
#include "benchreport/io/read.hpp"
#include "reader.hpp"

namespace benchreport {
namespace {

// Callers pass at most this many first bytes (read.cpp); fewer means the whole file.
constexpr std::size_t kDetectBytes = 65536;

bool has(std::string_view text, std::string_view needle) { return text.find(needle) != std::string_view::npos; }

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [&](char a, char b) { return lower(a) == lower(b); });
}

std::string_view skip_space(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  while (!text.empty() &&
         (text.front() == ' ' || text.front() == '\n' || text.front() == '\r' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  return text;
}

// Skips one JSON string at the front of `text` (false when there is none).
bool skip_string(std::string_view& text) {
  if (text.empty() || text.front() != '"') return false;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      text.remove_prefix(i + 1);
      return true;
    }
  }
  return false;
}

bool skip_char(std::string_view& text, char c) {
  text = skip_space(text);
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

// Bencher Metric Format: {"<benchmark>": {"<measure>": {"value" | "lower_value" | "upper_value": ...
// (the first benchmark's first measure object opens with one of its three numbers).
bool looks_like_bmf(std::string_view head) {
  for (int level = 0; level < 2; ++level) {
    if (!skip_char(head, '{')) return false;
    head = skip_space(head);
    if (!skip_string(head) || !skip_char(head, ':')) return false;
  }
  if (!skip_char(head, '{')) return false;
  head = skip_space(head);
  return head.starts_with("\"value\"") || head.starts_with("\"lower_value\"") || head.starts_with("\"upper_value\"");
}

// JSON formats, told apart by the member names each tool writes.
std::string detect_json(std::string_view head) {
  if (has(head, "\"schema\"") && has(head, "\"benchreport/")) return "json";
  if (has(head, "\"schemaVersion\"") || has(head, "\"samplesNsPerOp\"") || has(head, "\"baseSuiteHash\""))
    return "nitro";
  if (has(head, "\"sampling_mode\"") || (has(head, "\"iters\"") && has(head, "\"times\""))) return "criterion";
  if (has(head, "\"group_id\"") && has(head, "\"function_id\"")) return "criterion";
  if (has(head, "\"machine_info\"") || has(head, "\"commit_info\"")) return "pytest-benchmark";
  if (has(head, "\"context\"") && has(head, "\"benchmarks\"")) return "google-benchmark";
  if (has(head, "\"results\"") && has(head, "\"command\"")) return "hyperfine";
  if (has(head, "\"runs\"") && (has(head, "\"benchmarks\"") || has(head, "\"metadata\""))) return "pyperf";
  if (has(head, "\"ZFH_BENCHMARK_RESULT") || (has(head, "\"engine\"") && has(head, "\"samplesMs\""))) return "zfh";
  if (looks_like_bmf(head)) return "bmf";
  return {};
}

bool looks_like_go(std::string_view head) {
  std::size_t pos = 0;
  while (pos < head.size()) {
    const auto end = head.find('\n', pos);
    const auto line = head.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (line.starts_with("Benchmark") && (has(line, "/op") || has(line, "\t"))) return true;
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return false;
}

// The first line of `text` and what follows it.
std::pair<std::string_view, std::string_view> first_line(std::string_view text) {
  const auto end = text.find('\n');
  if (end == std::string_view::npos) return {text, {}};
  return {text.substr(0, end), text.substr(end + 1)};
}

// The text renderer's title: a line, then "=" repeated to its display width.
bool starts_with_underlined_title(std::string_view head) {
  const auto [title, rest] = first_line(head);
  const std::string_view rule = first_line(rest).first;
  if (title.empty() || rule.empty() || rule.find_first_not_of(kTextTitleRule) != std::string_view::npos) return false;
  return rule.size() == std::max<std::size_t>(display_width(title), 1);
}

}  // namespace

std::string_view own_report_kind(std::string_view first_bytes) {
  const std::string_view head = skip_space(first_bytes);
  if (head.starts_with("{") && has(head.substr(0, 256), fmt::format("\"{}", kReportSchemaPrefix)))
    return "a JSON report";
  if (starts_with_ignoring_case(head, kHtmlDoctype) && has(head, fmt::format("class=\"{}\"", kHtmlReportClass))) {
    return "an HTML report";
  }
  if (first_bytes.starts_with(kMarkdownReportMarker)) return "a Markdown report";
  if (starts_with_underlined_title(first_bytes)) return "a text report";
  if (head.starts_with(kCsvCommentPrefix)) {
    const auto [comment, rest] = first_line(head);
    const std::string_view header = first_line(rest).first;
    if (!comment.empty() && has(header, ",")) return "a CSV report";
  }
  return {};
}

std::vector<std::string> reader_names() {
  return {"google-benchmark",
          "hyperfine",
          "pyperf",
          "pytest-benchmark",
          "go",
          "nitro",
          "criterion",
          "zfh",
          "bmf",
          "json",
          "csv"};
}

std::string detect_format(std::string_view name, std::string_view first_bytes) {
  if (first_bytes.starts_with("\x1f\x8b")) {
    throw InputError(fmt::format("{}: compressed twice (gzip inside gzip): decompress it once first", name));
  }
  const std::string_view head = skip_space(first_bytes);
  if (first_bytes.empty()) throw InputError(fmt::format("{}: empty file (0 bytes)", name));
  if (head.empty() && first_bytes.size() < kDetectBytes) {
    throw InputError(fmt::format("{}: empty file (only {} bytes of white space)", name, first_bytes.size()));
  }
  if (const std::string_view kind = own_report_kind(head); !kind.empty()) {
    throw InputError(
        fmt::format("{}: {} written by benchreport, not benchmark results: read the result files it was "
                    "made from (a folder read skips such reports)",
                    name, kind));
  }
  if (has(head, "ZFH_BENCHMARK_RESULT")) return "zfh";
  if (head.starts_with("{") || head.starts_with("[")) {
    if (auto format = detect_json(head); !format.empty()) return format;
  }
  if (name.ends_with(".csv")) return "csv";
  if (looks_like_go(head)) return "go";
  if (has(head.substr(0, head.find('\n')), "unit") && has(head.substr(0, head.find('\n')), "value")) return "csv";
  throw InputError(
      fmt::format("{}: cannot tell the format from the name and first bytes; name it with --input-format NAME "
                  "(CLI) or format=\"NAME\" (Python), NAME one of {}",
                  name, fmt::join(reader_names(), ", ")));
}

}  // namespace benchreport

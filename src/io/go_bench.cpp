// Go testing benchmark text (`go test -bench`, the benchfmt format).
// Configuration lines "key: value" become run metadata (and pkg a label);
// each result line adds one sample to the set of (name, procs, unit).
#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <map>
#include <unordered_map>

#include "benchreport/core/error.hpp"
#include "benchreport/data/label_roles.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

// The metrics `go test` itself reports: times, bytes, allocations and speeds are never
// negative (b.ReportMetric's custom units may be).
bool is_builtin_metric(std::string_view unit) {
  return unit == "ns/op" || unit == "B/op" || unit == "allocs/op" || unit == "MB/s";
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t') ++pos;
    if (pos > start) fields.push_back(line.substr(start, pos - start));
  }
  return fields;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "key: value" where key has no spaces and starts lowercase (benchfmt's rule).
bool config_line(std::string_view line, std::string_view& key, std::string_view& value) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  key = line.substr(0, colon);
  if (!(key[0] >= 'a' && key[0] <= 'z') || key.find_first_of(" \t") != std::string_view::npos) return false;
  value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  return true;
}

class GoReader {
 public:
  explicit GoReader(const Source& source) : source_(source) {}

  Dataset read() {
    if (source_.bytes.size() > source_.options.max_file_size) {
      throw InputError(
          fmt::format("{}: {} bytes exceeds the input size limit of {} bytes (raise ReadOptions::max_file_size)",
                      source_.name, source_.bytes.size(), source_.options.max_file_size));
    }
    std::size_t pos = 0, line_no = 0;
    const std::string_view text = source_.bytes;
    while (pos <= text.size()) {
      const auto end = std::min(text.find('\n', pos), text.size());
      std::string_view line = text.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      ++line_no;
      read_line(line, line_no, end == text.size() && line_no > 1);
      pos = end + 1;
    }
    return finish();
  }

 private:
  struct Series {
    Labels labels;
    std::string unit;
    std::vector<double> values;
    std::vector<std::string> iterations;
  };

  // `unterminated`: the file's last line, with no line break after it (and earlier lines with one).
  void read_line(std::string_view line, std::size_t line_no, bool unterminated) {
    std::string_view key, value;
    if (line.starts_with("Benchmark")) {
      if (unterminated && is_result_line(line)) fail_unterminated_last_line(source_.name, line_no);
      read_result(line, line_no);
    } else if (config_line(line, key, value)) {
      config_[std::string(key)] = std::string(value);
      config_order_.emplace_back(key);
    }
    // Anything else (PASS, ok, test logs) is not benchmark data.
  }

  // "BenchmarkName <digits> ...": not a bare name printed by -v.
  static bool is_result_line(std::string_view line) {
    const auto fields = split_fields(line);
    return fields.size() >= 2 && all_digits(fields[1]);
  }

  void read_result(std::string_view line, std::size_t line_no) {
    const auto fields = split_fields(line);
    if (fields.size() < 2 || !all_digits(fields[1])) return;  // e.g. a bare name printed by -v
    if (fields.size() < 4 || fields.size() % 2 != 0) {
      fail_at_line(source_.name, line_no, "expected \"BenchmarkName <iterations> <value> <unit> [<value> <unit>...]\"");
    }
    // Normalised through an integer: "007" is not a JSON number, and counts beyond 2^64 are not Go's.
    std::uint64_t iterations = 0;
    const auto [end, error] = std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), iterations);
    if (error != std::errc() || end != fields[1].data() + fields[1].size()) {
      fail_at_line(source_.name, line_no, fmt::format("iteration count {} is out of range", fields[1]));
    }
    const std::string iterations_text = std::to_string(iterations);
    std::string name(fields[0]);
    std::string procs = "1";  // no -N suffix: GOMAXPROCS was 1
    if (const auto dash = name.rfind('-');
        dash != std::string::npos && all_digits(std::string_view(name).substr(dash + 1))) {
      procs = name.substr(dash + 1);
      name.resize(dash);
    }
    for (std::size_t i = 2; i + 1 < fields.size(); i += 2) {
      double x = 0;
      const auto text = fields[i];
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
      if (ec == std::errc::result_out_of_range && ptr == text.data() + text.size()) {
        fail_at_line(
            source_.name, line_no,
            fmt::format("{} is beyond the range of a double (value for {})", text.substr(0, 32), fields[i + 1]));
      }
      if (ec != std::errc() || ptr != text.data() + text.size()) {
        fail_at_line(source_.name, line_no, fmt::format("\"{}\" is not a number (value for {})", text, fields[i + 1]));
      }
      if (x < 0 && is_builtin_metric(fields[i + 1])) {
        fail_at_line(source_.name, line_no,
                     fmt::format("{} is negative (expected a {} value >= 0)", text, fields[i + 1]));
      }
      Series& s = series_for(name, procs, std::string(fields[i + 1]));
      s.values.push_back(x);
      s.iterations.push_back(iterations_text);
      if (++samples_ > source_.options.max_samples) {
        fail_at_line(source_.name, line_no,
                     fmt::format("more than {} samples (raise ReadOptions::max_samples)", source_.options.max_samples));
      }
    }
  }

  Series& series_for(const std::string& name, const std::string& procs, const std::string& unit) {
    const auto pkg = config_.find("pkg");
    const std::string pkg_name = pkg == config_.end() ? std::string() : pkg->second;
    const std::string key = fmt::format("{}\x1f{}\x1f{}\x1f{}", pkg_name, name, procs, unit);
    auto [it, inserted] = index_.try_emplace(key, series_.size());
    if (inserted) {
      Labels labels{{"benchmark", name}, {std::string(kProcsLabel), procs}, {"metric", unit}};
      if (!pkg_name.empty()) labels.emplace_back("pkg", pkg_name);
      series_.push_back(Series{std::move(labels), unit, {}, {}});
    }
    return series_[it->second];
  }

  Dataset finish() {
    Dataset dataset;
    Metadata config;
    for (const auto& key : config_order_) {
      bool seen = false;
      for (const auto& [k, v] : config) seen |= k == key;
      if (!seen) config.emplace_back(key, json_string(config_.at(key)));
    }
    dataset.add_run(source_.name, json_object(config));
    std::map<std::string, std::size_t> custom_units;
    for (const auto& s : series_) {
      bool known = false;
      Unit unit = parse_unit_or_custom(s.unit, &known);
      if (!known) ++custom_units[s.unit];
      SetOptions options;
      options.run = source_.name;
      options.metadata = {{"iterations", fmt::format("[{}]", fmt::join(s.iterations, ","))}};
      dataset.add_set(s.labels, s.values, unit, options);
    }
    for (const auto& [unit, n] : custom_units) {
      dataset.warn(
          fmt::format("{}: unit \"{}\" ({} sets) is not a unit benchreport knows: kept verbatim, not scaled, "
                      "lower is better",
                      source_.name, unit, n));
    }
    if (series_.empty())
      throw InputError(
          fmt::format("{}: no benchmark result lines (expected \"BenchmarkName N value unit\")", source_.name));
    return dataset;
  }

  const Source& source_;
  std::map<std::string, std::string> config_;
  std::vector<std::string> config_order_;
  std::vector<Series> series_;
  std::unordered_map<std::string, std::size_t> index_;
  std::uint64_t samples_ = 0;
};

}  // namespace

Dataset read_go(const Source& source) { return GoReader(source).read(); }

}  // namespace benchreport::io

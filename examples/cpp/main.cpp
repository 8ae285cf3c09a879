// A C++ benchmark harness using the benchreport core directly: summarise two
// sample sets (base and head, four processes each), compare them, and print a
// GitHub-flavoured Markdown report to stdout.
//
// Replace make_samples() with your own measurements (ns per operation, in
// measurement order); everything else stays the same.
#include <benchreport/compare/case.hpp>
#include <benchreport/report/format.hpp>
#include <benchreport/render/render.hpp>
#include <benchreport/report/report.hpp>
#include <benchreport/stats/summary.hpp>

#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

constexpr double kNsToSeconds = 1e-9;
constexpr std::size_t kProcesses = 4;
constexpr std::size_t kSamplesPerProcess = 15;

// Stand-in measurements: log-normal noise around `median_ns`, one vector per process.
std::vector<std::vector<double>> make_samples(double median_ns, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::lognormal_distribution<double> noise(0.0, 0.02);
  std::vector<std::vector<double>> processes(kProcesses);
  for (auto& process : processes) {
    for (std::size_t i = 0; i < kSamplesPerProcess; ++i) process.push_back(median_ns * noise(engine));
  }
  return processes;
}

std::vector<double> pooled(const std::vector<std::vector<double>>& processes) {
  std::vector<double> all;
  for (const auto& process : processes) all.insert(all.end(), process.begin(), process.end());
  return all;
}

benchreport::SideSamples side(const std::vector<std::vector<double>>& processes) {
  benchreport::SideSamples out;
  for (const auto& process : processes) out.processes.emplace_back(process);
  return out;
}

// One table row per side: what a reader needs to judge the samples' quality.
std::vector<benchreport::Cell> summary_row(const std::string& name, const std::vector<double>& samples_ns) {
  using benchreport::Cell;
  const benchreport::Summary s = benchreport::summarize(samples_ns);
  // Drift needs at least 2k samples; otherwise the cell says so instead of showing a number.
  const Cell drift = s.drift.change_availability.ok
                         ? Cell(benchreport::format_change_percent(s.drift.change), s.drift.change)
                         : Cell("n/a", benchreport::CellRole::muted);
  return {
      Cell(name),
      Cell(std::to_string(s.n), static_cast<double>(s.n)),
      Cell(benchreport::format_time(s.median * kNsToSeconds), s.median),
      Cell(benchreport::format_percent(s.mad_over_median_pct / 100.0), s.mad_over_median_pct),
      Cell(benchreport::format_percent(s.cv, 2), s.cv),
      Cell(benchreport::format_time(s.min * kNsToSeconds) + " – " + benchreport::format_time(s.max * kNsToSeconds)),
      drift,
      Cell("").with_samples(samples_ns),
  };
}

}  // namespace

int main() {
  const auto base = make_samples(850.0, 1);
  const auto head = make_samples(910.0, 2);  // about 7 % slower

  benchreport::CompareOptions options;  // threshold 5 %, 10 000 bootstrap resamples, seed 0
  const benchreport::CaseComparison c = benchreport::compare_case(side(base), side(head), options, "parse()");

  benchreport::Report report("Benchmark report");
  auto& verdicts = report.add_table({"Case",
                                     {"Base p50", benchreport::Align::right},
                                     {"Head p50", benchreport::Align::right},
                                     {"Change", benchreport::Align::right},
                                     {"95 % CI", benchreport::Align::right},
                                     "Verdict"},
                                    "Comparison", "comparison");
  const benchreport::CellRole role = benchreport::verdict_role(c.verdict);
  verdicts.add_row({benchreport::Cell(c.case_name, benchreport::CellRole::code),
                    benchreport::Cell(benchreport::format_time(c.base_median * kNsToSeconds), c.base_median),
                    benchreport::Cell(benchreport::format_time(c.head_median * kNsToSeconds), c.head_median),
                    benchreport::Cell(benchreport::format_change(c.change), c.change, role),
                    benchreport::Cell(benchreport::format_change_percent(c.change_lower) + " to " +
                                      benchreport::format_change_percent(c.change_upper)),
                    benchreport::Cell(std::string(benchreport::to_string(c.verdict)), role)});

  auto& table = report.add_table({"Side",
                                  {"n", benchreport::Align::right},
                                  {"p50", benchreport::Align::right},
                                  {"MAD / p50", benchreport::Align::right},
                                  {"CV", benchreport::Align::right},
                                  {"min – max", benchreport::Align::right},
                                  {"drift", benchreport::Align::right},
                                  "samples"},
                                 "Summary per side", "summary");
  table.add_row(summary_row("base", pooled(base)));
  table.add_row(summary_row("head", pooled(head)));

  auto& pairs = report.add_table({{"process pair", benchreport::Align::right}, {"change", benchreport::Align::right}},
                                 "Paired process changes", "pairs");
  for (std::size_t i = 0; i < c.process_changes.size(); ++i) {
    const double change = c.process_changes[i];
    pairs.add_row(
        {benchreport::Cell(std::to_string(i + 1)), benchreport::Cell(benchreport::format_change(change), change)});
  }
  report.add_footnote("p50 is the median of all samples of a side; drift is median(last 5) / median(first 5) - 1.");

  std::fputs(benchreport::render_markdown(report).c_str(), stdout);
  return 0;
}

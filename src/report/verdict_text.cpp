#include "benchreport/report/verdict_text.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "benchreport/report/format.hpp"

namespace benchreport {
namespace {

constexpr std::string_view kWithinSentence = "one process per side: within-process noise only; ";

// One process on a side under assume_launches_identical: the verdict stands on within-process noise only
// (one_launch_per_side says so in its own words).
bool within_only(const CaseComparison& c) {
  return c.within_process_only && !is_exact(c.verdict_code) && c.verdict_code != VerdictCode::one_launch_per_side;
}

std::string pct(double x) { return fmt::format("{:+.2f}%", 100 * x); }

// The decision table's sentence for one code; fdr_adjusted cases were beyond the threshold before the adjustment.
std::string decision_sentence(const CaseComparison& c, VerdictCode code) {
  const double t = 100 * c.threshold;
  const std::string interval = fmt::format("[{}, {}]", pct(c.change_lower), pct(c.change_upper));
  switch (code) {
    case VerdictCode::exact_equal: return "exact unit: equal values";
    case VerdictCode::exact_differs: return fmt::format("exact unit: values differ by {}", pct(c.change_estimate));
    case VerdictCode::no_interval: return "no finite interval of the change";
    case VerdictCode::too_noisy: return fmt::format("too noisy: no confident verdict (interval {})", interval);
    case VerdictCode::too_few_samples:
      return fmt::format("too few samples: no confident verdict (interval {})", interval);
    case VerdictCode::within_threshold: return fmt::format("interval {} lies within ±{:.2f}%", interval, t);
    case VerdictCode::beyond_threshold:
    case VerdictCode::fdr_adjusted:
      return fmt::format("interval {} excludes 0 and the estimate {} is beyond ±{:.2f}%", interval,
                         pct(c.change_estimate), t);
    case VerdictCode::below_threshold:
      return fmt::format("interval {} excludes 0 but the estimate {} is within ±{:.2f}% and the interval is not",
                         interval, pct(c.change_estimate), t);
    case VerdictCode::straddles_zero:
      return fmt::format("interval {} includes 0 and is not within ±{:.2f}%", interval, t);
    case VerdictCode::one_launch_per_side:
      return fmt::format(
          "one launch per side: the interval {} covers within-process noise only and how much "
          "launches differ is unknown; run >= 2 processes per side",
          interval);
    case VerdictCode::contaminated:
      return fmt::format("contaminated: the contamination alone could explain the change {} (interval {})",
                         pct(c.change_estimate), interval);
  }
  return std::string(to_string(code));
}

// The side a case added or removed was measured on: the words of its code, reason and Why cell.
std::string_view one_side(Verdict v) { return v == Verdict::added ? "head only" : "base only"; }

std::string side_name(bool head) { return head ? "head" : "base"; }

// One flag in words: the side, what was seen, and which way it pushes the case's values.
std::string flag_text(const Contamination& f) {
  const std::string side = side_name(f.head);
  const std::string push =
      f.bias == 0 ? std::string("note only") : fmt::format("pushes head {}", f.bias > 0 ? "up" : "down");
  switch (f.kind) {
    case ContaminationKind::waited:
      return fmt::format("{} waited: real/cpu {:.2f} vs {:.2f} in {} ({}, {})", side, f.figure, f.other,
                         side_name(!f.head), pct(std::expm1(f.bias)), push);
    case ContaminationKind::loaded:
      return fmt::format("{} loaded: load_avg {:.2f} on {:.0f} CPUs ({})", side, f.figure, f.other, push);
    case ContaminationKind::side_shift:
      return fmt::format("{} side-wide shift: process {} of {} at {} on all {} cases (z {:.1f}; {}, {})", side,
                         f.process, f.processes, pct(f.figure), f.cases, f.other, pct(std::expm1(f.bias)), push);
  }
  return "";
}

std::string cause_detail(const CaseComparison& c) {
  switch (c.inconclusive_cause) {
    case InconclusiveCause::drift: return fmt::format("within-process drift {:.1f}%", 100 * c.within_process_drift);
    case InconclusiveCause::few_processes:
      return fmt::format("{} process(es) per side", std::min(c.base_processes, c.head_processes));
    default: return "noise";
  }
}

}  // namespace

std::string contamination_text(const CaseComparison& c) {
  std::vector<std::string> parts;
  for (const auto& f : c.contamination) parts.push_back(flag_text(f));
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string verdict_code_text(const CaseComparison& c) {
  if (is_one_sided(c.verdict)) return c.verdict == Verdict::added ? "head_only" : "base_only";
  std::string code(to_string(c.verdict_code));
  return within_only(c) ? code + "_within_process" : code;
}

std::string verdict_reason(const CaseComparison& c) {
  if (is_one_sided(c.verdict)) return fmt::format("measured in {}: nothing to compare it with", one_side(c.verdict));
  const std::string within = within_only(c) ? std::string(kWithinSentence) : std::string();
  std::string sentence = within + decision_sentence(c, c.verdict_code);
  if (c.verdict_code == VerdictCode::fdr_adjusted) {
    return fmt::format(
        "{}Benjamini-Hochberg adjusted p = {:.3g} >= alpha {} across {} measurements (p = {:.3g}); "
        "unadjusted: {}",
        within, c.p_adjusted, c.alpha, c.fdr_cases, c.p_value, sentence);
  }
  if (!c.launch_noise.empty()) sentence += "; " + c.launch_noise;
  if (!c.contamination.empty() && c.verdict_code != VerdictCode::contaminated)
    sentence += "; contamination (not enough to explain the change): " + contamination_text(c);
  if (c.verdict_code == VerdictCode::contaminated) sentence += ": " + contamination_text(c);
  if (c.verdict_code == VerdictCode::one_launch_per_side) {
    if (std::isfinite(c.detectable_change)) {
      sentence += fmt::format(
          "; across the one-launch cases a change would have to reach about {:.1f}% to stand "
          "out from their spread (1.4826 MAD)",
          100 * c.detectable_change);
    }
    return sentence;
  }
  if (c.verdict == Verdict::inconclusive && std::isfinite(c.detectable_change)) {
    sentence += fmt::format("; detectable change about {:.1f}% ({})", 100 * c.detectable_change, cause_detail(c));
  }
  return sentence;
}

std::string verdict_why(const CaseComparison& c) {
  if (is_one_sided(c.verdict)) return std::string(one_side(c.verdict));
  const std::string t = format_percent(c.threshold, 0);
  std::string why;
  switch (c.verdict_code) {
    case VerdictCode::within_threshold: why = fmt::format("CI within ±{}", t); break;
    case VerdictCode::beyond_threshold: why = fmt::format("CI excludes 0, change beyond ±{}", t); break;
    case VerdictCode::below_threshold: why = fmt::format("change within ±{}, its CI is not", t); break;
    case VerdictCode::straddles_zero: why = fmt::format("CI spans 0, reaches past ±{}", t); break;
    case VerdictCode::too_noisy: why = "too noisy"; break;
    case VerdictCode::too_few_samples: why = "too few samples"; break;
    case VerdictCode::no_interval: why = "no finite CI"; break;
    case VerdictCode::fdr_adjusted: why = fmt::format("BH-adjusted p = {:.2g}", c.p_adjusted); break;
    case VerdictCode::exact_equal:
    case VerdictCode::exact_differs: why = "exact unit"; break;
    case VerdictCode::contaminated: why = "contaminated: " + contamination_text(c); break;
    case VerdictCode::one_launch_per_side:
      why = "1 launch/side: launch noise unknown";
      if (std::isfinite(c.detectable_change))
        why += fmt::format("; stands out ≥ {}", format_percent(c.detectable_change, 1));
      break;
  }
  // Power is the question only when the interval cannot tell a change from none.
  if (c.verdict_code == VerdictCode::straddles_zero && std::isfinite(c.detectable_change)) {
    const std::string_view cause = c.inconclusive_cause == InconclusiveCause::drift           ? "drift"
                                   : c.inconclusive_cause == InconclusiveCause::few_processes ? "few processes"
                                                                                              : "noise";
    why += fmt::format("; detects ≥ {} ({})", format_percent(c.detectable_change, 1), cause);
  }
  return within_only(c) ? "1 process/side: " + why : why;
}

std::string interval_method_text(std::string_view method) {
  if (method == "paired_t") return "a paired t interval on log process medians (the process is the unit)";
  if (method == "welch_t") return "a Welch t interval on log process medians (the process is the unit)";
  if (method == "bca") return "a BCa bootstrap interval over samples (within-process noise only)";
  if (method == "percentile") return "a percentile bootstrap interval over samples (within-process noise only)";
  if (method == "median_normal") {
    return "a normal interval from each side's median interval over samples (within-process noise only)";
  }
  return std::string(method);
}

std::string verdict_label(Verdict v) { return v == Verdict::unchanged ? "~ unchanged" : std::string(to_string(v)); }

}  // namespace benchreport

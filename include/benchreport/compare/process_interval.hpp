#pragma once
// Process-level inference for the change head/base: the process is the unit
// of inference (docs/statistics-comparison.md, "Process-level interval").
// Inputs are per-process log summaries (log of each process median).
#include <cstddef>
#include <span>
#include <string>

namespace benchreport {

struct LogTInterval {
  std::string method;      // "paired_t" or "welch_t"
  double estimate = 0;     // mean log ratio: mean(d) (paired) or mean(log head) - mean(log base) (Welch)
  double standard_error = 0;
  double df = 0;           // k - 1 (paired) or Welch–Satterthwaite
  double statistic = 0;    // estimate / standard_error (0 when both are 0, ±inf when only se is 0)
  double p_value = 1;      // two-sided Student t
  double lower = 0, upper = 0;  // log scale, estimate ∓ t_{1-(1-confidence)/2, df} · se
};

// Paired t on d_i = head_logs[i] - base_logs[i] (equal lengths >= 2);
// = scipy.stats.ttest_rel(head_logs, base_logs).confidence_interval(confidence).
LogTInterval paired_t_interval(std::span<const double> base_logs, std::span<const double> head_logs,
                               double confidence);

// Welch t on the two samples of logs (each >= 2 values), Welch–Satterthwaite df;
// = scipy.stats.ttest_ind(head_logs, base_logs, equal_var=False).confidence_interval(confidence).
LogTInterval welch_t_interval(std::span<const double> base_logs, std::span<const double> head_logs,
                              double confidence);

// One-sample t interval of the mean of `values` (>= 2), used by the roll-up.
LogTInterval mean_t_interval(std::span<const double> values, double confidence);

}  // namespace benchreport

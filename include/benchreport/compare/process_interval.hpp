#pragma once
// Process-level inference for the change head/base: the process is the unit
// of inference (docs/statistics-comparison.md, "Process-level interval").
// Inputs are per-process log summaries (log of each process median).
#include <cstddef>
#include <limits>
#include <span>
#include <string>

namespace benchreport {

struct LogTInterval {
  std::string method;   // "paired_t", "welch_t", "moderated_paired_t" or "moderated_pooled_t"
  double estimate = 0;  // mean log ratio: mean(d) (paired) or mean(log head) - mean(log base) (Welch)
  double standard_error = 0;
  double df = 0;                // k - 1 (paired), Welch–Satterthwaite, or d + d0 (moderated; +inf: normal)
  double statistic = 0;         // estimate / standard_error (0 when both are 0, ±inf when only se is 0)
  double p_value = 1;           // two-sided Student t
  double lower = 0, upper = 0;  // log scale, estimate ∓ t_{1-(1-confidence)/2, df} · se
};

// Paired t on d_i = head_logs[i] - base_logs[i] (equal lengths >= 2);
// = scipy.stats.ttest_rel(head_logs, base_logs).confidence_interval(confidence).
// `variance_floor` (>= 0) is a floor of var(d_i): the timer-resolution variance (process_variance_floor).
LogTInterval paired_t_interval(std::span<const double> base_logs, std::span<const double> head_logs, double confidence,
                               double variance_floor = 0);

// Welch t on the two samples of logs (each >= 2 values), Welch–Satterthwaite df;
// = scipy.stats.ttest_ind(head_logs, base_logs, equal_var=False).confidence_interval(confidence).
// `variance_floor` (>= 0) floors each side's variance of one log value (then se^2 >= floor (1/k_b + 1/k_h));
// when it binds on both sides the df are k_b + k_h - 2.
LogTInterval welch_t_interval(std::span<const double> base_logs, std::span<const double> head_logs, double confidence,
                              double variance_floor = 0);

// What a case brings to the moderated t (docs/statistics-comparison.md, "Moderated t"):
// paired: var(d_i) on k - 1 df, se^2 = variance / k; unpaired: the pooled variance
// ((k_b - 1) s_b^2 + (k_h - 1) s_h^2) / (k_b + k_h - 2) of one log process median on
// k_b + k_h - 2 df, se^2 = variance (1/k_b + 1/k_h). The variance is floored at `floor`
// (the floor of a difference, 2x that of one log median, when paired).
struct ProcessVariance {
  bool paired = false;
  double estimate = 0;  // mean(d) or mean(log head) - mean(log base)
  double variance = 0;
  double df = 0;
  double factor = 0;  // se^2 = variance * factor
};
ProcessVariance process_variance(std::span<const double> base_logs, std::span<const double> head_logs, bool paired,
                                 double log_median_floor);

// The t interval of `estimate` with standard error sqrt(variance * factor) on `df`
// degrees of freedom (+inf: normal); method names it. `quantile`, when finite, is
// t_{df, (1 + confidence)/2} already known (cases sharing df share it).
LogTInterval t_interval(std::string method, double estimate, double variance, double factor, double df,
                        double confidence, double quantile = std::numeric_limits<double>::quiet_NaN());

// Variance of one log process median read off a timer grid of step `resolution`
// near `level`: (resolution / level)^2 / 12 (uniform rounding error); 0 when the
// resolution is unknown (NaN).
double process_variance_floor(double resolution, double level);

// One-sample t interval of the mean of `values` (>= 2), used by the roll-up.
LogTInterval mean_t_interval(std::span<const double> values, double confidence);

}  // namespace benchreport

#pragma once
// The fields of one case comparison, defined once: the JSON `data` case rows of the
// comparison preset, the columnar view (columns(), to_pandas()) of a comparison and
// of a list of CompareResults, and the notebook rows are all built by visiting this
// list with a visitor of report/fields.hpp.
#include <cmath>
#include <span>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/core/columns.hpp"
#include "benchreport/report/fields.hpp"
#include "benchreport/report/verdict_text.hpp"

namespace benchreport {

template <class Visitor>
void visit_case_fields(const CaseComparison& c, Visitor& v) {
  v.field("base_median", c.base_median);
  v.field("head_median", c.head_median);
  v.field("change", c.change);
  v.field("change_lower", c.change_lower);
  v.field("change_upper", c.change_upper);
  v.field("interval_method", c.change_interval_method);
  v.field("change_estimate", c.change_estimate);
  v.optional("p_value", std::isfinite(c.p_value), c.p_value);
  v.optional("p_adjusted", std::isfinite(c.p_adjusted), c.p_adjusted);
  v.optional("interval_df", std::isfinite(c.interval_df), c.interval_df);  // null: infinite (a normal interval)
  v.optional("detectable_change", std::isfinite(c.detectable_change), c.detectable_change);
  v.optional("prior_df", std::isfinite(c.prior_df), c.prior_df);  // null: +inf (one common variance)
  v.field("launch_noise", c.launch_noise);  // where the launch noise came from, or why none ("": no store)
  v.field("launch_noise_runs", c.launch_noise_runs);
  v.optional("launch_noise_sd", std::isfinite(c.launch_noise_sd), c.launch_noise_sd);
  v.field("verdict", std::string(to_string(c.verdict)));
  v.field("verdict_code", verdict_code_text(c));
  v.field("verdict_reason", verdict_reason(c));
  v.field("inconclusive_cause", std::string(to_string(c.inconclusive_cause)));
  v.field("contamination", contamination_text(c));  // "" when none (compare/contamination.hpp)
  v.field("base_n", c.base_n);
  v.field("head_n", c.head_n);
  v.field("base_mad_pct", c.base_mad_pct);
  v.field("head_mad_pct", c.head_mad_pct);
  v.list("base_process_medians", c.base_process_medians);
  v.list("head_process_medians", c.head_process_medians);
  v.list("process_changes", c.process_changes);
  v.field("processes_disagree", c.processes_disagree);
  v.field("mann_whitney_p", c.mann_whitney.p_value);
  v.begin_group("robust");
  v.estimate("shift", c.shift, c.shift_bounds);
  v.estimate("ratio", c.ratio, c.ratio_bounds);
  v.estimate("disparity", c.disparity, c.disparity_bounds);
  v.optional("brunner_munzel_p", c.brunner_munzel_available, c.brunner_munzel.p_value);
  v.optional("wilcoxon_p", c.wilcoxon_available, c.wilcoxon.p_value);
  v.field("prob_head_better", c.prob_head_better);
  v.end_group();
}

// The columnar view of case comparisons alone (compare_many, a list of CompareResults):
// `name` (the case name), then the case fields.
Columns case_columns(std::span<const CaseComparison* const> cases);

}  // namespace benchreport

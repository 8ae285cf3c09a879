#pragma once
// The words for a case comparison's verdict: the one place where verdicts, their
// codes and inconclusive causes (compare/case.hpp enums) become text.
#include <string>
#include <string_view>

#include "benchreport/compare/case.hpp"

namespace benchreport {

// The machine-readable code of JSON `verdict_code`: to_string(code), with "_within_process"
// when the interval covers within-process noise only (one process on a side; not for exact units).
std::string verdict_code_text(const CaseComparison& c);

// The contamination flags of a case in words, "; "-separated ("" when none): JSON and columns()
// `contamination`, and the reason and Why of a case they made inconclusive.
std::string contamination_text(const CaseComparison& c);

// The full sentence of JSON `verdict_reason` (decision table of docs/statistics-comparison.md).
std::string verdict_reason(const CaseComparison& c);

// The reason in a few words, for the comparison table's "Why" column.
std::string verdict_why(const CaseComparison& c);

// The interval a verdict is read from, in words, from CaseComparison::change_interval_method.
std::string interval_method_text(std::string_view method);

// A verdict as a table shows it ("~ unchanged"; the others by name).
std::string verdict_label(Verdict v);

}  // namespace benchreport

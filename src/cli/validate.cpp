#include "benchreport/cli/validate.hpp"

#include "benchreport/core/escape.hpp"
#include "benchreport/data/dataset.hpp"

namespace benchreport::cli {

std::string validate_ok_lines(std::string_view name, const Dataset& dataset, bool verbose) {
  std::string columns;
  for (const std::string& column : dataset.columns()) columns += (columns.empty() ? "" : ", ") + column;
  std::string out =
      neutralize_text("ok " + std::string(name) + ": " + std::to_string(dataset.n_sets()) + " sample sets, " +
                      std::to_string(dataset.n_values()) + " samples, labels: " + (columns.empty() ? "-" : columns)) +
      "\n";
  for (const std::string& warning : dataset.warnings()) out += "  warning: " + neutralize_text(warning) + "\n";
  if (verbose)
    for (const std::string& note : dataset.notes()) out += "  note: " + neutralize_text(note) + "\n";
  return out;
}

std::string validate_invalid_line(std::string_view name, std::string_view problem) {
  const bool named = problem.find(name) != std::string_view::npos;
  return "INVALID " + neutralize_text(named ? std::string(problem) : std::string(name) + ": " + std::string(problem));
}

}  // namespace benchreport::cli

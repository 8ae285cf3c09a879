#pragma once
// The runners preset (CI runners under a parameter fingerprint): raw samples in, a Report out
// (render it with benchreport/render/render.hpp). docs/presets.md describes inputs and layout.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/data/dataset.hpp"
#include "benchreport/presets/preset_result.hpp"
#include "benchreport/report/report.hpp"

namespace benchreport {

struct RunnersReportOptions {
  std::string title = "Runner Benchmarks";
  std::string runner_column = "runner";
  std::string suite_column = "suite";    // "cpu", "disk", "cache"
  std::string metric_column = "metric";  // e.g. "coremark", "seq_read", "cache_save"
  std::string backend_column = "backend";
  std::string service_column = "service";
  // Run-metadata key whose value (an object of protocol parameters) is hashed.
  std::string protocol_key = "protocol";
  std::size_t fingerprint_digits = 12;
  // Fingerprint whose results are compared; "" = the one most runners share.
  std::string fingerprint;
};

Report runners_report(const Dataset& dataset, const RunnersReportOptions& options = {});

// The report and one row per compared set (report.data's `results`): runner, suite, metric,
// backend, service ("" where a set has no such label), unit and pinned, then median, min, max,
// cv_population and n in the set's own unit.
PresetResult runners_preset(const Dataset& dataset, const RunnersReportOptions& options = {}, bool with_columns = true);

}  // namespace benchreport

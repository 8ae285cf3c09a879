#include "benchreport/cli/gate.hpp"

#include <algorithm>

#include "benchreport/core/escape.hpp"

namespace benchreport::cli {

std::vector<std::string> slower_measurements(const std::vector<GateCase>& cases) {
  std::vector<std::vector<std::pair<std::string, std::string>>> seen;
  std::vector<std::string> names;
  for (const GateCase& c : cases) {
    if (c.verdict != "slower") continue;
    auto measurement = c.key;
    std::erase_if(measurement, [](const auto& label) { return label.first == "metric"; });
    if (std::find(seen.begin(), seen.end(), measurement) != seen.end()) continue;
    seen.push_back(std::move(measurement));
    names.push_back(c.name);
  }
  return names;
}

std::optional<std::string> gate_message(const std::vector<GateCase>& cases) {
  const std::vector<std::string> slower = slower_measurements(cases);
  if (slower.empty()) return std::nullopt;
  constexpr std::size_t kShown = 5;
  std::string shown;
  for (std::size_t i = 0; i < std::min(kShown, slower.size()); ++i)
    shown += (i ? ", " : "") + neutralize_text(slower[i]);
  if (slower.size() > kShown) shown += " and " + std::to_string(slower.size() - kShown) + " more";
  return "benchreport: gate tripped: " + std::to_string(slower.size()) + " case(s) slower: " + shown;
}

}  // namespace benchreport::cli

#include "reader_messages.hpp"

#include <fmt/format.h>

#include <map>

namespace benchreport {
namespace {

constexpr std::size_t kFilesNamed = 3;  // files named per grouped message; the rest are counted

// The run id that prefixes `message` ("" when none does): the longest, so that
// "a.json" does not claim "a.json.gz: ...".
std::string prefix_of(const Dataset& dataset, const std::string& message) {
  std::string best;
  for (const auto& run : dataset.runs()) {
    const std::string& id = run.id;
    if (id.size() > best.size() && message.size() > id.size() + 2 && message.compare(0, id.size(), id) == 0 &&
        message.compare(id.size(), 2, ": ") == 0) {
      best = id;
    }
  }
  return best;
}

}  // namespace

std::vector<std::string> grouped_messages(const Dataset& dataset, const std::vector<std::string>& messages) {
  std::vector<std::string> texts;
  std::map<std::string, std::vector<std::string>> files;  // text -> prefixes in order
  for (const auto& message : messages) {
    const std::string prefix = prefix_of(dataset, message);
    std::string text = prefix.empty() ? message : message.substr(prefix.size() + 2);
    auto [it, inserted] = files.try_emplace(text);
    if (inserted) texts.push_back(text);
    it->second.push_back(prefix);
  }
  std::vector<std::string> out;
  for (const auto& text : texts) {
    const auto& from = files.at(text);
    if (from.size() == 1) {
      out.push_back(from.front().empty() ? text : fmt::format("{}: {}", from.front(), text));
      continue;
    }
    std::vector<std::string> named(from.begin(), from.begin() + std::min(from.size(), kFilesNamed));
    const std::string more = from.size() > kFilesNamed ? fmt::format(", and {} more", from.size() - kFilesNamed) : "";
    out.push_back(fmt::format("{} ({} files: {}{})", text, from.size(), fmt::join(named, ", "), more));
  }
  return out;
}

}  // namespace benchreport

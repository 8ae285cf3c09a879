#include "benchreport/store/acknowledge.hpp"

#include <fmt/format.h>

#include <map>
#include <simdjson.h>

#include "benchreport/core/error.hpp"
#include "store/sqlite.hpp"

namespace benchreport::store {
namespace {

// The labels of a case key, which the store writes as a JSON object of strings.
std::map<std::string, std::string, std::less<>> key_labels(std::string_view case_key) {
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(case_key.data(), case_key.size()).get_object().get(object) != simdjson::SUCCESS)
    throw InputError(fmt::format("change point case key {} is not a JSON object", case_key));
  std::map<std::string, std::string, std::less<>> out;
  for (auto field : object) {
    std::string_view value;
    if (field.value.get_string().get(value) == simdjson::SUCCESS) out[std::string(field.key)] = std::string(value);
  }
  return out;
}

}  // namespace

bool case_matches(std::string_view case_key, std::string_view spec) {
  const auto labels = key_labels(case_key);
  if (spec.find('=') == std::string_view::npos) {
    for (const auto& [name, value] : labels)
      if (value == spec) return true;
    return false;
  }
  std::map<std::string_view, std::string_view> wanted;
  for (std::size_t begin = 0; begin <= spec.size();) {
    const std::size_t end = std::min(spec.find(',', begin), spec.size());
    const std::string_view part = spec.substr(begin, end - begin);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) throw InputError(fmt::format("case '{}': '{}' is not LABEL=VALUE", spec, part));
    wanted[part.substr(0, eq)] = part.substr(eq + 1);
    begin = end + 1;
  }
  for (const auto& [name, value] : wanted) {
    const auto found = labels.find(name);
    if (found == labels.end() || found->second != value) return false;
  }
  return true;
}

std::vector<ChangePointRow> matching_change_points(const Store& store, std::string_view spec,
                                                   std::string_view commit_prefix,
                                                   const std::optional<std::string>& branch) {
  std::string pattern;
  for (char c : commit_prefix) {
    if (c == '%') continue;
    if (c == '_') pattern += '\\';
    pattern += c;
  }
  pattern += '%';
  Statement rows(store.handle(),
                 "SELECT change_id, branch, case_key, commit_sha, state FROM change_points WHERE commit_sha LIKE ?"
                 " ESCAPE '\\'");
  rows.bind(1, pattern);
  std::vector<ChangePointRow> out;
  while (rows.step()) {
    ChangePointRow row{rows.integer(0), rows.text(1), rows.text(2), rows.text(3), rows.text(4)};
    if ((!branch || row.branch == *branch) && case_matches(row.case_key, spec)) out.push_back(std::move(row));
  }
  return out;
}

void acknowledge_change_point(const Store& store, std::int64_t change_id, std::string_view note) {
  sqlite3* db = store.handle();
  in_transaction(db, [&] {
    Statement update(db,
                     "UPDATE change_points SET state = 'acknowledged', note = ?, updated = (SELECT MAX(time) FROM runs)"
                     " WHERE change_id = ?");
    update.bind(1, note).bind(2, change_id);
    update.step();
  });
}

}  // namespace benchreport::store

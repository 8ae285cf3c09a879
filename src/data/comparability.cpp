#include "benchreport/data/comparability.hpp"

#include <algorithm>

namespace benchreport {
namespace {

template <class T>
void append_new(std::vector<T>& to, const std::vector<T>& from) {
  for (const auto& item : from) {
    if (std::find(to.begin(), to.end(), item) == to.end()) to.push_back(item);
  }
}

}  // namespace

void Comparability::merge(const Comparability& other) {
  append_new(run_keys, other.run_keys);
  append_new(work_keys, other.work_keys);
  append_new(side_declarations, other.side_declarations);
  append_new(commit_keys, other.commit_keys);
}

}  // namespace benchreport

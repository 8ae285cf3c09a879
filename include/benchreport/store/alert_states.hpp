#pragma once
// The alert states a results store remembers of a branch's change points, in its `change_points`
// table (docs/statistics-history.md, "Alert states"): each change point's state, the note of its
// acknowledgement and its likely cause.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "benchreport/compare/history.hpp"
#include "benchreport/presets/history.hpp"
#include "benchreport/store/store.hpp"

namespace benchreport::store {

// Per series, per change point of `analysis` (the history of `branch`'s `runs`, in branch order as
// Store::runs gives them): its state (compare/alert_state.hpp; an acknowledgement stored for it
// holds until it is resolved), its stored note, and its cause: the environment difference between
// the last run of the commit before and the first run at it (store/environment_diff.hpp). The
// changed states are written and rows of change points no longer found are dropped unless
// acknowledged, in one transaction, stamped with the newest run's time (not the clock's).
std::vector<std::vector<ChangePointAlert>> update_alert_states(const Store& store, const std::string& branch,
                                                               const HistoryAnalysis& analysis,
                                                               std::span<const StoredRun> runs,
                                                               std::size_t confirm_after);

}  // namespace benchreport::store

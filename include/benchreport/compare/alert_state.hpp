#pragma once
// The state of a change point that a results store remembers
// (docs/statistics-history.md, "Alert states"), from its series alone: new;
// confirmed once enough later commits sit on the new level; resolved when a
// later segment is back nearer the old level than the new one. An
// acknowledgement (a person's) holds until the change is resolved.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "benchreport/compare/history.hpp"

namespace benchreport {

enum class AlertState { fresh, confirmed, acknowledged, resolved };

// "new", "confirmed", "acknowledged", "resolved".
std::string_view alert_state_name(AlertState state);

// The states of every change point of one series (`values`: its per-commit
// summaries; `change_points`: as series_changes found them, ascending).
// Change point k is resolved when the median of a segment after the one it
// starts is nearer its `before` than its `after` (|log(m / level)| when
// relative, |m - level| otherwise); else confirmed when at least
// `confirm_after` commits follow its first commit within its segment; else
// new. `acknowledged[k]` turns a state other than resolved into acknowledged
// (empty: none is). Throws InputError when confirm_after is 0, a change point
// lies outside the series or `acknowledged` has another length.
std::vector<AlertState> alert_states(std::span<const double> values, std::span<const ChangePoint> change_points,
                                     std::size_t confirm_after, const std::vector<bool>& acknowledged = {});

}  // namespace benchreport

#pragma once
// Summarising a branch's new runs into the store's `case_summaries` cache
// (docs/store.md): each (case, run) summary a history needs is computed once,
// when the run is first seen, so a later history reads only the runs recorded since.
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "benchreport/store/store.hpp"

namespace benchreport::store {

// Runs summarised per transaction (a commit costs a WAL sync; a batch bounds the work an interrupt loses).
inline constexpr std::size_t kRunsPerTransaction = 64;

// Text as Python's json.dumps(text) writes it (ensure_ascii: every character
// beyond ASCII, and DEL, as \uXXXX, surrogate pairs above U+FFFF).
std::string ascii_json_string(std::string_view text);

// Adds the summaries of `runs` (the branch's) not yet in case_summaries, all
// of them again with `rebuild`; returns how many runs were summarised. Each
// run is summarised alone, its case's labels named as a dataset of that run
// alone names them; writes go in batches, each one transaction. `should_stop` (when given) is
// asked after each batch but the last: true stops there, the finished batches kept (a later call
// continues), and the runs summarised so far are returned.
std::size_t summarise_new_runs(const Store& store, const std::string& branch, std::span<const StoredRun> runs,
                               bool rebuild, unsigned threads, const std::function<bool()>& should_stop = {});

}  // namespace benchreport::store

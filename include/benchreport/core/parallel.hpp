#pragma once
// A minimal fork-join loop over independent items for the grouped kernels.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <type_traits>
#include <vector>

#include "benchreport/core/cpu_budget.hpp"
#include "benchreport/core/worker_pool.hpp"

namespace benchreport {

// 0 means "one per usable CPU" (affinity mask, cgroup CPU quota); never more
// threads than work chunks.
inline unsigned resolve_thread_count(unsigned requested, std::size_t n_chunks) {
  unsigned threads = requested != 0 ? requested : usable_cpus();
  return static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(n_chunks, 1)));
}

// Calls body(begin, end, worker) over [0, n_items) in chunks of `chunk` items,
// spread over `threads` workers (0 = one per usable CPU, 1 = inline), which
// run on the caller and the process's helper threads (core/worker_pool.hpp;
// at most one per usable CPU run at once). Chunks
// are claimed dynamically; every item is computed independently, so results do
// not depend on the thread count. If bodies throw, the exception of the
// lowest-numbered failing chunk is rethrown (the same one for any thread
// count, since a chunk stops at its first failing item); chunks after a known
// failure are skipped.
template <class Body>
void parallel_for_chunks(std::size_t n_items, std::size_t chunk, unsigned threads, Body&& body) {
  chunk = std::max<std::size_t>(chunk, 1);
  const std::size_t n_chunks = (n_items + chunk - 1) / chunk;
  const unsigned workers = resolve_thread_count(threads, n_chunks);
  if (workers <= 1) {
    for (std::size_t begin = 0; begin < n_items; begin += chunk) body(begin, std::min(begin + chunk, n_items), 0u);
    return;
  }
  std::atomic<std::size_t> next_chunk{0};
  std::atomic<std::size_t> first_failed{n_chunks};
  std::vector<std::exception_ptr> errors(n_chunks);
  auto work = [&](unsigned worker) {
    for (;;) {
      const std::size_t c = next_chunk.fetch_add(1, std::memory_order_relaxed);
      if (c >= n_chunks || c > first_failed.load(std::memory_order_relaxed)) return;
      const std::size_t begin = c * chunk;
      try {
        body(begin, std::min(begin + chunk, n_items), worker);
      } catch (...) {
        errors[c] = std::current_exception();
        std::size_t seen = first_failed.load();
        while (c < seen && !first_failed.compare_exchange_weak(seen, c)) {
        }
      }
    }
  };
  // Each worker index is one task: run once, on the caller or on an idle helper.
  fork_join(workers, work);
  const std::size_t failed = first_failed.load();
  if (failed < n_chunks) std::rethrow_exception(errors[failed]);
}

// Calls task(i) for every i in [0, n) over `threads` workers (0 = one per
// usable CPU): parallel_for_chunks with one item per chunk, for items that
// each take long (a whole case comparison). Rethrows the lowest failing index.
template <class Task>
void run_indexed(std::size_t n, unsigned threads, Task&& task) {
  parallel_for_chunks(n, 1, threads, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t i = begin; i < end; ++i) task(i);
  });
}

// build(i) for every i in [0, n), in chunks of `chunk` on `threads` workers, the
// results in index order: for per-item work of microseconds (report rows).
template <class Build>
auto map_indexed(std::size_t n, std::size_t chunk, unsigned threads, Build&& build) {
  std::vector<std::decay_t<decltype(build(std::size_t{}))>> out(n);
  parallel_for_chunks(n, chunk, threads, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t i = begin; i < end; ++i) out[i] = build(i);
  });
  return out;
}

}  // namespace benchreport

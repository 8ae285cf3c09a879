#pragma once
// The process's helper threads: started once, kept for every parallel loop.
//
// Why persistent: when libstdc++ is loaded after start-up (into Python, by
// dlopen) its thread-local state (the C++ exception globals, call_once's
// slots) is allocated by glibc on a thread's first use, and glibc ends the
// process (exit 127, "cannot allocate memory for thread-local data") when that
// allocation fails. A thread started in the middle of a computation under an
// address-space limit could die that way before it throws anything. Helpers
// claim that state as they start, and every later loop reuses them. They start
// on first use; a program that will run under an address-space limit calls
// start_worker_pool() (Python: benchreport._core.start_worker_pool()) before it
// sets the limit, when memory is known to be there.
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace benchreport {

// A non-owning reference to a callable taking the task index.
class TaskRef {
 public:
  // Binds to temporaries too: a TaskRef lives only as long as the call it is passed to.
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, TaskRef>>>
  TaskRef(F&& f) noexcept  // NOLINT(google-explicit-constructor): used as a parameter type
      : context_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* c, unsigned i) { (*static_cast<std::remove_reference_t<F>*>(c))(i); }) {}
  void operator()(unsigned i) const { call_(context_, i); }

 private:
  void* context_;
  void (*call_)(void*, unsigned);
};

// Starts the helpers if they are not running yet: one fewer than the CPUs the
// process can use (usable_cpus(): its affinity mask, capped by a cgroup CPU
// quota), so that a caller and its helpers fill them. Idempotent; a helper that cannot be started (no memory for its
// stack) is left out. Returns when every helper has started (the first call
// waits 10 s at most), so a fork() after it copies no half-started thread. A
// child made by fork() starts helpers of its own.
void start_worker_pool();

// How many helpers are running (starts them on first use).
unsigned worker_pool_helpers();

// Runs task(i) once for every i in [0, n_tasks): on the calling thread and on
// any helper that is idle, and returns when all have ended. Tasks no helper
// has taken when the caller runs out of its own are run by the caller, so the
// call never waits for a busy helper to become free (nested calls from inside
// a task are safe) and completes with no helpers at all. Tasks must not throw.
void fork_join(unsigned n_tasks, TaskRef task);

}  // namespace benchreport

#include "benchreport/core/worker_pool.hpp"

#include "benchreport/core/cpu_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace benchreport {
namespace {

// One fork_join call: its tasks are taken in index order, by the caller and
// by helpers, under the pool's mutex. Lives on the caller's stack.
struct Job {
  Job(TaskRef t, unsigned n) : task(t), n_tasks(n) {}
  TaskRef task;
  unsigned n_tasks;
  unsigned next_task = 0;
  unsigned running_on_helpers = 0;
  Job* next_open = nullptr;  // the pool's list of jobs with tasks left to take
  std::condition_variable helpers_done;
};

class WorkerPool {
 public:
  explicit WorkerPool(pid_t owner) : owner(owner) {}
  const pid_t owner;  // the process whose helpers these are
  unsigned start();   // the number of helpers
  void fork_join(unsigned n_tasks, TaskRef task);

 private:
  void helper_main();
  // Under the mutex: the next task of `job`; unlinks the job when none is left.
  unsigned take(Job& job);
  void unlink(Job& job);
  void run_on_caller(Job& job);

  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable helper_ready_;
  Job* open_ = nullptr;  // newest first: a nested call's tasks are taken before its parent's
  unsigned helpers_ = 0;
  unsigned ready_ = 0;  // helpers past their start-up
  bool started_ = false;
  bool startup_waited_ = false;
  static constexpr std::chrono::seconds kStartupWait{10};
};

unsigned WorkerPool::start() {
  std::unique_lock lock(mutex_);
  if (!started_) {
    started_ = true;
    const unsigned wanted = usable_cpus() - 1;
    for (unsigned h = 0; h < wanted; ++h) {
      try {
        std::thread([this] { helper_main(); }).detach();
        ++helpers_;
      } catch (const std::exception&) {  // no memory for a stack or a thread: fewer helpers
        break;
      }
    }
  }
  // Returns once every helper is past its start-up, which allocates (the
  // thread's TLS, a sanitizer's own bookkeeping): a fork() right after start
  // then cannot copy an allocator lock held by a half-started helper into a
  // child, whose own helpers would block on it for ever. The wait is bounded,
  // once: a helper that cannot get going (in a child forked while some other
  // thread held such a lock) must not hang the caller, who can run every task.
  if (!startup_waited_) {
    helper_ready_.wait_for(lock, kStartupWait, [this] { return ready_ == helpers_; });
    startup_waited_ = true;
  }
  return helpers_;
}

void WorkerPool::helper_main() {
  // Claim libstdc++'s thread-local state before any work (see the header).
  [[maybe_unused]] volatile int claimed = std::uncaught_exceptions();  // volatile: the call is pure
  std::unique_lock lock(mutex_);
  ++ready_;
  helper_ready_.notify_all();
  for (;;) {
    work_available_.wait(lock, [this] { return open_ != nullptr; });
    Job& job = *open_;
    const unsigned index = take(job);
    ++job.running_on_helpers;
    lock.unlock();
    job.task(index);  // tasks do not throw (the contract of fork_join)
    lock.lock();
    // Notified under the mutex: the caller cannot see zero and leave (freeing
    // the job) before this call has returned.
    if (--job.running_on_helpers == 0) job.helpers_done.notify_all();
  }
}

unsigned WorkerPool::take(Job& job) {
  const unsigned index = job.next_task++;
  if (job.next_task == job.n_tasks) unlink(job);
  return index;
}

void WorkerPool::unlink(Job& job) {
  for (Job** link = &open_; *link != nullptr; link = &(*link)->next_open) {
    if (*link == &job) {
      *link = job.next_open;
      return;
    }
  }
}

void WorkerPool::run_on_caller(Job& job) {
  std::unique_lock lock(mutex_);
  while (job.next_task < job.n_tasks) {
    const unsigned index = take(job);
    lock.unlock();
    try {
      job.task(index);
    } catch (...) {  // a broken contract still must not leave the job linked or helpers on it
      lock.lock();
      if (job.next_task < job.n_tasks) unlink(job);
      job.next_task = job.n_tasks;
      job.helpers_done.wait(lock, [&] { return job.running_on_helpers == 0; });
      throw;
    }
    lock.lock();
  }
  job.helpers_done.wait(lock, [&] { return job.running_on_helpers == 0; });
}

void WorkerPool::fork_join(unsigned n_tasks, TaskRef task) {
  const unsigned helpers = n_tasks <= 1 ? 0 : start();
  if (helpers == 0) {
    for (unsigned i = 0; i < n_tasks; ++i) task(i);
    return;
  }
  Job job(task, n_tasks);
  {
    const std::lock_guard lock(mutex_);
    job.next_open = open_;
    open_ = &job;
  }
  // One wake-up per task a helper could take (the caller takes one itself);
  // a helper busy elsewhere looks for open jobs before it waits again.
  for (unsigned w = std::min(n_tasks - 1, helpers); w > 0; --w) work_available_.notify_one();
  run_on_caller(job);
}

// The pool of this process. A child made by fork() has the parent's memory but
// none of its threads, and the parent's pool may have been copied with its
// mutex held: a process that finds a pool of another process makes its own
// (started on first use) and never touches the inherited one, which stays
// reachable so that it does not count as a leak. Plain atomics, no fork
// handler: nothing runs, or allocates, inside fork().
std::atomic<WorkerPool*> the_pool{nullptr};
std::atomic<WorkerPool*> inherited_pool{nullptr};

WorkerPool* current_pool() {
  const pid_t self = getpid();
  WorkerPool* pool = the_pool.load(std::memory_order_acquire);
  while (pool == nullptr || pool->owner != self) {
    auto* fresh = new WorkerPool(self);
    if (the_pool.compare_exchange_strong(pool, fresh, std::memory_order_acq_rel)) {
      if (pool != nullptr) inherited_pool.store(pool, std::memory_order_relaxed);
      return fresh;
    }
    delete fresh;  // another thread of this process made one first: `pool` is now that one
  }
  return pool;
}

}  // namespace

void start_worker_pool() { current_pool()->start(); }

unsigned worker_pool_helpers() { return current_pool()->start(); }

void fork_join(unsigned n_tasks, TaskRef task) { current_pool()->fork_join(n_tasks, task); }

}  // namespace benchreport

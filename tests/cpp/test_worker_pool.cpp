// The process's helper threads (core/worker_pool.hpp): every task runs exactly
// once, on the caller or a helper; nested and concurrent calls complete; a
// task that breaks the no-throw contract leaves the pool usable.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "benchreport/core/cpu_budget.hpp"
#include "benchreport/core/parallel.hpp"
#include "benchreport/core/worker_pool.hpp"

using namespace benchreport;

TEST_CASE("fork_join runs every task once", "[worker_pool]") {
  for (unsigned n : {0U, 1U, 2U, 3U, 17U, 200U}) {
    std::vector<std::atomic<int>> runs(n);
    fork_join(n, [&](unsigned i) { runs[i].fetch_add(1); });
    for (unsigned i = 0; i < n; ++i) REQUIRE(runs[i].load() == 1);
  }
}

// Threads of this process, from /proc/self/task.
std::size_t thread_count() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

TEST_CASE("helpers fill the usable CPUs and are reused", "[worker_pool]") {
  REQUIRE(worker_pool_helpers() == usable_cpus() - 1);
  // Helpers are kept: 50 calls start no thread, and the threads that run
  // tasks are never more than the caller and the helpers.
  const std::size_t threads_before = thread_count();
  std::set<std::thread::id> seen;
  std::mutex seen_mutex;
  for (int call = 0; call < 50; ++call) {
    fork_join(8, [&](unsigned) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      const std::lock_guard lock(seen_mutex);
      seen.insert(std::this_thread::get_id());
    });
  }
  REQUIRE(thread_count() == threads_before);
  REQUIRE(seen.size() <= usable_cpus());
}

TEST_CASE("nested fork_join does not wait for busy helpers", "[worker_pool]") {
  std::atomic<int> leaves{0};
  fork_join(4,
            [&](unsigned) { fork_join(5, [&](unsigned) { fork_join(3, [&](unsigned) { leaves.fetch_add(1); }); }); });
  REQUIRE(leaves.load() == 4 * 5 * 3);
}

TEST_CASE("fork_join from several threads at once", "[worker_pool]") {
  std::atomic<long> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&total] {
      for (int call = 0; call < 100; ++call) {
        fork_join(6, [&](unsigned i) { total.fetch_add(i + 1); });
      }
    });
  }
  for (auto& c : callers) c.join();
  REQUIRE(total.load() == 4L * 100 * (1 + 2 + 3 + 4 + 5 + 6));
}

TEST_CASE("a throwing task on the caller propagates, and no task starts after", "[worker_pool]") {
  // Only tasks run by the caller throw (one thrown on a helper would end the
  // process: the contract is that tasks do not throw). With 1 000 tasks of
  // 20 us each the caller runs some of them; the tasks left when it throws
  // are never started, and the helpers have finished theirs when it returns.
  const auto caller = std::this_thread::get_id();
  std::atomic<int> started{0}, finished{0};
  REQUIRE_THROWS_AS(fork_join(1000,
                              [&](unsigned) {
                                started.fetch_add(1);
                                if (std::this_thread::get_id() == caller) throw std::runtime_error("task");
                                std::this_thread::sleep_for(std::chrono::microseconds(20));
                                finished.fetch_add(1);
                              }),
                    std::runtime_error);
  const int started_at_return = started.load();
  REQUIRE(finished.load() == started_at_return - 1);  // all but the caller's throwing one
  REQUIRE(started_at_return < 1000);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(started.load() == started_at_return);
  std::atomic<int> after{0};
  fork_join(9, [&](unsigned) { after.fetch_add(1); });
  REQUIRE(after.load() == 9);
}

TEST_CASE("parallel_for_chunks results do not depend on the thread count", "[worker_pool]") {
  std::vector<double> reference;
  for (unsigned threads : {1U, 2U, 3U, 16U}) {
    std::vector<double> out(10007);
    parallel_for_chunks(out.size(), 64, threads, [&](std::size_t begin, std::size_t end, unsigned) {
      for (std::size_t i = begin; i < end; ++i) out[i] = static_cast<double>(i) * 0.5 + 1.0;
    });
    if (reference.empty()) reference = out;
    REQUIRE(out == reference);
  }
}

TEST_CASE("a child made by fork has helpers of its own", "[worker_pool]") {
  if (usable_cpus() < 2) {
    WARN("one usable CPU: no helpers, nothing to check");
    return;
  }
  fork_join(4, [](unsigned) {});  // the parent's helpers exist (and have started: see start_worker_pool)
  const pid_t child = fork();
  if (child == 0) {
    alarm(60);  // a hang (a lock copied held) ends the child by a signal, and fails below
    // A child still using the parent's pool would count its helpers, which do
    // not run here. None at all passes only if the system refuses the child
    // any thread (a process or thread limit): exit 3, a warning.
    if (worker_pool_helpers() == 0) {
      try {
        std::thread([] {}).join();
      } catch (const std::system_error&) {
        _exit(3);
      }
      _exit(4);
    }
    // Task 0 waits for task 1 to start on another thread: with no helper in
    // the child the caller would run them one after the other, and it fails.
    std::atomic<bool> second_started{false};
    std::atomic<bool> overlapped{false};
    fork_join(2, [&](unsigned i) {
      if (i == 1) {
        second_started = true;
        return;
      }
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!second_started && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
      overlapped = second_started.load();
    });
    _exit(overlapped ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 3) {
    WARN("the child could not start a thread (a process or thread limit): nothing to check");
    return;
  }
  REQUIRE(WEXITSTATUS(status) == 0);
}

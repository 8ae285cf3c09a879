// The process's helper threads (core/worker_pool.hpp): every task runs exactly
// once, on the caller or a helper; nested and concurrent calls complete; a
// task that breaks the no-throw contract leaves the pool usable.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

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

TEST_CASE("helpers fill the machine and are reused", "[worker_pool]") {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  REQUIRE(worker_pool_helpers() == hardware - 1);
  // Helpers are kept: the threads that run tasks are never more than the
  // caller and the helpers, however many calls are made.
  std::set<std::thread::id> seen;
  std::mutex seen_mutex;
  for (int call = 0; call < 50; ++call) {
    fork_join(8, [&](unsigned) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      const std::lock_guard lock(seen_mutex);
      seen.insert(std::this_thread::get_id());
    });
  }
  REQUIRE(seen.size() <= hardware);
  REQUIRE(seen.count(std::this_thread::get_id()) == 1);
}

TEST_CASE("nested fork_join does not wait for busy helpers", "[worker_pool]") {
  std::atomic<int> leaves{0};
  fork_join(4, [&](unsigned) {
    fork_join(5, [&](unsigned) {
      fork_join(3, [&](unsigned) { leaves.fetch_add(1); });
    });
  });
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

TEST_CASE("a throwing task on the caller propagates and leaves the pool usable", "[worker_pool]") {
  // Only tasks run by the caller throw (one thrown on a helper would end the
  // process: the contract is that tasks do not throw). With 1 000 tasks of
  // 20 us each the caller runs some of them.
  const auto caller = std::this_thread::get_id();
  std::atomic<int> on_helpers{0};
  REQUIRE_THROWS_AS(fork_join(1000,
                              [&](unsigned) {
                                if (std::this_thread::get_id() == caller) throw std::runtime_error("task");
                                std::this_thread::sleep_for(std::chrono::microseconds(20));
                                on_helpers.fetch_add(1);
                              }),
                    std::runtime_error);
  REQUIRE(on_helpers.load() < 1000);
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

TEST_CASE("a child made by fork has a pool of its own", "[worker_pool]") {
  fork_join(4, [](unsigned) {});  // the parent's helpers exist
  const pid_t child = fork();
  if (child == 0) {
    std::atomic<int> runs{0};
    fork_join(8, [&](unsigned) { runs.fetch_add(1); });
    _exit(runs.load() == 8 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
}

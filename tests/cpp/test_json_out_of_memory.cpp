// simdjson allocates with nothrow new and reports a failure as an error code (or,
// for a padded copy, as a null buffer). Out of memory must reach the caller as
// std::bad_alloc (the CLI's "out of memory", exit 2), never as "<file>: not valid
// JSON" and never as a read through a null buffer. This binary replaces the
// nothrow array new so a test can make every nothrow allocation fail.
#include <catch2/catch.hpp>

#include <atomic>
#include <new>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/data/fingerprint.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/io/read.hpp"

namespace {
std::atomic<bool> fail_nothrow_new{false};

// While alive, every nothrow allocation of this process fails.
struct NothrowAllocationsFail {
  NothrowAllocationsFail() { fail_nothrow_new = true; }
  ~NothrowAllocationsFail() { fail_nothrow_new = false; }
  NothrowAllocationsFail(const NothrowAllocationsFail&) = delete;
  NothrowAllocationsFail& operator=(const NothrowAllocationsFail&) = delete;
};

const std::string kGoogleBenchmark = R"({"context": {"date": "2026-01-01", "library_build_type": "release"},
 "benchmarks": [{"name": "BM_x", "run_type": "iteration", "iterations": 10, "real_time": 5.0,
   "cpu_time": 5.0, "time_unit": "ns"}]})";
}  // namespace

// Forwards to the throwing array new (so delete[] matches it, also under ASan).
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  if (fail_nothrow_new) return nullptr;
  try {
    return ::operator new[](size);
  } catch (...) {
    return nullptr;
  }
}

using namespace benchreport;

TEST_CASE("a JSON reader that cannot allocate says out of memory, not a file error", "[io][json][memory]") {
  REQUIRE(read_buffer(kGoogleBenchmark, "bench.json").n_sets() == 2);  // real_time and cpu_time
  NothrowAllocationsFail failing;
  CHECK_THROWS_AS(read_buffer(kGoogleBenchmark, "bench.json"), std::bad_alloc);
}

TEST_CASE("JSON metadata and fingerprints that cannot allocate say out of memory", "[json][memory]") {
  NothrowAllocationsFail failing;
  CHECK_THROWS_AS(metadata::parse_json(R"({"a": 1})", "metadata"), std::bad_alloc);
  CHECK_THROWS_AS(canonical_json(R"({"a": 1})"), std::bad_alloc);
}

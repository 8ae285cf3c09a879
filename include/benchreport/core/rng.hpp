#pragma once
// A small, fully specified pseudo-random generator so that every resampling
// result is bit-identical across platforms, standard libraries and thread
// counts: xoshiro256** (Blackman & Vigna 2018) seeded through SplitMix64, and
// a portable unbiased integer mapping (Lemire 2019, multiply-shift with
// rejection) instead of std::uniform_int_distribution, whose output differs
// between standard libraries.
#include <array>
#include <cstdint>

namespace benchreport {

// One SplitMix64 step: advances `state` and returns a well-mixed 64-bit word.
std::uint64_t splitmix64(std::uint64_t& state) noexcept;

class Xoshiro256 {
 public:
  // The four state words are four consecutive SplitMix64 outputs from `seed`.
  explicit Xoshiro256(std::uint64_t seed) noexcept;

  // Independent stream for (seed, stream): the seed is mixed with the stream
  // index so per-case generators never share a state sequence in practice.
  static Xoshiro256 for_stream(std::uint64_t seed, std::uint64_t stream) noexcept;

  std::uint64_t next() noexcept;

  // Uniform integer in [0, n), n >= 1, exactly unbiased.
  std::uint64_t below(std::uint64_t n) noexcept;

  // Uniform integer in [0, n), 1 <= n <= 2^32, exactly unbiased, from 32-bit
  // halves of the 64-bit outputs (high half first, then low half): half the
  // generator calls of below() for the small ranges of resampling.
  std::uint32_t below32(std::uint32_t n) noexcept;

  // Uniform double in [0, 1) with 53 random bits.
  double unit() noexcept;

 private:
  std::uint32_t next32() noexcept;

  std::array<std::uint64_t, 4> s_{};
  std::uint64_t spare_ = 0;   // low half of the last output, not yet used
  bool has_spare_ = false;
};

}  // namespace benchreport

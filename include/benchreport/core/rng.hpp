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
  std::uint64_t spare_ = 0;  // low half of the last output, not yet used
  bool has_spare_ = false;
};

// The per-draw members are defined here, inline: resampling calls them in its
// innermost loop, and an out-of-line call (through the PLT in the Python
// module) showed up as an eighth of a 10 + 10 sample compare (perf).
namespace rng_detail {
// GCC/Clang extension; `__extension__` keeps -Wpedantic quiet about it.
__extension__ using Uint128 = unsigned __int128;

constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
}  // namespace rng_detail

inline std::uint64_t Xoshiro256::next() noexcept {
  const std::uint64_t result = rng_detail::rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rng_detail::rotl(s_[3], 45);
  return result;
}

inline std::uint64_t Xoshiro256::below(std::uint64_t n) noexcept {
  // Lemire's method: the high word of x*n is uniform on [0, n) once the
  // low-word values that would over-represent some outputs are rejected.
  rng_detail::Uint128 product = static_cast<rng_detail::Uint128>(next()) * n;
  auto low = static_cast<std::uint64_t>(product);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      product = static_cast<rng_detail::Uint128>(next()) * n;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

inline std::uint32_t Xoshiro256::next32() noexcept {
  if (has_spare_) {
    has_spare_ = false;
    return static_cast<std::uint32_t>(spare_);
  }
  const std::uint64_t word = next();
  spare_ = word & 0xFFFFFFFFULL;
  has_spare_ = true;
  return static_cast<std::uint32_t>(word >> 32);
}

inline std::uint32_t Xoshiro256::below32(std::uint32_t n) noexcept {
  // Lemire's method on 32-bit words.
  std::uint64_t product = static_cast<std::uint64_t>(next32()) * n;
  auto low = static_cast<std::uint32_t>(product);
  if (low < n) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(0U - n) % n;
    while (low < threshold) {
      product = static_cast<std::uint64_t>(next32()) * n;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return static_cast<std::uint32_t>(product >> 32);
}

inline double Xoshiro256::unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

}  // namespace benchreport

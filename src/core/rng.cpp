#include "benchreport/core/rng.hpp"

namespace benchreport {

std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  state += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Xoshiro256::Xoshiro256(std::uint64_t seed) noexcept {
  std::uint64_t sm = seed;
  for (auto& word : s_) word = splitmix64(sm);
}

Xoshiro256 Xoshiro256::for_stream(std::uint64_t seed, std::uint64_t stream) noexcept {
  // Mix the stream index through SplitMix64 before combining so that nearby
  // (seed, stream) pairs give unrelated states.
  std::uint64_t mixer = stream ^ 0xD1B54A32D192ED03ULL;
  return Xoshiro256(seed ^ splitmix64(mixer));
}

}  // namespace benchreport

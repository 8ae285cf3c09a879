#include "benchreport/core/rng.hpp"

namespace benchreport {

namespace {
// GCC/Clang extension; `__extension__` keeps -Wpedantic quiet about it.
__extension__ using Uint128 = unsigned __int128;

constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
}  // namespace

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

std::uint64_t Xoshiro256::next() noexcept {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Xoshiro256::below(std::uint64_t n) noexcept {
  // Lemire's method: the high word of x*n is uniform on [0, n) once the
  // low-word values that would over-represent some outputs are rejected.
  Uint128 product = static_cast<Uint128>(next()) * n;
  auto low = static_cast<std::uint64_t>(product);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      product = static_cast<Uint128>(next()) * n;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

std::uint32_t Xoshiro256::next32() noexcept {
  if (has_spare_) {
    has_spare_ = false;
    return static_cast<std::uint32_t>(spare_);
  }
  const std::uint64_t word = next();
  spare_ = word & 0xFFFFFFFFULL;
  has_spare_ = true;
  return static_cast<std::uint32_t>(word >> 32);
}

std::uint32_t Xoshiro256::below32(std::uint32_t n) noexcept {
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

double Xoshiro256::unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

}  // namespace benchreport

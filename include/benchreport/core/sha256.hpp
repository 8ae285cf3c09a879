#pragma once
// SHA-256 (FIPS 180-4), used for short parameter fingerprints.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace benchreport {

// Incremental SHA-256: update() any number of times, then digest() once.
class Sha256 {
 public:
  Sha256() noexcept;
  void update(std::span<const std::byte> bytes) noexcept;
  void update(std::string_view text) noexcept;
  // Finishes the hash; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> digest() noexcept;

 private:
  void compress(const std::uint8_t* block) noexcept;

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

// Lower-case hex SHA-256 of `text` (64 characters).
std::string sha256_hex(std::string_view text);

}  // namespace benchreport

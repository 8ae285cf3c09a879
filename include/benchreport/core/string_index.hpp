#pragma once
// Positions of distinct strings kept elsewhere (a dictionary vector), found by value. An
// open-addressing table of 8-byte slots (32 bits of the hash, the position) with linear
// probing: no allocation per string and no second copy of it, and growing rehashes from the
// stored hash bits without touching the strings. A std::unordered_map<std::string, int> per
// label column made 10^5 distinct values cost 7-12x the time of 2.5·10^4 (a node and a key
// copy per value, their frees, rehashes walking scattered nodes).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace benchreport {

class StringIndex {
 public:
  // The position of `key` if a string equal to it was inserted (`at(p)` gives the string at
  // position p), else inserts it at `position` and returns that: {position, inserted}.
  template <class At>
  std::pair<std::uint32_t, bool> find_or_insert(std::string_view key, std::uint32_t position, const At& at) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const std::uint32_t hash = hash32(key);
    for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
      Slot& slot = slots_[i];
      if (slot.position == kEmpty) {
        slot = Slot{hash, position};
        ++size_;
        return {position, true};
      }
      if (slot.hash == hash && std::string_view(at(slot.position)) == key) return {slot.position, false};
    }
  }

  // The position of `key`, or -1 when absent.
  template <class At>
  std::int64_t find(std::string_view key, const At& at) const {
    if (slots_.empty()) return -1;
    const std::uint32_t hash = hash32(key);
    for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (slot.position == kEmpty) return -1;
      if (slot.hash == hash && std::string_view(at(slot.position)) == key) return slot.position;
    }
  }

  std::size_t size() const { return size_; }
  void clear() {
    slots_.clear();
    size_ = 0;
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  struct Slot {
    std::uint32_t hash = 0;  // picks the first slot and rejects most unequal strings unread
    std::uint32_t position = kEmpty;
  };

  static std::uint32_t hash32(std::string_view key) {
    const std::uint64_t h = std::hash<std::string_view>{}(key);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }

  std::size_t mask() const { return slots_.size() - 1; }

  // Doubles the table (the load stays at most 1/2), placing entries by their stored hash.
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    for (const Slot& slot : old) {
      if (slot.position == kEmpty) continue;
      std::size_t i = slot.hash & mask();
      while (slots_[i].position != kEmpty) i = (i + 1) & mask();
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;  // a power of two long
  std::size_t size_ = 0;
};

}  // namespace benchreport

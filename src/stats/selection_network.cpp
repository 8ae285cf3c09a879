#include "benchreport/stats/selection_network.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace benchreport {
namespace {

// Batcher's odd–even merge sort on the next power of two >= n. Inputs past n
// act as +inf: every comparator (i, j) has i < j, so one touching j >= n is a
// no-op and is dropped.
std::vector<Comparator> batcher_network(std::size_t n) {
  const std::size_t width = std::bit_ceil(n);
  std::vector<Comparator> network;
  for (std::size_t p = 1; p < width; p <<= 1) {
    for (std::size_t k = p; k >= 1; k >>= 1) {
      for (std::size_t j = k % p; j + k < width; j += 2 * k) {
        for (std::size_t i = 0; i < std::min(k, width - j - k); ++i) {
          const std::size_t a = i + j, b = i + j + k;
          if (a / (2 * p) == b / (2 * p) && b < n) {
            network.push_back({static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b)});
          }
        }
      }
    }
  }
  return network;
}

}  // namespace

std::vector<Comparator> sorting_network(std::size_t n) { return batcher_network(n); }

std::vector<Comparator> selection_network(std::size_t n, std::span<const std::size_t> ranks) {
  const std::vector<Comparator> full = batcher_network(n);
  // Walk backwards keeping only comparators whose outputs some needed wire reads.
  std::vector<bool> needed(n, false);
  for (std::size_t r : ranks) needed[r] = true;
  std::vector<Comparator> kept;
  for (auto it = full.rbegin(); it != full.rend(); ++it) {
    if (needed[it->lo] || needed[it->hi]) {
      kept.push_back(*it);
      needed[it->lo] = needed[it->hi] = true;
    }
  }
  std::reverse(kept.begin(), kept.end());
  return kept;
}

BENCHREPORT_SIMD_CLONES
void apply_network(std::span<const Comparator> network, double* x) {
  for (const Comparator& c : network) {
    // Both row addresses once, before any store (which could alias `network`).
    double* const row_lo = x + std::size_t{c.lo} * kNetworkLanes;
    double* const row_hi = x + std::size_t{c.hi} * kNetworkLanes;
    for (std::size_t h = 0; h < kLaneVectors; ++h) {
      double* a = row_lo + 4 * h;
      double* b = row_hi + 4 * h;
      LaneVector u, v;
      std::memcpy(&u, a, sizeof u);
      std::memcpy(&v, b, sizeof v);
      const LaneVector lower = v < u ? v : u;  // std::min(u, v), lane by lane: packed min
      const LaneVector upper = u < v ? v : u;  // std::max(u, v)
      std::memcpy(a, &lower, sizeof lower);
      std::memcpy(b, &upper, sizeof upper);
    }
  }
}

}  // namespace benchreport

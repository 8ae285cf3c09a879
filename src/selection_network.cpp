#include "benchreport/selection_network.hpp"

#include <algorithm>
#include <bit>

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

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
// Wider vectors where the CPU has them; the loader picks the clone at run time.
__attribute__((target_clones("avx2", "default")))
#endif
void apply_network(std::span<const Comparator> network, double* x) {
  for (const Comparator& c : network) {
    // lo != hi, so the rows never overlap: telling the compiler lets it use
    // packed min/max instead of (mispredicted) branches.
    double* __restrict a = x + c.lo * kNetworkLanes;
    double* __restrict b = x + c.hi * kNetworkLanes;
    for (std::size_t l = 0; l < kNetworkLanes; ++l) {
      const double u = a[l], v = b[l];
      a[l] = std::min(u, v);
      b[l] = std::max(u, v);
    }
  }
}

}  // namespace benchreport

#pragma once
// Data-independent selection for small sets: Batcher's odd–even merge network,
// pruned to the comparators that can reach the wanted ranks, applied to
// several sets at once (lanes) so min/max vectorise and nothing branches.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace benchreport {

struct Comparator {
  std::uint16_t lo;  // after the comparator: x[lo] = min, x[hi] = max
  std::uint16_t hi;
};

inline constexpr std::size_t kNetworkMaxN = 64;  // largest set size served by networks
inline constexpr std::size_t kNetworkLanes = 8;  // sets processed together

// Comparators (in order) after which x[r] holds the r-th smallest of n inputs for
// every r in `ranks` (0-based, each < n <= kNetworkMaxN). Other positions hold
// some permutation of the rest: a selection, not a sort, where the ranks allow.
std::vector<Comparator> selection_network(std::size_t n, std::span<const std::size_t> ranks);

// Runs the network on kNetworkLanes interleaved sets: element w of lane l is
// x[w * kNetworkLanes + l]. Values must not be NaN.
void apply_network(std::span<const Comparator> network, double* x);

}  // namespace benchreport

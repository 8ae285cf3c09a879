#pragma once
// Data-independent selection for small sets: Batcher's odd–even merge network,
// pruned to the comparators that can reach the wanted ranks, applied to
// several sets at once (lanes) so min/max vectorise and nothing branches.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

// Hot lane kernels get an AVX2 clone next to the baseline x86-64 one; the
// loader picks one at run time. AVX2 without FMA: no contraction of a * b + c,
// so every clone rounds exactly as the scalar per-set code does. The loader's
// choice is an ifunc, which only ELF has: MinGW (PE) builds get the baseline.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && defined(__ELF__)
#define BENCHREPORT_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define BENCHREPORT_SIMD_CLONES
#endif

namespace benchreport {

struct Comparator {
  std::uint16_t lo;  // after the comparator: x[lo] = min, x[hi] = max
  std::uint16_t hi;
};

inline constexpr std::size_t kNetworkMaxN = 64;  // largest set size served by networks
inline constexpr std::size_t kNetworkLanes = 8;  // sets processed together

// Four lanes as one GCC vector: operators act on all four at once. AVX2 holds
// it in one register (packed min/max for a < b ? a : b); the baseline clone
// still computes it correctly, element by element. A row of kNetworkLanes is
// kLaneVectors of them. Kept to local variables (moved in and out with
// memcpy): as a parameter or return type its ABI would depend on the ISA.
typedef double LaneVector __attribute__((vector_size(4 * sizeof(double))));
inline constexpr std::size_t kLaneVectors = kNetworkLanes / 4;

// Comparators (in order) after which x[r] holds the r-th smallest of n inputs for
// every r in `ranks` (0-based, each < n <= kNetworkMaxN). Other positions hold
// some permutation of the rest: a selection, not a sort, where the ranks allow.
std::vector<Comparator> selection_network(std::size_t n, std::span<const std::size_t> ranks);

// Comparators that sort n inputs (n <= kNetworkMaxN): Batcher's odd–even merge sort.
std::vector<Comparator> sorting_network(std::size_t n);

// Runs the network on kNetworkLanes interleaved sets: element w of lane l is
// x[w * kNetworkLanes + l]. Values must not be NaN.
void apply_network(std::span<const Comparator> network, double* x);

}  // namespace benchreport

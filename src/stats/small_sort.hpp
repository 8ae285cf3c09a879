#pragma once
// Small equal-sized sets handled kNetworkLanes at a time ("lanes"): stored
// interleaved (element w of lane l at w * kNetworkLanes + l), so one step of a
// network or a scan is one vector operation across all the sets.
#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "benchreport/stats/selection_network.hpp"

namespace benchreport {

using LaneValues = std::array<double, kNetworkLanes>;

// Working memory for interleaved rows, starting on a 64-byte boundary so that
// a row of kNetworkLanes doubles is exactly one cache line (vector loads and
// stores never split a line).
class LaneBuffer {
 public:
  void resize(std::size_t n_values);
  double* data() { return data_; }
  const double* data() const { return data_; }

 private:
  std::vector<double> storage_;
  double* data_ = nullptr;
};

// Interleaves kNetworkLanes sets of equal size n into lanes (n * kNetworkLanes values).
void interleave(std::span<const std::span<const double>> sets, double* lanes);

// Whether all n interleaved rows hold finite values (no NaN, no ±inf).
bool all_finite_lanes(const double* lanes, std::size_t n);

// One pass over n >= 1 interleaved rows in measurement order, per lane: min,
// max and the sum. The arithmetic is summarize()'s own, so grouped results stay
// bit-identical: min/max fold left to right; the sum uses four accumulators
// (element w into w % 4, the last n % 4 elements into 0) added as
// (a0 + a1) + (a2 + a3).
struct LaneScan {
  LaneValues min, max, sum;
};
LaneScan scan_lanes(const double* lanes, std::size_t n);

// Per lane sum of (x - center)^2, with the same four-accumulator order.
LaneValues squared_deviations_lanes(const double* lanes, std::size_t n, const LaneValues& center);

// Per lane median of n interleaved rows sorted within each lane.
LaneValues median_of_sorted_lanes(const double* sorted, std::size_t n);

// Per lane unscaled MAD, median(|x - median|), of n >= 1 interleaved rows
// sorted within each lane, without selecting again: the j + 1 values nearest
// the median are consecutive in sorted order, and |x - median| is largest at
// a window's ends, so the deviation of rank j is
//   min over i of max(|x(i) - median|, |x(i + j) - median|).
// Every candidate is one of the deviations, so the result equals mad_inplace.
// `deviations` is scratch for n * kNetworkLanes values.
LaneValues mad_of_sorted_lanes(const double* sorted, std::size_t n, const LaneValues& median, double* deviations);

}  // namespace benchreport

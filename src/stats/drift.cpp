#include "benchreport/stats/drift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/data/sample_check.hpp"

namespace benchreport {
namespace {

double median_of_copy(std::span<const double> part, std::vector<double>& scratch) {
  scratch.assign(part.begin(), part.end());
  return median_inplace(scratch);
}

// Bottom-up merge sort of v (using `buffer`, same size) that counts the pairs
// i < j with v[i] > v[j] (strict inversions; ties are not inversions).
std::uint64_t sort_counting_inversions(std::span<double> v, std::span<double> buffer) {
  const std::size_t n = v.size();
  double* src = v.data();
  double* dst = buffer.data();
  std::uint64_t inversions = 0;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, n);
      const std::size_t hi = std::min(lo + 2 * width, n);
      std::size_t i = lo, j = mid, out = lo;
      while (i < mid && j < hi) {
        if (src[j] < src[i]) {
          inversions += mid - i;  // src[j] jumps ahead of every remaining left value
          dst[out++] = src[j++];
        } else {
          dst[out++] = src[i++];
        }
      }
      out = static_cast<std::size_t>(std::copy(src + i, src + mid, dst + out) - dst);
      std::copy(src + j, src + hi, dst + out);
    }
    std::swap(src, dst);
  }
  if (src != v.data()) std::copy(src, src + n, v.data());
  return inversions;
}

struct TieSums {
  std::uint64_t pairs = 0;     // sum t(t-1)/2: tied pairs
  std::uint64_t variance = 0;  // sum t(t-1)(2t+5): Mann–Kendall variance correction
};

TieSums tie_sums(std::span<const double> sorted) {
  TieSums sums;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i + 1;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    const std::uint64_t t = j - i;
    sums.pairs += t * (t - 1) / 2;
    sums.variance += t * (t - 1) * (2 * t + 5);
    i = j;
  }
  return sums;
}

}  // namespace

std::optional<DriftWindows> drift_windows(std::size_t n, std::size_t k) {
  if (n < 2 * k) return std::nullopt;
  return DriftWindows{0, k, n - k, n};
}

void drift_change(std::span<const double> ordered, std::size_t k, std::vector<double>& scratch, Drift& out) {
  const std::size_t n = ordered.size();
  if (k == 0) throw InputError("drift k is 0: expected at least 1 sample at each end");
  const std::optional<DriftWindows> windows = drift_windows(n, k);
  if (!windows) {
    out.change_availability = Availability::unavailable(
        fmt::format("n = {} < 2k = {}: too few samples to compare the first and last {}", n, 2 * k, k));
    return;
  }
  const double first = median_of_copy(ordered.subspan(windows->first_begin, k), scratch);
  const double last = median_of_copy(ordered.subspan(windows->last_begin, k), scratch);
  if (!(first > 0.0)) {
    out.change_availability = Availability::unavailable(
        fmt::format("median of the first {} samples is {}: a relative change needs a positive baseline", k, first));
    return;
  }
  out.change = last / first - 1.0;
  out.change_availability = Availability::available();
}

void theil_sen(std::span<const double> ordered, double median, std::size_t max_n, std::vector<double>& scratch,
               Drift& out) {
  const std::size_t n = ordered.size();
  if (n < 2) {
    out.theil_sen_availability = Availability::unavailable("n = 1: a slope needs at least 2 samples");
    return;
  }
  if (n > max_n) {
    out.theil_sen_availability = Availability::unavailable(
        fmt::format("n = {} > {}: exact Theil–Sen would hold {} pairwise slopes", n, max_n, n * (n - 1) / 2));
    return;
  }
  scratch.resize(n * (n - 1) / 2);
  std::size_t next = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      scratch[next++] = (ordered[j] - ordered[i]) / static_cast<double>(j - i);
    }
  }
  out.theil_sen_slope = median_inplace(scratch);
  out.theil_sen_relative = out.theil_sen_slope / median;
  out.theil_sen_availability = Availability::available();
}

void mann_kendall(std::span<const double> ordered, std::vector<double>& scratch, Drift& out) {
  const std::size_t n = ordered.size();
  if (n < 3) {
    out.mann_kendall_availability =
        Availability::unavailable(fmt::format("n = {}: a trend test needs at least 3 samples", n));
    return;
  }
  scratch.resize(2 * n);
  const std::span<double> values(scratch.data(), n);
  std::copy(ordered.begin(), ordered.end(), values.begin());
  const std::uint64_t discordant = sort_counting_inversions(values, std::span<double>(scratch.data() + n, n));
  const TieSums ties = tie_sums(values);
  const std::uint64_t pairs = static_cast<std::uint64_t>(n) * (n - 1) / 2;
  if (ties.pairs == pairs) {
    out.mann_kendall_availability = Availability::unavailable("all samples are equal: no trend can be tested");
    return;
  }
  // Pairs i < j are concordant when x_i < x_j, discordant when x_i > x_j.
  const auto s =
      static_cast<double>(static_cast<std::int64_t>(pairs - ties.pairs) - 2 * static_cast<std::int64_t>(discordant));
  const double nd = static_cast<double>(n);
  const double variance = (nd * (nd - 1.0) * (2.0 * nd + 5.0) - static_cast<double>(ties.variance)) / 18.0;
  out.mann_kendall_s = s;
  out.mann_kendall_z = s / std::sqrt(variance);
  out.mann_kendall_p = std::erfc(std::fabs(out.mann_kendall_z) / std::sqrt(2.0));
  out.kendall_tau = s / std::sqrt(static_cast<double>(pairs - ties.pairs)) / std::sqrt(static_cast<double>(pairs));
  out.mann_kendall_availability = Availability::available();
}

Drift drift(std::span<const double> ordered, const DriftOptions& options) {
  std::vector<double> values;
  load_finite(ordered, NanPolicy::raise, SetLabel{}, values);
  std::vector<double> scratch;
  Drift out;
  drift_change(values, options.k, scratch, out);
  theil_sen(values, median_of_copy(values, scratch), options.theil_sen_max_n, scratch, out);
  mann_kendall(values, scratch, out);
  return out;
}

}  // namespace benchreport

// Steps a person would mark: robust noise scale, Hampel clip, PELT candidates (in
// overlapping blocks on long series), a local level + slope + step test with greedy
// confirmation and pruning, then changes of spread alone within the final segments.
#include "benchreport/stats/steps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "benchreport/stats/order_stats.hpp"
#include "benchreport/stats/pelt.hpp"

namespace benchreport {
namespace {

constexpr std::size_t kHampelHalf = 3;  // the running median spans 7 points
// PELT keeps every start on a stretch without change (quadratic); candidates only need to lie
// near the steps, so a longer series is partitioned in blocks of kBlock points every kBlock / 2
// (every point at least kBlock / 4 inside some block), linear in n.
constexpr std::size_t kBlock = 512;
// A spread estimated from fewer squared differences is too rough to compare (log sd error ~0.2).
constexpr std::size_t kSpreadMinSide = 10;

void check(std::span<const double> x, const StepOptions& o) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) throw InputError(fmt::format("steps: value {} at position {} is not finite", x[i], i));
  }
  if (o.min_segment < 1 || o.window < o.min_segment || !(o.clip > 0) || !(o.candidate_penalty >= 0) ||
      !(o.threshold >= 0) || !(o.min_effect >= 0) || !(o.slope_penalty >= 0) || !(o.plain_noise >= 0) ||
      !(o.spread_threshold >= 0) || !(o.min_spread_ratio >= 1)) {
    throw InputError(
        "steps: need min_segment >= 1, window >= min_segment, clip > 0 and non-negative "
        "candidate_penalty, threshold, min_effect, slope_penalty and plain_noise, and min_spread_ratio >= 1");
  }
}

// x - median(x), times 2^-e with 2^e >= max |x|: values in [-2, 2], squares never overflow.
std::vector<double> scaled(std::span<const double> x, int& exponent) {
  double largest = 0;
  for (double v : x) largest = std::max(largest, std::abs(v));
  std::frexp(largest, &exponent);
  const double centre = std::ldexp(median(x), -exponent);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = std::ldexp(x[i], -exponent) - centre;
  return y;
}

std::vector<double> hampel_clip(std::span<const double> y, double limit) {
  std::vector<double> out(y.begin(), y.end()), window;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const std::size_t a = i >= kHampelHalf ? i - kHampelHalf : 0, b = std::min(y.size(), i + kHampelHalf + 1);
    window.assign(y.begin() + static_cast<std::ptrdiff_t>(a), y.begin() + static_cast<std::ptrdiff_t>(b));
    const double m = median_inplace(window);
    out[i] = std::clamp(y[i], m - limit, m + limit);
  }
  return out;
}

// Residual sums of squares of y[a, b) under four models, and the step of the two with one.
struct StepFit {
  double constant = 0;   // level
  double slope = 0;      // level + slope
  double step_only = 0;  // level + step
  double both = 0;       // level + slope + step
  double step_of_step_only = 0, step_of_both = 0;
};

// Least squares on y[a, b) of level (+ slope * (i - tau)) (+ step * [i >= tau]), closed forms from centred sums.
StepFit fit_step(std::span<const double> y, std::size_t a, std::size_t tau, std::size_t b) {
  const double m = static_cast<double>(b - a);
  double tbar = 0, sbar = static_cast<double>(b - tau) / m, ybar = 0;
  for (std::size_t i = a; i < b; ++i) {
    tbar += static_cast<double>(i) - static_cast<double>(tau);
    ybar += y[i];
  }
  tbar /= m;
  ybar /= m;
  double stt = 0, sts = 0, sty = 0, ssy = 0, sss = 0, syy = 0;
  for (std::size_t i = a; i < b; ++i) {
    const double t = static_cast<double>(i) - static_cast<double>(tau) - tbar;
    const double s = (i >= tau ? 1.0 : 0.0) - sbar;
    const double v = y[i] - ybar;
    stt += t * t;
    sts += t * s;
    sty += t * v;
    ssy += s * v;
    sss += s * s;
    syy += v * v;
  }
  StepFit f;
  f.constant = syy;
  f.slope = std::max(0.0, syy - sty * sty / stt);
  f.step_only = std::max(0.0, syy - ssy * ssy / sss);
  f.step_of_step_only = ssy / sss;
  const double slope_of_step = sts / stt;
  const double sy = ssy - slope_of_step * sty, ss = sss - slope_of_step * sts;  // step orthogonal to level and slope
  f.both = ss > 0 ? std::max(0.0, f.slope - sy * sy / ss) : f.slope;
  f.step_of_both = ss > 0 ? sy / ss : 0.0;
  return f;
}

// Least squares of y[a, b) on k <= 4 regressors row(i, r): residual sum of squares, and the
// coefficients in coef. Normal equations, solved by Gaussian elimination with partial pivoting.
template <class Row>
double least_squares(std::span<const double> y, std::size_t a, std::size_t b, std::size_t k, Row row,
                     std::array<double, 4>& coef) {
  std::array<std::array<double, 5>, 4> g{};  // [X'X | X'y]
  double yy = 0;
  std::array<double, 4> r{};
  for (std::size_t i = a; i < b; ++i) {
    row(i, r);
    for (std::size_t p = 0; p < k; ++p) {
      for (std::size_t q = 0; q < k; ++q) g[p][q] += r[p] * r[q];
      g[p][k] += r[p] * y[i];
    }
    yy += y[i] * y[i];
  }
  const std::array<std::array<double, 5>, 4> normal = g;
  for (std::size_t c = 0; c < k; ++c) {
    std::size_t pivot = c;
    for (std::size_t p = c + 1; p < k; ++p) {
      if (std::abs(g[p][c]) > std::abs(g[pivot][c])) pivot = p;
    }
    std::swap(g[c], g[pivot]);
    if (g[c][c] == 0) return std::numeric_limits<double>::quiet_NaN();
    for (std::size_t p = c + 1; p < k; ++p) {
      const double f = g[p][c] / g[c][c];
      for (std::size_t q = c; q <= k; ++q) g[p][q] -= f * g[c][q];
    }
  }
  for (std::size_t c = k; c-- > 0;) {
    double v = g[c][k];
    for (std::size_t q = c + 1; q < k; ++q) v -= g[c][q] * coef[q];
    coef[c] = v / g[c][c];
  }
  double explained = 0;
  for (std::size_t p = 0; p < k; ++p) explained += coef[p] * normal[p][k];
  return std::max(0.0, yy - explained);
}

struct Test {
  bool eligible = false;  // min_segment points on either side inside the window
  double z2 = 0;
  double step = 0;
  bool passes = false;
};

class Tester {
 public:
  Tester(std::span<const double> y, double sigma, const StepOptions& o)  // NOLINT: o outlives the tester
      : y_(y),
        var_(sigma * sigma),
        o_(o),
        log_n_(std::log(static_cast<double>(y.size()))),
        floor_(o.threshold * log_n_) {}

  // The test of tau between the change points `left` and `right` (0 and n at the ends).
  Test operator()(std::size_t left, std::size_t tau, std::size_t right) const {
    Test t;
    const std::size_t a = std::max(left, tau >= o_.window ? tau - o_.window : 0);
    const std::size_t b = std::min(right, tau + o_.window);
    if (tau - a < o_.min_segment || b - tau < o_.min_segment || b - a < 4) return t;
    const StepFit f = fit_step(y_, a, tau, b);
    const double residual = f.both / static_cast<double>(b - a - 3);
    const double v = std::max(var_, residual);
    t.eligible = true;
    if (residual > o_.plain_noise * var_) {
      // Structure the step and slope leave (a season, bursts): the trend null alone.
      t.z2 = (f.slope - f.both) / v;
      t.step = f.step_of_both;
    } else {
      // Penalised choice: the best null (level, or level + slope at kappa) against the best
      // alternative (level + step, or level + slope + step at kappa).
      const double kappa = o_.slope_penalty * log_n_;
      const bool plain_step = f.step_only / v <= f.both / v + kappa;
      t.z2 = std::min(f.constant / v, f.slope / v + kappa) - (plain_step ? f.step_only / v : f.both / v + kappa);
      t.step = plain_step ? f.step_of_step_only : f.step_of_both;
    }
    t.passes = t.z2 >= floor_ && std::abs(t.step) >= o_.min_effect * std::sqrt(v);
    return t;
  }

  // Two adjacent candidates tau1 < tau2 tested together (a regression soon fixed, which neither
  // shows alone): in the window from tau1 - window to tau2 + window (cut at the change points
  // left and right), level + slope + both steps; each step's fall in the residual sum of squares
  // when it is left out, over v, must pass as a single test does. The smaller z^2, or -1.
  double pair(std::size_t left, std::size_t tau1, std::size_t tau2, std::size_t right) const {
    const std::size_t a = std::max(left, tau1 >= o_.window ? tau1 - o_.window : 0);
    const std::size_t b = std::min(right, tau2 + o_.window);
    if (tau2 - tau1 > o_.window || tau1 - a < o_.min_segment || tau2 - tau1 < o_.min_segment ||
        b - tau2 < o_.min_segment) {
      return -1;
    }
    const double origin = static_cast<double>(tau1);
    auto regressors = [&](bool first, bool second) {
      return [=](std::size_t i, std::array<double, 4>& r) {
        std::size_t k = 0;
        r[k++] = 1.0;
        r[k++] = static_cast<double>(i) - origin;
        if (first) r[k++] = i >= tau1 ? 1.0 : 0.0;
        if (second) r[k++] = i >= tau2 ? 1.0 : 0.0;
      };
    };
    std::array<double, 4> both{}, scratch{};
    const double full = least_squares(y_, a, b, 4, regressors(true, true), both);
    const double without_first = least_squares(y_, a, b, 3, regressors(false, true), scratch);
    const double without_second = least_squares(y_, a, b, 3, regressors(true, false), scratch);
    if (!std::isfinite(full + without_first + without_second)) return -1;
    const double v = std::max(var_, full / static_cast<double>(b - a - 4));
    const double z1 = (without_first - full) / v, z2 = (without_second - full) / v;
    const double effect = o_.min_effect * std::sqrt(v);
    if (z1 < floor_ || z2 < floor_ || std::abs(both[2]) < effect || std::abs(both[3]) < effect) return -1;
    return std::min(z1, z2);
  }

 private:
  std::span<const double> y_;
  double var_;
  const StepOptions& o_;
  double log_n_;
  double floor_;
};

std::size_t left_of(const std::vector<std::size_t>& kept, std::size_t tau) {
  auto it = std::lower_bound(kept.begin(), kept.end(), tau);
  return it == kept.begin() ? 0 : *std::prev(it);
}

std::size_t right_of(const std::vector<std::size_t>& kept, std::size_t tau, std::size_t n) {
  auto it = std::upper_bound(kept.begin(), kept.end(), tau);
  return it == kept.end() ? n : *it;
}

void keep(std::vector<std::size_t>& kept, std::vector<std::size_t>& pending, std::size_t k) {
  kept.insert(std::upper_bound(kept.begin(), kept.end(), pending[k]), pending[k]);
  pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(k));
}

// The pending candidate k (between the change points kept so far) whose single test passes
// with the largest z^2, or pending.size().
std::size_t best_single(const std::vector<std::size_t>& pending, const std::vector<std::size_t>& kept,
                        const Tester& test, std::size_t n) {
  std::size_t pick = pending.size();
  double best = -1;
  for (std::size_t k = 0; k < pending.size(); ++k) {
    const Test t = test(left_of(kept, pending[k]), pending[k], right_of(kept, pending[k], n));
    if (t.passes && t.z2 > best) {
      best = t.z2;
      pick = k;
    }
  }
  return pick;
}

// The first of two adjacent pending candidates (no kept change point between them) whose pair
// test passes with the largest smaller z^2, or pending.size().
std::size_t best_pair(const std::vector<std::size_t>& pending, const std::vector<std::size_t>& kept, const Tester& test,
                      std::size_t n) {
  std::size_t pick = pending.size();
  double best = -1;
  for (std::size_t k = 0; k + 1 < pending.size(); ++k) {
    const std::size_t right = right_of(kept, pending[k], n);
    if (pending[k + 1] >= right) continue;
    const double z2 = test.pair(left_of(kept, pending[k]), pending[k], pending[k + 1], right);
    if (z2 > best) {
      best = z2;
      pick = k;
    }
  }
  return pick;
}

// Greedy: the passing candidate with the largest z^2 (between the change points kept so far)
// is kept; when none passes alone, the best passing pair; until neither.
std::vector<std::size_t> confirm(std::vector<std::size_t> pending, const Tester& test, std::size_t n) {
  std::vector<std::size_t> kept;
  for (;;) {
    const std::size_t single = best_single(pending, kept, test, n);
    if (single < pending.size()) {
      keep(kept, pending, single);
      continue;
    }
    const std::size_t pair = best_pair(pending, kept, test, n);
    if (pair == pending.size()) return kept;
    keep(kept, pending, pair + 1);
    keep(kept, pending, pair);
  }
}

// Drops the weakest change point failing its test between its final neighbours, until all pass.
void prune(std::vector<std::size_t>& kept, const Tester& test, std::size_t n) {
  for (;;) {
    std::size_t weakest = kept.size();
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const Test t = test(k == 0 ? 0 : kept[k - 1], kept[k], k + 1 == kept.size() ? n : kept[k + 1]);
      if (!t.passes && t.z2 < least) {
        least = t.z2;
        weakest = k;
      }
    }
    if (weakest == kept.size()) return;
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(weakest));
  }
}

// Optimal partitioning of y (stats/pelt.hpp), exactly when n <= kBlock, else the union of the
// partitions of overlapping blocks.
std::vector<std::size_t> candidates(std::span<const double> y, double penalty, std::size_t min_segment) {
  if (y.size() <= kBlock) return pelt_mean_changes(y, penalty, min_segment);
  std::vector<std::size_t> out;
  for (std::size_t a = 0;; a += kBlock / 2) {
    const std::size_t b = std::min(y.size(), a + kBlock);
    for (std::size_t c : pelt_mean_changes(y.subspan(a, b - a), penalty, min_segment)) out.push_back(a + c);
    if (b == y.size()) break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The best change of spread of y[a, b): the Gaussian log-likelihood ratio of two variances
// against one, on the squared first differences u_j = (y_{j+1} - y_j)^2 (a trend shifts them
// by a constant squared, negligible against the noise), lr = m ln mean(u) - k ln mean(u_left) -
// (m - k) ln mean(u_right), maximised over splits with kSpreadMinSide differences either side.
struct SpreadSplit {
  std::size_t at = 0;  // first point after the change (0: none)
  double lr = 0;
  double ratio = 1;  // sd after / sd before
};

SpreadSplit best_spread_split(std::span<const double> y, std::size_t a, std::size_t b) {
  SpreadSplit best;
  if (b - a < 2 * kSpreadMinSide + 1) return best;
  const std::size_t m = b - a - 1;
  std::vector<double> prefix(m + 1, 0.0);
  for (std::size_t j = 0; j < m; ++j) prefix[j + 1] = prefix[j] + (y[a + j + 1] - y[a + j]) * (y[a + j + 1] - y[a + j]);
  if (!(prefix[m] > 0)) return best;
  const double whole = static_cast<double>(m) * std::log(prefix[m] / static_cast<double>(m));
  for (std::size_t k = kSpreadMinSide; k + kSpreadMinSide <= m; ++k) {
    const double left = prefix[k] / static_cast<double>(k);
    const double right = (prefix[m] - prefix[k]) / static_cast<double>(m - k);
    if (!(left > 0) || !(right > 0)) continue;
    const double lr = whole - static_cast<double>(k) * std::log(left) - static_cast<double>(m - k) * std::log(right);
    if (lr > best.lr) best = {a + k, lr, std::sqrt(right / left)};
  }
  return best;
}

// Changes of spread alone in y[a, b) (a segment between change points of the mean), by binary
// segmentation: a split is kept when lr >= threshold * ln n and the sd ratio (or its inverse)
// reaches min_spread_ratio.
void spread_changes(std::span<const double> y, std::size_t a, std::size_t b, const StepOptions& o,
                    std::vector<SpreadSplit>& out) {
  const SpreadSplit s = best_spread_split(y, a, b);
  const double log_n = std::log(static_cast<double>(y.size()));
  if (s.at == 0 || s.lr < o.spread_threshold * log_n || std::max(s.ratio, 1 / s.ratio) < o.min_spread_ratio) return;
  spread_changes(y, a, s.at, o, out);
  out.push_back(s);
  spread_changes(y, s.at, b, o, out);
}

}  // namespace

double noise_scale(std::span<const double> x) {
  if (x.size() < 2) return 0;
  std::vector<double> d(x.size() - 1);
  for (std::size_t i = 0; i + 1 < x.size(); ++i) d[i] = x[i + 1] - x[i];
  const double centre = median(d);
  std::vector<double> work = d;
  const double mad = mad_inplace(work, centre);
  if (mad > 0) return 1.482602218505602 * mad / std::sqrt(2.0);
  double mean_abs = 0;
  for (double v : d) mean_abs += std::abs(v - centre);
  mean_abs /= static_cast<double>(d.size());
  return std::sqrt(std::acos(-1.0) / 2) * mean_abs / std::sqrt(2.0);
}

std::vector<StepChange> detect_steps(std::span<const double> x, const StepOptions& options) {
  check(x, options);
  const std::size_t n = x.size();
  if (n < 2 * options.min_segment || n < 4) return {};
  int exponent = 0;
  const std::vector<double> y = scaled(x, exponent);
  const double sigma = noise_scale(y);
  if (!(sigma > 0)) return {};
  const std::vector<double> clipped = hampel_clip(y, options.clip * sigma);
  const double log_n = std::log(static_cast<double>(n));
  const Tester test(clipped, sigma, options);
  std::vector<std::size_t> kept =
      confirm(candidates(clipped, options.candidate_penalty * sigma * sigma * log_n, options.min_segment), test, n);
  prune(kept, test, n);
  std::vector<StepChange> out;
  std::vector<SpreadSplit> spreads;
  for (std::size_t k = 0; k <= kept.size(); ++k) {
    const std::size_t a = k == 0 ? 0 : kept[k - 1], b = k == kept.size() ? n : kept[k];
    if (options.spreads) spread_changes(clipped, a, b, options, spreads);
    if (k == kept.size()) break;
    const Test t = test(a, kept[k], k + 1 == kept.size() ? n : kept[k + 1]);
    StepChange c;
    c.index = kept[k];
    c.step = std::ldexp(t.step, exponent);
    c.z = std::copysign(std::sqrt(t.z2), t.step);
    out.push_back(c);
  }
  for (const SpreadSplit& s : spreads) {
    StepChange c;
    c.index = s.at;
    c.z = std::copysign(std::sqrt(s.lr), std::log(s.ratio));
    c.spread_ratio = s.ratio;
    out.push_back(c);
  }
  for (StepChange& c : out)
    c.p_value = std::min(1.0, std::erfc(std::abs(c.z) / std::sqrt(2.0)) * static_cast<double>(n - 1));
  std::sort(out.begin(), out.end(), [](const StepChange& l, const StepChange& r) { return l.index < r.index; });
  return out;
}

}  // namespace benchreport

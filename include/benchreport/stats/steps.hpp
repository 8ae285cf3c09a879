#pragma once
// Steps a person would mark in one ordered series, and not the slopes or
// seasons in between (docs/statistics-history.md, "Steps"):
//
// 1. scale: x - median(x), times a power of two bringing max |x| near 1 (exact,
//    and no overflow of squares for values near 1e±300);
// 2. noise sigma = 1.4826 MAD(first differences) / sqrt(2): a trend shifts every
//    difference by the same amount and the MAD ignores it; a step moves one difference;
// 3. Hampel clip: a value further than clip * sigma from the median of the 7 points
//    around it is pulled to that distance (single-point spikes lose their leverage);
// 4. candidates: optimal partitioning of the clipped series into constant means
//    (stats/pelt.hpp), penalty candidate_penalty * sigma^2 * ln n;
// 5. a candidate becomes a change point by a local test that allows a trend under the
//    null: in the window of up to `window` points either side (cut at the change points
//    kept so far), with R the residual sums of squares of least squares fits and
//    v = max(sigma^2, R(level + slope + step) / (m - 3)): z^2 = min(R(level), R(level +
//    slope) + k v) - min(R(level + step), R(level + slope + step) + k v), over v, with
//    k = slope_penalty * ln n (only R(level + slope) - R(level + slope + step) when the
//    residual variance exceeds plain_noise * sigma^2: a season); z^2 must reach
//    threshold * ln n and |step| min_effect * sqrt(v). Candidates are taken greedily, largest z^2 first; when none
//    passes alone, two adjacent candidates may pass together (level + slope + two steps,
//    each step's own fall in the squared error tested alike): a regression fixed soon after;
// 6. every change point is tested again between its final neighbours, and the weakest
//    failing one is dropped until all pass;
// 7. within each final segment, a change of spread alone: the Gaussian likelihood ratio of
//    two variances against one on the squared first differences, by binary segmentation,
//    kept when it reaches spread_threshold * ln n and the sd ratio min_spread_ratio.
#include <cstddef>
#include <span>
#include <vector>

namespace benchreport {

struct StepOptions {
  std::size_t min_segment = 3;     // fewest points on either side of a change point (>= 1)
  double candidate_penalty = 2.0;  // PELT penalty per change: this * sigma^2 * ln n
  double threshold = 3.0;          // a step needs z^2 >= this * ln n
  double min_effect = 1.0;         // and |step| >= this * the local noise sigma
  std::size_t window = 40;         // points either side of a change point its test looks at (>= min_segment)
  double clip = 3.0;               // Hampel clip, in noise sigmas (> 0)
  double slope_penalty = 1.0;      // a fitted slope costs this * ln n (in noise variances)
  // A window whose level + slope + step residual variance is at most this * sigma^2 is plain
  // noise around its fit, and its null may be a constant; above it (a season), only level + slope.
  double plain_noise = 1.3;
  bool spreads = true;            // also report changes of spread alone (step 7)
  double spread_threshold = 5.0;  // their likelihood ratio must reach this * ln n
  double min_spread_ratio = 1.5;  // and sd after / sd before (or its inverse) this
};

struct StepChange {
  std::size_t index = 0;  // first point after the step
  double step = 0;        // fitted jump (units of x), level + slope + step model in its window
  double z = 0;           // sqrt(z^2), signed as the step
  double p_value = 1;     // two-sided normal p of z times (n - 1) candidate positions, at most 1
  // A change of spread alone: sd after / sd before (step 0, z = sqrt(likelihood ratio) signed as
  // its log); 1 for a step of the level.
  double spread_ratio = 1;
};

// 1.4826 * median(|d - median(d)|) / sqrt(2) of the first differences d; when that
// is 0 (ties), sqrt(pi / 2) * mean(|d - median(d)|) / sqrt(2); 0 for fewer than 2 points.
double noise_scale(std::span<const double> x);

// Ascending. Throws InputError on a non-finite value or bad options.
std::vector<StepChange> detect_steps(std::span<const double> x, const StepOptions& options = {});

}  // namespace benchreport

// Hand-checked parts of the contamination flags (compare/contamination.hpp): the side-wide shift
// statistic on a matrix small enough to work by hand, the Bonferroni z, and when a flag explains a
// claim. The flags on real Google Benchmark files and the A/A simulation: tests/python/test_contamination.py.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "benchreport/compare/case.hpp"
#include "benchreport/compare/contamination.hpp"

using namespace benchreport;
using Rows = std::vector<std::vector<double>>;

TEST_CASE("side_shifts: the median leave-one-out offset against its standard error", "[contamination]") {
  // Three processes, five cases; process 3 sits 0.3 above the other two on every case, with
  // +-0.01 of per-case noise on process 1.
  const Rows rows{{0.00, 0.0, 0.3}, {0.01, 0.0, 0.3}, {-0.01, 0.0, 0.3}, {0.01, 0.0, 0.3}, {-0.01, 0.0, 0.3}};
  // Against the mean of the other two: d_1 = x1 - 0.15, d_2 = -0.15 - x1 / 2, d_3 = 0.3 - x1 / 2;
  // their medians over the cases are -0.15, -0.15 and 0.3 (the median x1 is 0).
  // Process 3 has the largest |z| and is flagged; two processes are left, too few to tell which is off.
  const auto all = side_shifts(rows, 0.0, 0.0);
  REQUIRE(all.size() == 1);
  REQUIRE(all[0].process == 2);
  REQUIRE(all[0].shift == Approx(0.30));
  // Residuals: x1 for process 1, -x1 / 2 for processes 2 and 3; 15 values with median 0 and
  // MAD = median |r| = 0.005; se = 1.2533 * 1.4826 * 0.005 / sqrt(5).
  const double se = 1.2533 * 1.4826 * 0.005 / std::sqrt(5.0);
  REQUIRE(all[0].z == Approx(0.30 / se));
  // The floor on the size of the shift, and the z bound.
  REQUIRE(side_shifts(rows, 0.0, 0.31).empty());
  REQUIRE(side_shifts(rows, 0.30 / se + 1, 0.0).empty());
  // Two processes: no attribution.
  REQUIRE(side_shifts(Rows{{0.0, 0.3}, {0.01, 0.3}}, 0.0, 0.0).empty());
  // Four processes, two of them off: the larger first, then the other against the remaining two.
  const Rows four{{0.0, 0.0, 0.2, -0.1}, {0.01, 0.0, 0.2, -0.1}, {-0.01, 0.0, 0.2, -0.1}, {0.0, 0.01, 0.2, -0.1}};
  const auto two = side_shifts(four, 5.0, 0.0);
  REQUIRE(two.size() == 2);
  REQUIRE(two[0].process == 2);
  REQUIRE(two[0].shift == Approx(0.2 - (-0.1) / 3).margin(0.004));
  REQUIRE(two[1].process == 3);
  REQUIRE(two[1].shift == Approx(-0.1).margin(0.006));
}

TEST_CASE("side_shift_z: Student t, Bonferroni over the processes of both sides", "[contamination]") {
  REQUIRE(side_shift_z(1, 11, 0.05) == Approx(2.2281389).epsilon(1e-7));  // scipy.stats.t.isf(0.025, 10)
  REQUIRE(side_shift_z(6, 40, 0.01) == Approx(3.3780364).epsilon(1e-7));  // scipy.stats.t.isf(0.01 / 12, 39)
}

namespace {

CaseComparison claimed(double estimate, double lower, double upper) {
  CaseComparison c;
  c.change_estimate = estimate;
  c.change_lower = lower;
  c.change_upper = upper;
  c.threshold = 0.05;
  c.alpha = 0.05;
  c.verdict = estimate > 0 ? Verdict::slower : Verdict::faster;
  return c;
}

std::vector<Contamination> flags(std::initializer_list<double> biases) {
  std::vector<Contamination> out;
  for (const double b : biases) {
    Contamination f;
    f.bias = b;
    out.push_back(f);
  }
  return out;
}

}  // namespace

TEST_CASE("contamination_explains: the verdict rule on the interval without the bias", "[contamination]") {
  const CaseComparison slower = claimed(0.40, 0.30, 0.50);
  const double inf = std::numeric_limits<double>::infinity();
  // Known sign, unknown size: explains a claim its way only.
  REQUIRE(contamination_explains(flags({inf}), slower));
  REQUIRE_FALSE(contamination_explains(flags({-inf}), slower));
  // +40 % with a +35 % bias: 1.40 / 1.35 = +3.7 %, within 5 %: explained.
  REQUIRE(contamination_explains(flags({std::log(1.35)}), slower));
  // A +20 % bias leaves +16.7 % on [+8.3 %, +25 %]: still slower, not explained.
  REQUIRE_FALSE(contamination_explains(flags({std::log(1.2)}), slower));
  // Biases add up; one pointing against the claim cannot explain it.
  REQUIRE(contamination_explains(flags({std::log(1.2), std::log(1.15)}), slower));
  REQUIRE_FALSE(contamination_explains(flags({-std::log(1.35)}), slower));
  // A note (bias 0) explains nothing; a faster claim is explained by a downward bias.
  REQUIRE_FALSE(contamination_explains(flags({0.0}), slower));
  REQUIRE(contamination_explains(flags({std::log(0.75)}), claimed(-0.25, -0.30, -0.20)));
}

#include "benchreport/compare/contamination.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

#include "benchreport/compare/case.hpp"
#include "benchreport/compare/dataset.hpp"
#include "benchreport/data/metadata.hpp"
#include "benchreport/stats/order_stats.hpp"

namespace benchreport {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMadToSd = 1.4826;         // MAD of a normal sample -> its sd
constexpr double kMedianSeFactor = 1.2533;  // se of a median = sqrt(pi/2) sd / sqrt(n)
constexpr std::string_view kRealTime = "real_time";
constexpr std::string_view kCpuTime = "cpu_time";

// Waiting: real_time of one side above its cpu_time by more than the other side's. Flags the
// real_time case (cpu_time and the rates Google Benchmark computes from it do not count the wait).
void flag_waiting(DatasetComparison& cmp, const ContaminationOptions& o) {
  std::map<std::vector<std::string>, std::pair<CaseResult*, const CaseResult*>> measurements;  // real, cpu
  for (auto& c : cmp.cases) {
    const std::string metric = case_metric(c, cmp.by);
    auto& slot = measurements[measurement_key(c, cmp.by)];
    if (metric == kRealTime) slot.first = &c;
    if (metric == kCpuTime) slot.second = &c;
  }
  for (auto& [key, pair] : measurements) {
    auto [real, cpu] = pair;
    if (real == nullptr || cpu == nullptr) continue;
    const double base = real->comparison.base_median / cpu->comparison.base_median;
    const double head = real->comparison.head_median / cpu->comparison.head_median;
    if (!(base > 0) || !(head > 0) || !std::isfinite(base) || !std::isfinite(head)) continue;
    const bool head_waited = head / base > 1 + o.wait_bound;
    if (!head_waited && !(base / head > 1 + o.wait_bound)) continue;
    Contamination flag;
    flag.kind = ContaminationKind::waited;
    flag.head = head_waited;
    flag.bias = std::log(head / base);
    flag.figure = head_waited ? head : base;
    flag.other = head_waited ? base : head;
    real->comparison.contamination.push_back(flag);
  }
}

// A run's load: load_avg[0] and num_cpus of its context, and their ratio (NaN when either is missing).
struct RunLoad {
  double per_cpu = NAN, load = NAN, cpus = NAN;
};

RunLoad run_load(const Json& run) {
  const Json* load = metadata::find_deep(run, "load_avg");
  const Json* cpus = metadata::find_deep(run, "num_cpus");
  if (load == nullptr || cpus == nullptr || !load->is_array() || load->as_array().empty()) return {};
  const auto number = [](const Json& v) {
    return v.is_double() ? v.as_double() : v.is_integer() ? static_cast<double>(v.as_integer()) : NAN;
  };
  RunLoad out{NAN, number(load->as_array().front()), number(*cpus)};
  if (out.cpus > 0) out.per_cpu = out.load / out.cpus;
  return out;
}

// The most loaded run of a side (largest load per CPU); each run's context is read once per comparison.
RunLoad side_load(const Dataset& ds, const std::vector<std::size_t>& sets, std::map<std::string, RunLoad>& runs) {
  RunLoad worst;
  for (const auto set : sets) {
    const std::string run(ds.run_id(set));
    auto it = runs.find(run);
    if (it == runs.end()) it = runs.emplace(run, run_load(metadata::run_metadata(ds, set))).first;
    const RunLoad& load = it->second;
    if (!std::isnan(load.per_cpu) && (std::isnan(worst.per_cpu) || load.per_cpu > worst.per_cpu)) worst = load;
  }
  return worst;
}

// Overload: the loaded side waited for a CPU by an unknown amount, which real_time counts (bias of
// known sign, unknown size); other metrics carry the flag as a note.
void flag_load(const Dataset& ds, DatasetComparison& cmp, const ContaminationOptions& o) {
  std::map<std::string, RunLoad> runs;
  for (auto& c : cmp.cases) {
    const bool wall_clock = case_metric(c, cmp.by) == kRealTime;
    for (const bool head : {false, true}) {
      const RunLoad load = side_load(ds, head ? c.head_sets : c.base_sets, runs);
      if (!(load.per_cpu > o.load_per_cpu)) continue;
      Contamination flag;
      flag.kind = ContaminationKind::loaded;
      flag.head = head;
      flag.bias = wall_clock ? (head ? kInf : -kInf) : 0.0;
      flag.figure = load.load;
      flag.other = load.cpus;
      c.comparison.contamination.push_back(flag);
    }
  }
}

// The label of process j of a case: its pair label, else its position from 1.
std::string process_name(const CaseResult& c, std::size_t j) {
  return j < c.pairs.size() && !c.pairs[j].empty() ? c.pairs[j] : std::to_string(j + 1);
}

// Side-wide shift, per metric (metrics of one measurement move together, so each is read apart):
// the cases where the side has the same process count, one row of log process medians each.
void flag_side_shifts(DatasetComparison& cmp, const ContaminationOptions& o) {
  const double min_shift = std::log1p(cmp.options.threshold) / 2;
  for (const bool head : {false, true}) {
    std::map<std::pair<std::string, std::size_t>, std::vector<CaseResult*>> groups;  // (metric, K) -> cases
    for (auto& c : cmp.cases) {
      const auto& medians = head ? c.comparison.head_process_medians : c.comparison.base_process_medians;
      if (medians.size() >= o.shift_min_processes && !is_exact(c.comparison.verdict_code))
        groups[{case_metric(c, cmp.by), medians.size()}].push_back(&c);
    }
    for (auto& [group, cases] : groups) {
      if (cases.size() < o.shift_min_cases) continue;
      std::vector<std::vector<double>> rows;
      for (const CaseResult* c : cases) {
        const auto& medians = head ? c->comparison.head_process_medians : c->comparison.base_process_medians;
        std::vector<double> row;
        for (const double m : medians) row.push_back(std::log(m));
        rows.push_back(std::move(row));
      }
      const std::size_t k = group.second;
      for (const ProcessShift& s :
           side_shifts(rows, side_shift_z(2 * k, cases.size(), o.shift_family_rate), min_shift)) {
        for (CaseResult* c : cases) {
          Contamination flag;
          flag.kind = ContaminationKind::side_shift;
          flag.head = head;
          // The side's location is the mean of its K log process medians: one process off by s moves it s / K.
          flag.bias = (head ? 1.0 : -1.0) * s.shift / static_cast<double>(k);
          flag.figure = std::expm1(s.shift);
          flag.other = s.z;
          flag.process = process_name(*c, s.process);
          flag.processes = k;
          flag.cases = cases.size();
          c->comparison.contamination.push_back(std::move(flag));
        }
      }
    }
  }
}

}  // namespace

double side_shift_z(std::size_t processes, std::size_t cases, double family_rate) {
  const boost::math::students_t_distribution<double> t(static_cast<double>(std::max<std::size_t>(cases, 2) - 1));
  return boost::math::quantile(t, 1 - family_rate / (2 * static_cast<double>(std::max<std::size_t>(processes, 1))));
}

namespace {

// One pass over the active processes: each one's median offset from the mean of the other active
// ones (leave-one-out, so a shifted process does not move its own reference) and its z.
std::vector<ProcessShift> offsets(std::span<const std::vector<double>> log_medians,
                                  const std::vector<std::size_t>& active) {
  const std::size_t n = log_medians.size();
  const double others = static_cast<double>(active.size() - 1);
  std::vector<ProcessShift> out;
  std::vector<double> residuals;
  residuals.reserve(n * active.size());
  std::vector<double> sums(n, 0.0);  // per case, the sum over the active processes
  for (std::size_t i = 0; i < n; ++i) {
    for (const std::size_t a : active) sums[i] += log_medians[i][a];
  }
  std::vector<double> d(n);
  for (const std::size_t j : active) {
    for (std::size_t i = 0; i < n; ++i) d[i] = log_medians[i][j] - (sums[i] - log_medians[i][j]) / others;
    const double shift = median(d);
    for (const double x : d) residuals.push_back(x - shift);
    out.push_back({j, shift, 0});
  }
  // Per-case noise: 1.4826 MAD of the residuals around each process's own shift.
  const double center = median(residuals);
  for (double& r : residuals) r = std::fabs(r - center);
  const double se = kMedianSeFactor * kMadToSd * median_inplace(residuals) / std::sqrt(static_cast<double>(n));
  for (auto& s : out) s.z = se > 0 ? s.shift / se : (s.shift != 0 ? std::copysign(kInf, s.shift) : 0.0);
  return out;
}

}  // namespace

std::vector<ProcessShift> side_shifts(std::span<const std::vector<double>> log_medians, double z_crit,
                                      double min_shift) {
  std::vector<ProcessShift> out;
  if (log_medians.empty()) return out;
  std::vector<std::size_t> active(log_medians.front().size());
  for (std::size_t j = 0; j < active.size(); ++j) active[j] = j;
  // The most extreme process first; once flagged it leaves the others' reference, so one shifted
  // process does not make the rest look shifted the other way. Attribution needs >= 3 processes.
  while (active.size() >= 3) {
    const auto pass = offsets(log_medians, active);
    const auto worst = std::max_element(pass.begin(), pass.end(), [](const ProcessShift& a, const ProcessShift& b) {
      return std::fabs(a.z) < std::fabs(b.z);
    });
    if (!(std::fabs(worst->z) > z_crit) || std::fabs(worst->shift) < min_shift) break;
    out.push_back(*worst);
    active.erase(std::find(active.begin(), active.end(), worst->process));
  }
  return out;
}

bool contamination_explains(std::span<const Contamination> flags, const CaseComparison& c) {
  const double change = std::log1p(c.change_estimate);
  if (!(change != 0) || !std::isfinite(change)) return false;
  double bias = 0;
  for (const auto& f : flags) {
    if (std::isinf(f.bias) && f.bias * change > 0) return true;
    if (std::isfinite(f.bias)) bias += f.bias;
  }
  if (!(bias * change > 0)) return false;
  // The verdict rule again on the interval with the bias taken out: a claim it no longer makes is explained.
  CompareOptions o;
  o.threshold = c.threshold;
  o.alpha = c.alpha;
  o.confidence = c.confidence;
  o.direction = c.direction;
  const auto unbiased = [&](double x) { return std::expm1(std::log1p(x) - bias); };
  const VerdictDecision d =
      explain_verdict(unbiased(c.change_estimate), unbiased(c.change_lower), unbiased(c.change_upper), std::nullopt, o);
  return d.verdict != c.verdict;
}

void flag_contamination(const Dataset& dataset, DatasetComparison& comparison, const ContaminationOptions& options) {
  flag_waiting(comparison, options);
  flag_load(dataset, comparison, options);
  flag_side_shifts(comparison, options);
  for (auto& r : comparison.cases) {
    CaseComparison& c = r.comparison;
    const bool claimed = c.verdict == Verdict::slower || c.verdict == Verdict::faster;
    if (!claimed || !contamination_explains(c.contamination, c)) continue;
    c.verdict = Verdict::inconclusive;
    c.verdict_code = VerdictCode::contaminated;
    c.inconclusive_cause = InconclusiveCause::contamination;
  }
}

}  // namespace benchreport

#pragma once
// Contamination of a dataset comparison: signs that a side's timings measured something besides
// the code (the process waited, the machine was overloaded, one process of a side ran at its own
// speed on every case). They are flagged per case and side, never judged: a slower/faster verdict
// that the contamination alone could explain becomes inconclusive (docs/statistics-comparison.md,
// "Contamination": rules, bounds and the simulation behind them).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace benchreport {

class Dataset;
struct DatasetComparison;
struct CaseComparison;

enum class ContaminationKind : std::uint8_t {
  waited,      // Google Benchmark real_time / cpu_time of one side above the other side's by the bound
  loaded,      // the run's context.load_avg (1 min) above context.num_cpus
  side_shift,  // one process of a side off the side's other processes by a common factor on every case
};

// One flag on one case. `bias` is the log change (head over base, in the case's values) the
// contamination could add on its own: +inf / -inf when its direction is known but not its size,
// 0 when it cannot move this metric (a note only).
struct Contamination {
  ContaminationKind kind = ContaminationKind::waited;
  bool head = false;  // the side it was seen on
  double bias = 0;
  double figure = 0;          // waited: the side's real/cpu ratio; loaded: its load; side_shift: exp(shift) - 1
  double other = 0;           // waited: the other side's ratio; loaded: the CPU count; side_shift: the z score
  std::string process;        // side_shift: the process (its pair label, else its position from 1)
  std::size_t processes = 0;  // side_shift: processes on that side
  std::size_t cases = 0;      // side_shift: cases the shift was read from
};

struct ContaminationOptions {
  double wait_bound = 0.10;   // a side's real/cpu above the other side's by this factor: the side waited
  double load_per_cpu = 1.0;  // load_avg[0] / num_cpus above this: the machine was overloaded
  // Side-wide shift: a process's median log offset must stand out by this z (after the
  // Bonferroni over processes in side_shift_z) and reach half the comparison's threshold.
  double shift_family_rate = 0.01;
  std::size_t shift_min_cases = 8;
  std::size_t shift_min_processes = 3;
};

// A process of one side whose offset from the side's other processes is common to the cases.
struct ProcessShift {
  std::size_t process = 0;  // column of the matrix
  double shift = 0;         // median over cases of log m_ij - mean of the other active processes' log m
  double z = 0;             // shift / its standard error (1.2533 * 1.4826 MAD of the residuals / sqrt(cases))
};

// The |z| a process's shift must exceed among `processes` processes read over `cases` cases: the
// Student t quantile with cases - 1 df at family_rate / (2 processes) (Bonferroni over the processes
// of both sides; t rather than normal because the MAD behind the standard error comes from few cases).
double side_shift_z(std::size_t processes, std::size_t cases, double family_rate);

// The processes of one side shifted on every case, most extreme first: the process with the largest
// |z| is flagged when |z| > z_crit and |shift| >= min_shift, leaves the reference of the others, and
// the rest are tested again while >= 3 remain. `log_medians`: one row per case, one column per process.
std::vector<ProcessShift> side_shifts(std::span<const std::vector<double>> log_medians, double z_crit,
                                      double min_shift);

// Whether flags with these biases could alone explain the case's slower/faster claim: one of known
// sign and unknown size points the claim's way, or the verdict rule (explain_verdict) on the case's
// interval with the summed finite biases taken out no longer makes the claim.
bool contamination_explains(std::span<const Contamination> flags, const CaseComparison& c);

// Flags every matched case of `comparison` (CaseComparison::contamination) and makes a slower/faster
// verdict the flags could explain inconclusive (VerdictCode::contaminated). Runs after Benjamini–Hochberg.
void flag_contamination(const Dataset& dataset, DatasetComparison& comparison,
                        const ContaminationOptions& options = {});

}  // namespace benchreport

#pragma once
// Units of measurement: what a sample means, how to scale it to the canonical
// base unit (seconds, bytes, ops) and which direction is better.
#include <cstdint>
#include <string>
#include <string_view>

namespace benchreport {

enum class Dimension : std::uint8_t {
  time,           // base: seconds
  bytes,          // base: bytes
  count,          // base: ops (operations, iterations, items, allocations)
  rate_time,      // base: ops per second
  rate_bytes,     // base: bytes per second
  dimensionless,  // base: a plain number ("1", "x"; "%" scales by 0.01)
  custom,         // a unit benchreport does not know: kept verbatim, not scaled
};

struct Unit {
  std::string symbol;  // as the input spelled it (kept for display)
  Dimension dimension = Dimension::dimensionless;
  double to_base = 1.0;           // value_in_base = value_in_unit * to_base
  bool higher_is_better = false;  // rates are; times, sizes and counts are not
  bool exact = false;             // deterministic quantity: compare exactly

  friend bool operator==(const Unit&, const Unit&) = default;
};

// Parses a unit symbol (ns, us, µs, ms, s, ns/op, B, KiB, MB, ops/s, MiB/s,
// Mbps, IOPS, allocs/op, B/op, %, ...). Throws InputError naming the symbol
// and listing the known ones when it is not recognised.
Unit parse_unit(std::string_view symbol);

// Like parse_unit, but an unknown symbol becomes a custom unit (kept verbatim,
// not scaled, lower is better) instead of an error; `was_known` tells which.
Unit parse_unit_or_custom(std::string_view symbol, bool* was_known = nullptr);

// Name of the canonical base unit of a dimension ("s", "B", "ops", "ops/s", "B/s", "1", "").
std::string_view base_symbol(Dimension d) noexcept;

// "time", "bytes", ... (used in docs, JSON output and messages).
std::string_view dimension_name(Dimension d) noexcept;

// Every symbol parse_unit accepts, comma-separated (for error messages and docs).
std::string known_unit_symbols();

}  // namespace benchreport

#include "benchreport/data/units.hpp"

#include <array>
#include <fmt/format.h>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace {

struct UnitEntry {
  std::string_view symbol;
  Dimension dimension;
  double to_base;
};

constexpr double kKi = 1024.0;
constexpr double kMi = kKi * kKi;
constexpr double kGi = kMi * kKi;
constexpr double kTi = kGi * kKi;

// Symbols as real tools spell them. "µ" appears both as U+00B5 (micro sign)
// and U+03BC (Greek mu); both are accepted.
constexpr std::array kUnits{
    UnitEntry{"ns", Dimension::time, 1e-9},
    UnitEntry{"us", Dimension::time, 1e-6},
    UnitEntry{"\u00b5s", Dimension::time, 1e-6},
    UnitEntry{"\u03bcs", Dimension::time, 1e-6},
    UnitEntry{"ms", Dimension::time, 1e-3},
    UnitEntry{"s", Dimension::time, 1.0},
    UnitEntry{"sec", Dimension::time, 1.0},
    UnitEntry{"min", Dimension::time, 60.0},
    UnitEntry{"ns/op", Dimension::time, 1e-9},
    UnitEntry{"us/op", Dimension::time, 1e-6},
    UnitEntry{"\u00b5s/op", Dimension::time, 1e-6},
    UnitEntry{"ms/op", Dimension::time, 1e-3},
    UnitEntry{"s/op", Dimension::time, 1.0},
    UnitEntry{"sec/op", Dimension::time, 1.0},
    UnitEntry{"B", Dimension::bytes, 1.0},
    UnitEntry{"bytes", Dimension::bytes, 1.0},
    UnitEntry{"KiB", Dimension::bytes, kKi},
    UnitEntry{"MiB", Dimension::bytes, kMi},
    UnitEntry{"GiB", Dimension::bytes, kGi},
    UnitEntry{"TiB", Dimension::bytes, kTi},
    UnitEntry{"kB", Dimension::bytes, 1e3},
    UnitEntry{"KB", Dimension::bytes, 1e3},
    UnitEntry{"MB", Dimension::bytes, 1e6},
    UnitEntry{"GB", Dimension::bytes, 1e9},
    UnitEntry{"TB", Dimension::bytes, 1e12},
    UnitEntry{"B/op", Dimension::bytes, 1.0},
    UnitEntry{"ops", Dimension::count, 1.0},
    UnitEntry{"op", Dimension::count, 1.0},
    UnitEntry{"iterations", Dimension::count, 1.0},
    UnitEntry{"items", Dimension::count, 1.0},
    UnitEntry{"count", Dimension::count, 1.0},
    UnitEntry{"allocs/op", Dimension::count, 1.0},
    UnitEntry{"instructions", Dimension::count, 1.0},
    UnitEntry{"cycles", Dimension::count, 1.0},
    UnitEntry{"ops/s", Dimension::rate_time, 1.0},
    UnitEntry{"op/s", Dimension::rate_time, 1.0},
    UnitEntry{"iterations/s", Dimension::rate_time, 1.0},
    UnitEntry{"items/s", Dimension::rate_time, 1.0},
    UnitEntry{"IOPS", Dimension::rate_time, 1.0},
    UnitEntry{"Hz", Dimension::rate_time, 1.0},
    UnitEntry{"B/s", Dimension::rate_bytes, 1.0},
    UnitEntry{"KiB/s", Dimension::rate_bytes, kKi},
    UnitEntry{"MiB/s", Dimension::rate_bytes, kMi},
    UnitEntry{"GiB/s", Dimension::rate_bytes, kGi},
    UnitEntry{"kB/s", Dimension::rate_bytes, 1e3},
    UnitEntry{"MB/s", Dimension::rate_bytes, 1e6},
    UnitEntry{"GB/s", Dimension::rate_bytes, 1e9},
    UnitEntry{"Mbps", Dimension::rate_bytes, 1e6 / 8.0},
    UnitEntry{"Gbps", Dimension::rate_bytes, 1e9 / 8.0},
    UnitEntry{"1", Dimension::dimensionless, 1.0},
    UnitEntry{"x", Dimension::dimensionless, 1.0},
    UnitEntry{"ratio", Dimension::dimensionless, 1.0},
    UnitEntry{"%", Dimension::dimensionless, 0.01},
};

bool is_rate(Dimension d) { return d == Dimension::rate_time || d == Dimension::rate_bytes; }

const UnitEntry* find_unit(std::string_view symbol) {
  for (const auto& entry : kUnits) {
    if (entry.symbol == symbol) return &entry;
  }
  return nullptr;
}

}  // namespace

Unit parse_unit_or_custom(std::string_view symbol, bool* was_known) {
  const UnitEntry* entry = find_unit(symbol);
  if (was_known != nullptr) *was_known = entry != nullptr;
  if (entry == nullptr) return Unit{std::string(symbol), Dimension::custom, 1.0, false, false};
  return Unit{std::string(symbol), entry->dimension, entry->to_base, is_rate(entry->dimension), false};
}

Unit parse_unit(std::string_view symbol) {
  bool known = false;
  Unit unit = parse_unit_or_custom(symbol, &known);
  if (!known) {
    throw InputError(fmt::format("unknown unit \"{}\": expected one of {}", symbol, known_unit_symbols()));
  }
  return unit;
}

std::string_view base_symbol(Dimension d) noexcept {
  switch (d) {
    case Dimension::time: return "s";
    case Dimension::bytes: return "B";
    case Dimension::count: return "ops";
    case Dimension::rate_time: return "ops/s";
    case Dimension::rate_bytes: return "B/s";
    case Dimension::dimensionless: return "1";
    case Dimension::custom: return "";
  }
  return "";
}

std::string_view dimension_name(Dimension d) noexcept {
  switch (d) {
    case Dimension::time: return "time";
    case Dimension::bytes: return "bytes";
    case Dimension::count: return "count";
    case Dimension::rate_time: return "rate_time";
    case Dimension::rate_bytes: return "rate_bytes";
    case Dimension::dimensionless: return "dimensionless";
    case Dimension::custom: return "custom";
  }
  return "";
}

std::string known_unit_symbols() {
  std::string out;
  for (const auto& entry : kUnits) {
    if (!out.empty()) out += ", ";
    out += entry.symbol;
  }
  return out;
}

}  // namespace benchreport

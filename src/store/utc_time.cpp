#include "benchreport/store/utc_time.hpp"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <cstdint>

#include "benchreport/core/error.hpp"
#include "benchreport/core/python_text.hpp"

namespace benchreport::store {
namespace {

using std::chrono::days;
using std::chrono::microseconds;
using std::chrono::sys_days;

struct BadTime {};

// Reads a fixed number of digits at `at`, moving past them.
int digits(std::string_view text, std::size_t& at, std::size_t count) {
  if (at + count > text.size()) throw BadTime{};
  int out = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const char c = text[at + i];
    if (c < '0' || c > '9') throw BadTime{};
    out = out * 10 + (c - '0');
  }
  at += count;
  return out;
}

bool is_digit(std::string_view text, std::size_t at) { return at < text.size() && text[at] >= '0' && text[at] <= '9'; }

// A calendar date (YYYY-MM-DD, YYYYMMDD) or an ISO week date (YYYY-Www[-D], YYYYWww[D]).
sys_days parse_date(std::string_view text, std::size_t& at) {
  const int year = digits(text, at, 4);
  const bool extended = at < text.size() && text[at] == '-';
  if (extended) ++at;
  if (at < text.size() && text[at] == 'W') {
    ++at;
    const int week = digits(text, at, 2);
    int weekday = 1;
    if (extended && at + 1 < text.size() && text[at] == '-' && is_digit(text, at + 1)) {
      ++at;
      weekday = digits(text, at, 1);
    } else if (!extended && is_digit(text, at)) {
      weekday = digits(text, at, 1);
    }
    const bool long_year = std::chrono::weekday(sys_days(std::chrono::year(year) / 1 / 1)).c_encoding() == 4 ||
                           std::chrono::weekday(sys_days(std::chrono::year(year) / 12 / 31)).c_encoding() == 4;
    if (week < 1 || week > (long_year ? 53 : 52) || weekday < 1 || weekday > 7) throw BadTime{};
    const sys_days jan4 = std::chrono::year(year) / 1 / 4;
    const sys_days monday = jan4 - days((std::chrono::weekday(jan4).iso_encoding() - 1));
    return monday + days(7 * (week - 1) + weekday - 1);
  }
  const int month = digits(text, at, 2);
  if (extended && (at >= text.size() || text[at++] != '-')) throw BadTime{};
  const int day = digits(text, at, 2);
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(month), std::chrono::day(day)};
  if (year < 1 || !date.ok()) throw BadTime{};
  return date;
}

// Digits after a decimal point as microseconds: up to six read, more ignored.
std::int64_t fraction(std::string_view text, std::size_t& at) {
  if (!is_digit(text, at)) throw BadTime{};
  std::int64_t micros = 0;
  int place = 0;
  for (; is_digit(text, at); ++place, ++at) {
    if (place < 6) micros = micros * 10 + (text[at] - '0');
  }
  for (; place < 6; ++place) micros *= 10;
  return micros;
}

// HH[:MM[:SS]] or HH[MM[SS]], then a fraction of a second after any of them (as Python reads
// "10:30.5": 10:30 and half a second).
// An offset's parts are not range-checked (Python takes "+01:70"), only its total (below 24 h).
microseconds parse_clock(std::string_view text, std::size_t& at, bool offset) {
  int parts[3] = {0, 0, 0};
  std::int64_t micros = 0;
  bool extended = false;
  for (int i = 0; i < 3; ++i) {
    parts[i] = digits(text, at, 2);
    if (i == 0) extended = at < text.size() && text[at] == ':';
    if (at >= text.size()) break;
    const bool separator = extended ? text[at] == ':' : is_digit(text, at);
    // After the seconds Python reads on as the fraction, past a ':' too ("10:30:00:5").
    if (text[at] == '.' || text[at] == ',' || (i == 2 && extended && separator)) {
      micros = fraction(text, ++at);
      break;
    }
    if (i == 2 || !separator) break;
    if (extended) ++at;
  }
  if (!offset && (parts[0] > 23 || parts[1] > 59 || parts[2] > 59)) throw BadTime{};
  return std::chrono::hours(parts[0]) + std::chrono::minutes(parts[1]) + std::chrono::seconds(parts[2]) +
         microseconds(micros);
}

std::string replace_z(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  std::string out;
  for (char c : text) out += c == 'Z' || c == 'z' ? std::string("+00:00") : std::string(1, c);
  return out;
}

// The instant `text` names, in microseconds since the epoch (UTC).
std::chrono::sys_time<microseconds> parse(std::string_view text) {
  std::size_t at = 0;
  const sys_days date = parse_date(text, at);
  if (at == text.size()) return date;
  ++at;  // one character (one byte: Python refuses a non-ASCII one) separates the date and the time
  const microseconds time = parse_clock(text, at, false);
  microseconds offset{0};
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const bool negative = text[at++] == '-';
    offset = parse_clock(text, at, true);
    if (offset >= std::chrono::hours(24)) throw BadTime{};
    if (negative) offset = -offset;
  }
  if (at != text.size()) throw BadTime{};
  return date + time - offset;
}

// As Python's strftime("%Y-%m-%dT%H:%M:%S") (the year unpadded) with the fraction's trailing zeros dropped.
std::string format_utc(std::chrono::sys_time<microseconds> when) {
  const sys_days day = std::chrono::floor<days>(when);
  const std::chrono::year_month_day date(day);
  const std::chrono::hh_mm_ss clock(when - day);
  std::string out = fmt::format("{}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}", static_cast<int>(date.year()),
                                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                                clock.hours().count(), clock.minutes().count(), clock.seconds().count());
  if (const auto micros = clock.subseconds().count(); micros != 0) {
    std::string fraction = fmt::format("{:06d}", micros);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    out += '.' + fraction;
  }
  return out + 'Z';
}

}  // namespace

std::string utc_time(const std::optional<std::string>& text) {
  if (!text) {
    return format_utc(std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()));
  }
  try {
    return format_utc(parse(replace_z(*text)));
  } catch (const BadTime&) {
    throw InputError(
        fmt::format("time {}: expected an ISO-8601 date and time, e.g. 2026-12-05T19:30:00Z", repr_text(*text)));
  }
}

}  // namespace benchreport::store

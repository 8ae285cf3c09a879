#include "benchreport/store/utc_time.hpp"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <cstdint>

#include "benchreport/core/error.hpp"
#include "benchreport/store/run_context.hpp"

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

// HH[:MM[:SS[.f]]] or HH[MM[SS[.f]]]: a fraction of a second only, to the microsecond.
microseconds parse_clock(std::string_view text, std::size_t& at, int max_hour) {
  const int hours = digits(text, at, 2);
  int minutes = 0;
  int seconds = 0;
  std::int64_t micros = 0;
  const bool extended = at < text.size() && text[at] == ':';
  auto part = [&](int& value) {
    if (extended) {
      if (at >= text.size() || text[at] != ':') return false;
      ++at;
    } else if (!is_digit(text, at)) {
      return false;
    }
    value = digits(text, at, 2);
    return true;
  };
  if (part(minutes) && part(seconds) && at < text.size() && (text[at] == '.' || text[at] == ',')) {
    ++at;
    if (!is_digit(text, at)) throw BadTime{};
    int place = 0;
    for (; is_digit(text, at); ++place, ++at) {
      if (place < 6) micros = micros * 10 + (text[at] - '0');  // further digits are dropped
    }
    for (; place < 6; ++place) micros *= 10;
  }
  if (hours > max_hour || minutes > 59 || seconds > 59) throw BadTime{};
  return std::chrono::hours(hours) + std::chrono::minutes(minutes) + std::chrono::seconds(seconds) +
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
  // One character (a code point) separates the date and the time.
  ++at;
  while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  const microseconds time = parse_clock(text, at, 23);
  microseconds offset{0};
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const bool negative = text[at++] == '-';
    offset = parse_clock(text, at, 99);
    if (offset >= std::chrono::hours(24)) throw BadTime{};
    if (negative) offset = -offset;
  }
  if (at != text.size()) throw BadTime{};
  return date + time - offset;
}

std::string format_utc(std::chrono::sys_time<microseconds> when) {
  const sys_days day = std::chrono::floor<days>(when);
  const std::chrono::year_month_day date(day);
  const std::chrono::hh_mm_ss clock(when - day);
  std::string out = fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}", static_cast<int>(date.year()),
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
        fmt::format("time {}: expected an ISO-8601 date and time, e.g. 2026-12-05T19:30:00Z", python_repr(*text)));
  }
}

}  // namespace benchreport::store

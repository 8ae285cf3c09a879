// The JSON pre-pass (src/io/json_scan.*): its SSE2 block path must give
// exactly what a byte-by-byte walk gives, on random texts rich in quotes,
// escapes and brackets, including where the depth limit trips.
#include <catch2/catch.hpp>

#include <optional>
#include <random>
#include <string>

#include "io/json_scan.hpp"
#include "benchreport/core/error.hpp"

using benchreport::InputError;
using benchreport::io::JsonShape;
using benchreport::io::scan_json;

namespace {

struct Expected {
  JsonShape shape;
  std::optional<std::size_t> too_deep_line;
};

// The reference: the plain state machine, one byte at a time.
Expected walk(const std::string& json, std::size_t max_depth) {
  Expected e;
  std::size_t depth = 0, line = 1;
  bool in_string = false, escaped = false;
  for (const char c : json) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ',') ++e.shape.commas;
    if (c == '[' || c == '{') {
      ++e.shape.opens;
      if (++depth > max_depth) {
        e.too_deep_line = line;
        return e;
      }
    }
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  return e;
}

// scan_json must give the walk's counts, or fail on the walk's line.
void check_against_walk(const std::string& json, std::size_t max_depth) {
  CAPTURE(json, max_depth);
  const Expected expected = walk(json, max_depth);
  if (expected.too_deep_line) {
    CHECK_THROWS_WITH(scan_json(json, max_depth, "f.json"),
                      Catch::StartsWith("f.json:" + std::to_string(*expected.too_deep_line) + ": JSON nesting deeper"));
  } else {
    const JsonShape shape = scan_json(json, max_depth, "f.json");
    CHECK(shape.commas == expected.shape.commas);
    CHECK(shape.opens == expected.shape.opens);
  }
}

}  // namespace

TEST_CASE("the JSON pre-pass equals a byte-by-byte walk", "[io][scan]") {
  std::mt19937_64 rng(20261130);
  const std::string alphabets[] = {"\"\\[]{},a1 \n", "[[[]]],,a", "\"\\\\\"[{a", "0123456789,.e-", "[]{}\"\n"};
  for (int round = 0; round < 4000; ++round) {
    const std::string& alphabet = alphabets[round % 5];
    const std::size_t length = rng() % 400;
    std::string json(length, ' ');
    for (char& c : json) c = alphabet[rng() % alphabet.size()];
    const std::size_t max_depth = 1 + rng() % 12;
    check_against_walk(json, max_depth);
  }
}

TEST_CASE("the JSON pre-pass equals a byte-by-byte walk on JSON-like texts", "[io][scan]") {
  // Rare backslashes and generous depth limits, so most 64-byte blocks holding
  // quotes and brackets are settled by the mask path rather than the byte walk.
  std::mt19937_64 rng(7);
  const std::string common = "\"\"[]{},,::aaaa1111    \n";
  for (int round = 0; round < 2000; ++round) {
    const std::size_t length = 64 + rng() % 2000;
    std::string json(length, ' ');
    for (char& c : json) c = rng() % 300 == 0 ? '\\' : common[rng() % common.size()];
    const std::size_t max_depth = 8 + rng() % 120;
    check_against_walk(json, max_depth);
  }
}

TEST_CASE("the JSON pre-pass on long regular texts", "[io][scan]") {
  // Number arrays (the block fast path) and a string spanning many blocks.
  std::string values = "{\"values\":[";
  for (int i = 0; i < 1000; ++i) values += (i ? ",1234.5678" : "1234.5678");
  values += "]}";
  const JsonShape shape = scan_json(values, 2, "v.json");
  CHECK(shape.commas == 999);
  CHECK(shape.opens == 2);
  CHECK(shape.max_elements() >= 1000);
  const std::string in_string = "[\"" + std::string(500, '[') + "\\\"" + std::string(300, '{') + "\"]";
  CHECK(scan_json(in_string, 1, "s.json").opens == 1);
  CHECK_THROWS_AS(scan_json(std::string(200, '['), 100, "d.json"), InputError);
  CHECK(scan_json(std::string(200, '['), 200, "d.json").opens == 200);
}

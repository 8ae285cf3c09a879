#include <catch2/catch.hpp>

#include <array>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/data/fingerprint.hpp"
#include "benchreport/core/sha256.hpp"

using benchreport::canonical_json;
using benchreport::fingerprint;
using benchreport::Sha256;
using benchreport::sha256_hex;

namespace {
std::string hex_of(const std::array<std::uint8_t, 32>& digest) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string hex;
  for (const auto byte : digest) {
    hex.push_back(kHex[byte >> 4]);
    hex.push_back(kHex[byte & 0x0f]);
  }
  return hex;
}
}  // namespace

TEST_CASE("sha256 matches the FIPS 180-4 example vectors", "[sha256]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 around the padding boundaries (Python hashlib values)", "[sha256]") {
  // hashlib.sha256(b"x" * n).hexdigest()
  const std::pair<std::size_t, const char*> cases[] = {
      {55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"},
      {56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"},
      {63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"},
      {64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"},
      {65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"},
      {119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"},
      {120, "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"},
  };
  for (const auto& [n, expected] : cases) {
    INFO("n = " << n);
    CHECK(sha256_hex(std::string(n, 'x')) == expected);
  }
}

TEST_CASE("sha256 incremental updates equal one-shot hashing at every split", "[sha256]") {
  std::string text;
  for (int i = 0; i < 200; ++i) text.push_back(static_cast<char>('a' + i % 26));
  const std::string expected = sha256_hex(text);
  for (std::size_t split = 0; split <= text.size(); split += 7) {
    for (std::size_t second = split; second <= text.size(); second += 31) {
      Sha256 hasher;
      const std::string_view view(text);
      hasher.update(view.substr(0, split));
      hasher.update(view.substr(split, second - split));
      hasher.update(view.substr(second));
      CHECK(hex_of(hasher.digest()) == expected);
    }
  }
}

TEST_CASE("canonical_json sorts keys and matches Python json.dumps(sort_keys=True)", "[sha256][fingerprint]") {
  const std::string input = R"({ "d": true, "b": [1.5, 100.0, 1e16, 1e-05, 0.1, -0.0, 12345678901234567890],
                                 "a": "q\"\\\n\u00e9\u0001", "c": null })";
  const std::string expected =
      "{\"a\":\"q\\\"\\\\\\n\xC3\xA9\\u0001\",\"b\":[1.5,100.0,1e+16,1e-05,0.1,-0.0,"
      "12345678901234567890],\"c\":null,\"d\":true}";
  CHECK(canonical_json(input) == expected);
  // hashlib.sha256(json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
  CHECK(sha256_hex(canonical_json(input)) == "701ee0bb8c21893583d01df475132a23f3f99b2540ddf0bdcbd8da60d39890de");
}

TEST_CASE("fingerprint is the first hex digits of the canonical JSON's SHA-256", "[sha256][fingerprint]") {
  const std::string protocol = R"({"protocol": 5, "cpu_samples": 5, "cpu_seconds": 30, "disk_mib": 1024,
                                   "cache_mib": 512, "internet": "enabled", "transfer_mib": 1024})";
  CHECK(fingerprint(protocol) == "64fe631bd69d");
  CHECK(fingerprint(protocol, 64).substr(0, 12) == "64fe631bd69d");
  // Key order and whitespace do not change the fingerprint; a value does.
  CHECK(fingerprint(R"({"transfer_mib":1024,"internet":"enabled","cache_mib":512,"disk_mib":1024,
                       "cpu_seconds":30,"cpu_samples":5,"protocol":5})") == "64fe631bd69d");
  CHECK(fingerprint(R"({"protocol": 4})") != fingerprint(R"({"protocol": 5})"));
}

TEST_CASE("canonical_json and fingerprint reject bad input with a clear message", "[sha256][fingerprint]") {
  CHECK_THROWS_WITH(canonical_json("{\"a\": "), Catch::Contains("invalid JSON"));
  CHECK_THROWS_WITH(canonical_json(R"({"a": 1, "a": 2})"), Catch::Contains("duplicate key \"a\""));
  CHECK_THROWS_AS(fingerprint("{}", 0), benchreport::InputError);
  CHECK_THROWS_WITH(fingerprint("{}", 65), Catch::Contains("hex_digits must be 1–64"));
}

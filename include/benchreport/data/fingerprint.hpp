#pragma once
// Parameter fingerprints: a short hash of a measurement protocol so that only
// like-for-like results are compared.
#include <cstddef>
#include <string>
#include <string_view>

namespace benchreport {

// Canonical text of a JSON value: object keys sorted by code point, no
// insignificant whitespace, strings escaped minimally, integers as integers
// and other numbers in shortest round-trip form with a ".0" when integral —
// the same bytes as Python's json.dumps(v, sort_keys=True,
// separators=(",", ":"), ensure_ascii=False). Throws InputError on invalid
// JSON or duplicate keys.
std::string canonical_json(std::string_view json_text);

// The first `hex_digits` (1–64) lower-case hex digits of the SHA-256 of
// canonical_json(json_text).
std::string fingerprint(std::string_view json_text, std::size_t hex_digits = 12);

}  // namespace benchreport

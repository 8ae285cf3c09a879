// 64-byte blocks are classified with SSE2 (baseline on x86-64): a block with no
// backslash is settled with bit masks (quotes → in-string mask by prefix XOR,
// brackets and commas outside strings by popcount); any block that might hit
// the depth limit, close below zero or hold an escape is walked byte by byte,
// so both paths give exactly the byte-by-byte result.
#include "json_scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "benchreport/core/error.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace benchreport::io {
namespace {

struct ScanState {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;  // the previous byte was a backslash inside a string
  JsonShape shape;
};

[[noreturn]] void too_deep(std::string_view json, std::size_t at, std::size_t max_depth, std::string_view name) {
  const auto line = 1 + std::count(json.begin(), json.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  throw InputError(fmt::format("{}:{}: JSON nesting deeper than the limit of {} levels (raise ReadOptions::max_depth)",
                               name, line, max_depth));
}

void scan_bytes(std::string_view json, std::size_t begin, std::size_t end, std::size_t max_depth, std::string_view name,
                ScanState& s) {
  for (std::size_t i = begin; i < end; ++i) {
    const char c = json[i];
    if (s.in_string) {
      if (s.escaped)
        s.escaped = false;
      else if (c == '\\')
        s.escaped = true;
      else if (c == '"')
        s.in_string = false;
      continue;
    }
    switch (c) {
      case '"': s.in_string = true; break;
      case ',': ++s.shape.commas; break;
      case '[':
      case '{':
        ++s.shape.opens;
        if (++s.depth > max_depth) too_deep(json, i, max_depth, name);
        break;
      case ']':
      case '}':
        if (s.depth > 0)
          --s.depth;
        else
          s.shape.closes_below_zero = true;
        break;
      default: break;
    }
  }
}

#if defined(__SSE2__)
struct BlockMasks {
  std::uint64_t quote = 0, backslash = 0, open = 0, close = 0, comma = 0;
};

BlockMasks classify(const char* p) {
  BlockMasks m;
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), comma = _mm_set1_epi8(',');
  // '[' 0x5B / '{' 0x7B and ']' 0x5D / '}' 0x7D differ only in bit 0x20.
  const __m128i fold = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  for (int lane = 0; lane < 4; ++lane) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * lane));
    const __m128i folded = _mm_or_si128(bytes, fold);
    const auto bits = [&](__m128i eq) {
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(eq))) << (16 * lane);
    };
    m.quote |= bits(_mm_cmpeq_epi8(bytes, quote));
    m.backslash |= bits(_mm_cmpeq_epi8(bytes, backslash));
    m.comma |= bits(_mm_cmpeq_epi8(bytes, comma));
    m.open |= bits(_mm_cmpeq_epi8(folded, open));
    m.close |= bits(_mm_cmpeq_epi8(folded, close));
  }
  return m;
}

// std::popcount is a libgcc call without -mpopcnt (not baseline x86-64): SWAR instead.
std::size_t count_bits(std::uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<std::size_t>((x * 0x0101010101010101ULL) >> 56);
}

// Bit i = parity of the set bits at positions <= i.
std::uint64_t prefix_xor(std::uint64_t x) {
  for (int shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

// True when the block was settled by masks; false leaves it to scan_bytes.
bool scan_block(const char* p, std::size_t max_depth, ScanState& s) {
  if (s.escaped) return false;
  const BlockMasks m = classify(p);
  if (m.backslash != 0) return false;
  // Inside a string from an opening quote up to (not including) its closing quote.
  const std::uint64_t in_string = prefix_xor(m.quote) ^ (s.in_string ? ~std::uint64_t{0} : 0);
  const std::uint64_t outside = ~in_string;
  const auto opens = count_bits(m.open & outside);
  const auto closes = count_bits(m.close & outside);
  // Exact without ordering only if the depth can neither exceed the limit nor go below zero.
  if (s.depth + opens > max_depth || closes > s.depth) return false;
  s.depth = s.depth + opens - closes;
  s.shape.opens += opens;
  s.shape.commas += count_bits(m.comma & outside);
  s.in_string = (count_bits(m.quote) % 2 == 1) != s.in_string;
  return true;
}
#endif

}  // namespace

JsonShape scan_json(std::string_view json, std::size_t max_depth, std::string_view name) {
  ScanState s;
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 64 <= json.size(); i += 64) {
    if (!scan_block(json.data() + i, max_depth, s)) scan_bytes(json, i, i + 64, max_depth, name, s);
  }
#endif
  scan_bytes(json, i, json.size(), max_depth, name, s);
  s.shape.depth_at_end = s.depth;
  s.shape.ends_in_string = s.in_string;
  return s.shape;
}

}  // namespace benchreport::io

#include "gzip.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <limits>

#include "benchreport/core/error.hpp"

namespace benchreport::io {
namespace {

// Owns a z_stream set up for gzip (not raw deflate or zlib) input.
class Inflater {
 public:
  explicit Inflater(std::string_view name) : name_(name) {
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) fail("cannot start the gzip decoder");
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  ~Inflater() { inflateEnd(&stream_); }

  [[noreturn]] void fail(std::string_view why) const {
    throw InputError(fmt::format("{}: not a valid gzip file ({})", name_, why));
  }

  z_stream& stream() { return stream_; }

 private:
  std::string_view name_;
  z_stream stream_{};
};

}  // namespace

std::string gunzip(std::string_view bytes, std::string_view name, std::uint64_t limit, bool prefix_only) {
  Inflater inflater(name);
  z_stream& z = inflater.stream();
  std::string out;
  out.resize(std::min<std::uint64_t>(std::max<std::size_t>(bytes.size() * 4, 4096), limit + 1));
  std::size_t remaining_in = bytes.size();
  const auto* next_in = reinterpret_cast<const Bytef*>(bytes.data());
  std::size_t produced = 0;
  for (;;) {
    // zlib counts in uInt: feed and drain at most 1 GiB per call.
    const auto chunk_in = static_cast<uInt>(std::min<std::size_t>(remaining_in, 1U << 30));
    z.next_in = const_cast<Bytef*>(next_in);
    z.avail_in = chunk_in;
    if (produced == out.size()) {
      if (out.size() > limit) break;
      out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(out.size() * 2, limit + 1)));
    }
    z.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - produced, 1U << 30));
    const uInt out_before = z.avail_out;
    const int status = inflate(&z, Z_NO_FLUSH);
    produced += out_before - z.avail_out;
    const std::size_t consumed = chunk_in - z.avail_in;
    next_in += consumed;
    remaining_in -= consumed;
    if (produced > limit) break;
    if (prefix_only && produced == limit) break;
    if (status == Z_STREAM_END) {
      if (remaining_in == 0) {
        out.resize(produced);
        return out;
      }
      // Concatenated members (gzip -c a b > c) decode as one stream.
      if (inflateReset(&z) != Z_OK) inflater.fail("cannot restart after a member");
      continue;
    }
    if (status == Z_BUF_ERROR && remaining_in == 0 && z.avail_out != 0) {
      if (prefix_only) {  // the bytes given are themselves a prefix (format detection): what they decompress to
        out.resize(produced);
        return out;
      }
      inflater.fail("truncated");
    }
    if (status != Z_OK && status != Z_BUF_ERROR) inflater.fail(z.msg != nullptr ? z.msg : "corrupt data");
  }
  if (prefix_only) {
    out.resize(static_cast<std::size_t>(limit));
    return out;
  }
  throw InputError(fmt::format("{}: decompresses to more than {} bytes (raise max_file_size)", name, limit));
}

}  // namespace benchreport::io

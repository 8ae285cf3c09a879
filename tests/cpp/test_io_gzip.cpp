// gzip input: every entry point decompresses in C++, under max_file_size.
#include <catch2/catch.hpp>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"
#include "io/gzip.hpp"

using namespace benchreport;
using Catch::Matchers::Contains;

namespace {

// One gzip member of `text` (zlib's gzip wrapper: windowBits 16 + 15).
std::string gzip_member(const std::string& text) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

const std::string kCsv = "benchmark,unit,value\nsort,ns,1.5\nsort,ns,2.5\n";

}  // namespace

TEST_CASE("gzip: one member, concatenated members, and the bytes read back exactly", "[io][gzip]") {
  CHECK(io::gunzip(gzip_member(kCsv), "a.csv.gz", 1 << 20) == kCsv);
  const std::string two = gzip_member("benchmark,unit,value\n") + gzip_member("sort,ns,1.5\nsort,ns,2.5\n");
  CHECK(io::gunzip(two, "b.csv.gz", 1 << 20) == kCsv);
  const Dataset ds = read_buffer(two, "b.csv.gz");
  REQUIRE(ds.n_sets() == 1);
  CHECK(ds.base_samples(0).size() == 2);
}

TEST_CASE("gzip: truncated or corrupt streams and oversized output are InputErrors naming the file", "[io][gzip]") {
  const std::string whole = gzip_member(kCsv);
  CHECK_THROWS_WITH(io::gunzip(whole.substr(0, whole.size() / 2), "cut.csv.gz", 1 << 20),
                    Contains("cut.csv.gz") && Contains("not a valid gzip file"));
  std::string corrupt = whole;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x55);
  CHECK_THROWS_AS(io::gunzip(corrupt, "bad.csv.gz", 1 << 20), InputError);
  CHECK_THROWS_WITH(io::gunzip(whole, "big.csv.gz", 10), Contains("decompresses to more than 10 bytes"));
  CHECK(io::gunzip(whole, "prefix.csv.gz", 10, true) == kCsv.substr(0, 10));
  ReadOptions small;
  small.max_file_size = 10;
  CHECK_THROWS_WITH(read_buffer(whole, "big.csv.gz", "auto", small), Contains("raise max_file_size"));
}

TEST_CASE("gzip: files and folders are read through the same path", "[io][gzip]") {
  const auto dir = std::filesystem::temp_directory_path() / "benchreport_test_gzip";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.csv.gz", std::ios::binary) << gzip_member(kCsv);
  std::ofstream(dir / "b.csv") << kCsv;
  const Dataset file = read(dir / "a.csv.gz");
  CHECK(file.n_sets() == 1);
  const Dataset folder = read(dir);
  CHECK(folder.n_sets() == 2);
  CHECK(folder.warnings().empty());
  std::filesystem::remove_all(dir);
}

// libFuzzer target: the go reader on arbitrary bytes (see reader_target.hpp).
#include "reader_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  benchreport::fuzz::read_and_check(data, size, "bench.txt", "go");
  return 0;
}

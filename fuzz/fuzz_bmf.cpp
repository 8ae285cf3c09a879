// libFuzzer target: the Bencher Metric Format (bmf) reader on arbitrary bytes (see reader_target.hpp).
#include "reader_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  benchreport::fuzz::read_and_check(data, size, "bencher.json", "bmf");
  return 0;
}

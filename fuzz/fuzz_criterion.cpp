// libFuzzer target: the criterion reader on arbitrary bytes (see reader_target.hpp).
#include "reader_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  benchreport::fuzz::read_and_check(data, size, "target/criterion/x/new/sample.json", "criterion");
  return 0;
}

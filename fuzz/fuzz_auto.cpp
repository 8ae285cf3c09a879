// libFuzzer target: format detection + whichever reader it picks. The first
// byte chooses the file name detection sees (extensions matter to it).
#include <array>

#include "reader_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static constexpr std::array<std::string_view, 6> kNames = {
      "results.json", "results.csv", "bench.txt", "target/criterion/x/new/sample.json", "raw/ios/base-1.json", "log"};
  if (size == 0) return 0;
  const std::string_view name = kNames[data[0] % kNames.size()];
  benchreport::fuzz::read_and_check(data + 1, size - 1, name, "auto");
  return 0;
}

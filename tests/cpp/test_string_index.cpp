// StringIndex (core/string_index.hpp) against std::unordered_map on the same keys.
#include <catch2/catch.hpp>

#include <string>
#include <unordered_map>
#include <vector>

#include "benchreport/core/string_index.hpp"

using namespace benchreport;

TEST_CASE("StringIndex: first positions of distinct strings, as a hash map gives them", "[string_index]") {
  std::vector<std::string> strings;  // the dictionary the index points into
  StringIndex index;
  std::unordered_map<std::string, std::uint32_t> reference;
  const auto at = [&](std::uint32_t i) -> const std::string& { return strings[i]; };
  // 20 000 draws from 5 000 names (each name drawn about four times), with "" and long names among them.
  std::uint64_t state = 12345;
  for (int k = 0; k < 20000; ++k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto draw = static_cast<int>((state >> 33) % 5000);
    const std::string name =
        draw == 0 ? std::string() : (draw % 7 == 0 ? std::string(40, 'x') : "") + "k" + std::to_string(draw);
    const auto [position, inserted] = index.find_or_insert(name, static_cast<std::uint32_t>(strings.size()), at);
    const auto [it, ref_inserted] = reference.try_emplace(name, static_cast<std::uint32_t>(strings.size()));
    REQUIRE(inserted == ref_inserted);
    REQUIRE(position == it->second);
    if (inserted) strings.push_back(name);
  }
  CHECK(index.size() == reference.size());
  CHECK(index.size() == strings.size());
  for (const auto& [name, position] : reference) CHECK(index.find(name, at) == position);
  CHECK(index.find("absent", at) == -1);
  index.clear();
  CHECK(index.size() == 0);
  CHECK(index.find("k1", at) == -1);
}

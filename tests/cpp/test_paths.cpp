#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "benchreport/core/error.hpp"
#include "benchreport/io/paths.hpp"

using namespace benchreport;
namespace fs = std::filesystem;

namespace {

// A folder tree with numbered files, hidden entries, a link back to the top and a link to a file.
struct Tree {
  fs::path root = fs::temp_directory_path() / ("benchreport-paths-" + std::to_string(getpid()));
  Tree() {
    fs::remove_all(root);
    for (const char* file : {"a/base-1.json", "a/base-2.json", "a/base-10.json", "a/.hidden.json", ".dot/x.json",
                             "b/c/base-3.json", "b/notes.txt"}) {
      fs::create_directories((root / file).parent_path());
      std::ofstream(root / file) << "{}";
    }
    fs::create_directory_symlink(".", root / "loop");
    fs::create_symlink("a/base-1.json", root / "link.json");
  }
  ~Tree() { fs::remove_all(root); }
  std::string operator/(const std::string& rest) const { return (root / rest).string(); }
};

}  // namespace

TEST_CASE("fnmatch follows Python's fnmatchcase", "[paths]") {
  CHECK(fnmatch("a.json", "*.json"));
  CHECK_FALSE(fnmatch("a.json", "*.csv"));
  CHECK(fnmatch("abc", "a*b*c*"));
  CHECK(fnmatch("b", "[a-c]"));
  CHECK(fnmatch("]", "[]]"));          // a leading ] is a member
  CHECK(fnmatch("-", "[a-]"));         // a trailing - is literal
  CHECK_FALSE(fnmatch("x", "[z-a]"));  // an inverted range is empty
  CHECK(fnmatch("x", "[!z-a]"));       // and its negation matches any character
  CHECK(fnmatch("[x", "[x"));          // an unclosed [ is literal
  CHECK(fnmatch("\xC3\xA9", "?"));     // ? is one code point, not one byte
  CHECK_FALSE(fnmatch("ab", "?"));
  CHECK(fnmatch("b", "[!a]"));
  CHECK_FALSE(fnmatch("a", "[!a]"));
  CHECK(fnmatch("\\", "[\\]"));  // no escapes
}

TEST_CASE("natural order compares digit runs by value", "[paths]") {
  CHECK(natural_compare("base-2.json", "base-10.json") == -1);
  CHECK(natural_compare("base-10.json", "base-2.json") == 1);
  CHECK(natural_compare("007", "7") == 0);
  CHECK(natural_compare("a1", "a-") == -1);  // text runs compare whole: "a" < "a-"
  CHECK(natural_compare("base-1\xC2\xB2"
                        "2.json",
                        "base-2.json") == -1);  // only ASCII digits are numbers
  CHECK(natural_compare("a1", "a1b") == -1);
  CHECK(natural_compare("x", "x") == 0);
}

TEST_CASE("glob: ** skips links to folders and hidden entries, one match per file", "[paths]") {
  const Tree tree;
  CHECK(glob_paths(tree / "**/*.json") == std::vector<std::string>{tree / "a/base-1.json", tree / "a/base-2.json",
                                                                   tree / "a/base-10.json", tree / "b/c/base-3.json"});
  CHECK(glob_paths(tree / "a/.*.json") == std::vector<std::string>{tree / "a/.hidden.json"});
  CHECK(glob_paths(tree / "a/base-?.json") == std::vector<std::string>{tree / "a/base-1.json", tree / "a/base-2.json"});
  CHECK(glob_paths(tree / "*/base-[!1].json") == std::vector<std::string>{tree / "a/base-2.json"});
  CHECK(glob_paths(tree / "b/**") ==
        std::vector<std::string>{tree / "b", tree / "b/c", tree / "b/c/base-3.json", tree / "b/notes.txt"});
  CHECK(glob_paths(tree / "nothing*") == std::vector<std::string>{});
}

TEST_CASE("expand_paths keeps plain paths and refuses a pattern without matches", "[paths]") {
  const Tree tree;
  CHECK(expand_paths({"missing.json", tree / "a/base-1*.json"}) ==
        std::vector<std::string>{"missing.json", tree / "a/base-1.json", tree / "a/base-10.json"});
  CHECK_THROWS_MATCHES(expand_paths({tree / "*.csv"}), InputError,
                       Catch::Matchers::Message(tree / "*.csv" + ": no file matches this pattern"));
}

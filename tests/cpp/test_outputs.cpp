// The command line's output writer (cli/outputs.hpp): every path checked before
// any is written, atomic replacement, links refused, streams written in place,
// the messages naming the path; and the Python-compatible path text it names
// them with (cli/path_text.hpp, expected values from CPython 3.11's pathlib and os.path).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "benchreport/cli/outputs.hpp"
#include "benchreport/cli/path_text.hpp"
#include "scratch_folder.hpp"

using namespace benchreport::cli;
namespace fs = std::filesystem;

namespace {

struct Folder : ScratchFolder {
  Folder() : ScratchFolder("outputs") {}
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(root)) out.push_back(entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

FdWriter text(std::string bytes) {
  return [bytes](int fd) { write_all(fd, bytes); };
}

}  // namespace

TEST_CASE("path text is pathlib's and os.path's", "[outputs]") {
  CHECK(pure_path("a//./b/") == "a/b");
  CHECK(pure_path("") == ".");
  CHECK(pure_path("///x/y") == "/x/y");
  CHECK(pure_path("//x/y") == "//x/y");
  CHECK(path_parent("a//./b/") == "a");
  CHECK(path_parent("report.md") == ".");
  CHECK(path_parent("/") == "/");
  CHECK(path_parent("//x") == "//");
  CHECK(path_parent("a/../b") == "a/..");
  CHECK(path_parent("/tmp/x/") == "/tmp");
  CHECK(path_name("/tmp/x/") == "x");
  CHECK(path_name(".") == "");
  CHECK(absolute_path("/a/../b") == "/b");
  CHECK(absolute_path("/../../x//y/.") == "/x/y");
  CHECK(absolute_path("//a/b") == "//a/b");
  CHECK(absolute_path("///a") == "/a");
  CHECK(absolute_path("x/../y") == fs::current_path().string() + "/y");
}

TEST_CASE("POSIX path text joins to a working folder of / without doubling the slash", "[outputs]") {
  constexpr auto posix = PathStyle::posix;
  CHECK(absolute_path("a.md", "/", posix) == "/a.md");
  CHECK(absolute_path("x/../a.md", "/", posix) == "/a.md");
  CHECK(absolute_path("a.md", "/w/x/", posix) == "/w/x/a.md");
  CHECK(absolute_path("../a.md", "//w", posix) == "//a.md");
  CHECK(path_join("/", "a", posix) == "/a");
  CHECK(path_join("a", "b", posix) == "a/b");
  CHECK(path_join("", "b", posix) == "b");
  CHECK(pure_path("a\\b", posix) == "a\\b");                       // a backslash is part of a POSIX name
  CHECK(path_name("/tmp/r\xe9port.md", posix) == "r\xe9port.md");  // bytes, not UTF-8
}

TEST_CASE("path text in the Windows style is PureWindowsPath's and ntpath's", "[outputs]") {
  constexpr auto windows = PathStyle::windows;
  CHECK(pure_path("C:/a//b/", windows) == "C:\\a\\b");
  CHECK(pure_path("c:\\x\\.\\y", windows) == "c:\\x\\y");
  CHECK(pure_path("C:a", windows) == "C:a");
  CHECK(pure_path("//server/share/x/r.md", windows) == "\\\\server\\share\\x\\r.md");
  CHECK(pure_path("//server/share", windows) == "\\\\server\\share\\");
  CHECK(pure_path("\\\\server\\\\x", windows) == "\\server\\x");
  CHECK(pure_path("", windows) == ".");
  CHECK(path_parent("C:/a//b/", windows) == "C:\\a");
  CHECK(path_parent("C:a", windows) == "C:");
  CHECK(path_parent("C:", windows) == "C:");
  CHECK(path_parent("//server/share/x/r.md", windows) == "\\\\server\\share\\x");
  CHECK(path_parent("//server/share", windows) == "\\\\server\\share\\");
  CHECK(path_parent("//server", windows) == "\\");
  CHECK(path_parent("a/../b", windows) == "a\\..");
  CHECK(path_name("C:", windows) == "");
  CHECK(path_name("//server/share/x/r.md", windows) == "r.md");
  CHECK(path_join("C:\\", "a", windows) == "C:\\a");
  CHECK(path_join("C:", "a", windows) == "C:a");
  CHECK(path_join("\\\\s\\sh", "a", windows) == "\\\\s\\sh\\a");
  CHECK(absolute_path("..\\a/./b", "C:\\w\\x", windows) == "C:\\w\\a\\b");
  CHECK(absolute_path("..\\..\\..\\a", "C:\\w", windows) == "C:\\a");
  // What GetFullPathName gives: a root without a drive is on the working folder's drive, and
  // "D:a" is relative to D:'s own working folder (here its root).
  CHECK(absolute_path("\\a", "D:\\w", windows) == "D:\\a");
  CHECK(absolute_path("c:a", "C:\\w", windows) == "C:\\w\\a");
  CHECK(absolute_path("D:a", "C:\\w", windows) == "D:\\a");
}

TEST_CASE("a path that is not UTF-8 is written under its own bytes", "[outputs]") {
  Folder folder;
  const std::string target = folder.at("r\xe9port.md");
  check_output_path(target);
  write_outputs({{target, text("x\n")}});
  CHECK(read(target) == "x\n");
  CHECK(folder.names() == std::vector<std::string>{"r\xe9port.md"});
}

TEST_CASE("a replacement is atomic, keeps the mode and leaves no temporary file", "[outputs]") {
  Folder folder;
  const std::string target = folder.at("report.md");
  put(target, "old\n");
  ::chmod(target.c_str(), 0640);
  write_atomic(target, text("new\n"));
  CHECK(read(target) == "new\n");
  struct stat info {};
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0640);
  CHECK(folder.names() == std::vector<std::string>{"report.md"});
}

TEST_CASE("a new file gets 0666 less the umask", "[outputs]") {
  Folder folder;
  const mode_t mask = ::umask(027);
  write_atomic(folder.at("new.md"), text("x"));
  ::umask(mask);
  struct stat info {};
  REQUIRE(::stat(folder.at("new.md").c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0640);
}

TEST_CASE("bad output paths are refused before anything is written, naming the path", "[outputs]") {
  Folder folder;
  put(folder.at("victim.txt"), "keep me\n");
  fs::create_symlink(folder.at("victim.txt"), folder.at("link.md"));
  const std::string missing = folder.at("no-such-folder/comment.md");
  CHECK_THROWS_WITH(
      (check_output_path(folder.at("link.md"))),
      folder.at("link.md") +
          ": is a symbolic link; benchreport does not write through one (remove it, or give the path it points to)");
  CHECK_THROWS_WITH((check_output_path(folder.root.string())),
                    folder.root.string() + ": exists and is not a regular file");
  CHECK_THROWS_WITH((check_output_path(missing)),
                    missing + ": its folder " + folder.at("no-such-folder") + " does not exist");
  CHECK_THROWS_WITH((check_output_path(folder.at("victim.txt/x"))),
                    folder.at("victim.txt/x") + ": cannot be written (Not a directory)");
  CHECK_THROWS_AS(check_output_path(missing), OutputError);
  // One bad path among several: nothing is written, the good ones included.
  const std::vector<OutputFile> outputs{{folder.at("a.md"), text("a")}, {missing, text("b")}};
  CHECK_THROWS_WITH((write_outputs(outputs)), Catch::Contains("does not exist"));
  const std::string twice = folder.at("b.md");
  const std::vector<OutputFile> same{{twice, text("x")}, {folder.at("./b.md"), text("y")}};
  CHECK_THROWS_WITH((write_outputs(same)), twice + ": named as two different outputs");
  CHECK(folder.names() == std::vector<std::string>{"link.md", "victim.txt"});
  CHECK(read(folder.at("victim.txt")) == "keep me\n");
}

TEST_CASE("rendered outputs are written first, and a failed one leaves every path untouched", "[outputs]") {
  Folder folder;
  put(folder.at("report.json"), "old\n");
  const FdWriter fails = [](int fd) {
    write_all(fd, "partial");
    throw std::bad_alloc();
  };
  CHECK_THROWS_AS(write_outputs({{folder.at("other.md"), text("x\n")}, {folder.at("report.json"), fails, false, true}}),
                  std::bad_alloc);
  CHECK(read(folder.at("report.json")) == "old\n");
  CHECK(folder.names() == std::vector<std::string>{"report.json"});
  const FdWriter refused = [](int) { throw DescriptorWriteError{"No space left on device"}; };
  CHECK_THROWS_WITH((write_atomic(folder.at("report.json"), refused)),
                    folder.at("report.json") + ": cannot be written (No space left on device)");
  CHECK(folder.names() == std::vector<std::string>{"report.json"});
}

TEST_CASE("appends come last, create the file and never follow a link", "[outputs]") {
  Folder folder;
  const std::string summary = folder.at("summary.md");
  put(summary, "previous step\n");
  std::vector<std::string> order;
  const auto noting = [&order](std::string name) {
    return [&order, name](int fd) {
      order.push_back(name);
      write_all(fd, name + "\n");
    };
  };
  write_outputs({{summary, noting("appended"), true},
                 {folder.at("comment.md"), noting("replaced")},
                 {folder.at("report.html"), noting("rendered"), false, true}});
  CHECK(order == std::vector<std::string>{"rendered", "replaced", "appended"});
  CHECK(read(summary) == "previous step\nappended\n");
  append_output(folder.at("fresh.md"), text("one\n"));
  CHECK(read(folder.at("fresh.md")) == "one\n");
  fs::create_symlink(summary, folder.at("link.md"));
  CHECK_THROWS_WITH((append_output(folder.at("link.md"), text("x"))),
                    folder.at("link.md") + ": cannot be appended to (Too many levels of symbolic links)");
}

TEST_CASE("a stream is written in place, also through a link", "[outputs]") {
  Folder folder;
  check_output_path("/dev/null");
  write_atomic("/dev/null", text("discarded"));
  fs::create_symlink("/dev/null", folder.at("null"));
  check_output_path(folder.at("null"));
  write_outputs({{folder.at("null"), text("discarded")}});
  CHECK(fs::is_symlink(folder.at("null")));
  CHECK(fs::is_character_file("/dev/null"));
}

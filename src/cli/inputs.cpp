#include "benchreport/cli/inputs.hpp"

#include <filesystem>
#include <fstream>

#include "benchreport/core/python_text.hpp"
#include "benchreport/cli/usage_error.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/io/paths.hpp"

namespace benchreport::cli {
namespace {

namespace fs = std::filesystem;

std::string read_stdin_checked(const ReadStdin& read, std::uint64_t max_bytes) {
  std::string data = read(max_bytes + 1);  // one byte past the limit tells "more" from "exactly"
  if (data.size() > max_bytes)
    throw UsageError(std::string(kStdinName) + ": more than " + std::to_string(max_bytes) +
                     " bytes exceeds the input size limit (the readers' max_file_size; pass a file instead)");
  if (strip(data).empty()) throw UsageError(std::string(kStdinName) + ": empty input");
  return data;
}

// The stored size of a file, or for a .gz its gzip trailer's length when larger.
std::uint64_t file_bytes(const fs::path& file, bool gzip_trailer) {
  std::error_code error;
  std::uint64_t size = fs::file_size(file, error);
  if (error) return 0;
  const std::string name = file.filename().string();
  if (gzip_trailer && size >= 18 && name.size() > 3 && name.ends_with(".gz")) {
    std::ifstream in(file, std::ios::binary);
    unsigned char trailer[4] = {};
    if (in.seekg(-4, std::ios::end) && in.read(reinterpret_cast<char*>(trailer), 4)) {
      const std::uint64_t isize = trailer[0] | trailer[1] << 8 | trailer[2] << 16 | std::uint64_t{trailer[3]} << 24;
      size = std::max(size, isize);
    }
  }
  return size;
}

std::uint64_t bytes_of(const Source& source, bool gzip_trailer) {
  if (source.is_stdin()) return source.data->size();
  const fs::path path(source.name);
  std::error_code error;
  if (!fs::is_directory(path, error)) return fs::is_regular_file(path, error) ? file_bytes(path, gzip_trailer) : 0;
  std::uint64_t total = 0;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, error), end;
  for (; !error && it != end; it.increment(error))
    if (it->is_regular_file(error)) total += file_bytes(it->path(), gzip_trailer);
  return total;
}

}  // namespace

std::vector<Source> expand_inputs(const std::vector<std::string>& items, const ReadStdin& read_stdin,
                                  std::uint64_t max_bytes) {
  std::vector<Source> sources;
  bool stdin_read = false;
  for (const std::string& item : items) {
    if (item == "-") {
      if (stdin_read) throw UsageError("-: stdin can be given only once");
      stdin_read = true;
      sources.push_back(
          {std::string(kStdinName), std::make_shared<const std::string>(read_stdin_checked(read_stdin, max_bytes))});
      continue;
    }
    std::vector<std::string> paths;
    try {
      paths = expand_paths({item});
    } catch (const InputError&) {
    }
    std::error_code error;
    if (paths.empty() || !fs::exists(paths.front(), error))
      throw UsageError(item + ": no such file, folder or glob match");
    for (std::string& path : paths) sources.push_back({std::move(path), nullptr});
  }
  if (sources.empty()) throw UsageError("no input files given");
  return sources;
}

std::uint64_t input_bytes(const std::vector<Source>& sources) {
  std::uint64_t total = 0;
  for (const Source& source : sources) total += bytes_of(source, false);
  return total;
}

std::uint64_t source_bytes(const Source& source) { return bytes_of(source, true); }

}  // namespace benchreport::cli

// Entry points: read a file, a folder, several files or a buffer, dispatching
// to the reader for the format.
#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <memory>

#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"
#include "gzip.hpp"
#include "reader.hpp"

#if defined(__unix__) || defined(__APPLE__)
#define BENCHREPORT_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define BENCHREPORT_MMAP 0
#endif

namespace benchreport {
namespace fs = std::filesystem;
namespace {

using ReaderFn = Dataset (*)(const io::Source&);

ReaderFn reader_for(std::string_view format, std::string_view name) {
  static const std::pair<std::string_view, ReaderFn> kReaders[] = {
      {"google-benchmark", io::read_google_benchmark}, {"hyperfine", io::read_hyperfine},
      {"pyperf", io::read_pyperf},                     {"pytest-benchmark", io::read_pytest_benchmark},
      {"go", io::read_go},                             {"nitro", io::read_nitro},
      {"criterion", io::read_criterion},               {"zfh", io::read_zfh},
      {"json", io::read_canonical_json},               {"csv", io::read_canonical_csv},
      {"bmf", io::read_bmf},
  };
  for (const auto& [reader_name, fn] : kReaders) {
    if (reader_name == format) return fn;
  }
  throw InputError(fmt::format("{}: unknown format \"{}\" (expected auto or one of {})", name, format,
                               fmt::join(reader_names(), ", ")));
}

// Runs a reader; any message that does not yet name the file gets it as a prefix.
Dataset run_reader(ReaderFn reader, const io::Source& source) {
  try {
    return reader(source);
  } catch (const InputError& e) {
    const std::string_view message = e.what();
    if (message.starts_with(source.name)) throw;
    throw InputError(fmt::format("{}: {}", source.name, message));
  }
}

// A file's bytes followed by at least simdjson::SIMDJSON_PADDING readable
// zero bytes, so that JSON readers parse them in place (no padded copy).
// On POSIX systems the file is mapped read-only and private (no copy out of
// the page cache; see writable()) over an anonymous zero region that supplies
// the padding; elsewhere,
// or when mapping fails, it is read into a buffer.
class FileBytes {
 public:
  FileBytes() = default;
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  FileBytes(FileBytes&& other) noexcept { *this = std::move(other); }
  FileBytes& operator=(FileBytes&& other) noexcept {
    std::swap(buffer_, other.buffer_);
    std::swap(mapping_, other.mapping_);
    std::swap(mapped_length_, other.mapped_length_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~FileBytes() {
#if BENCHREPORT_MMAP
    if (mapping_ != nullptr) munmap(mapping_, mapped_length_);
#endif
  }

  static FileBytes load(const fs::path& path, std::size_t size) {
    FileBytes file;
    file.size_ = size;
#if BENCHREPORT_MMAP
    if (file.map(path)) return file;
#endif
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("{}: cannot open for reading", path.string()));
    // Left uninitialised (the read fills it; zeroing first would touch every page twice) but the padding.
    file.buffer_.reset(new char[size + simdjson::SIMDJSON_PADDING]);
    std::fill_n(file.buffer_.get() + size, simdjson::SIMDJSON_PADDING, '\0');
    in.read(file.buffer_.get(), static_cast<std::streamsize>(size));
    if (static_cast<std::uint64_t>(in.gcount()) != size) throw InputError(fmt::format("{}: read failed", path.string()));
    return file;
  }

  // The start of the bytes, writable over [offset, offset + length), or
  // nullptr. The mapping is private: the pages written to become private
  // copies (writable until unmapped) and nothing reaches the file.
  char* writable(std::size_t offset, std::size_t length) {
#if BENCHREPORT_MMAP
    if (mapping_ != nullptr) {
      const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
      const std::size_t first = offset / page * page;
      char* base = static_cast<char*>(mapping_);
      return mprotect(base + first, offset + length - first, PROT_READ | PROT_WRITE) == 0 ? base : nullptr;
    }
#endif
    (void)offset;
    (void)length;
    return buffer_.get();
  }

  std::string_view bytes() const {
    if (mapping_ != nullptr) return {static_cast<const char*>(mapping_), size_};
    return buffer_ ? std::string_view(buffer_.get(), size_) : std::string_view();
  }

 private:
#if BENCHREPORT_MMAP
#ifdef MAP_POPULATE
  // Linux: fault the whole file in with the mapping (one call instead of a trap per few pages).
  static constexpr int kMapFlags = MAP_PRIVATE | MAP_FIXED | MAP_POPULATE;
#else
  static constexpr int kMapFlags = MAP_PRIVATE | MAP_FIXED;
#endif
  bool map(const fs::path& path) {
    if (size_ == 0) return false;
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t length = (size_ + simdjson::SIMDJSON_PADDING + page - 1) / page * page;
    void* region = mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) return false;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    // The file may have changed since its size was taken: only map what is really there
    // (otherwise reading past its end would be SIGBUS); the copying path reports the difference.
    struct stat status {};
    const bool same_size = fd >= 0 && fstat(fd, &status) == 0 && static_cast<std::uint64_t>(status.st_size) == size_;
    void* mapped = same_size ? mmap(region, size_, PROT_READ, kMapFlags, fd, 0) : MAP_FAILED;
    if (fd >= 0) close(fd);
    if (mapped == MAP_FAILED) {
      munmap(region, length);
      return false;
    }
    mapping_ = region;
    mapped_length_ = length;
    return true;
  }
#endif

  std::unique_ptr<char[]> buffer_;
  void* mapping_ = nullptr;
  std::size_t mapped_length_ = 0;
  std::size_t size_ = 0;
};

FileBytes load_file(const fs::path& path, const ReadOptions& options) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw InputError(fmt::format("{}: cannot read ({})", path.string(), ec.message()));
  if (size > options.max_file_size) {
    throw InputError(fmt::format("{}: {} bytes exceeds the input size limit of {} bytes (raise ReadOptions::max_file_size)",
                                 path.string(), size, options.max_file_size));
  }
  return FileBytes::load(path, static_cast<std::size_t>(size));
}

constexpr std::size_t kDetectPrefix = 65536;

// Detection looks at the first bytes only; of a gzip file, the first bytes it decompresses to.
std::string detection_prefix(std::string_view bytes, std::string_view name, const ReadOptions& options) {
  if (!io::is_gzip(bytes)) return std::string(bytes.substr(0, kDetectPrefix));
  return io::gunzip(bytes, name, std::min<std::uint64_t>(kDetectPrefix, options.max_file_size), true);
}

// Detection by name looks through ".gz" ("results.csv.gz" is CSV).
std::string_view without_gz(std::string_view name) { return name.ends_with(".gz") ? name.substr(0, name.size() - 3) : name; }

Dataset read_plain(std::string_view bytes, const std::string& name, std::string_view format, const ReadOptions& options,
                   std::string_view companion, bool padded, const std::function<char*(std::size_t, std::size_t)>& writable) {
  const std::string chosen =
      format == "auto" ? detect_format(without_gz(name), bytes.substr(0, kDetectPrefix)) : std::string(format);
  return run_reader(reader_for(chosen, name), io::Source{name, bytes, options, companion, padded, writable});
}

bool is_hidden(const fs::path& path) {
  const auto name = path.filename().string();
  return !name.empty() && name.front() == '.';
}

// Every regular file under `dir`, sorted, hidden files and folders excluded.
std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    if (is_hidden(it->path())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Dataset read_directory(const fs::path& dir, std::string_view format, const ReadOptions& options) {
  Dataset out;
  std::vector<std::string> skipped;
  for (const auto& file : files_under(dir)) {
    // criterion's benchmark.json is read together with the sample.json beside it.
    if (file.filename() == "benchmark.json" && fs::exists(file.parent_path() / "sample.json")) continue;
    if (format == "auto") {
      const FileBytes bytes = load_file(file, options);
      try {
        detect_format(file.string(), detection_prefix(bytes.bytes(), file.string(), options));
      } catch (const InputError&) {
        skipped.push_back(fs::relative(file, dir).string());
        continue;
      }
    }
    out.append(read(file, format, options));
  }
  if (!skipped.empty()) {
    out.warn(fmt::format("{}: skipped {} files no reader recognises: {}", dir.string(), skipped.size(), fmt::join(skipped, ", ")));
  }
  if (out.empty() && out.runs().empty()) throw InputError(fmt::format("{}: no benchmark results found in this folder", dir.string()));
  return out;
}

FileBytes companion_for(const fs::path& path, const ReadOptions& options) {
  if (path.filename() != "sample.json") return {};
  const auto sibling = path.parent_path() / "benchmark.json";
  return fs::exists(sibling) ? load_file(sibling, options) : FileBytes();
}

}  // namespace

Dataset read_buffer(std::string_view bytes, std::string_view name, std::string_view format, const ReadOptions& options) {
  if (io::is_gzip(bytes)) {
    const std::string plain = io::gunzip(bytes, name, options.max_file_size);
    return read_plain(plain, std::string(name), format, options, {}, false, {});
  }
  return read_plain(bytes, std::string(name), format, options, {}, false, {});
}

Dataset read(const fs::path& path, std::string_view format, const ReadOptions& options) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return read_directory(path, format, options);
  FileBytes file = load_file(path, options);
  const std::string name = path.string();
  if (io::is_gzip(file.bytes())) {
    const std::string plain = io::gunzip(file.bytes(), name, options.max_file_size);
    return read_plain(plain, name, format, options, {}, false, {});
  }
  const bool criterion = format == "criterion" || (format == "auto" && path.filename() == "sample.json");
  const FileBytes companion = criterion ? companion_for(path, options) : FileBytes();
  const auto writable = [&file](std::size_t offset, std::size_t length) { return file.writable(offset, length); };
  return read_plain(file.bytes(), name, format, options, companion.bytes(), true, writable);
}

Dataset read_many(std::span<const fs::path> paths, std::string_view format, const ReadOptions& options) {
  Dataset out;
  for (const auto& path : paths) out.append(read(path, format, options));
  return out;
}

}  // namespace benchreport

// Entry points: read a file, a folder, several files or a buffer, dispatching
// to the reader for the format.
#include <algorithm>
#include <cerrno>
#include <fmt/format.h>
#include <fstream>
#include <memory>

#include "benchreport/core/error.hpp"
#include "benchreport/io/nitro.hpp"
#include "benchreport/io/paths.hpp"
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
      {"google-benchmark", io::read_google_benchmark},
      {"hyperfine", io::read_hyperfine},
      {"pyperf", io::read_pyperf},
      {"pytest-benchmark", io::read_pytest_benchmark},
      {"go", io::read_go},
      {"nitro", io::read_nitro},
      {"criterion", io::read_criterion},
      {"zfh", io::read_zfh},
      {"json", io::read_canonical_json},
      {"csv", io::read_canonical_csv},
      {"bmf", io::read_bmf},
  };
  for (const auto& [reader_name, fn] : kReaders) {
    if (reader_name == format) return fn;
  }
  throw InputError(fmt::format("{}: unknown format \"{}\" (expected auto or one of {})", name, format,
                               fmt::join(reader_names(), ", ")));
}

// A file of a tool's format that yields no sample set is an error naming the
// file (with the reader's warnings, which say why: e.g. every benchmark
// reported an error). Exempt: canonical JSON (how an empty Dataset is written;
// it reads back empty) and Nitro's suite files (run metadata only, read with
// the process files of their folder).
void check_not_empty(const Dataset& dataset, std::string_view format, std::string_view name) {
  if (dataset.n_sets() > 0 || format == "json" || (format == "nitro" && !dataset.runs().empty())) return;
  std::string why;
  for (const auto& warning : dataset.warnings()) {
    std::string_view text = warning;
    if (text.starts_with(name) && text.substr(name.size()).starts_with(": ")) text.remove_prefix(name.size() + 2);
    why += fmt::format("; {}", text);
  }
  throw InputError(fmt::format("{}: no samples (the file holds no benchmark results){}", name, why));
}

// Runs a reader; any message that does not yet name the file gets it as a prefix.
Dataset run_reader(ReaderFn reader, const io::Source& source, std::string_view format) {
  try {
    Dataset dataset = reader(source);
    check_not_empty(dataset, format, source.name);
    return dataset;
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
    if (static_cast<std::uint64_t>(in.gcount()) != size)
      throw InputError(fmt::format("{}: read failed", path.string()));
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
    // O_NONBLOCK: opening a FIFO put in place of the file since its size was taken must not wait for a writer.
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    // The file may have changed since its size was taken: only map what is really there
    // (otherwise reading past its end would be SIGBUS); the copying path reports the difference.
    struct stat status {};
    const bool stat_ok = fd >= 0 && fstat(fd, &status) == 0;
    if (stat_ok && !S_ISREG(status.st_mode)) {
      close(fd);
      munmap(region, length);
      throw InputError(fmt::format("{}: not a regular file", path.string()));
    }
    const bool same_size = stat_ok && static_cast<std::uint64_t>(status.st_size) == size_;
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

// What a path that is not a regular file is, for messages.
std::string_view type_name(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a folder";
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::block: return "a block device";
    case fs::file_type::character: return "a character device";
    default: return "not a regular file";
  }
}

FileBytes load_file(const fs::path& path, const ReadOptions& options) {
  std::error_code ec;
  if (const fs::file_status status = fs::status(path, ec); !ec && fs::exists(status) && !fs::is_regular_file(status)) {
    throw InputError(
        fmt::format("{}: not a regular file ({}): nothing is read from it", path.string(), type_name(status.type())));
  }
  const auto size = fs::file_size(path, ec);
  if (ec) throw InputError(fmt::format("{}: cannot read ({})", path.string(), ec.message()));
  if (size > options.max_file_size) {
    throw InputError(
        fmt::format("{}: {} bytes exceeds the input size limit of {} bytes (raise ReadOptions::max_file_size)",
                    path.string(), size, options.max_file_size));
  }
  return FileBytes::load(path, static_cast<std::size_t>(size));
}

constexpr std::size_t kDetectPrefix = 65536;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Detection looks at the first bytes only; of a gzip file, the first bytes it decompresses to.
std::string detection_prefix(std::string_view bytes, std::string_view name, const ReadOptions& options) {
  if (!io::is_gzip(bytes)) return std::string(bytes.substr(0, kDetectPrefix));
  return io::gunzip(bytes, name, std::min<std::uint64_t>(kDetectPrefix, options.max_file_size), true);
}

// The first kDetectPrefix bytes of a file, read without mapping or reading
// the rest: a folder walk detects every file's format before it reads any.
std::string read_file_prefix(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw InputError(fmt::format("{}: cannot read ({})", path.string(), ec.message()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open for reading", path.string()));
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(size, kDetectPrefix)), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head;
}

// Detection by name looks through ".gz" ("results.csv.gz" is CSV).
std::string_view without_gz(std::string_view name) {
  return name.ends_with(".gz") ? name.substr(0, name.size() - 3) : name;
}

// The one place a byte order mark is handled: a UTF-8 BOM (which editors and
// PowerShell write) is dropped before detection and before any reader sees
// the bytes; UTF-16/32 text is refused by name.
std::string_view without_bom(std::string_view bytes, std::string_view name) {
  if (bytes.starts_with(kUtf8Bom)) return bytes.substr(kUtf8Bom.size());
  const auto utf16 = [&](std::string_view mark, std::string_view what) {
    if (bytes.starts_with(mark)) {
      throw InputError(
          fmt::format("{}: starts with a {} byte order mark: benchreport reads UTF-8 text only "
                      "(convert it, e.g. iconv -f {} -t UTF-8)",
                      name, what, what));
    }
  };
  utf16(std::string_view("\xFF\xFE\0\0", 4), "UTF-32LE");
  utf16("\xFF\xFE", "UTF-16LE");
  utf16("\xFE\xFF", "UTF-16BE");
  return bytes;
}

Dataset read_plain(std::string_view bytes, const std::string& name, std::string_view format, const ReadOptions& options,
                   std::string_view companion, bool padded,
                   const std::function<char*(std::size_t, std::size_t)>& writable) {
  const std::string_view text = without_bom(bytes, name);
  const std::size_t skipped = bytes.size() - text.size();
  const std::string chosen =
      format == "auto" ? detect_format(without_gz(name), text.substr(0, kDetectPrefix)) : std::string(format);
  // Readers see offsets from the start of `text`; the bytes before it stay out of their view.
  std::function<char*(std::size_t, std::size_t)> shifted;
  if (writable) {
    shifted = [&writable, skipped](std::size_t offset, std::size_t length) -> char* {
      char* start = writable(offset + skipped, length);
      return start == nullptr ? nullptr : start + skipped;
    };
  }
  Dataset dataset =
      run_reader(reader_for(chosen, name), io::Source{name, text, options, companion, padded, shifted}, chosen);
  // The canonical formats keep no tool: their runs say nothing about what one sample is.
  if (chosen != "json" && chosen != "csv") {
    for (const auto& run : dataset.runs()) dataset.set_run_format(run.id, chosen);
  }
  return dataset;
}

bool is_hidden(const fs::path& path) {
  const auto name = path.filename().string();
  return !name.empty() && name.front() == '.';
}

// What a folder entry that is not read is, for the warning that lists them ("" = a regular file or folder).
std::string special_kind(const fs::directory_entry& entry) {
  std::error_code ec;
  const fs::file_status link = entry.symlink_status(ec);
  if (ec) return fmt::format("cannot stat: {}", ec.message());
  if (fs::is_symlink(link)) {
    const fs::file_status target = fs::status(entry.path(), ec);
    if (ec && ec.value() == ELOOP) return "symlink loop";
    if (ec || !fs::exists(target)) return "dangling symlink";
    if (fs::is_directory(target)) return "symlink to a folder, not followed";
    if (!fs::is_regular_file(target)) return "symlink to a special file";
    return {};
  }
  switch (link.type()) {
    case fs::file_type::regular:
    case fs::file_type::directory: return {};
    case fs::file_type::fifo: return "FIFO";
    case fs::file_type::socket: return "socket";
    case fs::file_type::block: return "block device";
    case fs::file_type::character: return "character device";
    default: return "not a regular file";
  }
}

struct FolderFiles {
  std::vector<fs::path> files;      // regular files (or symlinks to one), sorted
  std::vector<std::string> others;  // "relative/path (what it is)": never opened
  std::vector<std::string> hidden;  // relative paths of hidden files and folders (not descended into)
};

// Every regular file under `dir`, hidden files and folders excluded (and listed); every
// other entry (symlink loops, dangling symlinks, FIFOs, sockets, devices,
// symlinked folders) is listed in `others` without being opened.
FolderFiles files_under(const fs::path& dir) {
  FolderFiles out;
  std::error_code ec;
  const auto fail = [&](const std::error_code& error) {
    throw InputError(fmt::format("{}: cannot list the folder ({})", dir.string(), error.message()));
  };
  auto it = fs::recursive_directory_iterator(dir, fs::directory_options::none, ec);
  if (ec) fail(ec);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) fail(ec);
    const fs::directory_entry& entry = *it;
    if (is_hidden(entry.path())) {
      std::error_code dir_ec;
      if (entry.is_directory(dir_ec) && !entry.is_symlink(dir_ec)) it.disable_recursion_pending();
      out.hidden.push_back(entry.path().lexically_relative(dir).string());
      continue;
    }
    const std::string kind = special_kind(entry);
    if (!kind.empty()) {
      out.others.push_back(fmt::format("{} ({})", entry.path().lexically_relative(dir).string(), kind));
      continue;
    }
    std::error_code type_ec;
    if (entry.is_regular_file(type_ec)) out.files.push_back(entry.path());
  }
  if (ec) fail(ec);
  std::sort(out.files.begin(), out.files.end());
  std::sort(out.others.begin(), out.others.end());
  std::sort(out.hidden.begin(), out.hidden.end());
  return out;
}

Dataset read_directory(const fs::path& dir, std::string_view format, const ReadOptions& options) {
  Dataset out;
  std::vector<std::string> skipped;
  std::vector<std::string> reports;  // benchreport's own outputs ("report.csv (a CSV report)")
  const FolderFiles entries = files_under(dir);
  for (const auto& file : entries.files) {
    // criterion's benchmark.json is read together with the sample.json beside it.
    if (file.filename() == "benchmark.json" && fs::exists(file.parent_path() / "sample.json")) continue;
    const std::string relative = file.lexically_relative(dir).string();
    const std::string first = read_file_prefix(file);
    std::string head;
    std::string_view report_kind;
    bool recognised = true;
    try {
      head = detection_prefix(first, file.string(), options);
      const std::string_view text = without_bom(head, file.string());
      report_kind = own_report_kind(text);
      if (report_kind.empty() && format == "auto") detect_format(file.string(), text);
    } catch (const InputError&) {
      recognised = false;  // with a format named, reading it says why
    }
    if (!report_kind.empty()) {
      reports.push_back(fmt::format("{} ({})", relative, report_kind));
      continue;
    }
    if (!recognised && format == "auto") {
      skipped.push_back(relative);
      continue;
    }
    out.append(read(file, format, options));
  }
  std::vector<std::string> notes;
  if (!reports.empty()) {
    notes.push_back(fmt::format("{}: skipped {} reports benchreport wrote (not benchmark results): {}", dir.string(),
                                reports.size(), fmt::join(reports, ", ")));
  }
  if (!skipped.empty()) {
    notes.push_back(fmt::format("{}: skipped {} files no reader recognises: {}", dir.string(), skipped.size(),
                                fmt::join(skipped, ", ")));
  }
  if (!entries.others.empty()) {
    notes.push_back(fmt::format("{}: skipped {} entries that are not regular files: {}", dir.string(),
                                entries.others.size(), fmt::join(entries.others, ", ")));
  }
  if (!entries.hidden.empty()) {
    notes.push_back(fmt::format("{}: skipped {} hidden entries (names starting with \".\"; folders not entered): {}",
                                dir.string(), entries.hidden.size(), fmt::join(entries.hidden, ", ")));
  }
  if (out.empty() && out.runs().empty()) {
    std::string why;
    for (const auto& note : notes) why += fmt::format(" ({})", std::string_view(note).substr(dir.string().size() + 2));
    throw InputError(fmt::format("{}: no benchmark results found in this folder{}", dir.string(), why));
  }
  for (const auto& note : notes) out.warn(note);
  return out;
}

FileBytes companion_for(const fs::path& path, const ReadOptions& options) {
  if (path.filename() != "sample.json") return {};
  const auto sibling = path.parent_path() / "benchmark.json";
  return fs::exists(sibling) ? load_file(sibling, options) : FileBytes();
}

}  // namespace

Dataset read_buffer(std::string_view bytes, std::string_view name, std::string_view format,
                    const ReadOptions& options) {
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

std::vector<Dataset> read_each(const std::vector<std::string>& items, std::string_view format,
                               const ReadOptions& options) {
  std::vector<Dataset> out;
  for (const auto& path : expand_paths(items)) out.push_back(read(path, format, options));
  return out;
}

Dataset read_inputs(const std::vector<std::string>& items, std::string_view format, const ReadOptions& options) {
  std::vector<Dataset> parts = read_each(items, format, options);
  if (parts.empty()) throw InputError("no input files given");
  if (parts.size() == 1) return std::move(parts.front());
  Dataset out;
  for (const auto& part : parts) out.append(part);
  return out;
}

const Comparability& reader_comparability() {
  static const Comparability kMerged = [] {
    Comparability merged;
    merged.work_keys = {"iterations"};  // Google Benchmark and Go: per-sample iteration counts
    merged.merge(nitro_comparability());
    merged.commit_keys.emplace_back("commit");  // any format's run metadata, after Nitro's commitSha
    return merged;
  }();
  return kMerged;
}

FormatConventions format_conventions(const Dataset& dataset) {
  for (const auto& run : dataset.runs()) {
    if (run.format == "nitro") return {nitro_section_order(), nitro_section_titles(), &nitro_case_name};
  }
  return {};
}

}  // namespace benchreport

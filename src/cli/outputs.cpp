#include "benchreport/cli/outputs.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <system_error>
#include <utility>

#include "benchreport/cli/path_text.hpp"

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_BINARY
#define O_BINARY 0
#endif

namespace benchreport::cli {

namespace {

std::string system_text(int error) { return std::generic_category().message(error); }

// A path's bytes as the file system's path: as they are on POSIX, UTF-8 (os.fsencode's) on Windows.
std::filesystem::path native(const std::string& path) {
#ifdef _WIN32
  return std::filesystem::path(std::u8string(path.begin(), path.end()));
#else
  return std::filesystem::path(path);
#endif
}

int open_file(const std::string& path, int flags, int mode = 0) {
#ifdef _WIN32
  return ::_wopen(native(path).c_str(), flags, mode);
#else
  return ::open(path.c_str(), flags, mode);
#endif
}

[[noreturn]] void fail(const std::string& path, const std::string& what, const std::string& reason) {
  throw OutputError(path + ": " + what + " (" + reason + ")");
}

// What is at a path: the part of stat the writer decides by.
enum class Kind { regular, link, stream, other };

struct Found {
  Kind kind;
  unsigned mode;  // permission bits, kept by a replacement
};

// lstat (follow = false) or stat of `path`; none when nothing is there, `error` set on another failure.
std::optional<Found> probe(const std::string& path, bool follow, int& error) {
  error = 0;
#ifdef _WIN32
  (void)follow;  // no symbolic links to refuse here: std::filesystem tells files from folders
  std::error_code ec;
  const auto status = std::filesystem::status(native(path), ec);
  if (status.type() == std::filesystem::file_type::not_found) return std::nullopt;
  if (ec) {
    error = ec.value();
    return std::nullopt;
  }
  const Kind kind = status.type() == std::filesystem::file_type::regular ? Kind::regular : Kind::other;
  return Found{kind, static_cast<unsigned>(status.permissions())};
#else
  struct stat info {};
  if ((follow ? ::stat(path.c_str(), &info) : ::lstat(path.c_str(), &info)) != 0) {
    if (errno != ENOENT) error = errno;
    return std::nullopt;
  }
  Kind kind = Kind::other;
  if (S_ISREG(info.st_mode)) kind = Kind::regular;
  if (S_ISLNK(info.st_mode)) kind = Kind::link;
  if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) kind = Kind::stream;
  return Found{kind, static_cast<unsigned>(info.st_mode & 07777)};
#endif
}

// What is at an output path (lstat of its pathlib form); OutputError when that cannot be known.
std::optional<Found> probe_output(const std::string& path) {
  int error = 0;
  auto found = probe(pure_path(path), false, error);
  if (error != 0) fail(path, "cannot be written", system_text(error));
  return found;
}

// Written in place, never renamed over: a stream, a link to one, or one of this process's descriptors
// (`-o /dev/stdout` with stdout redirected to a file).
bool is_stream_path(const std::string& path, const std::optional<Found>& found) {
  if (!found) return false;
  if (found->kind == Kind::stream) return true;
  if (found->kind != Kind::link) return false;
  if (path == "/dev/stdout" || path == "/dev/stderr") return true;
  if (path.rfind("/dev/fd/", 0) == 0 || path.rfind("/proc/self/fd/", 0) == 0) return true;
  int error = 0;
  const auto target = probe(path, true, error);
  return target && target->kind == Kind::stream;
}

bool is_folder(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(native(path), ec);
}

bool folder_writable(const std::string& folder) {
#ifdef _WIN32
  return ::_waccess(native(folder).c_str(), 2) == 0;
#else
  return ::access(folder.c_str(), W_OK | X_OK) == 0;
#endif
}

// The permission bits a new file gets: those of the file it replaces, else 0666 less the umask.
unsigned new_file_mode(const std::optional<Found>& existing) {
  if (existing) return existing->mode;
#ifdef _WIN32
  return 0666;
#else
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~static_cast<unsigned>(mask);
#endif
}

// Closes a descriptor once, on every way out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { close(); }
  int get() const { return fd_; }
  int close() {
    const int result = fd_ >= 0 ? ::close(fd_) : 0;
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

// Opens a new temporary file ".<name>.XXXXXX.tmp" beside `path` (readable by its owner only until renamed).
std::string make_temporary(const std::string& path, int& fd) {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
  std::random_device entropy;
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kLetters - 2);
  const std::string folder = path_parent(path);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = "." + path_name(path) + ".";
    for (int i = 0; i < 8; ++i) name += kLetters[pick(entropy)];
    const std::string temporary = path_join(folder, name + ".tmp");
    fd = open_file(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_BINARY, 0600);
    if (fd >= 0) return temporary;
    if (errno != EEXIST) fail(path, "cannot be written", system_text(errno));
  }
  fail(path, "cannot be written", system_text(EEXIST));
}

// Flushes the data to the disk and closes; the system's text on failure.
void sync_and_close(Descriptor& fd) {
#ifdef _WIN32
  const int synced = ::_commit(fd.get());
#else
  const int synced = ::fsync(fd.get());
#endif
  if (synced != 0) throw DescriptorWriteError{system_text(errno)};
  if (fd.close() != 0) throw DescriptorWriteError{system_text(errno)};
}

void set_mode(const std::string& file, unsigned mode) {
#ifdef _WIN32
  (void)file, (void)mode;  // Windows keeps only a read-only bit, which a new file does not have
#else
  if (::chmod(file.c_str(), static_cast<mode_t>(mode)) != 0) throw DescriptorWriteError{system_text(errno)};
#endif
}

void write_in_place(const std::string& path, const FdWriter& write) {
  Descriptor fd(open_file(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_BINARY));
  if (fd.get() < 0) fail(path, "cannot be written", system_text(errno));
  try {
    write(fd.get());
  } catch (const DescriptorWriteError& failed) {
    fail(path, "cannot be written", failed.reason);
  }
}

}  // namespace

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const auto written = ::write(fd, bytes.data(), static_cast<unsigned>(std::min<std::size_t>(bytes.size(), 1 << 30)));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw DescriptorWriteError{system_text(written < 0 ? errno : EIO)};
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

void check_output_path(const std::string& path) {
  const auto found = probe_output(path);
  if (is_stream_path(path, found)) return;
  if (found && found->kind == Kind::link) {
    throw OutputError(path +
                      ": is a symbolic link; benchreport does not write through one "
                      "(remove it, or give the path it points to)");
  }
  if (found && found->kind != Kind::regular) throw OutputError(path + ": exists and is not a regular file");
  const std::string folder = path_parent(path);
  if (!is_folder(folder)) throw OutputError(path + ": its folder " + folder + " does not exist");
  if (!folder_writable(folder)) throw OutputError(path + ": its folder " + folder + " is not writable");
}

void write_atomic(const std::string& path, const FdWriter& write) {
  const auto existing = probe_output(path);
  if (is_stream_path(path, existing)) {
    write_in_place(path, write);
    return;
  }
  const unsigned mode = new_file_mode(existing);
  int raw = -1;
  const std::string temporary = make_temporary(path, raw);
  Descriptor fd(raw);
  try {
    write(fd.get());
    sync_and_close(fd);
    set_mode(temporary, mode);
    std::error_code ec;
    std::filesystem::rename(native(temporary), native(pure_path(path)), ec);
    if (ec) throw DescriptorWriteError{ec.message()};
  } catch (...) {
    fd.close();
    std::error_code ignored;
    std::filesystem::remove(native(temporary), ignored);  // no partial file is left, whatever ended the write
    try {
      throw;
    } catch (const DescriptorWriteError& failed) {
      fail(path, "cannot be written", failed.reason);
    }
  }
}

void append_output(const std::string& path, const FdWriter& write) {
  Descriptor fd(open_file(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_BINARY, 0666));
  if (fd.get() < 0) fail(path, "cannot be appended to", system_text(errno));
  try {
    write(fd.get());
  } catch (const DescriptorWriteError& failed) {
    fail(path, "cannot be appended to", failed.reason);
  }
}

void write_outputs(const std::vector<OutputFile>& outputs) {
  for (const auto& output : outputs) check_output_path(output.path);
  std::vector<std::string> paths;
  for (const auto& output : outputs) paths.push_back(absolute_path(output.path));
  for (const auto& path : paths) {
    if (std::count(paths.begin(), paths.end(), path) > 1) throw OutputError(path + ": named as two different outputs");
  }
  // Rendered while written first (a rendering error then leaves every path untouched), appends last.
  std::vector<const OutputFile*> order;
  for (const auto& output : outputs) order.push_back(&output);
  std::stable_sort(order.begin(), order.end(), [](const OutputFile* a, const OutputFile* b) {
    return std::make_pair(a->append, !a->rendered) < std::make_pair(b->append, !b->rendered);
  });
  for (const OutputFile* output : order) {
    if (output->append) {
      append_output(output->path, output->write);
    } else {
      write_atomic(output->path, output->write);
    }
  }
}

}  // namespace benchreport::cli

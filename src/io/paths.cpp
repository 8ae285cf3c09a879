// Glob expansion and natural order of input paths (io/paths.hpp).
#include "benchreport/io/paths.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "benchreport/core/error.hpp"

namespace benchreport {
namespace fs = std::filesystem;

namespace {

// UTF-8 to code points; a byte that starts no valid sequence becomes U+DC80..U+DCFF, as Python's
// surrogateescape decodes a file name, so `?` and `[...]` see what fnmatch sees.
std::u32string code_points(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    bool ok = len != 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      ok = (c & 0xC0) == 0x80;
      cp = (cp << 6) | (c & 0x3F);
    }
    static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= kMin[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
    out.push_back(ok ? cp : 0xDC00 + b);
    i += ok ? len : 1;
  }
  return out;
}

// A `[...]` at pattern[at] (just after the `[`): where it ends (past the `]`), or npos when unclosed.
std::size_t set_end(const std::u32string& p, std::size_t at) {
  std::size_t j = at;
  if (j < p.size() && p[j] == U'!') ++j;
  if (j < p.size() && p[j] == U']') ++j;
  while (j < p.size() && p[j] != U']') ++j;
  return j < p.size() ? j + 1 : std::u32string::npos;
}

// Whether c is in the set p[from, to) (the text between `[` and `]`): `x-y` is a range (empty when
// x > y) unless the `-` is the last character; a leading `!` negates.
bool in_set(const std::u32string& p, std::size_t from, std::size_t to, char32_t c) {
  const bool negate = p[from] == U'!';
  bool found = false;
  for (std::size_t k = from + (negate ? 1 : 0); k < to;) {
    if (k + 2 < to && p[k + 1] == U'-') {
      found = found || (p[k] <= c && c <= p[k + 2]);
      k += 3;
    } else {
      found = found || p[k] == c;
      k += 1;
    }
  }
  return found != negate;
}

// One pattern element at p[k] against c: the next position in p, or npos for no match.
std::size_t match_one(const std::u32string& p, std::size_t k, char32_t c) {
  if (p[k] == U'?') return k + 1;
  if (p[k] == U'[') {
    const std::size_t end = set_end(p, k + 1);
    if (end != std::u32string::npos) return in_set(p, k + 1, end - 1, c) ? end : std::u32string::npos;
  }
  return p[k] == c ? k + 1 : std::u32string::npos;
}

bool is_hidden(std::string_view name) { return name.starts_with('.'); }
bool has_magic(std::string_view part) { return part.find_first_of("*?[") != std::string_view::npos; }

// os.path.join(base, name) for a relative name; "" is the current folder.
std::string join(const std::string& base, std::string_view name) {
  if (base.empty()) return std::string(name);
  return base.back() == '/' ? base + std::string(name) : base + '/' + std::string(name);
}

struct Entry {
  std::string name;
  bool dir = false;       // a folder, or a link to one
  bool real_dir = false;  // a folder, not a link
  bool link = false;
};

// The entries of a folder sorted by name; none when it cannot be read.
std::vector<Entry> entries(const std::string& folder) {
  std::vector<Entry> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder.empty() ? "." : folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;
    Entry e{it->path().filename().string()};
    e.link = it->is_symlink(ignored);
    e.dir = it->is_directory(ignored);
    e.real_dir = e.dir && !e.link;
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return out;
}

// `top` and every folder below it, links to folders not entered, hidden folders skipped.
void real_dirs(const std::string& top, std::vector<std::string>& out) {
  out.push_back(top);
  for (const Entry& e : entries(top)) {
    if (e.real_dir && !is_hidden(e.name)) real_dirs(join(top, e.name), out);
  }
}

void glob_parts(const std::string& base, const std::vector<std::string>& parts, std::size_t at,
                std::vector<std::string>& out) {
  if (at == parts.size()) {
    out.push_back(base);
    return;
  }
  const std::string& part = parts[at];
  const bool last = at + 1 == parts.size();
  if (part == "**") {
    std::vector<std::string> folders;
    real_dirs(base, folders);
    for (const std::string& folder : folders) {
      if (!last) {
        glob_parts(folder, parts, at + 1, out);
        continue;
      }
      out.push_back(folder.empty() ? "." : folder);  // a last "**" matches every entry below, as glob's
      for (const Entry& e : entries(folder)) {
        if (!e.real_dir) out.push_back(join(folder, e.name));
      }
    }
    return;
  }
  if (!has_magic(part)) {
    const std::string path = join(base, part);
    std::error_code ec;
    if (!last && fs::is_directory(path, ec)) glob_parts(path, parts, at + 1, out);
    if (last && fs::exists(fs::symlink_status(path, ec))) out.push_back(path);
    return;
  }
  for (const Entry& e : entries(base)) {
    if (is_hidden(e.name) && !is_hidden(part)) continue;
    if (!fnmatch(e.name, part)) continue;
    if (last) out.push_back(join(base, e.name));
    if (!last && e.dir) glob_parts(join(base, e.name), parts, at + 1, out);
  }
}

// Where a path leads, for keeping one match per file.
std::string resolved(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path.empty() ? "." : path, ec);
  const fs::path real = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal().string() : real.string();
}

}  // namespace

bool fnmatch(std::string_view name, std::string_view pattern) {
  const std::u32string s = code_points(name), p = code_points(pattern);
  // Greedy match with one backtrack point: the last `*` seen and where its match ended.
  std::size_t i = 0, k = 0, star = std::u32string::npos, star_i = 0;
  while (i < s.size()) {
    if (k < p.size() && p[k] == U'*') {
      star = k++;
      star_i = i;
      continue;
    }
    const std::size_t next = k < p.size() ? match_one(p, k, s[i]) : std::u32string::npos;
    if (next != std::u32string::npos) {
      k = next;
      ++i;
    } else if (star != std::u32string::npos) {
      k = star + 1;
      i = ++star_i;
    } else {
      return false;
    }
  }
  while (k < p.size() && p[k] == U'*') ++k;
  return k == p.size();
}

int natural_compare(std::string_view a, std::string_view b) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  // The run of a starting at i that is all digits (number) or has none (text).
  const auto run = [&](std::string_view s, std::size_t i, bool number) {
    std::size_t j = i;
    while (j < s.size() && digit(s[j]) == number) ++j;
    return s.substr(i, j - i);
  };
  std::size_t i = 0, j = 0;
  for (bool number = false;; number = !number) {
    if (number && (i == a.size() || j == b.size())) return i == a.size() ? (j == b.size() ? 0 : -1) : 1;
    std::string_view x = run(a, i, number), y = run(b, j, number);
    i += x.size();
    j += y.size();
    if (number) {  // by value: without leading zeros, the shorter is smaller
      x.remove_prefix(std::min(x.find_first_not_of('0'), x.size()));
      y.remove_prefix(std::min(y.find_first_not_of('0'), y.size()));
      if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
    }
    if (const int c = x.compare(y); c != 0) return c < 0 ? -1 : 1;
  }
}

std::vector<std::string> glob_paths(std::string_view pattern) {
  std::vector<std::string> parts;
  for (std::size_t at = 0; at <= pattern.size();) {
    const std::size_t end = std::min(pattern.find('/', at), pattern.size());
    if (end > at) parts.emplace_back(pattern.substr(at, end - at));
    at = end + 1;
  }
  std::vector<std::string> found;
  glob_parts(pattern.starts_with('/') ? "/" : "", parts, 0, found);
  std::sort(found.begin(), found.end(), [](const std::string& x, const std::string& y) {
    const int c = natural_compare(x, y);
    return c != 0 ? c < 0 : x < y;  // one order for spellings of one number
  });
  found.erase(std::unique(found.begin(), found.end()), found.end());
  std::set<std::string> seen;
  std::vector<std::string> out;
  for (std::string& path : found) {
    if (seen.insert(resolved(path)).second) out.push_back(std::move(path));
  }
  return out;
}

std::vector<std::string> expand_paths(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    std::error_code ec;
    if (!has_magic(item) || fs::exists(item, ec)) {
      out.push_back(item);
      continue;
    }
    std::vector<std::string> matches = glob_paths(item);
    if (matches.empty()) throw InputError(fmt::format("{}: no file matches this pattern", item));
    out.insert(out.end(), std::make_move_iterator(matches.begin()), std::make_move_iterator(matches.end()));
  }
  return out;
}

}  // namespace benchreport

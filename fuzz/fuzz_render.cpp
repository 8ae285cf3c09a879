// libFuzzer target: a Report whose names, labels, cell texts, links, numbers
// and samples all come from the fuzz input, rendered in every format. Each
// output is checked for the promises the renderers make about untrusted text
// (see docs/hardening.md); a broken promise aborts so libFuzzer keeps the input.
#include <fuzzer/FuzzedDataProvider.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "benchreport/core/error.hpp"
#include "benchreport/core/escape.hpp"
#include "benchreport/render/render.hpp"
#include "benchreport/report/report.hpp"

namespace {

using namespace benchreport;

[[noreturn]] void broken(const char* format, const char* what, std::string_view output) {
  std::fprintf(stderr, "render invariant broken (%s): %s\n--- output ---\n%.*s\n", format, what,
               static_cast<int>(std::min<std::size_t>(output.size(), 4000)), output.data());
  std::abort();
}

// ---------------------------------------------------------------- building

constexpr int kMaxDetailsDepth = 2;

std::string fuzz_text(FuzzedDataProvider& in) { return in.ConsumeRandomLengthString(48); }

double fuzz_number(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return in.ConsumeFloatingPoint<double>();  // any double incl. huge, tiny, denormal
    case 1: return in.ConsumeFloatingPointInRange<double>(-1e3, 1e3);
    case 2: return static_cast<double>(in.ConsumeIntegral<std::int16_t>());
    default: {
      constexpr std::array<double, 5> kSpecial = {0.0, -0.0, 1e-310, 1e308, 5e-324};
      return kSpecial[in.ConsumeIntegralInRange<std::size_t>(0, kSpecial.size() - 1)];
    }
  }
}

Spans fuzz_spans(FuzzedDataProvider& in) {
  Spans spans;
  const int n = in.ConsumeIntegralInRange(0, 4);
  for (int i = 0; i < n; ++i) {
    switch (in.ConsumeIntegralInRange(0, 3)) {
      case 0: spans.push_back(Span::plain(fuzz_text(in))); break;
      case 1: spans.push_back(Span::bold(fuzz_text(in))); break;
      case 2: spans.push_back(Span::code(fuzz_text(in))); break;
      default: {
        std::string text = fuzz_text(in);
        spans.push_back(Span::link(std::move(text), fuzz_text(in)));
      }
    }
  }
  return spans;
}

Cell fuzz_cell(FuzzedDataProvider& in) {
  Cell cell(fuzz_text(in), static_cast<CellRole>(in.ConsumeIntegralInRange(0, 9)));
  if (in.ConsumeBool()) cell.value = fuzz_number(in);
  if (in.ConsumeBool()) {
    const int n = in.ConsumeIntegralInRange(0, 12);
    for (int i = 0; i < n; ++i) cell.samples.push_back(fuzz_number(in));
  }
  return cell;
}

Table fuzz_table(FuzzedDataProvider& in) {
  const int n_columns = in.ConsumeIntegralInRange(1, 5);
  std::vector<Column> columns;
  for (int c = 0; c < n_columns; ++c) {
    columns.emplace_back(fuzz_text(in), static_cast<Align>(in.ConsumeIntegralInRange(0, 2)));
  }
  std::string caption = fuzz_text(in);
  Table table(std::move(columns), std::move(caption), in.ConsumeBool() ? std::string("t") : fuzz_text(in));
  const int n_rows = in.ConsumeIntegralInRange(0, 6);
  for (int r = 0; r < n_rows; ++r) {
    std::vector<Cell> row;
    for (int c = 0; c < n_columns; ++c) row.push_back(fuzz_cell(in));
    table.add_row(std::move(row));
  }
  table.footnote = fuzz_text(in);
  return table;
}

void fuzz_blocks(FuzzedDataProvider& in, Blocks& blocks, int depth) {
  const int n = in.ConsumeIntegralInRange(0, 6);
  for (int i = 0; i < n && in.remaining_bytes() > 0; ++i) {
    switch (in.ConsumeIntegralInRange(0, 7)) {
      case 0: blocks.add_heading(in.ConsumeIntegralInRange(1, 6), fuzz_text(in)); break;
      case 1: blocks.add_paragraph(fuzz_spans(in)); break;
      case 2: blocks.add_note(fuzz_spans(in), in.ConsumeBool() ? NoteKind::warning : NoteKind::note); break;
      case 3: {
        std::vector<Spans> items(in.ConsumeIntegralInRange(0, 3));
        for (auto& item : items) item = fuzz_spans(in);
        blocks.add_list(std::move(items));
        break;
      }
      case 4: blocks.add_table(fuzz_table(in)); break;
      case 5:
        if (depth < kMaxDetailsDepth) {
          std::string summary = fuzz_text(in);
          Details& details = blocks.add_details(std::move(summary), in.ConsumeBool());
          fuzz_blocks(in, details.blocks, depth + 1);
        }
        break;
      case 6: blocks.add_footnote(fuzz_text(in)); break;
      default: blocks.add_table(fuzz_table(in)); break;
    }
  }
}

Report fuzz_report(FuzzedDataProvider& in) {
  Report report(fuzz_text(in));
  fuzz_blocks(in, report.blocks, 0);
  report.data.set(fuzz_text(in), Json(fuzz_text(in)));
  report.data.set("number", Json(fuzz_number(in)));
  return report;
}

// ---------------------------------------------------------------- checking

bool starts_with_ci(std::string_view text, std::size_t pos, std::string_view prefix) {
  if (text.size() - pos < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[pos + i])) != prefix[i]) return false;
  }
  return true;
}

bool contains_ci(std::string_view text, std::string_view lower_needle) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (starts_with_ci(text, i, lower_needle)) return true;
  }
  return false;
}

// Valid UTF-8, no bidi controls, no control characters except the allowed ones.
void check_text_safety(const char* format, std::string_view out, std::string_view allowed_controls) {
  for (std::size_t pos = 0; pos < out.size();) {
    const CodePoint cp = decode_utf8(out, pos);
    if (cp.value == 0xFFFD && out.substr(pos, 3) != "\xEF\xBF\xBD") broken(format, "invalid UTF-8", out);
    if (is_bidi_control(cp.value)) broken(format, "a bidi control character", out);
    if (cp.value == 0x2028 || cp.value == 0x2029) broken(format, "a raw line or paragraph separator", out);
    const bool control = cp.value < 0x20 || (cp.value >= 0x7F && cp.value <= 0x9F);
    if (control && allowed_controls.find(static_cast<char>(cp.value)) == std::string_view::npos) {
      broken(format, "a control character", out);
    }
    pos += cp.length;
  }
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// GFM cell count of a row: GitHub splits on every `|` not preceded by `\`
// (code spans do not protect it). -1 when the row lacks its outer pipes.
int gfm_cells(std::string_view line) {
  while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
  if (line.size() < 2 || line.front() != '|' || line.back() != '|' || line[line.size() - 2] == '\\') return -1;
  int pipes = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++pipes;
  }
  return pipes - 1;
}

bool is_delimiter_row(std::string_view line) {
  if (line.size() < 3 || line.front() != '|') return false;
  return line.find_first_not_of("|-: ") == std::string_view::npos && line.find('-') != std::string_view::npos;
}

void check_markdown_tables(std::string_view out) {
  const auto lines = split_lines(out);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    if (!lines[i].starts_with("|") || !is_delimiter_row(lines[i + 1])) continue;
    const int width = gfm_cells(lines[i]);
    if (width < 1) broken("markdown", "table header row without outer pipes", out);
    if (gfm_cells(lines[i + 1]) != width) broken("markdown", "delimiter row cell count differs from the header", out);
    for (i += 2; i < lines.size() && lines[i].starts_with("|"); ++i) {
      if (gfm_cells(lines[i]) != width) broken("markdown", "table row cell count differs from the header", out);
    }
  }
}

// Removes code spans (a run of N backticks up to the next run of exactly N)
// and link destinations "](...)": GitHub does not turn @names there into mentions.
std::string strip_code_and_destinations(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '`') {
      std::size_t run = 0;
      while (i + run < line.size() && line[i + run] == '`') ++run;
      std::size_t j = i + run;
      bool closed = false;
      while (j < line.size()) {
        if (line[j] != '`') {
          ++j;
          continue;
        }
        std::size_t other = 0;
        while (j + other < line.size() && line[j + other] == '`') ++other;
        if (other == run) {
          closed = true;
          break;
        }
        j += other;
      }
      if (closed) {
        i = j + run;
        continue;
      }
      out.append(line.substr(i, run));
      i += run;
      continue;
    }
    if (line.substr(i, 2) == "](") {
      const std::size_t close = line.find(')', i);
      if (close != std::string_view::npos) {
        out += ']';
        i = close + 1;
        continue;
      }
    }
    out += line[i++];
  }
  return out;
}

void check_markdown_mentions(std::string_view out) {
  for (const auto line : split_lines(out)) {
    const std::string visible = strip_code_and_destinations(line);
    for (std::size_t at = visible.find('@'); at != std::string::npos; at = visible.find('@', at + 1)) {
      if (at + 1 < visible.size() && std::isalnum(static_cast<unsigned char>(visible[at + 1]))) {
        broken("markdown", "an @mention that would ping someone", out);
      }
    }
  }
}

void check_markdown(std::string_view out, const RenderOptions& options) {
  check_text_safety("markdown", out, "\n");
  if (contains_ci(out, "<script")) broken("markdown", "<script in the output", out);
  if (options.markdown_budget > 0 && out.size() > options.markdown_budget) broken("markdown", "budget exceeded", out);
  check_markdown_tables(out);
  check_markdown_mentions(out);
}

bool is_allowed_tag(std::string_view name) {
  static constexpr std::array<std::string_view, 38> kTags = {
      "html",  "head",    "body",    "meta", "title", "style",   "main",     "div",    "table", "thead",
      "tbody", "tfoot",   "tr",      "th",   "td",    "caption", "h1",       "h2",     "h3",    "h4",
      "h5",    "h6",      "p",       "ul",   "ol",    "li",      "a",        "strong", "em",    "code",
      "aside", "details", "summary", "sub",  "small", "svg",     "polyline", "span"};
  return std::find(kTags.begin(), kTags.end(), name) != kTags.end();
}

// Names of the attributes of a tag's inside ("td class=\"x\" title='y'"),
// skipping quoted values (escaped text there is inert, whatever it spells).
std::vector<std::string_view> attribute_names(std::string_view tag) {
  std::vector<std::string_view> names;
  std::size_t i = tag.find_first_of(" /");
  while (i < tag.size()) {
    while (i < tag.size() && (tag[i] == ' ' || tag[i] == '/' || tag[i] == '\n')) ++i;
    const std::size_t start = i;
    while (i < tag.size() && tag[i] != '=' && tag[i] != ' ' && tag[i] != '/') ++i;
    if (i > start) names.push_back(tag.substr(start, i - start));
    if (i < tag.size() && tag[i] == '=') {
      ++i;
      if (i < tag.size() && (tag[i] == '"' || tag[i] == '\'')) {
        const std::size_t close = tag.find(tag[i], i + 1);
        i = close == std::string_view::npos ? tag.size() : close + 1;
      } else {
        while (i < tag.size() && tag[i] != ' ') ++i;
      }
    }
  }
  return names;
}

bool safe_href(std::string_view url) {
  const std::size_t colon = url.find(':');
  const std::size_t boundary = url.find_first_of("/?#");
  if (colon == std::string_view::npos || (boundary != std::string_view::npos && boundary < colon)) return true;
  const std::string_view scheme = url.substr(0, colon);
  return scheme == "http" || scheme == "https" || scheme == "mailto";
}

// Every tag is one the renderer writes, no event-handler attributes, every href safe.
void check_html_markup(const char* format, std::string_view out) {
  for (std::size_t lt = out.find('<'); lt != std::string_view::npos; lt = out.find('<', lt + 1)) {
    const std::size_t gt = out.find('>', lt);
    if (gt == std::string_view::npos) broken(format, "an unterminated tag", out);
    std::string_view tag = out.substr(lt + 1, gt - lt - 1);
    if (starts_with_ci(tag, 0, "!doctype")) continue;
    if (tag.starts_with("/")) tag.remove_prefix(1);
    const std::string_view name = tag.substr(0, tag.find_first_of(" /"));
    if (!is_allowed_tag(name)) broken(format, "a tag the renderer does not write", out);
    for (const std::string_view attr : attribute_names(tag)) {
      if (starts_with_ci(attr, 0, "on")) broken(format, "an event-handler attribute", out);
    }
    for (std::size_t href = tag.find("href=\""); href != std::string_view::npos; href = tag.find("href=\"", href + 1)) {
      const std::size_t start = href + 6;
      const std::size_t end = tag.find('"', start);
      if (end == std::string_view::npos || !safe_href(tag.substr(start, end - start))) {
        broken(format, "an unsafe link", out);
      }
    }
  }
}

void check_html(const char* format, std::string_view out) {
  check_text_safety(format, out, "\n");
  if (contains_ci(out, "<script")) broken(format, "<script in the output", out);
  check_html_markup(format, out);
}

// ANSI colour sequences (ESC [ digits ; m) are the only escapes text may hold.
void check_text(std::string_view out, bool color) {
  std::string without_colour;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (color && out[i] == '\x1b' && i + 1 < out.size() && out[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < out.size() && (std::isdigit(static_cast<unsigned char>(out[j])) || out[j] == ';')) ++j;
      if (j < out.size() && out[j] == 'm') {
        i = j;
        continue;
      }
    }
    without_colour += out[i];
  }
  check_text_safety("text", without_colour, "\n");
}

// Splits an RFC 4180 document into records of fields.
std::vector<std::vector<std::string>> parse_csv(std::string_view text) {
  std::vector<std::vector<std::string>> records(1);
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        field += text[++i];
      else if (c == '"')
        quoted = false;
      else
        field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().push_back(std::move(field));
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      records.back().push_back(std::move(field));
      field.clear();
      records.emplace_back();
      ++i;
    } else {
      field += c;
    }
    any = true;
  }
  if (quoted) broken("csv", "an unterminated quoted field", text);
  if (!field.empty() || !any) records.back().push_back(std::move(field));
  if (records.back().empty()) records.pop_back();
  return records;
}

// Field count the CSV renderer promises for a table: one per column, plus a
// "(number)" column after each column where some cell carries a value.
std::size_t csv_fields(const Table& table) {
  std::size_t fields = table.columns.size();
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const bool numeric =
        std::any_of(table.rows.begin(), table.rows.end(), [c](const auto& row) { return row[c].value.has_value(); });
    fields += numeric ? 1 : 0;
  }
  return fields;
}

// CSV field count of the first table with this id (details included), 0 if none.
std::size_t columns_of_table(const Blocks& blocks, std::string_view id) {
  for (const Block& block : blocks.items()) {
    if (const auto* table = std::get_if<Table>(&block.content); table && table->id == id) return csv_fields(*table);
    if (const auto* details = std::get_if<Details>(&block.content)) {
      if (const std::size_t n = columns_of_table(details->blocks, id); n > 0) return n;
    }
  }
  return 0;
}

std::size_t count_tables(const Blocks& blocks) {
  std::size_t n = 0;
  for (const Block& block : blocks.items()) {
    if (std::holds_alternative<Table>(block.content)) ++n;
    if (const auto* details = std::get_if<Details>(&block.content)) n += count_tables(details->blocks);
  }
  return n;
}

// A spreadsheet reads = + - @ as a formula also after leading blanks; the
// guard is a leading '. Numbers ("-5.01%", "+60.03% slower") need none.
bool unguarded_formula(std::string_view field) {
  const std::size_t first = field.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || field.front() == '\'') return false;
  const std::string_view rest = field.substr(first);
  return std::string_view("=+-@").find(rest.front()) != std::string_view::npos && !is_numeric_looking(rest);
}

// Lines starting with # are the "# caption" comments, one per table, and
// nothing else (a data field starting with # is quoted).
void check_csv_comments(std::string_view out, const Report& report, const RenderOptions& options) {
  std::size_t comments = 0;
  for (const auto line : split_lines(out)) comments += line.starts_with("#") ? 1 : 0;
  const std::size_t expected = options.csv_table.empty() ? count_tables(report.blocks) : 0;
  if (!out.empty() && comments != expected) broken("csv", "a line starting with # that is no caption comment", out);
}

void check_csv(std::string_view out, const Report& report, const RenderOptions& options) {
  check_text_safety("csv", out, "\r\n");
  check_csv_comments(out, report, options);
  std::string data;  // the records without the caption comments (free text, not CSV)
  for (const auto line : split_lines(out)) {
    if (!line.empty() && !line.starts_with("#")) data.append(line).append("\n");
  }
  const auto records = parse_csv(data);
  const std::size_t expected = options.csv_table.empty() ? 0 : columns_of_table(report.blocks, options.csv_table);
  for (const auto& record : records) {
    if (expected != 0 && record.size() != expected)
      broken("csv", "a record's field count differs from the table's", out);
    for (const auto& field : record) {
      if (unguarded_formula(field)) broken("csv", "a formula-like field without the ' guard", out);
    }
  }
}

void check_json(std::string_view out) {
  check_text_safety("json", out, "\n");
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(simdjson::padded_string(out)).get(root) != simdjson::SUCCESS) broken("json", "not valid JSON", out);
}

RenderOptions fuzz_options(FuzzedDataProvider& in) {
  RenderOptions options;
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0: options.markdown_budget = 0; break;
    case 1: options.markdown_budget = in.ConsumeIntegralInRange<std::size_t>(1, 4096); break;
    default: break;  // the default GitHub comment budget
  }
  options.full_report_location = fuzz_text(in);
  options.color = in.ConsumeBool();
  options.sparklines = in.ConsumeBool();
  options.json_indent = in.ConsumeIntegralInRange(0, 4);
  if (in.ConsumeBool()) options.csv_table = "t";
  return options;
}

template <class Render>
std::string render_or_empty(Render&& render) {
  try {
    return render();
  } catch (const InputError&) {
    return {};  // documented refusals (budget too small for the truncation note, unknown csv table)
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const RenderOptions options = fuzz_options(in);
  const Report report = fuzz_report(in);

  const std::string markdown = render_or_empty([&] { return render_markdown(report, options); });
  check_markdown(markdown, options);
  if (markdown != render_or_empty([&] { return render_markdown(report, options); })) {
    broken("markdown", "two renders of one report differ", markdown);
  }
  check_html("html", render_or_empty([&] { return render_html(report, options); }));
  check_html("html fragment", render_or_empty([&] { return render_html_fragment(report, options); }));
  check_text(render_or_empty([&] { return render_text(report, options); }), options.color);
  check_csv(render_or_empty([&] { return render_csv(report, options); }), report, options);
  check_json(render_or_empty([&] { return render_json(report, options); }));
  return 0;
}

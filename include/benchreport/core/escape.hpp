#pragma once
// Escaping of untrusted text (benchmark names, labels, metadata) for every
// output target. Each function first neutralises the text (see
// neutralize_text) so no target ever sees invalid UTF-8, control characters
// or bidi overrides from input.
#include <cstddef>
#include <string>
#include <string_view>

namespace benchreport {

// One decoded code point: invalid UTF-8 decodes to U+FFFD over its maximal
// invalid subpart (the same rule as Python's bytes.decode(errors="replace")).
struct CodePoint {
  char32_t value;
  std::size_t length;  // bytes consumed from the input (>= 1)
};
CodePoint decode_utf8(std::string_view text, std::size_t pos);

// Appends the UTF-8 encoding of cp to out.
void append_utf8(std::string& out, char32_t cp);

// Invalid UTF-8 replaced by U+FFFD; everything else kept byte for byte.
std::string sanitize_utf8(std::string_view text);

// U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C: characters that reorder display.
bool is_bidi_control(char32_t cp);

// Display-safe text: invalid UTF-8 -> U+FFFD; C0/C1 controls and DEL
// (newline, CR, tab, ESC, NEL ...) and the line/paragraph separators U+2028,
// U+2029 -> one space each; bidi controls -> U+FFFD.
std::string neutralize_text(std::string_view text);

// GitHub-flavoured Markdown inline text (table cells, paragraphs, headings):
// neutralised, then `\` `` ` `` `*` `_` `~` `[` `]` `|` `#` `$` backslash-escaped,
// `<` `>` `&` as entities, and `@` followed by U+2060 WORD JOINER so
// `@octocat` shows as a plain @ and pings no one.
std::string escape_markdown(std::string_view text);

// Escapes what would start a block at the beginning of a Markdown line
// (`-`, `+`, `=`, `1.`, `1)`) and strips leading spaces (4 would start code).
std::string protect_markdown_line_start(std::string_view escaped_line);

// A Markdown code span holding text verbatim: a backtick fence longer than any
// run inside. in_table escapes `|` as `\|` (GFM tables honour it in code).
std::string markdown_code_span(std::string_view text, bool in_table);

// HTML text or attribute value: neutralised, then & < > " ' as entities.
std::string escape_html(std::string_view text);

// Raw HTML inside Markdown (e.g. <summary>): escape_html plus the @ rule.
std::string escape_html_in_markdown(std::string_view text);

// True for relative URLs and http, https, mailto; links with any other
// scheme (javascript:, data:, ...) are rendered as plain text.
bool is_safe_url(std::string_view url);

// URL for a Markdown link destination or an HTML attribute: neutralised,
// then space ( ) < > " ' \ | ` and non-ASCII percent-encoded.
std::string encode_url(std::string_view url);

// True when a CSV cell reads as a number, optionally with % and plain words
// ("-5.01%", "+60.03% slower", "1,024"): safe from formula injection.
bool is_numeric_looking(std::string_view text);

// One RFC 4180 field: neutralised; a cell whose first non-blank character is
// = + - @ and that is not numeric-looking gets a leading ' (formula-injection
// guard, also for " =cmd" from a tab or CR before the =); quoted when it holds
// , " or leading/trailing space, or starts with # (never read as a comment line).
std::string escape_csv_field(std::string_view text);

// Terminal columns taken by text: East Asian wide and emoji 2, combining marks
// and zero-width characters 0, everything else 1 (µ and – are 1 column).
std::size_t display_width(std::string_view text);

// Neutralised text of at most max_columns display columns: when it is wider,
// cut at a code point and ended with U+2026 (…) so the cut shows. Renderers
// use it for table cells (a 10 000-character name must not set a column's width).
std::string truncate_display(std::string_view text, std::size_t max_columns);

}  // namespace benchreport

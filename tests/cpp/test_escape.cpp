#include <catch2/catch.hpp>

#include <string>

#include "benchreport/core/escape.hpp"

using namespace benchreport;

namespace {
const std::string kWordJoiner = "\u2060";
const std::string kReplacement = "\uFFFD";
}  // namespace

TEST_CASE("invalid UTF-8 becomes U+FFFD per maximal subpart", "[escape]") {
  CHECK(sanitize_utf8("plain") == "plain");
  CHECK(sanitize_utf8("\u00b5s \u2013") == "\u00b5s \u2013");
  CHECK(sanitize_utf8("a\xff"
                      "b") == "a" + kReplacement + "b");
  CHECK(sanitize_utf8("\xe2\x82") == kReplacement);                 // truncated 3-byte sequence: one subpart
  CHECK(sanitize_utf8("\xc0\xaf") == kReplacement + kReplacement);  // overlong lead bytes are never valid
  CHECK(sanitize_utf8("\xed\xa0\x80") == kReplacement + kReplacement + kReplacement);  // surrogate
  CHECK(sanitize_utf8("\xf4\x90\x80\x80").find("\xf4") == std::string::npos);          // > U+10FFFF
  CHECK(sanitize_utf8("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");                      // emoji kept
}

TEST_CASE("neutralize_text removes controls and bidi overrides", "[escape]") {
  CHECK(neutralize_text("a\nb\rc\td") == "a b c d");
  CHECK(neutralize_text("\x1b[31mred") == " [31mred");
  CHECK(neutralize_text("x\u202Eevil\u2066y\u200Fz") ==
        "x" + kReplacement + "evil" + kReplacement + "y" + kReplacement + "z");
  CHECK(neutralize_text("\xc2\x85") == " ");  // C1 NEL
  CHECK(is_bidi_control(0x202A));
  CHECK(is_bidi_control(0x2069));
  CHECK(is_bidi_control(0x200E));
  CHECK_FALSE(is_bidi_control(0x2060));
  CHECK(is_bidi_control(0x061C));  // ARABIC LETTER MARK (issue 33)
  CHECK(neutralize_text("a\u061Cb") == "a" + kReplacement + "b");
}

TEST_CASE("Markdown escaping keeps input inert", "[escape]") {
  CHECK(escape_markdown("C++ number | string variant") == "C++ number \\| string variant");
  CHECK(escape_markdown("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(escape_markdown("@octocat") == "@" + kWordJoiner + "octocat");
  CHECK(escape_markdown("a `b` *c* _d_ ~e~ [f](g) \\ $x$") ==
        "a \\`b\\` \\*c\\* \\_d\\_ \\~e\\~ \\[f\\](g) \\\\ \\$x\\$");
  CHECK(escape_markdown("R&D") == "R&amp;D");
  CHECK(escape_markdown("#123") == "\\#" + kWordJoiner + "123");
  // GitHub autolinks GH-123 (any case) like #123 (issue 33); other dashes stay as they are
  CHECK(escape_markdown("fix GH-123") == "fix GH-" + kWordJoiner + "123");
  CHECK(escape_markdown("gh-7") == "gh-" + kWordJoiner + "7");
  CHECK(escape_markdown("GH-x 1-2 AGH-") == "GH-x 1-2 AGH-");
  CHECK(escape_markdown("# heading") == "\\# heading");
  CHECK(escape_markdown("line\nbreak") == "line break");
}

TEST_CASE("Markdown line starts cannot open blocks", "[escape]") {
  CHECK(protect_markdown_line_start("- item") == "\\- item");
  CHECK(protect_markdown_line_start("+ item") == "\\+ item");
  CHECK(protect_markdown_line_start("=====") == "\\=====");
  CHECK(protect_markdown_line_start("12. item") == "12\\. item");
  CHECK(protect_markdown_line_start("3) item") == "3\\) item");
  CHECK(protect_markdown_line_start("    code") == "code");
  CHECK(protect_markdown_line_start("2.25 \u00b5s") == "2.25 \u00b5s");
  CHECK(protect_markdown_line_start("   ").empty());
}

TEST_CASE("Markdown code spans hold any text", "[escape]") {
  CHECK(markdown_code_span("866df6f892c3", true) == "`866df6f892c3`");
  CHECK(markdown_code_span("a`b", false) == "``a`b``");
  CHECK(markdown_code_span("`x", false) == "`` `x ``");
  CHECK(markdown_code_span("a|b", true) == "`a\\|b`");
  CHECK(markdown_code_span("a|b", false) == "`a|b`");
  CHECK(markdown_code_span("\\`@v", false) == "``\\`@\u2060v``");
  CHECK(markdown_code_span("", true).empty());
}

TEST_CASE("HTML escaping covers text and attributes", "[escape]") {
  CHECK(escape_html("<script>alert('x')</script> & \"q\"") ==
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  CHECK(escape_html("a\nb") == "a b");
  CHECK(escape_html_in_markdown("@octocat <b>") == "@" + kWordJoiner + "octocat &lt;b&gt;");
}

TEST_CASE("URLs: only safe schemes become links", "[escape]") {
  CHECK(is_safe_url("https://example.com/a?b#c"));
  CHECK(is_safe_url("HTTP://example.com"));
  CHECK(is_safe_url("mailto:a@b.c"));
  CHECK(is_safe_url("report.html#cases"));
  CHECK(is_safe_url("/runs/1:2"));
  CHECK_FALSE(is_safe_url("javascript:alert(1)"));
  CHECK_FALSE(is_safe_url("JavaScript:alert(1)"));
  CHECK_FALSE(is_safe_url("data:text/html,x"));
  CHECK(encode_url("https://x/a b(c)\"<>") == "https://x/a%20b%28c%29%22%3C%3E");
  CHECK(encode_url("https://x/\u00b5") == "https://x/%C2%B5");
}

TEST_CASE("CSV fields: RFC 4180 quoting and the formula guard", "[escape]") {
  CHECK(escape_csv_field("plain") == "plain");
  CHECK(escape_csv_field("a,b") == "\"a,b\"");
  CHECK(escape_csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(escape_csv_field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
  CHECK(escape_csv_field("+cmd") == "'+cmd");
  CHECK(escape_csv_field("-1+2") == "'-1+2");
  CHECK(escape_csv_field("@SUM(A1)") == "'@SUM(A1)");
  CHECK(escape_csv_field("-5.01%") == "-5.01%");
  CHECK(escape_csv_field("+60.03% slower") == "+60.03% slower");
  CHECK(escape_csv_field("-851.2 ns") == "-851.2 ns");
  CHECK(escape_csv_field("-1.5e-3") == "-1.5e-3");
  CHECK(escape_csv_field("line\nbreak") == "line break");
  CHECK(escape_csv_field(" padded") == "\" padded\"");
  // Blanks before = + - @ (a tab or CR is a space once neutralised) do not hide a formula.
  CHECK(escape_csv_field("\t=cmd|' /C calc'!A0") == "' =cmd|' /C calc'!A0");
  CHECK(escape_csv_field("\r@SUM(A1)") == "' @SUM(A1)");
  CHECK(escape_csv_field("  +cmd") == "'  +cmd");
  CHECK(escape_csv_field(" -5.01%") == "\" -5.01%\"");  // numeric-looking: no guard, quoted for the space
  // A field starting with # is quoted, so no data row reads as a "# caption" comment.
  CHECK(escape_csv_field("#1 fastest") == "\"#1 fastest\"");
  CHECK(escape_csv_field("a#b") == "a#b");
  CHECK(is_numeric_looking("1,024"));
  CHECK(is_numeric_looking("2.25 \u00b5s"));
  CHECK_FALSE(is_numeric_looking("-"));
  CHECK_FALSE(is_numeric_looking("-5 A1"));
  CHECK_FALSE(is_numeric_looking("-5 "));
  CHECK_FALSE(is_numeric_looking(",5"));
}

TEST_CASE("display width counts terminal columns", "[escape]") {
  CHECK(display_width("abc") == 3);
  CHECK(display_width("2.25 \u00b5s") == 7);
  CHECK(display_width("1\u20132") == 3);
  CHECK(display_width("\u65e5\u672c") == 4);      // wide CJK
  CHECK(display_width("e\u0301") == 1);           // combining accent
  CHECK(display_width("\xf0\x9f\x98\x80") == 2);  // emoji
  CHECK(display_width("a\xff") == 2);             // U+FFFD is one column
}

TEST_CASE("line and paragraph separators are neutralised like newlines", "[escape]") {
  CHECK(neutralize_text("a\u2028b\u2029c\u0085d") == "a b c d");
  CHECK(escape_markdown("x\u2028| y") == "x \\| y");
  CHECK(escape_csv_field("x\u2029y") == "x y");
  CHECK(escape_html("x\u2028y") == "x y");
}

TEST_CASE("truncate_display cuts at a code point and shows the cut", "[escape]") {
  CHECK(truncate_display("short", 10) == "short");
  CHECK(truncate_display("exactly10!", 10) == "exactly10!");
  CHECK(truncate_display("abcdefghijk", 10) == "abcdefghi\u2026");
  CHECK(display_width(truncate_display(std::string(10000, 'x'), 100)) == 100);
  CHECK(truncate_display("\u65e5\u672c\u8a9e\u65e5\u672c", 6) == "\u65e5\u672c\u2026");  // wide: 2 columns each
  CHECK(truncate_display("\u00b5\u00b5\u00b5\u00b5", 3) == "\u00b5\u00b5\u2026");        // never half a code point
  CHECK(truncate_display("a\x1b[31mbcdef", 4) == "a [\u2026");                           // neutralised first
}

// HTML: one standalone document (inline CSS, no scripts, no external assets)
// or a fragment for notebooks. Every string from the report goes through
// escape_html; CSS is scoped to .benchreport so a fragment cannot restyle its host.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_set>

#include "benchreport/core/escape.hpp"
#include "benchreport/core/report_markers.hpp"
#include "benchreport/core/sha256.hpp"
#include "benchreport/report/format.hpp"
#include "benchreport/render/render.hpp"
#include "plot_svg.hpp"

namespace benchreport {
namespace {

constexpr std::string_view kStyle = R"css(
.benchreport{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;line-height:1.45;color:#1f2328;max-width:1200px}
.benchreport table{border-collapse:collapse;margin:.5em 0 1em}
.benchreport th,.benchreport td{border:1px solid #d0d7de;padding:4px 10px;vertical-align:middle}
.benchreport th{background:#f6f8fa}
.benchreport caption{caption-side:top;text-align:left;font-weight:600;padding:4px 0}
.benchreport .al-left{text-align:left}
.benchreport .al-right{text-align:right;font-variant-numeric:tabular-nums}
.benchreport .al-center{text-align:center}
.benchreport td.num{white-space:nowrap}
.benchreport .role-faster{color:#1a7f37}
.benchreport .role-slower{color:#cf222e;font-weight:600}
.benchreport .role-inconclusive{color:#9a6700}
.benchreport .role-equivalent{color:#0969da}
.benchreport .role-unchanged,.benchreport .role-worse{color:#57606a}
.benchreport .role-best{font-weight:700}
.benchreport .role-muted{color:#6e7781}
.benchreport .note{border-left:4px solid #0969da;background:#ddf4ff;padding:6px 12px;margin:.5em 0}
.benchreport .note.warning{border-left-color:#9a6700;background:#fff8c5}
.benchreport .footnote{font-size:.85em;color:#57606a}
.benchreport code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;padding:0 3px;border-radius:3px}
.benchreport details{margin:.5em 0}
.benchreport summary{cursor:pointer;font-weight:600}
.benchreport svg.spark{vertical-align:middle;margin-left:6px;color:#57606a}
)css";

constexpr double kSparkWidth = 80.0;
constexpr double kSparkHeight = 18.0;
constexpr double kSparkPad = 2.0;
constexpr std::size_t kSparkPoints = 40;
static_assert(kCellSparklinePoints % kSparkPoints == 0, "drawn buckets must cover whole kept buckets");

std::string inline_spans(const Spans& spans) {
  std::string out;
  for (const Span& span : spans) {
    switch (span.kind) {
      case Span::Kind::text: out += escape_html(span.text); break;
      case Span::Kind::strong: out += fmt::format("<strong>{}</strong>", escape_html(span.text)); break;
      case Span::Kind::code: out += fmt::format("<code>{}</code>", escape_html(span.text)); break;
      case Span::Kind::link:
        if (is_safe_url(span.url)) {
          out += fmt::format("<a href=\"{}\">{}</a>", escape_html(encode_url(span.url)), escape_html(span.text));
        } else {
          out += fmt::format("{} ({})", escape_html(span.text), escape_html(span.url));
        }
        break;
    }
  }
  return out;
}

// An inline SVG polyline of the samples in measurement order, scaled to a fixed box.
std::string sparkline_svg(const std::vector<double>& samples) {
  std::vector<double> levels = sparkline_levels(samples, kSparkPoints);
  if (levels.empty()) return {};
  if (levels.size() == 1) levels.push_back(levels.front());
  const double step = (kSparkWidth - 2 * kSparkPad) / static_cast<double>(levels.size() - 1);
  std::string coordinates;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const double level = levels[i];
    const double x = kSparkPad + step * static_cast<double>(i);
    const double y = kSparkPad + (1.0 - level) * (kSparkHeight - 2 * kSparkPad);
    coordinates += fmt::format("{}{:.2f},{:.2f}", i == 0 ? "" : " ", x, y);
  }
  return fmt::format(
      "<svg class=\"spark\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"{2} samples\"><polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.2\" "
      "points=\"{3}\"/></svg>",
      kSparkWidth, kSparkHeight, samples.size(), coordinates);
}

constexpr std::size_t kMaxIdChars = 64;

// Ids come from input: keep [A-Za-z0-9_-] so they can never leave the
// attribute, at most kMaxIdChars of them. When that loses anything (`a|b`,
// `a b` and `a-b` all read `a-b`), 8 hex digits of the SHA-256 of the whole
// id follow, so distinct ids stay distinct whatever else the report holds.
std::string safe_id(std::string_view id) {
  std::string out = "table-";
  bool lossy = id.size() > kMaxIdChars;
  for (const char c : id.substr(0, kMaxIdChars)) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    out += keep ? c : '-';
    lossy = lossy || !keep;
  }
  if (lossy) out += fmt::format("-{}", sha256_hex(id).substr(0, 8));
  return out;
}

// Element ids of one document: safe_id, then -2, -3, ... for a repeat.
class IdRegistry {
 public:
  std::string claim(std::string_view id) {
    const std::string base = safe_id(id);
    std::string candidate = base;
    for (std::size_t n = 2; !used_.insert(candidate).second; ++n) candidate = fmt::format("{}-{}", base, n);
    return candidate;
  }

 private:
  std::unordered_set<std::string> used_;
};

// `number`: the cell shows one value (Cell::value), kept on one line so a unit never wraps alone.
std::string cell_classes(Align align, CellRole role, bool number) {
  std::string classes = fmt::format("al-{}", align_name(align));
  if (number) classes += " num";
  if (role != CellRole::none && role != CellRole::code) classes += fmt::format(" role-{}", role_name(role));
  return classes;
}

// A space between a number and its unit ("22.75 ns", "1.5 MiB") becomes a no-break space, so that a
// list of values ("22.75 ns, 22.87 ns") may wrap between values but never between a number and its unit.
std::string keep_units_attached(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool after_digit = i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1])) != 0;
    const bool before_unit = i + 1 < text.size() && (std::isalpha(static_cast<unsigned char>(text[i + 1])) != 0 ||
                                                     text.substr(i + 1, 2) == "\u00b5");
    if (text[i] == ' ' && after_digit && before_unit) {
      out += "\u00a0";
    } else {
      out += text[i];
    }
  }
  return out;
}

// A fragment lives in a host page whose CSS may align every cell (JupyterLab and the classic notebook
// right-align td and th) and whose sanitizer may drop our <style> (an untrusted notebook): there each
// header and cell also carries its alignment inline, which outranks any stylesheet rule without !important.
enum class InlineAlign : bool { no, yes };

std::string inline_align(InlineAlign inline_, Align align) {
  return inline_ == InlineAlign::yes ? fmt::format(" style=\"text-align:{}\"", align_name(align)) : std::string();
}

class HtmlWriter {
 public:
  HtmlWriter(const RenderOptions& options, InlineAlign inline_align) : options_(options), inline_(inline_align) {}

  void blocks(const Blocks& list) {
    for (const Block& block : list.items()) std::visit([this](const auto& b) { write(b); }, block.content);
  }

  void heading(int level, std::string_view text) {
    out_ += fmt::format("<h{0}>{1}</h{0}>\n", level, escape_html(text));
  }

  std::string take() { return std::move(out_); }

 private:
  void write(const Heading& h) { heading(h.level, h.text); }
  void write(const Paragraph& p) { out_ += fmt::format("<p>{}</p>\n", inline_spans(p.spans)); }
  void write(const Note& n) {
    const bool warning = n.kind == NoteKind::warning;
    out_ += fmt::format("<aside class=\"note{}\">{}{}</aside>\n", warning ? " warning" : "",
                        warning ? "<strong>Warning:</strong> " : "", inline_spans(n.spans));
  }
  void write(const BulletList& l) {
    out_ += "<ul>\n";
    for (const Spans& item : l.items) out_ += fmt::format("<li>{}</li>\n", inline_spans(item));
    out_ += "</ul>\n";
  }
  void write(const Footnote& f) { out_ += fmt::format("<p class=\"footnote\">{}</p>\n", escape_html(f.text)); }
  void write(const Plot& p) { out_ += plot_svg(p); }
  void write(const Details& d) {
    out_ += fmt::format("<details{}>\n<summary>{}</summary>\n", d.open ? " open" : "", escape_html(d.summary));
    blocks(d.blocks);
    out_ += "</details>\n";
  }
  void write(const Table& t) {
    t.validate();
    out_ += t.id.empty() ? "<table>\n" : fmt::format("<table id=\"{}\">\n", ids_.claim(t.id));
    if (!t.caption.empty()) out_ += fmt::format("<caption>{}</caption>\n", escape_html(t.caption));
    out_ += "<thead><tr>";
    for (const Column& column : t.columns) {
      out_ += fmt::format("<th class=\"al-{}\"{}>{}</th>", align_name(column.align),
                          inline_align(inline_, column.align), escape_html(column.title));
    }
    out_ += "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
      out_ += "<tr>";
      for (std::size_t c = 0; c < row.size(); ++c) cell(row[c], t.columns[c].align);
      out_ += "</tr>\n";
    }
    out_ += "</tbody>\n</table>\n";
    if (!t.footnote.empty()) out_ += fmt::format("<p class=\"footnote\">{}</p>\n", escape_html(t.footnote));
  }

  void cell(const Cell& c, Align align) {
    std::string body = escape_html(c.role == CellRole::code ? c.text : keep_units_attached(c.text));
    if (c.role == CellRole::code && !body.empty()) body = fmt::format("<code>{}</code>", body);
    if (options_.sparklines && !c.samples.empty()) body += sparkline_svg(c.samples);
    const std::string value =
        c.value && std::isfinite(*c.value) ? fmt::format(" data-value=\"{}\"", json_number(*c.value)) : "";
    out_ += fmt::format("<td class=\"{}\"{}{}>{}</td>", cell_classes(align, c.role, c.value.has_value()),
                        inline_align(inline_, align), value, body);
  }

  const RenderOptions& options_;
  InlineAlign inline_;
  IdRegistry ids_;
  std::string out_;
};

std::string body(const Report& report, const RenderOptions& options, InlineAlign inline_align) {
  report.validate();
  HtmlWriter writer(options, inline_align);
  if (!report.title.empty()) writer.heading(1, report.title);
  writer.blocks(report.blocks);
  return writer.take();
}

}  // namespace

std::string render_html(const Report& report, const RenderOptions& options) {
  const std::string title = report.title.empty() ? "benchreport" : escape_html(report.title);
  return fmt::format(
      "{}\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main class=\"{}\">\n{}</main>\n"
      "</body>\n</html>\n",
      kHtmlDoctype, title, kStyle, kHtmlReportClass, body(report, options, InlineAlign::no));
}

std::string render_html_fragment(const Report& report, const RenderOptions& options) {
  return fmt::format("<div class=\"{}\">\n<style>{}</style>\n{}</div>\n", kHtmlReportClass, kStyle,
                     body(report, options, InlineAlign::yes));
}

}  // namespace benchreport

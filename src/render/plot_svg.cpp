// Plot → inline SVG: see plot_svg.hpp.
#include "plot_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "benchreport/core/escape.hpp"
#include "benchreport/report/format.hpp"

namespace benchreport {
namespace {

constexpr double kWidth = 560, kHeight = 320;
constexpr double kLeft = 64, kRight = 150, kTop = 28, kBottom = 44;
constexpr std::array<std::string_view, 6> kColors{"#0969da", "#cf222e", "#1a7f37", "#9a6700", "#8250df", "#57606a"};

// One axis: data range → pixel range, on a log or linear scale.
struct Axis {
  bool log = true;
  double lo = 0, hi = 1;    // in scale units (log10 when log)
  double from = 0, to = 1;  // pixels

  double scale(double v) const { return log ? std::log10(v) : v; }
  double pixel(double v) const { return from + (scale(v) - lo) / (hi - lo) * (to - from); }
};

Axis make_axis(const Plot& plot, bool x, double from, double to) {
  Axis a{x ? plot.log_x : plot.log_y, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
         from, to};
  for (const PlotSeries& s : plot.series) {
    for (const double v : x ? s.x : s.y) {
      a.lo = std::min(a.lo, a.scale(v));
      a.hi = std::max(a.hi, a.scale(v));
    }
  }
  if (!(a.lo <= a.hi)) a.lo = 0, a.hi = 1;
  const double pad = a.hi > a.lo ? (a.hi - a.lo) * 0.05 : 0.5;
  a.lo -= pad;
  a.hi += pad;
  return a;
}

// Tick values: powers of ten inside a log axis (else its two ends).
std::vector<double> ticks(const Axis& a) {
  std::vector<double> out;
  if (a.log) {
    for (double e = std::ceil(a.lo); e <= a.hi; ++e) out.push_back(std::pow(10.0, e));
  }
  if (out.size() < 2) {
    out = {a.log ? std::pow(10.0, a.lo) : a.lo, a.log ? std::pow(10.0, a.hi) : a.hi};
  }
  return out;
}

std::string tick_label(double v, bool time) {
  if (time) return format_time(v);
  return fmt::format("{:g}", v);
}

std::string axes(const Plot& plot, const Axis& x, const Axis& y) {
  std::string out = fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"#d0d7de\"/>", kLeft,
      kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  const bool time = plot.y_label.find("time") != std::string::npos || plot.y_label == "s";
  for (const double v : ticks(x)) {
    const double px = x.pixel(v);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#eaeef2\"/>"
        "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>",
        px, kTop, kHeight - kBottom, kHeight - kBottom + 14, escape_html(tick_label(v, false)));
  }
  for (const double v : ticks(y)) {
    const double py = y.pixel(v);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#eaeef2\"/>"
        "<text x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>",
        kLeft, py, kWidth - kRight, kLeft - 4, py + 4, escape_html(tick_label(v, time)));
  }
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", (kLeft + kWidth - kRight) / 2,
                     kHeight - 8, escape_html(plot.x_label));
  out += fmt::format("<text x=\"12\" y=\"{:.1f}\" transform=\"rotate(-90 12 {:.1f})\" text-anchor=\"middle\">{}</text>",
                     (kTop + kHeight - kBottom) / 2, (kTop + kHeight - kBottom) / 2, escape_html(plot.y_label));
  return out;
}

std::string series_svg(const PlotSeries& s, std::size_t index, const Axis& x, const Axis& y) {
  const std::string_view color = kColors[index % kColors.size()];
  std::string out;
  if (s.line) {
    std::string points;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      points += fmt::format("{}{:.1f},{:.1f}", i == 0 ? "" : " ", x.pixel(s.x[i]), y.pixel(s.y[i]));
    }
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>", color, points);
  } else {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>", x.pixel(s.x[i]), y.pixel(s.y[i]),
                         color);
    }
  }
  const double ly = kTop + 8 + 16 * static_cast<double>(index);
  const double lx = kWidth - kRight + 10;
  out += s.line
             ? fmt::format(
                   "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                   lx, ly, lx + 14, ly, color)
             : fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>", lx + 7, ly, color);
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", lx + 20, ly + 4, escape_html(s.name));
  return out;
}

}  // namespace

std::string plot_svg(const Plot& plot) {
  const Axis x = make_axis(plot, true, kLeft, kWidth - kRight);
  const Axis y = make_axis(plot, false, kHeight - kBottom, kTop);
  std::string body = axes(plot, x, y);
  for (std::size_t i = 0; i < plot.series.size(); ++i) body += series_svg(plot.series[i], i, x, y);
  return fmt::format(
      "<figure class=\"plot\"><svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"{2}\" "
      "font-size=\"11\" font-family=\"system-ui,sans-serif\">{3}</svg><figcaption>{2}</figcaption></figure>\n",
      kWidth, kHeight, escape_html(plot.title), body);
}

}  // namespace benchreport

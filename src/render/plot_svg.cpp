// Plot → inline SVG: see plot_svg.hpp.
#include "plot_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "benchreport/core/escape.hpp"

namespace benchreport {

std::vector<double> plot_ticks(double lo, double hi, bool log) {
  std::vector<double> out;
  if (log) {
    const double a = std::log10(lo), b = std::log10(hi);
    for (double e = std::ceil(a - 1e-9); e <= b + 1e-9; ++e) out.push_back(std::pow(10.0, e));
    if (out.size() >= 3) return out;
    out.clear();
    for (double e = std::floor(a); e <= std::ceil(b); ++e) {
      for (const double m : {1.0, 2.0, 5.0}) {
        const double v = m * std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
      }
    }
    if (out.size() >= 3) return out;
  }
  // 1-2-5 steps, about five ticks over the range.
  const double raw = (hi - lo) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / magnitude;
  const double step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * magnitude;
  out.clear();
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; ++k) {
    out.push_back(std::abs(k) < 0.5 ? 0.0 : k * step);  // no "-0"
  }
  return out;
}

std::string tick_label(double value, double resolution, std::string_view unit) {
  static constexpr std::array<std::string_view, 9> kPrefixes{"p", "n", "\u00b5", "m", "", "k", "M", "G", "T"};
  const bool plain = unit.empty() || unit == "1";
  if (value == 0) return plain ? "0" : fmt::format("0 {}", unit);
  // The prefix's power of ten, a multiple of 3; a plain number below 1 keeps its decimals ("0.5").
  const int power = std::clamp(static_cast<int>(std::floor(std::log10(std::abs(value)) / 3)) * 3, plain ? 0 : -12, 12);
  const double scaled = value / std::pow(10.0, power);
  const double step = std::abs(resolution) / std::pow(10.0, power);
  const int decimals = step > 0 ? std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 9) : 0;
  const std::string number = fmt::format("{:.{}f}", scaled, decimals);
  const std::string_view prefix = kPrefixes[static_cast<std::size_t>(power / 3 + 4)];
  if (plain) return fmt::format("{}{}", number, prefix);
  return fmt::format("{} {}{}", number, prefix, unit);
}

namespace {

constexpr double kWidth = 560, kHeight = 320;
constexpr double kLeft = 64, kRight = 150, kTop = 28, kBottom = 44;
constexpr std::array<std::string_view, 6> kColors{"#0969da", "#8250df", "#1a7f37", "#9a6700", "#57606a", "#bf3989"};
constexpr std::string_view kWorse = "#cf222e", kBetter = "#1a7f37";
constexpr std::size_t kMaxNameTicks = 8;

std::string_view color(PlotTone tone, std::size_t index) {
  if (tone == PlotTone::worse) return kWorse;
  if (tone == PlotTone::better) return kBetter;
  return kColors[index % kColors.size()];
}

// One axis: data range → pixel range, on a log or linear scale.
struct Axis {
  bool log = true;
  double lo = 0, hi = 1;    // in scale units (log10 when log)
  double from = 0, to = 1;  // pixels

  double scale(double v) const { return log ? std::log10(v) : v; }
  double unscale(double s) const { return log ? std::pow(10.0, s) : s; }
  double pixel(double v) const { return from + (scale(v) - lo) / (hi - lo) * (to - from); }
};

Axis make_axis(const Plot& plot, bool x, double from, double to) {
  Axis a{x ? plot.log_x : plot.log_y, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
         from, to};
  const auto include = [&a](double v) {
    if (std::isnan(v)) return;  // a gap in a line
    a.lo = std::min(a.lo, a.scale(v));
    a.hi = std::max(a.hi, a.scale(v));
  };
  for (const PlotSeries& s : plot.series) {
    for (const double v : x ? s.x : s.y) include(v);
  }
  if (x) {
    for (const PlotMarker& m : plot.markers) include(m.x);
  }
  if (!(a.lo <= a.hi)) a.lo = 0, a.hi = 1;
  const double pad = a.hi > a.lo ? (a.hi - a.lo) * 0.05 : std::max(std::abs(a.lo) * 0.05, 0.5);
  a.lo -= pad;
  a.hi += pad;
  return a;
}

std::string vertical_tick(double px, std::string_view label) {
  return fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#eaeef2\"/>"
      "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>",
      px, kTop, kHeight - kBottom, kHeight - kBottom + 14, escape_html(label));
}

// The resolution a tick label needs: the step between evenly spaced ticks; on
// a log axis' decades or 1-2-5 ticks (one significant digit), the value itself.
double resolution(const std::vector<double>& ticks, std::size_t i) {
  if (ticks.size() < 2) return ticks[i];
  const double step = ticks[1] - ticks[0];
  const bool even = ticks.size() == 2 || std::abs((ticks[2] - ticks[1]) - step) <= 1e-9 * std::abs(step);
  return even ? step : ticks[i];
}

// A commit name short enough for a tick.
std::string short_name(const std::string& name) {
  constexpr std::size_t kMax = 10;
  if (name.size() <= kMax) return name;
  std::size_t cut = kMax - 1;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return name.substr(0, cut) + "\u2026";
}

std::string x_ticks(const Plot& plot, const Axis& x) {
  std::string out;
  if (!plot.x_names.empty()) {
    // As many names as fit side by side at about 6.5 px a character (font-size 11), at most kMaxNameTicks.
    std::size_t longest = 1;
    for (const std::string& name : plot.x_names) longest = std::max(longest, short_name(name).size());
    const auto fit = static_cast<std::size_t>((kWidth - kLeft - kRight) / (6.5 * static_cast<double>(longest) + 12));
    const std::size_t slots = std::clamp<std::size_t>(fit, 1, kMaxNameTicks);
    const std::size_t every = (plot.x_names.size() + slots - 1) / slots;
    for (std::size_t i = 0; i < plot.x_names.size(); i += every) {
      out += vertical_tick(x.pixel(static_cast<double>(i)), short_name(plot.x_names[i]));
    }
    return out;
  }
  const std::vector<double> ticks = plot_ticks(x.unscale(x.lo), x.unscale(x.hi), x.log);
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    out += vertical_tick(x.pixel(ticks[i]), tick_label(ticks[i], resolution(ticks, i), plot.x_unit));
  }
  return out;
}

std::string axes(const Plot& plot, const Axis& x, const Axis& y) {
  std::string out = fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"#d0d7de\"/>", kLeft,
      kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  out += x_ticks(plot, x);
  const std::vector<double> y_ticks = plot_ticks(y.unscale(y.lo), y.unscale(y.hi), y.log);
  for (std::size_t i = 0; i < y_ticks.size(); ++i) {
    const double py = y.pixel(y_ticks[i]);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#eaeef2\"/>"
        "<text x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>",
        kLeft, py, kWidth - kRight, kLeft - 4, py + 4,
        escape_html(tick_label(y_ticks[i], resolution(y_ticks, i), plot.y_unit)));
  }
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", (kLeft + kWidth - kRight) / 2,
                     kHeight - 8, escape_html(plot.x_label));
  out += fmt::format("<text x=\"12\" y=\"{:.1f}\" transform=\"rotate(-90 12 {:.1f})\" text-anchor=\"middle\">{}</text>",
                     (kTop + kHeight - kBottom) / 2, (kTop + kHeight - kBottom) / 2, escape_html(plot.y_label));
  return out;
}

std::string polylines(const PlotSeries& s, std::string_view stroke, const Axis& x, const Axis& y) {
  std::string out, points;
  const auto flush = [&] {
    if (!points.empty()) {
      out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" points=\"{}\"/>", stroke,
                         s.tone == PlotTone::neutral ? "1.5" : "2.5", points);
    }
    points.clear();
  };
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    if (std::isnan(s.y[i])) {
      flush();
      continue;
    }
    points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", x.pixel(s.x[i]), y.pixel(s.y[i]));
  }
  flush();
  return out;
}

std::string series_svg(const PlotSeries& s, std::string_view stroke, const Axis& x, const Axis& y) {
  if (s.line) return polylines(s, stroke, x, y);
  std::string out;
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>", x.pixel(s.x[i]), y.pixel(s.y[i]),
                       stroke);
  }
  return out;
}

std::string legend_entry(const PlotSeries& s, std::string_view stroke, std::size_t row) {
  const double ly = kTop + 8 + 16 * static_cast<double>(row);
  const double lx = kWidth - kRight + 10;
  std::string out =
      s.line ? fmt::format(
                   "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"/>",
                   lx, ly, lx + 14, ly, stroke)
             : fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>", lx + 7, ly, stroke);
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", lx + 20, ly + 4, escape_html(s.name));
  return out;
}

std::string marker_svg(const PlotMarker& m, const Axis& x) {
  const double px = x.pixel(m.x);
  return fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\" stroke-dasharray=\"4 3\"/>"
      "<text x=\"{0:.1f}\" y=\"{4:.1f}\" text-anchor=\"middle\" fill=\"{3}\">{5}</text>",
      px, kTop, kHeight - kBottom, color(m.tone, kColors.size() - 2), kTop - 6, escape_html(m.label));
}

}  // namespace

std::string plot_svg(const Plot& plot) {
  const Axis x = make_axis(plot, true, kLeft, kWidth - kRight);
  const Axis y = make_axis(plot, false, kHeight - kBottom, kTop);
  std::string body = axes(plot, x, y);
  for (const PlotMarker& m : plot.markers) body += marker_svg(m, x);
  std::size_t legend_rows = 0;
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& s = plot.series[i];
    const std::string_view stroke = color(s.tone, i);
    body += series_svg(s, stroke, x, y);
    if (!s.name.empty()) body += legend_entry(s, stroke, legend_rows++);
  }
  return fmt::format(
      "<figure class=\"plot\"><svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"{2}\" "
      "font-size=\"11\" font-family=\"system-ui,sans-serif\">{3}</svg><figcaption>{2}</figcaption></figure>\n",
      kWidth, kHeight, escape_html(plot.title), body);
}

}  // namespace benchreport

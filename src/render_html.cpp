// Placeholder until the html renderer lands (same session); keeps render() linkable.
#include <stdexcept>

#include "benchreport/render.hpp"

namespace benchreport {
std::string render_html(const Report&, const RenderOptions&) { throw std::runtime_error("render_html: not implemented yet"); }
std::string render_html_fragment(const Report&, const RenderOptions&) { throw std::runtime_error("render_html_fragment: not implemented yet"); }
}  // namespace benchreport

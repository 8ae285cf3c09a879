// Placeholder until the text renderer lands (same session); keeps render() linkable.
#include <stdexcept>

#include "benchreport/render.hpp"

namespace benchreport {
std::string render_text(const Report&, const RenderOptions&) { throw std::runtime_error("render_text: not implemented yet"); }
}  // namespace benchreport

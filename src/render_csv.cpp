// Placeholder until the csv renderer lands (same session); keeps render() linkable.
#include <stdexcept>

#include "benchreport/render.hpp"

namespace benchreport {
std::string render_csv(const Report&, const RenderOptions&) { throw std::runtime_error("render_csv: not implemented yet"); }
}  // namespace benchreport

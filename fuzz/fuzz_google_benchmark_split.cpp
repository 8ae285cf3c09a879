// libFuzzer target, differential: the Google Benchmark reader's two-thread
// path against one pass on the same bytes. Whenever the two-thread path
// answers, one pass must accept the input too and give the same dataset and
// warnings; the bytes it changes while parsing must be restored.
#include <sstream>
#include <string_view>

#include "io/source.hpp"
#include "reader_target.hpp"

namespace {

std::string canonical(const benchreport::Dataset& ds) {
  std::ostringstream out;
  benchreport::write_canonical_json(ds, out);
  for (const auto& w : ds.warnings()) out << "\nwarning: " << w;
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace benchreport;
  const std::string original(reinterpret_cast<const char*>(data), size);
  std::string buffer = original + std::string(64, '\0');
  const ReadOptions options = fuzz::fuzz_limits();
  const io::Source source{"bench.json", std::string_view(buffer).substr(0, size),
                          options,      {},
                          true,         [&buffer](std::size_t, std::size_t) { return buffer.data(); }};
  std::optional<Dataset> split;
  try {
    split = io::read_google_benchmark_in_two_parts(source);
  } catch (const InputError& e) {
    fuzz::invariant_failed("the two-part path threw instead of declining:", e.what());
  }
  if (buffer.compare(0, size, original) != 0) fuzz::invariant_failed("the two-part path left the bytes changed");
  if (!split) return 0;
  Dataset one_pass;
  try {
    one_pass = read_buffer(original, "bench.json", "google-benchmark", options);
  } catch (const InputError& e) {
    // read_buffer refuses a file without samples after either path has read it; the
    // two-part path returns the empty dataset, which read_buffer then refuses the same way.
    const bool both_empty = split->n_sets() == 0 && std::string_view(e.what()).starts_with("bench.json: no samples");
    if (both_empty) return 0;
    fuzz::invariant_failed("two parts accepted what one pass refuses:", e.what());
  }
  if (canonical(*split) != canonical(one_pass)) fuzz::invariant_failed("two parts and one pass differ");
  fuzz::check_dataset(*split);
  return 0;
}

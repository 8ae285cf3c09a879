// Bencher Metric Format (BMF) JSON (https://bencher.dev/docs/reference/bencher-metric-format/):
// { "<benchmark>": { "<measure>": { "value": v, "lower_value": l, "upper_value": u } } }.
// One set per (benchmark, measure) with the one sample `value`; labels
// benchmark = the benchmark name, metric = the measure. Units: the built-in
// measures `latency` (ns) and `throughput` (ops/s); any other measure is a
// plain number (unit "1", lower is better, Bencher's default). lower_value and
// upper_value, and any other member of a measure object, go to the set metadata verbatim.
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

Unit measure_unit(std::string_view measure) {
  if (measure == "latency") return parse_unit("ns");
  if (measure == "throughput") return parse_unit("ops/s");
  return parse_unit("1");
}

class BmfReader {
 public:
  explicit BmfReader(const Source& source) : json_(source) {}

  Dataset read() {
    const JsonPath top;
    dataset_.add_run(json_.name(), "{}");
    json_.fields(json_.root_object(), top, [&](std::string_view benchmark, od::value b, const JsonPath& bp) {
      if (benchmark.empty()) json_.fail(bp, "empty benchmark name (BMF names are non-empty strings)");
      const std::string name(benchmark);
      json_.fields(json_.object(b, bp), bp, [&](std::string_view measure, od::value m, const JsonPath& mp) {
        read_measure(name, measure, m, mp);
      });
    });
    json_.finish();
    if (dataset_.empty())
      json_.fail(top, "no benchmarks (expected Bencher Metric Format: {\"name\": {\"latency\": {\"value\": ...}}})");
    return std::move(dataset_);
  }

 private:
  void read_measure(const std::string& benchmark, std::string_view measure, od::value value, const JsonPath& path) {
    if (measure.empty()) json_.fail(path, "empty measure name");
    bool has_value = false;
    double v = 0;
    Metadata metadata;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value x, const JsonPath& p) {
      if (key == "value") {
        v = json_.number(x, p);
        has_value = true;
      } else if (key == "lower_value" || key == "upper_value") {
        const double bound = json_.number(x, p);
        metadata.emplace_back(std::string(key), json_number(bound));
      } else {
        metadata.emplace_back(std::string(key), json_.raw(x, p));
      }
    });
    if (!has_value) json_.fail(path, "missing \"value\" (every BMF measure object has a numeric value)");
    if (v < 0 && (measure == "latency" || measure == "throughput")) {
      json_.fail(path.field("value"), fmt::format("{} is negative (expected a {} >= 0)", json_number(v), measure));
    }
    const Labels labels{{"benchmark", benchmark}, {"metric", std::string(measure)}};
    SetOptions options;
    options.run = json_.name();
    options.metadata = std::move(metadata);
    const double one[] = {v};
    try {
      dataset_.add_set(labels, one, measure_unit(measure), options);
    } catch (const InputError& e) {
      json_.fail(path, e.what());
    }
  }

  JsonInput json_;
  Dataset dataset_;
};

}  // namespace

Dataset read_bmf(const Source& source) { return BmfReader(source).read(); }

}  // namespace benchreport::io

// Canonical JSON ("benchreport/1"): reader and writer.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "benchreport/data/direction.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"
#include "reader.hpp"

namespace benchreport {

namespace io {

std::string canonical_unit_symbol(const Unit& unit) {
  return unit.dimension == Dimension::custom ? "custom:" + unit.symbol : unit.symbol;
}

Unit parse_canonical_unit(std::string_view symbol) {
  constexpr std::string_view kCustom = "custom:";
  if (symbol.starts_with(kCustom)) {
    symbol.remove_prefix(kCustom.size());
    if (symbol.empty()) throw InputError("empty custom unit (expected \"custom:<symbol>\")");
    Unit unit = parse_unit_or_custom(symbol);
    unit.dimension = Dimension::custom;  // as written: a custom unit is never scaled
    unit.to_base = 1.0;
    unit.higher_is_better = false;
    return unit;
  }
  return parse_unit(symbol);
}

}  // namespace io

namespace {

void write_set(const Dataset& dataset, std::size_t set, std::string& out) {
  const Unit& unit = dataset.unit(set);
  out += "{\"labels\":{";
  bool first = true;
  for (const auto& [name, value] : dataset.labels(set)) {
    if (!first) out += ',';
    first = false;
    io::append_json_string(out, name);
    out += ':';
    io::append_json_string(out, value);
  }
  out += "},\"unit\":";
  io::append_json_string(out, io::canonical_unit_symbol(unit));
  out += fmt::format(",\"direction\":\"{}\"", direction_name(dataset.direction(set)));
  if (unit.exact) out += ",\"exact\":true";
  if (const auto run = dataset.run_id(set); !run.empty()) {
    out += ",\"run\":";
    io::append_json_string(out, run);
  }
  out += ",\"values\":[";
  const auto samples = dataset.samples(set);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (i > 0) out += ',';
    fmt::format_to(std::back_inserter(out), "{}", samples[i]);  // as read
  }
  out += ']';
  if (const auto weights = dataset.sample_weights(set); !weights.empty()) {
    out += ",\"weights\":[";
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (i > 0) out += ',';
      fmt::format_to(std::back_inserter(out), "{}", weights[i]);
    }
    out += ']';
  }
  if (const auto& metadata = dataset.set_metadata(set); !metadata.empty()) {
    out += ",\"metadata\":";
    out += io::json_object(metadata);
  }
  out += '}';
}

}  // namespace

void write_canonical_json(const Dataset& dataset, std::ostream& stream) {
  std::string out = fmt::format("{{\"schema\":\"{}\",\n\"runs\":[", kCanonicalSchema);
  for (std::size_t i = 0; i < dataset.runs().size(); ++i) {
    const Run& run = dataset.runs()[i];
    out += i == 0 ? "\n" : ",\n";
    out += "{\"id\":";
    io::append_json_string(out, run.id);
    out += ",\"metadata\":";
    out += run.metadata_json;
    out += '}';
  }
  out += "],\n\"sets\":[";
  for (std::size_t set = 0; set < dataset.n_sets(); ++set) {
    out += set == 0 ? "\n" : ",\n";
    write_set(dataset, set, out);
    if (out.size() > (1U << 20)) {  // stream in chunks: bounded extra memory
      stream << out;
      out.clear();
    }
  }
  out += "],\n\"warnings\":[";
  for (std::size_t i = 0; i < dataset.warnings().size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    io::append_json_string(out, dataset.warnings()[i]);
  }
  out += "]}\n";
  stream << out;
}

namespace io {
namespace {

struct PendingRun {
  std::size_t set;
  std::string run;
};

class CanonicalJsonReader {
 public:
  explicit CanonicalJsonReader(const Source& source) : json_(source) {}

  Dataset read() {
    // Every sample is an array element: reserving the pre-pass's bound (pages
    // never touched cost no memory) spares the values array its regrowth copies.
    dataset_.reserve_values(
        static_cast<std::size_t>(std::min<std::uint64_t>(json_.shape().max_elements(), json_.options().max_samples)));
    const JsonPath top;
    bool has_schema = false;
    bool has_sets = false;
    json_.fields(json_.root_object(), top, [&](std::string_view key, od::value value, const JsonPath& path) {
      if (key == "schema") {
        const auto schema = json_.string(value, path);
        if (schema != kCanonicalSchema) {
          json_.fail(path, fmt::format("unsupported schema \"{}\" (expected \"{}\")", schema, kCanonicalSchema));
        }
        has_schema = true;
      } else if (key == "runs") {
        json_.elements(json_.array(value, path), path,
                       [&](std::size_t, od::value run, const JsonPath& p) { read_run(run, p); });
      } else if (key == "sets") {
        has_sets = true;
        json_.elements(json_.array(value, path), path,
                       [&](std::size_t, od::value set, const JsonPath& p) { read_set(set, p); });
      } else if (key == "warnings") {
        json_.elements(json_.array(value, path), path, [&](std::size_t, od::value w, const JsonPath& p) {
          dataset_.warn(std::string(json_.string(w, p)));
        });
      } else {
        json_.fail(path, "unknown member (expected schema, runs, sets, warnings)");
      }
    });
    json_.finish();
    if (!has_schema) json_.fail(top, fmt::format("missing \"schema\": \"{}\"", kCanonicalSchema));
    if (!has_sets) json_.fail(top, "missing \"sets\"");
    for (const auto& [set, run] : pending_) {
      if (dataset_.find_run(run) == nullptr) {
        throw InputError(
            fmt::format("{}: sets[{}].run: unknown run id \"{}\" (not in \"runs\")", json_.name(), set, run));
      }
      dataset_.set_run(set, run);
    }
    return std::move(dataset_);
  }

 private:
  void read_run(od::value value, const JsonPath& path) {
    std::string id;
    std::string metadata = "{}";
    bool has_id = false;
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "id") {
        id = json_.string(v, p);
        has_id = true;
      } else if (key == "metadata") {
        metadata = json_.raw_object(v, p);
      } else {
        json_.fail(p, "unknown member (expected id, metadata)");
      }
    });
    if (!has_id) json_.fail(path, "missing \"id\"");
    if (dataset_.find_run(id) != nullptr) json_.fail(path, fmt::format("duplicate run id \"{}\"", id));
    dataset_.add_run(std::move(id), std::move(metadata));
  }

  void read_labels(od::value value, const JsonPath& path, Labels& labels) {
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      for (const auto& existing : labels) {
        if (existing.first == key) json_.fail(p, "label given twice");
      }
      labels.emplace_back(std::string(key), std::string(json_.string(v, p)));
    });
  }

  void read_set(od::value value, const JsonPath& path) {
    Labels labels;
    std::string unit_symbol;
    bool has_unit = false;
    bool has_values = false;
    bool exact = false;
    SetOptions options;
    values_.clear();
    weights_.clear();
    json_.fields(json_.object(value, path), path, [&](std::string_view key, od::value v, const JsonPath& p) {
      if (key == "labels") {
        read_labels(v, p, labels);
      } else if (key == "unit") {
        unit_symbol = json_.string(v, p);
        has_unit = true;
      } else if (key == "direction") {
        const auto d = json_.string(v, p);
        if (d != "lower" && d != "higher")
          json_.fail(p, fmt::format("\"{}\" is not a direction (expected \"lower\" or \"higher\")", d));
        options.direction = d == "higher" ? Direction::higher_is_better : Direction::lower_is_better;
      } else if (key == "exact") {
        exact = json_.boolean(v, p);
      } else if (key == "run") {
        options.run = json_.string(v, p);
      } else if (key == "values") {
        json_.numbers(v, p, values_);
        has_values = true;
      } else if (key == "weights") {
        json_.numbers(v, p, weights_);
      } else if (key == "metadata") {
        json_.fields(json_.object(v, p), p, [&](std::string_view mk, od::value mv, const JsonPath& mp) {
          options.metadata.emplace_back(std::string(mk), json_.raw(mv, mp));
        });
      } else {
        json_.fail(p, "unknown member (expected labels, unit, direction, exact, run, values, weights, metadata)");
      }
    });
    if (!has_unit) json_.fail(path, "missing \"unit\"");
    if (!has_values) json_.fail(path, "missing \"values\"");
    if (values_.empty()) json_.fail(path.field("values"), "empty sample list (expected at least one value)");
    Unit unit;
    try {
      unit = parse_canonical_unit(unit_symbol);
    } catch (const InputError& e) {
      json_.fail(path.field("unit"), e.what());
    }
    unit.exact = exact;
    options.weights = weights_;
    // The run may be listed after the sets: attach it at the end.
    std::string run = std::move(options.run);
    options.run.clear();
    try {
      const std::size_t set = dataset_.add_set(labels, values_, unit, options);
      if (!run.empty()) pending_.push_back(PendingRun{set, std::move(run)});
    } catch (const InputError& e) {
      json_.fail(path, e.what());
    }
  }

  JsonInput json_;
  Dataset dataset_;
  std::vector<double> values_;
  std::vector<double> weights_;
  std::vector<PendingRun> pending_;
};

}  // namespace

Dataset read_canonical_json(const Source& source) { return CanonicalJsonReader(source).read(); }

}  // namespace io
}  // namespace benchreport

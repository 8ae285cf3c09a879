// criterion.rs sample.json ({"sampling_mode", "iters", "times"}): samples are
// per-iteration times times[i] / iters[i] (ns) with weights iters[i]. Labels
// come from the benchmark.json beside it (group_id, function_id, value_str)
// or, without it, from the folder: target/criterion/<id>/<baseline>/sample.json.
#include <fmt/format.h>

#include "benchreport/core/error.hpp"
#include "reader.hpp"

namespace benchreport::io {
namespace {

// Folder names of a path, last first: ".../<id>/new/sample.json" → {"new", "<id>", ...}.
std::vector<std::string> parent_folders(std::string_view name) {
  std::vector<std::string> out;
  std::string_view rest = name;
  auto slash = rest.find_last_of("/\\");
  while (slash != std::string_view::npos) {
    rest = rest.substr(0, slash);
    slash = rest.find_last_of("/\\");
    out.emplace_back(slash == std::string_view::npos ? rest : rest.substr(slash + 1));
  }
  return out;
}

// Labels from criterion's benchmark.json.
Labels companion_labels(const Source& sample, Metadata& metadata) {
  const std::string name = sample.name + " (benchmark.json beside it)";
  const Source source{name, sample.companion, sample.options, {}, false, {}};
  JsonInput json(source);
  Labels labels;
  std::string full_id, title;
  const JsonPath top;
  json.fields(json.root_object(), top, [&](std::string_view key, od::value v, const JsonPath& p) {
    const bool null = json.is_null(v);
    if (key == "group_id" && !null)
      labels.emplace_back("group", std::string(json.string(v, p)));
    else if (key == "function_id" && !null)
      labels.emplace_back("function", std::string(json.string(v, p)));
    else if (key == "value_str" && !null)
      labels.emplace_back("parameter", std::string(json.string(v, p)));
    else if (key == "full_id" && !null)
      full_id = json.string(v, p);
    else if (key == "title" && !null)
      title = json.string(v, p);
    else
      metadata.emplace_back(std::string(key), json.raw(v, p));  // throughput, directory_name, ...
  });
  json.finish();
  labels.insert(labels.begin(), {"benchmark", !full_id.empty() ? full_id : title});
  return labels;
}

}  // namespace

Dataset read_criterion(const Source& source) {
  JsonInput json(source);
  const JsonPath top;
  std::vector<double> iters, times;
  bool has_iters = false, has_times = false, is_benchmark_json = false;
  Metadata metadata;
  json.fields(json.root_object(), top, [&](std::string_view key, od::value v, const JsonPath& p) {
    if (key == "iters") {
      json.numbers(v, p, iters);
      has_iters = true;
    } else if (key == "times") {
      json.numbers(v, p, times);
      has_times = true;
    } else {
      is_benchmark_json |= key == "group_id";
      metadata.emplace_back(std::string(key), json.raw(v, p));  // sampling_mode
    }
  });
  json.finish();
  if (is_benchmark_json) {
    json.fail(top, "this is criterion's benchmark.json (labels only): read the sample.json beside it, or the folder");
  }
  if (!has_iters || !has_times)
    json.fail(top, fmt::format("missing \"{}\" (expected criterion's sample.json)", has_iters ? "times" : "iters"));
  if (iters.size() != times.size())
    json.fail(top.field("times"),
              fmt::format("{} times for {} iters (expected one per sample)", times.size(), iters.size()));
  if (iters.empty()) json.fail(top.field("iters"), "empty sample list");
  std::vector<double> per_iteration(iters.size());
  for (std::size_t i = 0; i < iters.size(); ++i) {
    if (!(iters[i] > 0))
      json.fail(top.field("iters").at(i), fmt::format("{} (expected an iteration count > 0)", iters[i]));
    if (!(times[i] >= 0))
      json.fail(top.field("times").at(i), fmt::format("{} (expected a total time in ns >= 0)", times[i]));
    per_iteration[i] = times[i] / iters[i];
  }
  const auto folders = parent_folders(source.name);
  Labels labels;
  if (!source.companion.empty()) {
    labels = companion_labels(source, metadata);
  } else {
    labels.emplace_back("benchmark", folders.size() >= 2 ? folders[1] : file_stem(source.name));
  }
  if (!folders.empty()) labels.emplace_back("baseline", folders[0]);  // "new", "base" or a saved baseline
  Dataset dataset;
  dataset.add_run(source.name, "{}");
  SetOptions options;
  options.run = source.name;
  options.weights = iters;
  options.metadata = std::move(metadata);
  try {
    dataset.add_set(labels, per_iteration, parse_unit("ns"), options);
  } catch (const InputError& e) {
    json.fail(top, e.what());
  }
  return dataset;
}

}  // namespace benchreport::io

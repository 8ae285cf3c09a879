// The commands below argparse (cli/run.hpp, command_inputs.hpp, emit.hpp):
// options in, exit code and the bytes on stdout, stderr and in files out.
// Messages are the ones the Python command line printed before these moved.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <unistd.h>

#include "benchreport/cli/command_inputs.hpp"
#include "benchreport/cli/emit.hpp"
#include "benchreport/cli/outputs.hpp"
#include "benchreport/cli/run.hpp"
#include "benchreport/cli/usage_error.hpp"
#include "benchreport/core/error.hpp"
#include "benchreport/io/read.hpp"
#include "usage_message.hpp"

using namespace benchreport;
using namespace benchreport::cli;
namespace fs = std::filesystem;

namespace {

const std::string kData = BENCHREPORT_TEST_DATA;
const std::string kSingle = kData + "/google_benchmark/single.json";
const std::string kRepetitions = kData + "/google_benchmark/repetitions.json";

// A caller whose reads go to the C++ readers and whose streams are strings.
struct Captured {
  std::string out, err;
  CommandIo io;
  explicit Captured(bool validate = false) {
    io.read = [validate](const Source& source, const ReadLimits&) -> std::shared_ptr<const Dataset> {
      try {
        return std::make_shared<const Dataset>(read(source.name));
      } catch (const std::exception& error) {
        if (validate) throw ReadProblem(error.what());
        throw;
      }
    };
    io.read_stdin = [](std::uint64_t) { return std::string(); };
    io.out = [this](std::string_view text) { out += text; };
    io.err = [this](std::string_view text) { err += text; };
  }
};

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path scratch(const std::string& name) {
  const fs::path folder = fs::temp_directory_path() / ("benchreport-cli-run-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  return folder / name;
}

}  // namespace

TEST_CASE("summary: the report on stdout, ending in a newline", "[cli][run]") {
  Captured c;
  CommandOptions o;
  o.inputs = {kSingle};
  o.format = "json";
  REQUIRE(run_summary(o, c.io) == kExitOk);
  CHECK(c.out.starts_with("{"));
  CHECK(c.out.ends_with("\n"));
  CHECK(c.err.empty());
  o.by = {"nosuchlabel"};
  CHECK_THROWS_AS(run_summary(o, c.io), UsageError);
}

TEST_CASE("summary: inputs repeating one another's sets get a file label", "[cli][run]") {
  Captured c;
  CommandOptions o;
  o.inputs = {kSingle, kSingle};
  const Dataset dataset = load_with_file_column(o, c.io);
  const auto columns = dataset.columns();
  CHECK(std::find(columns.begin(), columns.end(), "file") != columns.end());
  o.labels = {"runner=ci"};
  CHECK(load_inputs(o, c.io).label(0, "runner") == "ci");
}

TEST_CASE("compare and scaling: the sides, or why not", "[cli][run]") {
  Captured c;
  CommandOptions o;
  o.base = {kRepetitions};
  CHECK(usage_message([&] { side_inputs(o, c.io, "compare"); }) ==
        "--base and --head go together: give both, or neither and label the inputs");
  CHECK(usage_message([&] { side_inputs(o, c.io, "scaling"); }) ==
        "--base and --head go together: give both, or neither");
  o.base.clear();
  CHECK(usage_message([&] { side_inputs(o, c.io, "compare"); }) ==
        "no input files given (positional inputs, or --base and --head)");
  o.inputs = {kSingle};
  CHECK(usage_message([&] {
          side_inputs(o, c.io, "compare");
        }).starts_with("1 input(s) and none has a 'revision' label (the inputs have "));
  o.base = {kRepetitions};
  o.head = {kRepetitions};
  CHECK(usage_message([&] { side_inputs(o, c.io, "compare"); }) ==
        kSingle + ": give inputs either positionally or with --base/--head, not both");
}

TEST_CASE("compare OLD NEW: a report, and no gate for identical inputs", "[cli][run]") {
  Captured c;
  CommandOptions o;
  o.inputs = {kRepetitions, kRepetitions};
  o.resamples = 200;
  o.fail_on = "slower";
  o.format = "text";
  REQUIRE(run_compare(o, c.io) == kExitOk);
  CHECK(!c.out.empty());
  o.resamples = 0;
  CHECK(usage_message([&] { run_compare(o, c.io); }) == "--resamples 0: expected a positive count");
}

TEST_CASE("validate: ok on stdout, INVALID on stderr and exit 2", "[cli][run]") {
  Captured c(true);
  const fs::path bad = scratch("bad.json");
  std::ofstream(bad) << "{ not json";
  CommandOptions o;
  o.inputs = {kSingle, bad.string()};
  CHECK(run_validate(o, c.io) == kExitInput);
  CHECK(c.out.starts_with("ok " + kSingle + ": "));
  CHECK(c.err.starts_with("INVALID "));
  CHECK(c.err.ends_with("\n"));
}

TEST_CASE("github outputs (--github): the comment body and the step summary, then one line on stderr", "[cli][run]") {
  Captured c;
  CommandOptions o;
  o.inputs = {kSingle};
  o.github = true;
  o.comment_file = scratch("comment.md").string();
  o.step_summary = scratch("summary.md").string();
  fs::remove(*o.step_summary);
  REQUIRE(run_summary(o, c.io) == kExitOk);
  CHECK(with_newline(file_text(*o.comment_file)) == file_text(*o.step_summary));
  CHECK(c.err ==
        "benchreport: PR comment body written to " + *o.comment_file + " and appended to " + *o.step_summary + "\n");
}

TEST_CASE("an output file (-o): the report rendered into it, nothing on stdout", "[cli][run]") {
  Captured c;
  CommandOptions o;
  o.inputs = {kSingle};
  o.format = "csv";
  o.output = scratch("report.csv").string();
  REQUIRE(run_summary(o, c.io) == kExitOk);
  CHECK(c.out.empty());
  CHECK(!file_text(*o.output).empty());
}

TEST_CASE("history: --fail-on states need a store, and inputs are needed", "[cli][run]") {
  Captured c;
  CommandOptions o;
  const ReadTable no_tables = [](const Source&) -> std::shared_ptr<const Dataset> { return nullptr; };
  o.fail_on = "open-regression";
  CHECK(usage_message([&] { run_history(o, c.io, no_tables); }) ==
        "--fail-on open-regression reads change point states, which need --store");
  o.fail_on.reset();
  CHECK(usage_message([&] { run_history(o, c.io, no_tables); }) == "history: give input files, or --store PATH");
  CHECK(is_arrow_table({"runs.parquet", nullptr}));
  CHECK(!is_arrow_table({"runs.json", nullptr}));
}

TEST_CASE("folders are made as os.makedirs makes them", "[cli][run]") {
  const fs::path nested = scratch("a") / "b" / "c";
  make_folders(nested.string());
  CHECK(fs::is_directory(nested));
  make_folders(nested.string());  // exists: fine
  const fs::path file = scratch("plain");
  std::ofstream(file) << "x";
  CHECK_THROWS_WITH(make_folders(file.string()), file.string() + ": File exists");
  CHECK(format_extension("markdown") == "md");
  CHECK(format_extension("text") == "txt");
  CHECK(format_extension("json") == "json");
}

// run_simgrid: platform file, SimGrid configuration, actors, engine run.
#include "simgrid_run.hpp"

#include <fmt/format.h>
#include <simgrid/version.h>
#include <unistd.h>
#include <xbt/log.h>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "platform_xml.hpp"

namespace netwarp::simgrid_check {

namespace sg4 = simgrid::s4u;

namespace {

// Actors run only our small loops; SimGrid's default 8 MiB stacks would reserve a lot of
// address space when many transfers are in flight at once.
constexpr const char* kStackSize = "contexts/stack-size:256";

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the platform", path));
}

// A private temporary file name for the platform when the user wants none.
std::string temporary_platform_path() {
  return (std::filesystem::temp_directory_path() /
          fmt::format("netwarp-simgrid-{}-platform.xml", getpid()))
      .string();
}

// Removes the file (if any) when it goes out of scope.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path) : path_(std::move(path)) {}
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove(path_, ignored);
  }

 private:
  std::string path_;
};

void configure(const NetworkModelChoice& model, bool verbose) {
  if (!verbose) xbt_log_control_set("root.app:file:/dev/null");
  sg4::Engine::set_config(kStackSize);
  for (const auto& [option, value] : model.config) sg4::Engine::set_config(option + ":" + value);
}

std::string library_version() {
  int major = 0;
  int minor = 0;
  int patch = 0;
  sg_version_get(&major, &minor, &patch);
  return fmt::format("{}.{}.{}", major, minor, patch);
}

std::vector<sg4::Host*> rank_hosts(const sg4::Engine& engine, const scenarios::MpiRunSpec& spec) {
  const std::vector<std::string> names = simgrid_node_names(spec.network.topology);
  std::vector<sg4::Host*> hosts;
  for (const netmodels::NodeId node : spec.config.rank_hosts)
    hosts.push_back(engine.host_by_name(names[node]));
  return hosts;
}

}  // namespace

bool SimgridRunResult::finished() const {
  return std::all_of(ranks.begin(), ranks.end(),
                     [](const RankOutcome& r) { return r.end_ps >= 0; });
}

std::int64_t SimgridRunResult::predicted_ps() const {
  if (!finished()) return -1;
  std::int64_t last = 0;
  for (const RankOutcome& r : ranks) last = std::max(last, r.end_ps);
  return last;
}

SimgridRunResult run_simgrid(const scenarios::MpiRunSpec& spec,
                             const SimgridRunSettings& settings) {
  const NetworkModelChoice& model = find_network_model(settings.network_model);
  const std::string xml =
      platform_xml(spec.network.topology, spec.network.nic.rate_bps, spec.config.rank_hosts, model);
  const bool temporary = settings.platform_out.empty();
  const std::string path = temporary ? temporary_platform_path() : settings.platform_out;
  write_file(path, xml);

  int argc = 1;
  char name[] = "netwarp-simgrid";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  configure(model, settings.verbose);
  {
    const TemporaryFile remove_after_load{temporary ? path : std::string()};
    engine.load_platform(path);
  }

  MpiWorld world(*spec.program, spec.config, rank_hosts(engine, spec));
  world.start();
  engine.run();
  return {library_version(), world.outcomes(), world.transfer_count()};
}

}  // namespace netwarp::simgrid_check

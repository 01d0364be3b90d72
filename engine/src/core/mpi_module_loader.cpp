// LoadedMpi: finds libnetwarp_mpi.so beside the program (<prefix>/bin/netwarp,
// <prefix>/lib/libnetwarp_mpi.so: the build folder's layout, engine/CMakeLists.txt) and loads it
// once per process.
#include <dlfcn.h>

#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/job_abort.hpp"
#include "netwarp/engine/mpi_module.hpp"
#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {
namespace {

constexpr const char* kModuleFile = "libnetwarp_mpi.so";

std::filesystem::path module_path() {
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error)
    throw MpiModuleError(std::string("cannot find this program's folder to load the MPI module ") +
                         kModuleFile + ": /proc/self/exe: " + error.message());
  return program.parent_path().parent_path() / "lib" / kModuleFile;
}

const MpiModuleApi* load_module() {
  const std::filesystem::path path = module_path();
  // Global: Open MPI's own components, which it loads later, take its symbols from there.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr)
    throw MpiModuleError(std::string("cannot load the MPI module, which an MPI job needs: ") +
                         dlerror());
  const auto entry =
      reinterpret_cast<decltype(&netwarp_mpi_module)>(dlsym(handle, "netwarp_mpi_module"));
  if (entry == nullptr)
    throw MpiModuleError(path.string() + ": not netwarp's MPI module (no netwarp_mpi_module)");
  static const MpiModuleHost host{&check_failed, &set_job_abort};
  const MpiModuleApi* api = entry(&host);
  if (api->version != kMpiModuleVersion)
    throw MpiModuleError(path.string() + ": MPI module of another netwarp build (interface " +
                         std::to_string(api->version) + ", this program's " +
                         std::to_string(kMpiModuleVersion) + ")");
  return api;  // never unloaded: MPI cannot be initialized again in the process anyway
}

}  // namespace

LoadedMpi::LoadedMpi(int& argc, char**& argv, bool threads)
    : api_(load_module()), session_(api_->start(argc, argv, threads)) {}

LoadedMpi::~LoadedMpi() {
  api_->finish(session_);
}

std::unique_ptr<RankExchange> LoadedMpi::make_exchange() {
  return std::unique_ptr<RankExchange>(api_->make_exchange());
}

std::vector<std::unique_ptr<RankExchange>> LoadedMpi::make_hybrid_exchanges(int threads) {
  std::vector<std::unique_ptr<RankExchange>> exchanges;
  api_->make_hybrid_exchanges(threads, exchanges);
  return exchanges;
}

}  // namespace netwarp::engine

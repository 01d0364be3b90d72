// The engine's MPI part (MpiSession, make_mpi_exchange, make_hybrid_exchanges of
// rank_exchange.hpp) as a module the netwarp program loads at run time, only in an MPI job:
// libnetwarp_mpi.so in the lib/ folder beside the program's bin/ folder. A single-process run then
// never maps Open MPI and Boost.MPI, whose loading and initialisers cost about 1.7 ms of CPU at
// every start (bench/SCALE.md, "Fixed costs"). Programs that link netwarp::engine_mpi (the MPI
// tests, sync_bench) call those functions directly instead.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "netwarp/engine/job_abort.hpp"
#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {

// The module cannot be found or loaded, or is of another build: what and why, in one line.
class MpiModuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// MPI through the module for the lifetime of the object: loads it (once per process) and
// initializes MPI (thread level single, or multiple for partitions as threads in each process);
// finalizes on destruction, so every exchange it made must be gone by then.
class LoadedMpi {
 public:
  // Throws MpiModuleError.
  LoadedMpi(int& argc, char**& argv, bool threads);
  ~LoadedMpi();
  LoadedMpi(const LoadedMpi&) = delete;
  LoadedMpi& operator=(const LoadedMpi&) = delete;

  std::unique_ptr<RankExchange> make_exchange();  // make_mpi_exchange
  std::vector<std::unique_ptr<RankExchange>> make_hybrid_exchanges(int threads);

 private:
  const struct MpiModuleApi* api_;
  void* session_;
};

// The module's interface; its version changes with any change to these two tables.
inline constexpr int kMpiModuleVersion = 1;

// What the program lends the module: its NW_CHECK reporting (which knows the rank and event the
// kernel is at) and its job-abort setting.
struct MpiModuleHost {
  void (*check_failed)(const char* file, int line, const char* condition,
                       const std::string& message);
  void (*set_job_abort)(JobAbort abort);
};

// What the module offers (mpi_module.cpp).
struct MpiModuleApi {
  int version;
  void* (*start)(int& argc, char**& argv, bool threads);  // a new MpiSession
  void (*finish)(void* session);                          // deletes it
  RankExchange* (*make_exchange)();
  void (*make_hybrid_exchanges)(int threads, std::vector<std::unique_ptr<RankExchange>>& out);
};

}  // namespace netwarp::engine

// The module's one exported symbol.
extern "C" const netwarp::engine::MpiModuleApi* netwarp_mpi_module(
    const netwarp::engine::MpiModuleHost* host);

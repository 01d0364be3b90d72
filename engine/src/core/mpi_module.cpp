// libnetwarp_mpi.so's entry point (mpi_module.hpp): mpi_exchange.cpp behind a table of plain
// functions. The module holds no engine code besides (but cpu_pinning.cpp's few functions):
// NW_CHECK failures and the job-abort setting go to the program that loaded it, whose kernel
// knows the rank and event at hand.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/job_abort.hpp"
#include "netwarp/engine/mpi_module.hpp"
#include "netwarp/engine/rank_exchange.hpp"

namespace {

const netwarp::engine::MpiModuleHost* g_host = nullptr;

void* start(int& argc, char**& argv, bool threads) {
  return new netwarp::engine::MpiSession(argc, argv, threads);
}

void finish(void* session) {
  delete static_cast<netwarp::engine::MpiSession*>(session);
}

netwarp::engine::RankExchange* make_exchange() {
  return netwarp::engine::make_mpi_exchange().release();
}

void make_hybrid_exchanges(int threads,
                           std::vector<std::unique_ptr<netwarp::engine::RankExchange>>& out) {
  out = netwarp::engine::make_hybrid_exchanges(threads);
}

constexpr netwarp::engine::MpiModuleApi kApi{netwarp::engine::kMpiModuleVersion, &start, &finish,
                                             &make_exchange, &make_hybrid_exchanges};

}  // namespace

namespace netwarp::engine {

// mpi_exchange.cpp's uses of the engine, answered by the program.
void check_failed(const char* file, int line, const char* condition, const std::string& message) {
  g_host->check_failed(file, line, condition, message);
  std::abort();  // not reached: the program's check_failed does not return
}

void set_job_abort(JobAbort abort) {
  g_host->set_job_abort(abort);
}

}  // namespace netwarp::engine

extern "C" __attribute__((visibility("default"))) const netwarp::engine::MpiModuleApi*
netwarp_mpi_module(const netwarp::engine::MpiModuleHost* host) {
  g_host = host;
  return &kApi;
}

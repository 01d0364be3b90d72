// protocol_name: the names MPI protocols have in every output (JSON, CSV, timeline).
#include <array>
#include <string_view>

#include "netwarp/mpiemul/mpi_outputs.hpp"

namespace netwarp::mpiemul {

namespace {
constexpr std::array<std::string_view, kProtocolCount> kProtocolNames = {
    "none", "short", "eager", "rendezvous", "direct", "mixed"};
}  // namespace

std::string protocol_name(Protocol protocol) {
  return std::string(kProtocolNames.at(static_cast<std::size_t>(protocol)));
}

}  // namespace netwarp::mpiemul

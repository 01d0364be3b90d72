// An MPI run as an engine model: the packet network of a NetworkSpec whose hosts run the
// ranks of a Program (hosts without a rank only carry their NIC).
#pragma once

#include <memory>

#include "netwarp/mpiemul/mpi_config.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/netmodels/network_model.hpp"

namespace netwarp::mpiemul {

// `spec` should have an empty workload. Throws std::invalid_argument if the configuration
// does not fit the program or the topology (rank count, hosts, thresholds).
std::unique_ptr<netmodels::NetworkModel> make_mpi_model(netmodels::NetworkSpec spec,
                                                        std::shared_ptr<const Program> program,
                                                        MpiConfig config);

}  // namespace netwarp::mpiemul

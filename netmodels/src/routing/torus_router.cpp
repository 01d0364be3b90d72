// TorusRouter: dimension-order routes and the port layout of the torus or mesh (see header).
#include "routing/torus_router.hpp"

#include <algorithm>

namespace netwarp::netmodels {

std::uint32_t TorusShape::coordinate(std::uint32_t router, std::uint32_t dim) const {
  return router / stride(dim) % dims[dim];
}

std::uint32_t TorusShape::stride(std::uint32_t dim) const {
  std::uint32_t s = 1;
  for (std::uint32_t d = 0; d < dim; ++d) s *= dims[d];
  return s;
}

std::uint32_t TorusShape::ports_in_dimension(std::uint32_t dim, std::uint32_t coordinate) const {
  if (wrap) return dims[dim] == 2 ? 1 : 2;
  return (coordinate > 0 ? 1 : 0) + (coordinate + 1 < dims[dim] ? 1 : 0);
}

std::uint32_t TorusShape::direction_offset(std::uint32_t dim, std::uint32_t coordinate,
                                           bool positive) const {
  if (wrap && dims[dim] == 2) return 0;
  if (wrap && coordinate == 0) return positive ? 0 : 1;
  if (coordinate == 0) return 0;  // mesh: no port toward -1
  return positive ? 1 : 0;
}

std::uint32_t TorusShape::neighbour(std::uint32_t router, std::uint32_t dim, bool positive) const {
  const std::uint32_t size = dims[dim];
  const std::uint32_t from = coordinate(router, dim);
  const std::uint32_t to = positive ? (from + 1) % size : (from + size - 1) % size;
  return router - from * stride(dim) + to * stride(dim);
}

PortIndex TorusRouter::next_port(NodeId switch_node, NodeId dst_host) const {
  const std::uint32_t router = switch_node - hosts();
  const std::uint32_t dst_router = dst_host / shape_.hosts_per_router;
  if (dst_router == router) return static_cast<PortIndex>(dst_host % shape_.hosts_per_router);
  std::uint32_t first_port = shape_.hosts_per_router;
  std::uint32_t rest = router;
  std::uint32_t dst_rest = dst_router;
  for (std::uint32_t d = 0; d < shape_.dimensions; ++d) {
    const std::uint32_t size = shape_.dims[d];
    const std::uint32_t from = rest % size;
    const std::uint32_t to = dst_rest % size;
    if (from != to) {
      bool positive = to > from;
      if (shape_.wrap) {
        const std::uint32_t forward = (to + size - from) % size;
        positive = forward <= size - forward;
      }
      return static_cast<PortIndex>(first_port + shape_.direction_offset(d, from, positive));
    }
    first_port += shape_.ports_in_dimension(d, from);
    rest /= size;
    dst_rest /= size;
  }
  return static_cast<PortIndex>(~PortIndex{0});  // dst_host is no host of this torus
}

std::optional<std::uint32_t> TorusRouter::links_to(NodeId switch_node, NodeId dst_host) const {
  std::uint32_t rest = switch_node - hosts();
  std::uint32_t dst_rest = dst_host / shape_.hosts_per_router;
  std::uint32_t links = 1;  // into the host
  for (std::uint32_t d = 0; d < shape_.dimensions; ++d) {
    const std::uint32_t size = shape_.dims[d];
    const std::uint32_t from = rest % size;
    const std::uint32_t to = dst_rest % size;
    const std::uint32_t forward = (to + size - from) % size;
    links += shape_.wrap ? std::min(forward, size - forward) : (to > from ? to - from : from - to);
    rest /= size;
    dst_rest /= size;
  }
  return links;
}

std::size_t TorusRouter::port_count(NodeId switch_node) const {
  const std::uint32_t router = switch_node - hosts();
  std::size_t count = shape_.hosts_per_router;
  for (std::uint32_t d = 0; d < shape_.dimensions; ++d)
    count += shape_.ports_in_dimension(d, shape_.coordinate(router, d));
  return count;
}

NodeId TorusRouter::peer(NodeId switch_node, PortIndex port) const {
  const std::uint32_t router = switch_node - hosts();
  if (port < shape_.hosts_per_router) return router * shape_.hosts_per_router + port;
  std::uint32_t first_port = shape_.hosts_per_router;
  for (std::uint32_t d = 0; d < shape_.dimensions; ++d) {
    const std::uint32_t coordinate = shape_.coordinate(router, d);
    const std::uint32_t count = shape_.ports_in_dimension(d, coordinate);
    if (port < first_port + count) {
      const bool positive = shape_.direction_offset(d, coordinate, true) == port - first_port;
      return hosts() + shape_.neighbour(router, d, positive);
    }
    first_port += count;
  }
  return kNoNode;
}

}  // namespace netwarp::netmodels

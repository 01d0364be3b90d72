// PlogP (Kielmann et al. 2000), docs/models/plogp-br.md: L constant, o_s(m), o_r(m) and
// g(m) measured tables of the message size m. The time of one m-byte message is L + g(m)
// (g includes the send and receive costs), so RTT(m) = 2(L + g(m)), and n back-to-back
// messages take n g(m) + L.
//
// Units: times in ns, sizes in bytes.
//
//   PlogpParams p{.L = 3000, .o_s = Table({{0, 1000}}), .o_r = Table({{0, 900}}),
//                 .g = Table({{0, 2000}, {1024, 10000}})};
//   double t = message_time(p, 512);   // 3000 + 6000
#pragma once

#include <cstdint>
#include <vector>

namespace netwarp::validation {

struct TablePoint {
  std::uint64_t m = 0;  // bytes
  double value = 0;     // ns
};

// A measured function of the message size: linear between points, extended beyond either
// end along the line through the two nearest points; constant when there is only one point.
class Table {
 public:
  Table() = default;
  // Sorts by m. Throws std::invalid_argument on two points with the same m.
  explicit Table(std::vector<TablePoint> points);
  // Throws std::invalid_argument when the table is empty.
  double at(std::uint64_t m) const;
  double operator()(std::uint64_t m) const { return at(m); }
  const std::vector<TablePoint>& points() const { return points_; }
  bool empty() const { return points_.empty(); }

 private:
  std::vector<TablePoint> points_;
};

struct PlogpParams {
  double L = 0;  // ns: latency
  Table o_s;     // ns: send overhead o_s(m)
  Table o_r;     // ns: receive overhead o_r(m), message already there
  Table g;       // ns: gap g(m)
};

double message_time(const PlogpParams& p, std::uint64_t m);                   // L + g(m)
double send_time(const PlogpParams& p, std::uint64_t m);                      // o_s(m)
double recv_time(const PlogpParams& p, std::uint64_t m);                      // o_r(m)
double rtt(const PlogpParams& p, std::uint64_t m);                            // 2(L + g(m))
double back_to_back(const PlogpParams& p, std::uint64_t n, std::uint64_t m);  // n g(m) + L

}  // namespace netwarp::validation

// write_tit: a proto::Trace as one SimGrid time-independent trace file holding every rank's
// lines ("RANK ACTION ARGS..."), rank by rank, each rank between "init" and "finalize". The
// grammar is the one read_tit reads (tit_point_to_point.cpp, tit_collectives.cpp) with sizes
// in bytes: a bare init keeps MPI_BYTE as the default datatype, so no line names one. Flops
// and seconds are written in the shortest form that reads back to the same double; a receive
// of unknown size (0) is written as 0, which reads back as unknown. read_tit(write_tit(t))
// gives the same actions as t (only the lines and file they point at differ). sendrecv has no
// TIT action that read_tit reads: it is refused, as are list fields without one entry per rank,
// actions on a communicator other than MPI_COMM_WORLD (TIT lines name none), comm_dup and
// comm_create, and a wait for a non-blocking collective by Wait.collective (TIT has only the
// bare form; it is written bare when the collective is the latest request).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <numeric>
#include <string>

#include "action_site.hpp"
#include "comm_plan.hpp"
#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

using Bytes = google::protobuf::RepeatedField<std::uint64_t>;

class TitWriter {
 public:
  TitWriter(const proto::Trace& trace, std::string file)
      : file_(std::move(file)), ranks_(static_cast<std::uint32_t>(trace.ranks_size())) {}

  void rank(std::uint32_t rank, const proto::RankTrace& actions) {
    rank_ = rank;
    line("init");
    for (int i = 0; i < actions.actions_size(); ++i) {
      index_ = i;
      action(actions.actions(i));
    }
    line("finalize");
  }
  const std::string& text() const { return text_; }

 private:
  template <class... Args>
  void line(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(text_), "{} ", rank_);
    fmt::format_to(std::back_inserter(text_), format, std::forward<Args>(args)...);
    text_ += '\n';
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw TraceError(file_, 0, fmt::format("rank {} action {}: {}", rank_, index_, message));
  }

  const Bytes& per_rank(const Bytes& list, std::string_view action, std::string_view field) const {
    if (static_cast<std::uint32_t>(list.size()) != ranks_)
      fail(fmt::format("{}.{} has {} entries; TIT needs one per rank ({})", action, field,
                       list.size(), ranks_));
    return list;
  }

  void wait(std::string_view name, const proto::Wait& wait) {
    if (wait.collective())
      fail(fmt::format("{} for a non-blocking collective: TIT has no such form", name));
    if (!wait.has_request()) return line("{}", name);
    const proto::RequestKey& key = wait.request();
    line("{} {} {} {}", name, key.src(), key.dst(), key.tag());
  }

  void action(const proto::Action& a);
  void collective(const proto::Action& a);
  void vector_collective(const proto::Action& a);

  std::string file_;
  std::uint32_t ranks_;
  std::uint32_t rank_ = 0;
  int index_ = 0;
  std::string text_;
};

void TitWriter::action(const proto::Action& a) {
  using Kind = proto::Action::KindCase;
  if (action_comm(a) != 0)
    fail(
        fmt::format("{} is on communicator handle {}: TIT lines name no communicator; write the "
                    "trace as .pb or .pbtxt",
                    action_kind_name(a), action_comm(a)));
  switch (a.kind_case()) {
    case Kind::kCommSplit:
      return line("comm_split {} {}", a.comm_split().color(), a.comm_split().key());
    case Kind::kCommDup:
    case Kind::kCommCreate:
      fail(fmt::format("{} has no TIT action netwarp reads; write the trace as .pb or .pbtxt",
                       action_kind_name(a)));
    case Kind::kCompute:
      return line("compute {}", a.compute().flops());
    case Kind::kSleep:
      return line("sleep {}", a.sleep().seconds());
    case Kind::kSend:
      return line("send {} {} {}", a.send().dst(), a.send().tag(), a.send().bytes());
    case Kind::kIsend:
      return line("isend {} {} {}", a.isend().dst(), a.isend().tag(), a.isend().bytes());
    case Kind::kRecv:
      return line("recv {} {} {}", a.recv().src(), a.recv().tag(), a.recv().bytes());
    case Kind::kIrecv:
      return line("irecv {} {} {}", a.irecv().src(), a.irecv().tag(), a.irecv().bytes());
    case Kind::kWait:
      return wait("wait", a.wait());
    case Kind::kTest:
      return wait("test", a.test());
    case Kind::kWaitall:
      return line("waitall");
    case Kind::kSendrecv:
      fail("sendrecv has no TIT action netwarp reads; write the trace as .pb or .pbtxt");
    case Kind::KIND_NOT_SET:
      fail("the action has no kind (an empty Action message)");
    default:
      return collective(a);
  }
}

void TitWriter::collective(const proto::Action& a) {
  using Kind = proto::Action::KindCase;
  switch (a.kind_case()) {
    case Kind::kBarrier:
      return line("barrier");
    case Kind::kIbarrier:
      return line("ibarrier");
    case Kind::kIbcast:
      return line("ibcast {} {}", a.ibcast().bytes(), a.ibcast().root());
    case Kind::kIallreduce:
      return line("iallreduce {} {}", a.iallreduce().bytes(), a.iallreduce().flops());
    case Kind::kIalltoall:
      return line("ialltoall {} {}", a.ialltoall().send_bytes(), a.ialltoall().recv_bytes());
    case Kind::kBcast:
      return line("bcast {} {}", a.bcast().bytes(), a.bcast().root());
    case Kind::kReduce:
      return line("reduce {} {} {}", a.reduce().bytes(), a.reduce().flops(), a.reduce().root());
    case Kind::kAllreduce:
      return line("allreduce {} {}", a.allreduce().bytes(), a.allreduce().flops());
    case Kind::kAlltoall:
      return line("alltoall {} {}", a.alltoall().send_bytes(), a.alltoall().recv_bytes());
    case Kind::kGather:
      return line("gather {} {} {}", a.gather().send_bytes(), a.gather().recv_bytes(),
                  a.gather().root());
    case Kind::kScatter:
      return line("scatter {} {} {}", a.scatter().send_bytes(), a.scatter().recv_bytes(),
                  a.scatter().root());
    case Kind::kAllgather:
      return line("allgather {} {}", a.allgather().send_bytes(), a.allgather().recv_bytes());
    default:
      return vector_collective(a);
  }
}

// The per-rank list forms. alltoallv's buffer sizes are the sums of its lists (read_tit checks
// and drops them).
void TitWriter::vector_collective(const proto::Action& a) {
  using Kind = proto::Action::KindCase;
  switch (a.kind_case()) {
    case Kind::kAlltoallv: {
      const Bytes& send = per_rank(a.alltoallv().send_bytes(), "alltoallv", "send_bytes");
      const Bytes& recv = per_rank(a.alltoallv().recv_bytes(), "alltoallv", "recv_bytes");
      return line("alltoallv {} {} {} {}", std::accumulate(send.begin(), send.end(), 0ull),
                  fmt::join(send, " "), std::accumulate(recv.begin(), recv.end(), 0ull),
                  fmt::join(recv, " "));
    }
    case Kind::kGatherv:
      return line("gatherv {} {} {}", a.gatherv().send_bytes(),
                  fmt::join(per_rank(a.gatherv().recv_bytes(), "gatherv", "recv_bytes"), " "),
                  a.gatherv().root());
    case Kind::kScatterv:
      return line("scatterv {} {} {}",
                  fmt::join(per_rank(a.scatterv().send_bytes(), "scatterv", "send_bytes"), " "),
                  a.scatterv().recv_bytes(), a.scatterv().root());
    case Kind::kAllgatherv:
      return line(
          "allgatherv {} {}", a.allgatherv().send_bytes(),
          fmt::join(per_rank(a.allgatherv().recv_bytes(), "allgatherv", "recv_bytes"), " "));
    case Kind::kReduceScatter:
      return line(
          "reducescatter {} {}",
          fmt::join(per_rank(a.reduce_scatter().recv_bytes(), "reduce_scatter", "recv_bytes"), " "),
          a.reduce_scatter().flops());
    default:
      fail(fmt::format("action kind {} cannot be written as TIT", static_cast<int>(a.kind_case())));
  }
}

}  // namespace

void write_tit(const proto::Trace& trace, const std::filesystem::path& path) {
  if (trace.ranks_size() == 0) throw TraceError(path.string(), 0, "the trace has no ranks");
  TitWriter writer(trace, path.string());
  for (int r = 0; r < trace.ranks_size(); ++r)
    writer.rank(static_cast<std::uint32_t>(r), trace.ranks(r));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << writer.text();
  out.close();
  if (!out) throw TraceError(path.string(), 0, "cannot write the trace file");
}

}  // namespace netwarp::mpiemul

// TIT grammar of the collectives (SimGrid 3.32 argument orders; N = the number of ranks;
// ROOT defaults to 0, a datatype to the rank's default):
//   barrier
//   bcast SIZE [ROOT [DATATYPE]]
//   reduce SIZE FLOPS [ROOT [DATATYPE]]          FLOPS: the reduction's computation
//   allreduce SIZE FLOPS [DATATYPE]
//   alltoall SEND RECV [SEND_TYPE [RECV_TYPE]]
//   alltoallv SEND_BUFFER SEND_COUNT*N RECV_BUFFER RECV_COUNT*N [SEND_TYPE RECV_TYPE]
//   gather|scatter SEND RECV [ROOT [SEND_TYPE [RECV_TYPE]]]
//   allgather SEND RECV [SEND_TYPE [RECV_TYPE]]
//   gatherv SEND RECV_COUNT*N [ROOT [SEND_TYPE [RECV_TYPE]]]
//   scatterv SEND_COUNT*N RECV [ROOT [SEND_TYPE RECV_TYPE]]
//   allgatherv SEND RECV_COUNT*N [DATATYPE [DISPLACEMENT*N]] | DISPLACEMENT*N | DATATYPE TYPE
//   reducescatter RECV_COUNT*N FLOPS [DATATYPE]
//   ibarrier, ibcast, iallreduce, ialltoall: as barrier, bcast, allreduce, alltoall (the names
//   SimGrid's tracing gives MPI_Ibarrier, MPI_Ibcast, ...); completed by wait, waitall or test
// allgatherv's tail is told apart by length, as SimGrid does: more than N tokens are a
// datatype and N displacements, three to N tokens are N displacements, one or two tokens are
// a datatype (and an ignored second one). Its one datatype serves both directions.
#include <array>

#include "tit_grammar.hpp"

namespace netwarp::mpiemul {

namespace {

std::int32_t root_or_zero(TitArgs& args) {
  return args.left() > 0 ? args.rank("ROOT") : 0;
}

// Two datatypes or none, where SimGrid only reads them as a pair.
std::array<std::uint64_t, 2> datatype_pair(TitArgs& args, const TitRankState& state) {
  if (args.left() == 1) args.fail_usage("give both datatypes or neither");
  const std::uint64_t send = args.datatype_or("SEND_TYPE", state.default_type_size);
  return {send, args.datatype_or("RECV_TYPE", state.default_type_size)};
}

bool parse_barrier(TitArgs& args, TitRankState&, proto::Action& action) {
  args.finish();
  action.mutable_barrier();
  return true;
}

bool parse_bcast(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::Bcast& bcast = *action.mutable_bcast();
  const std::uint64_t count = args.count("SIZE");
  bcast.set_root(root_or_zero(args));
  bcast.set_bytes(args.bytes(count, args.datatype_or("DATATYPE", state.default_type_size)));
  args.finish();
  return true;
}

bool parse_reduce(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::Reduce& reduce = *action.mutable_reduce();
  const std::uint64_t count = args.count("SIZE");
  reduce.set_flops(args.amount("FLOPS"));
  reduce.set_root(root_or_zero(args));
  reduce.set_bytes(args.bytes(count, args.datatype_or("DATATYPE", state.default_type_size)));
  args.finish();
  return true;
}

bool parse_allreduce(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::Allreduce& allreduce = *action.mutable_allreduce();
  const std::uint64_t count = args.count("SIZE");
  allreduce.set_flops(args.amount("FLOPS"));
  allreduce.set_bytes(args.bytes(count, args.datatype_or("DATATYPE", state.default_type_size)));
  args.finish();
  return true;
}

// SEND RECV [SEND_TYPE [RECV_TYPE]] as bytes, for the fixed-size collectives.
template <class Message>
void parse_blocks(TitArgs& args, const TitRankState& state, Message& message, bool has_root) {
  const std::uint64_t send = args.count("SEND");
  const std::uint64_t recv = args.count("RECV");
  if constexpr (requires { message.set_root(0); }) {
    if (has_root) message.set_root(root_or_zero(args));
  }
  message.set_send_bytes(args.bytes(send, args.datatype_or("SEND_TYPE", state.default_type_size)));
  message.set_recv_bytes(args.bytes(recv, args.datatype_or("RECV_TYPE", state.default_type_size)));
  args.finish();
}

bool parse_alltoall(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_blocks(args, state, *action.mutable_alltoall(), false);
  return true;
}

bool parse_gather(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_blocks(args, state, *action.mutable_gather(), true);
  return true;
}

bool parse_scatter(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_blocks(args, state, *action.mutable_scatter(), true);
  return true;
}

bool parse_allgather(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_blocks(args, state, *action.mutable_allgather(), false);
  return true;
}

void set_list(google::protobuf::RepeatedField<std::uint64_t>& field,
              const std::vector<std::uint64_t>& values) {
  field.Assign(values.begin(), values.end());
}

bool parse_alltoallv(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::Alltoallv& alltoallv = *action.mutable_alltoallv();
  args.count("SEND_BUFFER");
  const std::vector<std::uint64_t> send = args.counts("SEND_COUNT", args.ranks());
  args.count("RECV_BUFFER");
  const std::vector<std::uint64_t> recv = args.counts("RECV_COUNT", args.ranks());
  const auto [send_type, recv_type] = datatype_pair(args, state);
  set_list(*alltoallv.mutable_send_bytes(), args.bytes(send, send_type));
  set_list(*alltoallv.mutable_recv_bytes(), args.bytes(recv, recv_type));
  args.finish();
  return true;
}

bool parse_gatherv(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::Gatherv& gatherv = *action.mutable_gatherv();
  const std::uint64_t send = args.count("SEND");
  const std::vector<std::uint64_t> recv = args.counts("RECV_COUNT", args.ranks());
  gatherv.set_root(root_or_zero(args));
  gatherv.set_send_bytes(args.bytes(send, args.datatype_or("SEND_TYPE", state.default_type_size)));
  set_list(*gatherv.mutable_recv_bytes(),
           args.bytes(recv, args.datatype_or("RECV_TYPE", state.default_type_size)));
  args.finish();
  return true;
}

bool parse_scatterv(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::Scatterv& scatterv = *action.mutable_scatterv();
  const std::vector<std::uint64_t> send = args.counts("SEND_COUNT", args.ranks());
  const std::uint64_t recv = args.count("RECV");
  scatterv.set_root(root_or_zero(args));
  const auto [send_type, recv_type] = datatype_pair(args, state);
  set_list(*scatterv.mutable_send_bytes(), args.bytes(send, send_type));
  scatterv.set_recv_bytes(args.bytes(recv, recv_type));
  args.finish();
  return true;
}

// The datatype of allgatherv's tail (see the file comment); displacements are checked and
// dropped: they do not change what is sent.
std::uint64_t allgatherv_datatype(TitArgs& args, const TitRankState& state) {
  const std::size_t tail = args.left();
  const std::size_t n = args.ranks();
  std::uint64_t type_size = state.default_type_size;
  if (tail > n || (tail >= 1 && tail <= 2)) type_size = args.datatype("DATATYPE");
  if (tail > n || tail >= 3) {
    if (args.left() < n) args.fail_usage("give one displacement per rank");
    for (std::size_t i = 0; i < n; ++i) args.integer("DISPLACEMENT");
  } else if (tail == 2) {
    args.datatype("RECV_TYPE");
  }
  return type_size;
}

bool parse_allgatherv(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::Allgatherv& allgatherv = *action.mutable_allgatherv();
  const std::uint64_t send = args.count("SEND");
  const std::vector<std::uint64_t> recv = args.counts("RECV_COUNT", args.ranks());
  const std::uint64_t type_size = allgatherv_datatype(args, state);
  allgatherv.set_send_bytes(args.bytes(send, type_size));
  set_list(*allgatherv.mutable_recv_bytes(), args.bytes(recv, type_size));
  args.finish();
  return true;
}

bool parse_reducescatter(TitArgs& args, TitRankState& state, proto::Action& action) {
  proto::ReduceScatter& reduce_scatter = *action.mutable_reduce_scatter();
  const std::vector<std::uint64_t> recv = args.counts("RECV_COUNT", args.ranks());
  reduce_scatter.set_flops(args.amount("FLOPS"));
  set_list(*reduce_scatter.mutable_recv_bytes(),
           args.bytes(recv, args.datatype_or("DATATYPE", state.default_type_size)));
  args.finish();
  return true;
}

// The non-blocking forms: the blocking form's grammar, moved to the non-blocking action.
bool parse_ibarrier(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_barrier(args, state, action);
  *action.mutable_ibarrier() = proto::Barrier(action.barrier());
  return true;
}

bool parse_ibcast(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_bcast(args, state, action);
  *action.mutable_ibcast() = proto::Bcast(action.bcast());
  return true;
}

bool parse_iallreduce(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_allreduce(args, state, action);
  *action.mutable_iallreduce() = proto::Allreduce(action.allreduce());
  return true;
}

bool parse_ialltoall(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_alltoall(args, state, action);
  *action.mutable_ialltoall() = proto::Alltoall(action.alltoall());
  return true;
}

constexpr std::array<TitActionSpec, 17> kActions = {{
    {"barrier", "barrier", parse_barrier},
    {"bcast", "bcast SIZE [ROOT [DATATYPE]]", parse_bcast},
    {"reduce", "reduce SIZE FLOPS [ROOT [DATATYPE]]", parse_reduce},
    {"allreduce", "allreduce SIZE FLOPS [DATATYPE]", parse_allreduce},
    {"alltoall", "alltoall SEND RECV [SEND_TYPE [RECV_TYPE]]", parse_alltoall},
    {"alltoallv",
     "alltoallv SEND_BUFFER SEND_COUNT*RANKS RECV_BUFFER RECV_COUNT*RANKS "
     "[SEND_TYPE RECV_TYPE]",
     parse_alltoallv},
    {"gather", "gather SEND RECV [ROOT [SEND_TYPE [RECV_TYPE]]]", parse_gather},
    {"scatter", "scatter SEND RECV [ROOT [SEND_TYPE [RECV_TYPE]]]", parse_scatter},
    {"allgather", "allgather SEND RECV [SEND_TYPE [RECV_TYPE]]", parse_allgather},
    {"gatherv", "gatherv SEND RECV_COUNT*RANKS [ROOT [SEND_TYPE [RECV_TYPE]]]", parse_gatherv},
    {"scatterv", "scatterv SEND_COUNT*RANKS RECV [ROOT [SEND_TYPE RECV_TYPE]]", parse_scatterv},
    {"allgatherv", "allgatherv SEND RECV_COUNT*RANKS [DATATYPE [DISPLACEMENT*RANKS]]",
     parse_allgatherv},
    {"reducescatter", "reducescatter RECV_COUNT*RANKS FLOPS [DATATYPE]", parse_reducescatter},
    {"ibarrier", "ibarrier", parse_ibarrier},
    {"ibcast", "ibcast SIZE [ROOT [DATATYPE]]", parse_ibcast},
    {"iallreduce", "iallreduce SIZE FLOPS [DATATYPE]", parse_iallreduce},
    {"ialltoall", "ialltoall SEND RECV [SEND_TYPE [RECV_TYPE]]", parse_ialltoall},
}};

}  // namespace

std::span<const TitActionSpec> collective_actions() {
  return kActions;
}

}  // namespace netwarp::mpiemul

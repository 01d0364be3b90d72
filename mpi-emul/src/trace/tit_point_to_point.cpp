// TIT grammar of the non-collective actions. Sizes are element counts of the line's datatype
// (default: the rank's, see TitRankState), turned into bytes here.
//   init [X]                      X present: sizes count MPI_DOUBLEs from now on
//   finalize, comm_size N, comm_dup, location FILE LINE: no effect on the replay
//   comm_split [COLOR KEY]        MPI_Comm_split(MPI_COMM_WORLD, COLOR, KEY) (MPI's argument
//                                 order; SimGrid's replay reads no arguments and ignores the
//                                 line, as a bare comm_split is ignored here). TIT lines name no
//                                 communicator, so later actions stay on MPI_COMM_WORLD, as
//                                 SimGrid replays them; a negative COLOR is MPI_UNDEFINED
//   compute FLOPS, sleep SECONDS
//   send|isend DST TAG SIZE [DATATYPE]      (older: DST SIZE, tag 0)
//   recv|irecv SRC TAG SIZE [DATATYPE]      (older: SRC SIZE, tag 0; SIZE <= 0: unknown)
//   wait|test SRC DST TAG                   (older: no arguments, the latest request)
//   waitall
#include <array>

#include "tit_grammar.hpp"

namespace netwarp::mpiemul {

namespace {

bool parse_init(TitArgs& args, TitRankState& state, proto::Action&) {
  state.default_type_size = args.size() > 0 ? 8 : 1;
  args.skip(args.left());
  return false;
}

bool parse_ignored(TitArgs& args, TitRankState&, proto::Action&) {
  args.skip(args.left());
  return false;
}

bool parse_location(TitArgs& args, TitRankState&, proto::Action&) {
  args.text("FILE");
  args.integer("LINE");
  args.finish();
  return false;
}

bool parse_comm_split(TitArgs& args, TitRankState&, proto::Action& action) {
  if (args.left() == 0) return false;
  proto::CommSplit& split = *action.mutable_comm_split();
  split.set_color(static_cast<std::int32_t>(args.integer("COLOR")));
  split.set_key(static_cast<std::int32_t>(args.integer("KEY")));
  args.finish();
  return true;
}

bool parse_compute(TitArgs& args, TitRankState&, proto::Action& action) {
  action.mutable_compute()->set_flops(args.amount("FLOPS"));
  args.finish();
  return true;
}

bool parse_sleep(TitArgs& args, TitRankState&, proto::Action& action) {
  action.mutable_sleep()->set_seconds(args.amount("SECONDS"));
  args.finish();
  return true;
}

void parse_send_args(TitArgs& args, const TitRankState& state, proto::Send& send) {
  const bool is_untagged = args.size() == 2;
  send.set_dst(args.rank("DST"));
  send.set_tag(is_untagged ? 0 : args.tag("TAG"));
  const std::uint64_t count = args.count("SIZE");
  send.set_bytes(args.bytes(count, args.datatype_or("DATATYPE", state.default_type_size)));
  args.finish();
}

void parse_recv_args(TitArgs& args, const TitRankState& state, proto::Recv& recv) {
  const bool is_untagged = args.size() == 2;
  recv.set_src(args.source("SRC"));
  recv.set_tag(is_untagged ? 0 : args.any_tag("TAG"));
  const std::uint64_t count = args.recv_count("SIZE");
  recv.set_bytes(args.bytes(count, args.datatype_or("DATATYPE", state.default_type_size)));
  args.finish();
}

bool parse_send(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_send_args(args, state, *action.mutable_send());
  return true;
}

bool parse_isend(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_send_args(args, state, *action.mutable_isend());
  return true;
}

bool parse_recv(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_recv_args(args, state, *action.mutable_recv());
  return true;
}

bool parse_irecv(TitArgs& args, TitRankState& state, proto::Action& action) {
  parse_recv_args(args, state, *action.mutable_irecv());
  return true;
}

void parse_wait_args(TitArgs& args, proto::Wait& wait) {
  if (args.size() == 0) return;
  proto::RequestKey& key = *wait.mutable_request();
  key.set_src(args.source("SRC"));
  key.set_dst(args.rank("DST"));
  key.set_tag(args.any_tag("TAG"));
  args.finish();
}

bool parse_wait(TitArgs& args, TitRankState&, proto::Action& action) {
  parse_wait_args(args, *action.mutable_wait());
  return true;
}

bool parse_test(TitArgs& args, TitRankState&, proto::Action& action) {
  parse_wait_args(args, *action.mutable_test());
  return true;
}

bool parse_waitall(TitArgs& args, TitRankState&, proto::Action& action) {
  args.finish();
  action.mutable_waitall();
  return true;
}

constexpr std::array<TitActionSpec, 15> kActions = {{
    {"init", "init [ANY: sizes then count MPI_DOUBLEs]", parse_init},
    {"finalize", "finalize", parse_ignored},
    {"comm_size", "comm_size [SIZE]", parse_ignored},
    {"comm_dup", "comm_dup", parse_ignored},
    {"comm_split", "comm_split [COLOR KEY]", parse_comm_split},
    {"location", "location FILE LINE", parse_location},
    {"compute", "compute FLOPS", parse_compute},
    {"sleep", "sleep SECONDS", parse_sleep},
    {"send", "send DST TAG SIZE [DATATYPE]", parse_send},
    {"isend", "isend DST TAG SIZE [DATATYPE]", parse_isend},
    {"recv", "recv SRC TAG SIZE [DATATYPE]", parse_recv},
    {"irecv", "irecv SRC TAG SIZE [DATATYPE]", parse_irecv},
    {"wait", "wait [SRC DST TAG]", parse_wait},
    {"test", "test [SRC DST TAG]", parse_test},
    {"waitall", "waitall", parse_waitall},
}};

}  // namespace

std::span<const TitActionSpec> point_to_point_actions() {
  return kActions;
}

}  // namespace netwarp::mpiemul

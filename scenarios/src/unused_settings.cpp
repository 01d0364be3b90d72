// unused_settings: settings a scenario wrote that its run will not read, each reported as a
// warning naming the field. They are warnings, not errors, because a study legitimately
// switches one setting by --set (transport.kind=LOSSLESS on a TCP file) and keeps the rest.
// Looked at before the defaults are filled, so only what the file or --set wrote counts.
#include "unused_settings.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <set>
#include <string>
#include <vector>

namespace netwarp::scenarios {

namespace {

namespace pb = google::protobuf;

// The fields set in `message`, by name, in field-number order.
std::vector<std::string> set_field_names(const pb::Message& message) {
  std::vector<const pb::FieldDescriptor*> fields;
  message.GetReflection()->ListFields(message, &fields);
  std::vector<std::string> names;
  for (const pb::FieldDescriptor* field : fields) names.push_back(field->name());
  return names;
}

void add_unused_tcp(const proto::Scenario& scenario, std::vector<UnusedSetting>& out) {
  if (scenario.transport().kind() == proto::Transport::TCP || !scenario.transport().has_tcp())
    return;
  for (const std::string& name : set_field_names(scenario.transport().tcp()))
    out.push_back({"transport.tcp." + name,
                   "ignored: only used with transport.kind: TCP (this "
                   "run is " +
                       proto::Transport::Kind_Name(scenario.transport().kind()) + ")"});
}

// The collectives each built-in kernel calls ("" for none; the trace and the generated
// programs may call any).
std::set<std::string> collectives_called(const proto::Mpi& mpi) {
  switch (mpi.program_case()) {
    case proto::Mpi::kPingpong:
    case proto::Mpi::kRing:
    case proto::Mpi::kAlltoall:  // the kernel's own algorithm field chooses
      return {};
    case proto::Mpi::kCollective: {
      const std::string& kind = mpi.collective().kind();
      return {kind == "scatter" ? std::string("gather") : kind};
    }
    default:
      return {"bcast", "reduce", "allreduce", "alltoall", "barrier", "gather", "allgather"};
  }
}

void add_unused_collectives(const proto::Mpi& mpi, std::vector<UnusedSetting>& out) {
  const std::set<std::string> called = collectives_called(mpi);
  const auto* program = mpi.GetDescriptor()->FindFieldByNumber(mpi.program_case());
  const std::string program_name = program ? program->name() : "";
  for (const std::string& name : set_field_names(mpi.collectives()))
    if (!called.contains(name))
      out.push_back({"mpi.collectives." + name,
                     "ignored: the " + program_name + " program makes no " + name + " call"});
}

void add_unused_collective_kernel_fields(const proto::CollectiveKernel& c,
                                         std::vector<UnusedSetting>& out) {
  static const std::set<std::string> kRooted = {"bcast", "reduce", "gather", "scatter"};
  if (c.root() != 0 && !kRooted.contains(c.kind()))
    out.push_back({"mpi.collective.root", "ignored: " + c.kind() + " has no root"});
  if (c.bytes() != 0 && c.kind() == "barrier")
    out.push_back({"mpi.collective.bytes", "ignored: a barrier carries no data"});
}

}  // namespace

std::vector<UnusedSetting> unused_settings(const proto::Scenario& scenario) {
  std::vector<UnusedSetting> unused;
  add_unused_tcp(scenario, unused);
  if (scenario.has_mpi() && scenario.mpi().program_case() != proto::Mpi::PROGRAM_NOT_SET) {
    add_unused_collectives(scenario.mpi(), unused);
    if (scenario.mpi().has_collective())
      add_unused_collective_kernel_fields(scenario.mpi().collective(), unused);
  }
  return unused;
}

}  // namespace netwarp::scenarios

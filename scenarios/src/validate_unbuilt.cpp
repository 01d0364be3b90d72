// Settings the schema has and the simulator does not model yet: each is refused by name in one
// line, so that no run silently ignores it. Whoever builds one removes its check here (and the
// test in tests/scenarios/validate_test.cpp that names it).
#include <string>

#include "validate.hpp"

namespace netwarp::scenarios {

namespace {

void refuse(const std::string& field, const std::string& what) {
  fail(field, what + " is not modelled yet: remove it from the scenario");
}

void refuse_unbuilt_transport(const proto::Transport& t, const std::string& at) {
  if (t.roce().retransmission() == proto::Roce::SELECTIVE_REPEAT)
    refuse(at + ".roce.retransmission", "selective repeat");
}

void refuse_unbuilt_workload(const proto::Workload& w, const std::string& at) {
  if (w.has_transport()) refuse(at + ".transport", "a transport per workload");
}

}  // namespace

void refuse_unbuilt_settings(const proto::Scenario& s) {
  refuse_unbuilt_transport(s.transport(), "transport");
  if (s.has_workload()) refuse_unbuilt_workload(s.workload(), "workload");
  for (int i = 0; i < s.workloads_size(); ++i)
    refuse_unbuilt_workload(s.workloads(i), "workloads[" + std::to_string(i) + "]");
}

}  // namespace netwarp::scenarios

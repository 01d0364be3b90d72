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

void refuse_unbuilt_fabric(const proto::Scenario& s) {
  const proto::Switch& sw = s.switch_();
  for (int i = 0; i < sw.classes_size(); ++i) {
    const std::string at = "switch.classes[" + std::to_string(i) + "]";
    if (sw.classes(i).has_red()) refuse(at + ".red", "RED marking");
    if (sw.classes(i).lossless()) refuse(at + ".lossless", "PFC");
  }
  if (sw.has_shared_buffer()) refuse("switch.shared_buffer", "a shared buffer");
  if (sw.has_red()) refuse("switch.red", "RED marking");
  if (sw.mark_at() != proto::Switch::ENQUEUE) refuse("switch.mark_at", "marking at dequeue");
  if (sw.has_pfc()) refuse("switch.pfc", "PFC");
}

void refuse_unbuilt_transport(const proto::Transport& t, const std::string& at) {
  if (t.kind() == proto::Transport::ROCE) refuse(at + ".kind", "the RoCE transport");
  if (t.has_roce()) refuse(at + ".roce", "the RoCE transport");
}

void refuse_unbuilt_workload(const proto::Workload& w, const std::string& at) {
  if (w.has_transport()) refuse(at + ".transport", "a transport per workload");
}

}  // namespace

void refuse_unbuilt_settings(const proto::Scenario& s) {
  refuse_unbuilt_fabric(s);
  refuse_unbuilt_transport(s.transport(), "transport");
  if (s.has_workload()) refuse_unbuilt_workload(s.workload(), "workload");
  for (int i = 0; i < s.workloads_size(); ++i)
    refuse_unbuilt_workload(s.workloads(i), "workloads[" + std::to_string(i) + "]");
}

}  // namespace netwarp::scenarios

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

}  // namespace

void refuse_unbuilt_settings(const proto::Scenario& s) {
  refuse_unbuilt_transport(s.transport(), "transport");
}

}  // namespace netwarp::scenarios

// Input: a scenario in protobuf text format, as `netwarp run FILE` reads it: parse, fill the
// defaults, validate, then build what a run needs (the network spec, or for an mpi section the
// platform, program and rank configuration) without simulating. Also: whatever the fast text
// parser accepts, protobuf's own reads as the same scenario with the same field locations, and
// whatever protobuf reads, the fast printer writes as protobuf's printer does.
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_support.hpp"
#include "scenario_build.hpp"
#include "text_parse.hpp"
#include "text_print.hpp"

namespace {

using netwarp::scenarios::ParsedText;

bool same_locations(const ParsedText& a, const ParsedText& b) {
  return std::equal(a.locations.begin(), a.locations.end(), b.locations.begin(), b.locations.end(),
                    [](const auto& x, const auto& y) {
                      return x.first == y.first && x.second.line == y.second.line &&
                             x.second.column == y.second.column;
                    });
}

void check_fast_parse(const std::string& text) {
  const std::optional<ParsedText> fast = netwarp::scenarios::fast_text_parse(text);
  if (!fast) return;
  ParsedText reference;
  try {
    reference = netwarp::scenarios::protobuf_text_parse(text, "fuzz.pbtxt");
  } catch (const netwarp::scenarios::ScenarioError& e) {
    std::fprintf(stderr, "the fast parser accepted what protobuf rejects: %s\n", e.what());
    std::abort();
  }
  if (!google::protobuf::util::MessageDifferencer::Equals(fast->scenario, reference.scenario)) {
    std::fprintf(stderr, "the fast parser read another scenario\n");
    std::abort();
  }
  if (!same_locations(*fast, reference)) {
    std::fprintf(stderr, "the fast parser located fields elsewhere\n");
    std::abort();
  }
}

void check_fast_print(const std::string& text) {
  ParsedText parsed;
  try {
    parsed = netwarp::scenarios::protobuf_text_parse(text, "fuzz.pbtxt");
  } catch (const netwarp::scenarios::ScenarioError&) {
    return;
  }
  std::string reference;
  google::protobuf::TextFormat::PrintToString(parsed.scenario, &reference);
  if (netwarp::scenarios::fast_text_print(parsed.scenario).value_or(reference) != reference) {
    std::fprintf(stderr, "the fast printer wrote another text\n");
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  const std::string text = fuzz::as_text(data, size);
  check_fast_parse(text);
  check_fast_print(text);
  fuzz::expect_success_or_input_error(
      [&] { fuzz::build_loaded_scenario(scenarios::load_scenario_text(text, "fuzz.pbtxt", {})); });
  return 0;
}

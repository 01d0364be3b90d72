// The OTF2 event reader's callbacks: each record goes to the rank's Otf2RankEvents; the first
// refusal is kept, with the event's position, record name and time, and stops the reading
// (exceptions must not cross the OTF2 library's C frames). One-sided, cancelled-request,
// non-blocking-collective and unknown records are refused by name.
#pragma once

#include <otf2/otf2.h>

#include <memory>
#include <optional>
#include <string>

#include "otf2_rank_events.hpp"

namespace netwarp::mpiemul {

struct RankReading {
  const Otf2Definitions& definitions;
  Otf2RankEvents& events;
  std::optional<std::string> error;  // the first refusal, with the event that caused it
};

struct EvtCallbacksDeleter {
  void operator()(OTF2_EvtReaderCallbacks* c) const { OTF2_EvtReaderCallbacks_Delete(c); }
};

std::unique_ptr<OTF2_EvtReaderCallbacks, EvtCallbacksDeleter> event_callbacks();

}  // namespace netwarp::mpiemul

// The OTF2 event callbacks: see otf2_event_callbacks.hpp.
#include "otf2_event_callbacks.hpp"

#include <fmt/format.h>

#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

RankReading& reading_of(void* data) {
  return *static_cast<RankReading*>(data);
}

template <class Handle>
OTF2_CallbackCode guarded(void* data, uint64_t position, OTF2_TimeStamp time, const char* record,
                          Handle&& handle) {
  RankReading& reading = reading_of(data);
  try {
    handle(reading.events);
    return OTF2_CALLBACK_SUCCESS;
  } catch (const Otf2Unsupported& e) {
    reading.error = fmt::format("event {} ({} at tick {}): {}", position, record, time, e.what());
  } catch (const TraceError& e) {
    reading.error = fmt::format("event {} ({} at tick {}): {}", position, record, time, e.what());
  }
  return OTF2_CALLBACK_INTERRUPT;
}

OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                           OTF2_AttributeList*, OTF2_RegionRef region) {
  return guarded(data, position, time, "Enter",
                 [&](Otf2RankEvents& events) { events.enter(time, region); });
}

OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                           OTF2_AttributeList*, OTF2_RegionRef region) {
  return guarded(data, position, time, "Leave",
                 [&](Otf2RankEvents& events) { events.leave(time, region); });
}

OTF2_CallbackCode on_send(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                          OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes) {
  return guarded(data, position, time, "MpiSend",
                 [&](Otf2RankEvents& events) { events.send(time, receiver, comm, tag, bytes); });
}

OTF2_CallbackCode on_isend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                           OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                           uint64_t bytes, uint64_t request) {
  return guarded(data, position, time, "MpiIsend", [&](Otf2RankEvents& events) {
    events.isend(time, receiver, comm, tag, bytes, request);
  });
}

OTF2_CallbackCode on_isend_complete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                    void* data, OTF2_AttributeList*, uint64_t request) {
  return guarded(data, position, time, "MpiIsendComplete",
                 [&](Otf2RankEvents& events) { events.isend_complete(time, request); });
}

OTF2_CallbackCode on_irecv_request(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                   void* data, OTF2_AttributeList*, uint64_t request) {
  return guarded(data, position, time, "MpiIrecvRequest",
                 [&](Otf2RankEvents& events) { events.irecv_request(time, request); });
}

OTF2_CallbackCode on_recv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                          OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes) {
  return guarded(data, position, time, "MpiRecv",
                 [&](Otf2RankEvents& events) { events.recv(time, sender, comm, tag, bytes); });
}

OTF2_CallbackCode on_irecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position, void* data,
                           OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                           uint64_t bytes, uint64_t request) {
  return guarded(data, position, time, "MpiIrecv", [&](Otf2RankEvents& events) {
    events.irecv(time, sender, comm, tag, bytes, request);
  });
}

// A test that did not complete its request: progress only, nothing to replay.
OTF2_CallbackCode on_request_test(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                  void* data, OTF2_AttributeList*, uint64_t) {
  return guarded(data, position, time, "MpiRequestTest",
                 [&](Otf2RankEvents& events) { events.other(time); });
}

OTF2_CallbackCode on_collective_begin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                      void* data, OTF2_AttributeList*) {
  return guarded(data, position, time, "MpiCollectiveBegin",
                 [&](Otf2RankEvents& events) { events.other(time); });
}

OTF2_CallbackCode on_collective_end(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                    void* data, OTF2_AttributeList*, OTF2_CollectiveOp op,
                                    OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                    uint64_t received) {
  return guarded(data, position, time, "MpiCollectiveEnd", [&](Otf2RankEvents& events) {
    events.collective_end(time, op, comm, root, sent, received);
  });
}

OTF2_CallbackCode on_comm_create(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                 void* data, OTF2_AttributeList*, OTF2_CommRef comm) {
  return guarded(data, position, time, "CommCreate",
                 [&](Otf2RankEvents& events) { events.comm_create(time, comm); });
}

OTF2_CallbackCode on_comm_destroy(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                  void* data, OTF2_AttributeList*, OTF2_CommRef) {
  return guarded(data, position, time, "CommDestroy",
                 [&](Otf2RankEvents& events) { events.other(time); });
}

// Records the replay cannot honour: refused with their name.
template <const char* kName>
struct Refuse {
  template <class... Fields>
  static OTF2_CallbackCode callback(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t position,
                                    void* data, OTF2_AttributeList*, Fields...) {
    return guarded(data, position, time, kName, [](Otf2RankEvents&) {
      throw Otf2Unsupported("netwarp cannot replay this record");
    });
  }
};

constexpr char kUnknown[] = "an unknown record";
constexpr char kCancelled[] = "MpiRequestCancelled";
constexpr char kNbcRequest[] = "NonBlockingCollectiveRequest";
constexpr char kNbcComplete[] = "NonBlockingCollectiveComplete";
constexpr char kRmaWinCreate[] = "RmaWinCreate";
constexpr char kRmaWinDestroy[] = "RmaWinDestroy";
constexpr char kRmaCollectiveBegin[] = "RmaCollectiveBegin";
constexpr char kRmaCollectiveEnd[] = "RmaCollectiveEnd";
constexpr char kRmaGroupSync[] = "RmaGroupSync";
constexpr char kRmaRequestLock[] = "RmaRequestLock";
constexpr char kRmaAcquireLock[] = "RmaAcquireLock";
constexpr char kRmaTryLock[] = "RmaTryLock";
constexpr char kRmaReleaseLock[] = "RmaReleaseLock";
constexpr char kRmaSync[] = "RmaSync";
constexpr char kRmaWaitChange[] = "RmaWaitChange";
constexpr char kRmaPut[] = "RmaPut";
constexpr char kRmaGet[] = "RmaGet";
constexpr char kRmaAtomic[] = "RmaAtomic";
constexpr char kRmaOpCompleteBlocking[] = "RmaOpCompleteBlocking";
constexpr char kRmaOpCompleteNonBlocking[] = "RmaOpCompleteNonBlocking";
constexpr char kRmaOpTest[] = "RmaOpTest";
constexpr char kRmaOpCompleteRemote[] = "RmaOpCompleteRemote";

void set_refusals(OTF2_EvtReaderCallbacks* c) {
  OTF2_EvtReaderCallbacks_SetUnknownCallback(c, &Refuse<kUnknown>::callback);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(c, &Refuse<kCancelled>::callback);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(c,
                                                                  &Refuse<kNbcRequest>::callback);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(c,
                                                                   &Refuse<kNbcComplete>::callback);
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(c, &Refuse<kRmaWinCreate>::callback);
  OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(c, &Refuse<kRmaWinDestroy>::callback);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(c, &Refuse<kRmaCollectiveBegin>::callback);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(c, &Refuse<kRmaCollectiveEnd>::callback);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(c, &Refuse<kRmaGroupSync>::callback);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(c, &Refuse<kRmaRequestLock>::callback);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(c, &Refuse<kRmaAcquireLock>::callback);
  OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(c, &Refuse<kRmaTryLock>::callback);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(c, &Refuse<kRmaReleaseLock>::callback);
  OTF2_EvtReaderCallbacks_SetRmaSyncCallback(c, &Refuse<kRmaSync>::callback);
  OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(c, &Refuse<kRmaWaitChange>::callback);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(c, &Refuse<kRmaPut>::callback);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(c, &Refuse<kRmaGet>::callback);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(c, &Refuse<kRmaAtomic>::callback);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(
      c, &Refuse<kRmaOpCompleteBlocking>::callback);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(
      c, &Refuse<kRmaOpCompleteNonBlocking>::callback);
  OTF2_EvtReaderCallbacks_SetRmaOpTestCallback(c, &Refuse<kRmaOpTest>::callback);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(c,
                                                         &Refuse<kRmaOpCompleteRemote>::callback);
}

}  // namespace

std::unique_ptr<OTF2_EvtReaderCallbacks, EvtCallbacksDeleter> event_callbacks() {
  std::unique_ptr<OTF2_EvtReaderCallbacks, EvtCallbacksDeleter> c(OTF2_EvtReaderCallbacks_New());
  OTF2_EvtReaderCallbacks_SetEnterCallback(c.get(), on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(c.get(), on_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(c.get(), on_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(c.get(), on_isend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(c.get(), on_isend_complete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(c.get(), on_irecv_request);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(c.get(), on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(c.get(), on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(c.get(), on_request_test);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(c.get(), on_collective_begin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(c.get(), on_collective_end);
  OTF2_EvtReaderCallbacks_SetCommCreateCallback(c.get(), on_comm_create);
  OTF2_EvtReaderCallbacks_SetCommDestroyCallback(c.get(), on_comm_destroy);
  set_refusals(c.get());
  return c;
}

}  // namespace netwarp::mpiemul

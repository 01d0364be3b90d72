// Otf2TestArchive: see otf2_test_archive.hpp.
#include "otf2_test_archive.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace netwarp::mpiemul::testing {

namespace {

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}

OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}

OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

void check(OTF2_ErrorCode status, const char* what) {
  if (status != OTF2_SUCCESS)
    throw std::runtime_error(std::string(what) + ": " + OTF2_Error_GetDescription(status));
}

constexpr OTF2_GroupRef kLocationsGroup = 0;
constexpr OTF2_GroupRef kWorldGroup = 1;
constexpr OTF2_GroupRef kSelfGroup = 2;

}  // namespace

Otf2TestArchive::Otf2TestArchive(const std::filesystem::path& dir, std::uint32_t ranks,
                                 std::uint64_t ticks_per_second)
    : dir_(dir),
      ranks_(ranks),
      ticks_per_second_(ticks_per_second),
      now_(ranks, 0),
      next_request_(ranks, 1) {
  archive_ = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                               4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive_ == nullptr) throw std::runtime_error("cannot create the OTF2 archive");
  check(OTF2_Archive_SetFlushCallbacks(archive_, &flush_callbacks, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collective callbacks");
  check(OTF2_Archive_SetCreator(archive_, "netwarp Otf2TestArchive"), "creator");
  check(OTF2_Archive_OpenEvtFiles(archive_), "open event files");
  main_region_ = region("main", OTF2_PARADIGM_USER);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    writers_.push_back(OTF2_Archive_GetEvtWriter(archive_, r));
    check(OTF2_EvtWriter_Enter(writers_[r], nullptr, 0, main_region_), "enter main");
  }
}

Otf2TestArchive::~Otf2TestArchive() {
  if (archive_ == nullptr) return;
  try {
    close();
  } catch (const std::exception&) {  // a test that failed half-way: its archive is not read
  }
}

OTF2_StringRef Otf2TestArchive::string(const std::string& text) {
  const auto [at, added] = strings_.emplace(text, static_cast<OTF2_StringRef>(strings_.size()));
  return at->second;
}

OTF2_RegionRef Otf2TestArchive::region(const std::string& name, OTF2_Paradigm paradigm) {
  const auto [at, added] = regions_.emplace(
      name, std::make_pair(static_cast<OTF2_RegionRef>(regions_.size()), paradigm));
  string(name);
  return at->second.first;
}

void Otf2TestArchive::compute(std::uint32_t rank, std::uint64_t ticks) {
  now_[rank] += ticks;
}

void Otf2TestArchive::call(std::uint32_t rank, const std::string& name,
                           const std::function<void(OTF2_EvtWriter*, OTF2_TimeStamp)>& records) {
  const OTF2_RegionRef id = region(name, OTF2_PARADIGM_MPI);
  OTF2_EvtWriter* w = writers_[rank];
  check(OTF2_EvtWriter_Enter(w, nullptr, now_[rank], id), "enter");
  records(w, now_[rank] + 1);
  now_[rank] += kCallTicks;
  check(OTF2_EvtWriter_Leave(w, nullptr, now_[rank], id), "leave");
}

void Otf2TestArchive::send(std::uint32_t rank, std::uint32_t dst, std::uint32_t tag,
                           std::uint64_t bytes, OTF2_CommRef comm) {
  call(rank, "MPI_Send", [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiSend(w, nullptr, t, dst, comm, tag, bytes), "MpiSend");
  });
}

void Otf2TestArchive::recv(std::uint32_t rank, std::uint32_t src, std::uint32_t tag,
                           std::uint64_t bytes, OTF2_CommRef comm) {
  call(rank, "MPI_Recv", [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiRecv(w, nullptr, t, src, comm, tag, bytes), "MpiRecv");
  });
}

std::uint64_t Otf2TestArchive::isend(std::uint32_t rank, std::uint32_t dst, std::uint32_t tag,
                                     std::uint64_t bytes) {
  const std::uint64_t request = next_request_[rank]++;
  call(rank, "MPI_Isend", [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiIsend(w, nullptr, t, dst, kWorld, tag, bytes, request), "MpiIsend");
  });
  return request;
}

std::uint64_t Otf2TestArchive::irecv(std::uint32_t rank) {
  const std::uint64_t request = next_request_[rank]++;
  call(rank, "MPI_Irecv", [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, request), "MpiIrecvRequest");
  });
  return request;
}

void Otf2TestArchive::wait_isend(std::uint32_t rank, std::uint64_t request) {
  call(rank, "MPI_Wait", [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, request), "MpiIsendComplete");
  });
}

void Otf2TestArchive::wait_irecv(std::uint32_t rank, std::uint64_t request, std::uint32_t src,
                                 std::uint32_t tag, std::uint64_t bytes) {
  call(rank, "MPI_Wait", [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiIrecv(w, nullptr, t, src, kWorld, tag, bytes, request), "MpiIrecv");
  });
}

void Otf2TestArchive::collective(std::uint32_t rank, const std::string& name, OTF2_CollectiveOp op,
                                 std::uint32_t root, std::uint64_t sent, std::uint64_t received,
                                 OTF2_CommRef comm) {
  call(rank, name, [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t), "MpiCollectiveBegin");
    check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t + 1, op, comm, root, sent, received),
          "MpiCollectiveEnd");
  });
}

OTF2_CommRef Otf2TestArchive::add_comm(const std::string& name,
                                       const std::vector<std::uint64_t>& members,
                                       OTF2_CommRef parent, bool announced) {
  string(name);
  extra_comms_.push_back({name, members, parent, announced});
  return kSelf + static_cast<OTF2_CommRef>(extra_comms_.size());
}

void Otf2TestArchive::create_comm(std::uint32_t rank, const std::string& name, OTF2_CommRef parent,
                                  OTF2_CommRef joined) {
  const bool announce =
      joined != OTF2_UNDEFINED_COMM && joined > kSelf && extra_comms_[joined - kSelf - 1].announced;
  call(rank, name, [&](OTF2_EvtWriter* w, OTF2_TimeStamp t) {
    check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t), "MpiCollectiveBegin");
    if (announce) check(OTF2_EvtWriter_CommCreate(w, nullptr, t + 1, joined), "CommCreate");
    check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t + 1, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                          parent, OTF2_UNDEFINED_UINT32, 0, 0),
          "MpiCollectiveEnd");
  });
}

void Otf2TestArchive::close_event_files(std::vector<std::uint64_t>& event_counts) {
  for (std::uint32_t r = 0; r < ranks_; ++r) {
    check(OTF2_EvtWriter_Leave(writers_[r], nullptr, now_[r], main_region_), "leave main");
    check(OTF2_EvtWriter_GetNumberOfEvents(writers_[r], &event_counts[r]), "event count");
    check(OTF2_Archive_CloseEvtWriter(archive_, writers_[r]), "close event writer");
  }
  check(OTF2_Archive_CloseEvtFiles(archive_), "close event files");
  check(OTF2_Archive_OpenDefFiles(archive_), "open definition files");
  for (std::uint32_t r = 0; r < ranks_; ++r)
    check(OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, r)),
          "local definitions");
  check(OTF2_Archive_CloseDefFiles(archive_), "close definition files");
}

void Otf2TestArchive::write_strings_and_regions(OTF2_GlobalDefWriter* g) {
  const OTF2_TimeStamp length = *std::max_element(now_.begin(), now_.end());
  check(OTF2_GlobalDefWriter_WriteClockProperties(g, ticks_per_second_, 0, length,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "clock");
  std::map<OTF2_StringRef, std::string> by_id;
  for (const auto& [text, id] : strings_) by_id[id] = text;
  for (const auto& [id, text] : by_id)
    check(OTF2_GlobalDefWriter_WriteString(g, id, text.c_str()), "string");
  for (const auto& [name, region] : regions_)
    check(OTF2_GlobalDefWriter_WriteRegion(g, region.first, strings_[name], strings_[name],
                                           strings_[""], OTF2_REGION_ROLE_FUNCTION, region.second,
                                           OTF2_REGION_FLAG_NONE, strings_[""], 0, 0),
          "region");
}

void Otf2TestArchive::write_locations(OTF2_GlobalDefWriter* g,
                                      const std::vector<std::uint64_t>& event_counts) {
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, strings_["machine"], strings_["node"],
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "system tree");
  for (std::uint32_t r = 0; r < ranks_; ++r) {
    const OTF2_StringRef name = strings_["rank " + std::to_string(r)];
    check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          "location group");
    check(OTF2_GlobalDefWriter_WriteLocation(g, r, name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                             event_counts[r], r),
          "location");
  }
}

void Otf2TestArchive::write_group(OTF2_GlobalDefWriter* g, OTF2_GroupRef id, OTF2_GroupType type,
                                  const std::vector<std::uint64_t>& members) {
  check(OTF2_GlobalDefWriter_WriteGroup(g, id, strings_[""], type, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE,
                                        static_cast<std::uint32_t>(members.size()), members.data()),
        "group");
}

// MPI_COMM_WORLD's group lists ranks 0..N-1, which are also the location ids here.
void Otf2TestArchive::write_communicators(OTF2_GlobalDefWriter* g) {
  std::vector<std::uint64_t> all(ranks_);
  std::iota(all.begin(), all.end(), 0);
  write_group(g, kLocationsGroup, OTF2_GROUP_TYPE_COMM_LOCATIONS, all);
  write_group(g, kWorldGroup, OTF2_GROUP_TYPE_COMM_GROUP, all);
  write_group(g, kSelfGroup, OTF2_GROUP_TYPE_COMM_SELF, {});
  check(OTF2_GlobalDefWriter_WriteComm(g, kWorld, strings_["MPI_COMM_WORLD"], kWorldGroup,
                                       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
        "world");
  check(OTF2_GlobalDefWriter_WriteComm(g, kSelf, strings_["MPI_COMM_SELF"], kSelfGroup,
                                       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
        "self");
  for (std::size_t i = 0; i < extra_comms_.size(); ++i) {
    const auto group = static_cast<OTF2_GroupRef>(kSelfGroup + 1 + i);
    const ExtraComm& comm = extra_comms_[i];
    write_group(g, group, OTF2_GROUP_TYPE_COMM_GROUP, comm.members);
    check(OTF2_GlobalDefWriter_WriteComm(
              g, static_cast<OTF2_CommRef>(kSelf + 1 + i), strings_[comm.name], group, comm.parent,
              comm.announced ? OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS : OTF2_COMM_FLAG_NONE),
          "communicator");
  }
}

std::filesystem::path Otf2TestArchive::close() {
  std::vector<std::uint64_t> event_counts(ranks_);
  close_event_files(event_counts);
  for (std::uint32_t r = 0; r < ranks_; ++r) string("rank " + std::to_string(r));
  for (const char* s : {"", "machine", "node", "MPI_COMM_WORLD", "MPI_COMM_SELF"}) string(s);
  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
  write_strings_and_regions(g);
  write_locations(g, event_counts);
  write_communicators(g);
  check(OTF2_Archive_Close(archive_), "close");
  archive_ = nullptr;
  return dir_ / "traces.otf2";
}

}  // namespace netwarp::mpiemul::testing

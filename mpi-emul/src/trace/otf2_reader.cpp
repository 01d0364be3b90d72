// read_otf2: an OTF2 archive's MPI ranks into a proto::Trace. The global definitions come first
// (otf2_definitions.hpp), then every rank's location is read on its own, in rank order
// (otf2_rank_events.hpp); the vector collectives' per-rank lists are filled last. The OTF2
// library's own error printing is replaced while reading, so that every failure is one line.
#include <fmt/format.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "netwarp/mpiemul/trace.hpp"
#include "otf2_collectives.hpp"
#include "otf2_definitions.hpp"
#include "otf2_event_callbacks.hpp"
#include "otf2_rank_events.hpp"

namespace netwarp::mpiemul {

namespace {

// The OTF2 library's last error message, instead of its default printing to stderr.
struct LibraryErrors {
  std::string last;
};

OTF2_ErrorCode record_library_error(void* data, const char*, uint64_t, const char*,
                                    OTF2_ErrorCode code, const char* format, va_list arguments) {
  auto& errors = *static_cast<LibraryErrors*>(data);
  char text[512];
  std::vsnprintf(text, sizeof text, format, arguments);
  errors.last = fmt::format("{}: {}", OTF2_Error_GetDescription(code), text);
  for (char& c : errors.last)
    if (c == '\n') c = ' ';
  return code;
}

class QuietLibrary {
 public:
  QuietLibrary() : previous_(OTF2_Error_RegisterCallback(record_library_error, &errors_)) {}
  ~QuietLibrary() { OTF2_Error_RegisterCallback(previous_, nullptr); }
  QuietLibrary(const QuietLibrary&) = delete;
  QuietLibrary& operator=(const QuietLibrary&) = delete;
  const std::string& last() const { return errors_.last; }

 private:
  LibraryErrors errors_;
  OTF2_ErrorCallback previous_;
};

struct ReaderCloser {
  void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
};
using ReaderHandle = std::unique_ptr<OTF2_Reader, ReaderCloser>;

Otf2Definitions& definitions_of(void* data) {
  return *static_cast<Otf2Definitions*>(data);
}

OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t, uint64_t, uint64_t) {
  definitions_of(data).timer_resolution = resolution;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text) {
  definitions_of(data).strings[self] = text;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef, OTF2_StringRef,
                            OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm paradigm,
                            OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) {
  definitions_of(data).region_is_mpi[self] = paradigm == OTF2_PARADIGM_MPI;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location_group(void* data, OTF2_LocationGroupRef self, OTF2_StringRef,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef,
                                    OTF2_LocationGroupRef) {
  definitions_of(data).location_groups[self] = type;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef name,
                              OTF2_LocationType type, uint64_t, OTF2_LocationGroupRef group) {
  definitions_of(data).locations[self] = {name, type, group};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t count,
                           const uint64_t* members) {
  definitions_of(data).groups[self] = {type, paradigm, {members, members + count}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                          OTF2_CommRef parent, OTF2_CommFlag flags) {
  definitions_of(data).comms[self] = {name, group, parent, flags};
  return OTF2_CALLBACK_SUCCESS;
}

class ArchiveReader {
 public:
  explicit ArchiveReader(const std::filesystem::path& anchor) : name_(anchor.string()) {}

  proto::Trace read() {
    open();
    read_definitions();
    locations_ = mpi_rank_locations(definitions_);
    for (const OTF2_LocationRef location : locations_)
      check(OTF2_Reader_SelectLocation(reader_.get(), location), "cannot select a location");
    read_local_definitions();
    return read_events();
  }

  [[noreturn]] void fail(const std::string& message) const { throw TraceError(name_, 0, message); }

 private:
  void check(OTF2_ErrorCode status, const char* what) const {
    if (status == OTF2_SUCCESS) return;
    const std::string detail =
        library_.last().empty() ? OTF2_Error_GetDescription(status) : library_.last();
    fail(fmt::format("{}: {}", what, detail));
  }

  void open() {
    std::error_code error;
    if (!std::filesystem::is_regular_file(name_, error))
      fail("no such OTF2 archive (name its anchor file, DIR/traces.otf2)");
    reader_.reset(OTF2_Reader_Open(name_.c_str()));
    if (!reader_)
      fail(fmt::format("not an OTF2 archive: {}", library_.last().empty()
                                                      ? "the OTF2 library cannot open it"
                                                      : library_.last()));
    check(OTF2_Reader_SetSerialCollectiveCallbacks(reader_.get()), "cannot open the archive");
  }

  void read_definitions() {
    OTF2_GlobalDefReader* reader = OTF2_Reader_GetGlobalDefReader(reader_.get());
    if (reader == nullptr) fail("cannot read the global definitions");
    OTF2_GlobalDefReaderCallbacks* c = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(c, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(c, on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(c, on_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(c, on_location_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(c, on_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(c, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(c, on_comm);
    const OTF2_ErrorCode registered =
        OTF2_Reader_RegisterGlobalDefCallbacks(reader_.get(), reader, c, &definitions_);
    OTF2_GlobalDefReaderCallbacks_Delete(c);
    check(registered, "cannot read the global definitions");
    uint64_t count = 0;
    check(OTF2_Reader_ReadAllGlobalDefinitions(reader_.get(), reader, &count),
          "cannot read the global definitions");
    OTF2_Reader_CloseGlobalDefReader(reader_.get(), reader);
    if (definitions_.timer_resolution == 0)
      fail("the definitions give no clock resolution (ClockProperties)");
  }

  // Their mapping tables translate the event records' local ids.
  void read_local_definitions() {
    check(OTF2_Reader_OpenDefFiles(reader_.get()), "cannot open the local definitions");
    for (const OTF2_LocationRef location : locations_) {
      OTF2_DefReader* reader = OTF2_Reader_GetDefReader(reader_.get(), location);
      if (reader == nullptr) continue;  // a location without local definitions
      uint64_t count = 0;
      check(OTF2_Reader_ReadAllLocalDefinitions(reader_.get(), reader, &count),
            "cannot read the local definitions");
      OTF2_Reader_CloseDefReader(reader_.get(), reader);
    }
    OTF2_Reader_CloseDefFiles(reader_.get());
  }

  proto::Trace read_events() {
    proto::Trace trace;
    const auto ranks = static_cast<std::uint32_t>(locations_.size());
    for (std::uint32_t r = 0; r < ranks; ++r) trace.add_ranks()->set_source_file(name_);
    check(OTF2_Reader_OpenEvtFiles(reader_.get()), "cannot open the event files");
    const auto callbacks = event_callbacks();
    std::vector<std::vector<Otf2CollectiveCall>> collectives(ranks);
    for (std::uint32_t r = 0; r < ranks; ++r)
      collectives[r] = read_rank(r, *trace.mutable_ranks(static_cast<int>(r)), callbacks.get());
    OTF2_Reader_CloseEvtFiles(reader_.get());
    try {
      fill_vector_collectives(trace, collectives, definitions_);
    } catch (const Otf2Unsupported& e) {
      fail(e.what());
    }
    return trace;
  }

  std::vector<Otf2CollectiveCall> read_rank(std::uint32_t rank, proto::RankTrace& out,
                                            const OTF2_EvtReaderCallbacks* callbacks) {
    const OTF2_LocationRef location = locations_[rank];
    const std::string where =
        fmt::format("location '{}' (rank {})", definitions_.location_name(location), rank);
    Otf2RankEvents events(definitions_, rank, static_cast<std::uint32_t>(locations_.size()), out);
    RankReading reading{definitions_, events, std::nullopt};
    OTF2_EvtReader* reader = OTF2_Reader_GetEvtReader(reader_.get(), location);
    if (reader == nullptr) fail(fmt::format("{}: cannot read its events", where));
    check(OTF2_Reader_RegisterEvtCallbacks(reader_.get(), reader, callbacks, &reading),
          "cannot read the events");
    uint64_t count = 0;
    const OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(reader_.get(), reader, &count);
    OTF2_Reader_CloseEvtReader(reader_.get(), reader);
    if (reading.error) fail(fmt::format("{}, {}", where, *reading.error));
    check(status, "cannot read the events");
    try {
      events.finish();
    } catch (const Otf2Unsupported& e) {
      fail(fmt::format("{}, at the end: {}", where, e.what()));
    }
    return events.collectives();
  }

  std::string name_;
  QuietLibrary library_;
  ReaderHandle reader_;
  Otf2Definitions definitions_;
  std::vector<OTF2_LocationRef> locations_;
};

}  // namespace

proto::Trace read_otf2(const std::filesystem::path& anchor) {
  ArchiveReader reader(anchor);
  try {
    return reader.read();
  } catch (const Otf2Unsupported& e) {
    reader.fail(e.what());
  }
}

}  // namespace netwarp::mpiemul

// Event payloads and committed records: trivially copyable structs that travel as bytes,
// so they can cross MPI unchanged. Each type is identified by a tag hashed from its name at
// compile time: no central enum to edit, and the same tag in every rank of one binary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace netwarp::engine {

using PayloadTag = std::uint32_t;

// Payloads larger than this do not fit in an event; keep them to identifiers and sizes.
inline constexpr std::size_t kMaxPayloadBytes = 64;

// Payload bytes are hashed into the results digest, so they must carry no padding: make any
// padding an explicit member.
template <class T>
concept Payload = std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T> &&
                  sizeof(T) <= kMaxPayloadBytes;

// Records emitted at commit may be larger than payloads; they live in per-LP buffers.
inline constexpr std::size_t kMaxRecordBytes = 1024;

template <class T>
concept Record = std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T> &&
                 sizeof(T) <= kMaxRecordBytes;

namespace detail {
template <class T>
consteval std::string_view raw_type_name() {
  return __PRETTY_FUNCTION__;
}
// constexpr, not consteval: clang 14 rejects a consteval call in a variable template's
// initializer (tag_of), which is a constant expression all the same.
constexpr std::uint32_t fnv1a32(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}
}  // namespace detail

// "netwarp::phold::PholdMessage" for diagnostics; the exact spelling is the compiler's.
template <class T>
consteval std::string_view type_name() {
  std::string_view s = detail::raw_type_name<T>();
  const auto start = s.find("T = ") + 4;
  const auto end = s.find_first_of(";]", start);
  return s.substr(start, end - start);
}

template <class T>
inline constexpr PayloadTag tag_of = detail::fnv1a32(type_name<T>());

// The payload types an LP type handles: `using Handles = EventSet<PacketArrived, TxDone>;`
template <class... Ps>
struct EventSet {
  static_assert((Payload<Ps> && ...), "every event payload must satisfy Payload");
};

template <class... Ps>
consteval bool tags_are_distinct() {
  constexpr PayloadTag tags[] = {tag_of<Ps>..., 0};
  for (std::size_t i = 0; i < sizeof...(Ps); ++i)
    for (std::size_t j = i + 1; j < sizeof...(Ps); ++j)
      if (tags[i] == tags[j]) return false;
  return true;
}

}  // namespace netwarp::engine

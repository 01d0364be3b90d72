// StateVisitor: an LP lists its reversible fields once in visit_state(); digests, the reverse
// check mode and debug printing all walk that list.
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace netwarp::engine {

class StateVisitor {
 public:
  virtual ~StateVisitor() = default;
  virtual void begin_field(std::string_view name) = 0;
  virtual void bytes(const void* data, std::size_t size) = 0;
  virtual void end_field() {}

  template <class T>
  void operator()(std::string_view name, const T& value);
};

// Plain values are hashed as their bytes, so their bytes must say everything: no padding.
template <class T>
concept HashableBytes = std::is_trivially_copyable_v<T> &&
    (std::has_unique_object_representations_v<T> || std::is_floating_point_v<T>);

template <class T>
void visit_value(StateVisitor& v, const T& value) {
  if constexpr (requires { value.visit_bytes(v); }) {
    value.visit_bytes(v);
  } else {
    static_assert(HashableBytes<T>,
                  "state field must be padding-free and trivially copyable, or provide "
                  "visit_bytes(StateVisitor&)");
    v.bytes(&value, sizeof(T));
  }
}

template <class T>
void StateVisitor::operator()(std::string_view name, const T& value) {
  begin_field(name);
  visit_value(*this, value);
  end_field();
}

}  // namespace netwarp::engine

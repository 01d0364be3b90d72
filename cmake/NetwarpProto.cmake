# netwarp_proto_library(TARGET PROTO OUT_DIR): an object library of the C++ code protoc generates
# for PROTO (relative to the calling folder) under OUT_DIR, with the file's descriptors registered
# on first use instead of at program start.
#
# Why: protobuf's generated code registers each .proto file's descriptors from a static
# initialiser, which parses the whole serialized file (scenario.proto: about 0.2 ms of every
# netwarp start, `netwarp run --help` included). The first use of a message's descriptor
# (text parsing, reflection) registers the file anyway (protobuf's AssignDescriptors calls
# AddDescriptors under a lock), so the static registration only matters to code that looks a
# type up by name in the generated pool before using it; netwarp does that only after parsing.
# When protoc's output has no such initialiser (another protobuf version), it is compiled as it
# is: eager, as before.
set(NETWARP_LAZY_DESCRIPTORS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/lazy_descriptors.cmake)

function(netwarp_proto_library target proto out_dir)
  protobuf_generate(PROTOS ${proto} LANGUAGE cpp PROTOC_OUT_DIR ${out_dir} OUT_VAR generated)
  set(sources)
  foreach(file IN LISTS generated)
    if(file MATCHES "\\.pb\\.cc$")
      string(REGEX REPLACE "\\.pb\\.cc$" ".lazy.pb.cc" lazy ${file})
      add_custom_command(
        OUTPUT ${lazy}
        COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${lazy} -P ${NETWARP_LAZY_DESCRIPTORS_SCRIPT}
        DEPENDS ${file} ${NETWARP_LAZY_DESCRIPTORS_SCRIPT}
        COMMENT "Lazy descriptor registration for ${proto}")
      list(APPEND sources ${lazy})
    else()
      list(APPEND sources ${file})
    endif()
  endforeach()
  add_library(${target} OBJECT ${sources})
  target_link_libraries(${target} PUBLIC protobuf::libprotobuf)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

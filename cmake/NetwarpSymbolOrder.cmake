# The functions short runs execute laid out together in the netwarp program (bench/symbol_order.py
# writes cmake/symbol_order.txt). Scattered over 7 MiB of code, their first calls fault in most of
# the program's text, 16 pages a fault; together they take a third as many (on the text,
# outside the minimal incast's event loop, 62-64 -> 22; bench/SCALE.md, "Fixed costs: the code a
# short run executes, together"). Needs lld (GNU ld 2.40 reads no such list) and every function
# in a section of its own (the whole project's flags, so every library the program links). Not in
# sanitizer or fuzzer builds, whose programs are not the one measured.
option(NETWARP_SYMBOL_ORDER "Link the netwarp program with lld, short runs' functions together" ON)
set(NETWARP_SYMBOL_ORDER_FILE ${CMAKE_SOURCE_DIR}/cmake/symbol_order.txt)
set(NETWARP_SYMBOL_ORDER_ACTIVE OFF)
if(NETWARP_SYMBOL_ORDER AND NOT NETWARP_SANITIZE AND NOT NETWARP_FUZZ
   AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  find_program(NETWARP_LLD ld.lld)
  if(NETWARP_LLD)
    string(APPEND CMAKE_CXX_FLAGS " -ffunction-sections")
    set(NETWARP_SYMBOL_ORDER_ACTIVE ON)
  else()
    message(STATUS "netwarp: ld.lld not found; the program is linked without a symbol order "
                   "(scripts/install-deps.sh installs lld)")
  endif()
endif()

# Links `target` with lld in the order of cmake/symbol_order.txt, where that is active.
function(netwarp_order_symbols target)
  if(NOT NETWARP_SYMBOL_ORDER_ACTIVE)
    return()
  endif()
  target_link_options(${target} PRIVATE -fuse-ld=lld
                      LINKER:--symbol-ordering-file=${NETWARP_SYMBOL_ORDER_FILE}
                      LINKER:--no-warn-symbol-ordering)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${NETWARP_SYMBOL_ORDER_FILE})
  set_property(TARGET ${target} PROPERTY NETWARP_SYMBOLS_ORDERED ON)  # symbol_order_packed
endfunction()

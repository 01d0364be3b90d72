# Warnings and sanitizers shared by every netwarp target.
add_library(netwarp_warnings INTERFACE)
target_compile_options(netwarp_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                       -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual)

option(NETWARP_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(NETWARP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# libFuzzer targets (fuzz/): everything is compiled for ASan/UBSan and fuzzer coverage, so the
# libraries the targets link report the bugs the fuzzer reaches. Configure a build folder of its
# own with CC=clang CXX=clang++ (see fuzz/README.md).
option(NETWARP_FUZZ "Build the libFuzzer targets in fuzz/ (clang, ASan/UBSan)" OFF)
if(NETWARP_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "NETWARP_FUZZ needs clang: configure with CXX=clang++")
  endif()
  add_compile_options(-fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

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

# Cross-compiling for 64-bit Windows with Debian's mingw-w64 GCC
# (apt-get install g++-mingw-w64-x86-64 libz-mingw-w64-dev); the posix thread
# model, for std::thread. Used by scripts/check_mingw.sh.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# Libraries and headers come from the mingw-w64 sysroot (zlib) or from the
# prefixes the caller adds to CMAKE_FIND_ROOT_PATH; programs from the host.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

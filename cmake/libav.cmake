# Container input (src/input/av.c): FFmpeg's libavformat, libavcodec and libavutil, found with
# pkg-config (Debian: libavformat-dev libavcodec-dev libavutil-dev). Without them the readers
# take Y4M and raw YUV only, and refuse containers with the ffmpeg line that decodes them.
set(LOCKSTEP_FFMPEG "AUTO" CACHE STRING
    "Read containers (.mp4, .mkv, ...) through FFmpeg's libraries: ON, OFF or AUTO (when pkg-config finds them)")
set(LOCKSTEP_HAVE_LIBAV 0)
if(NOT LOCKSTEP_FFMPEG STREQUAL "OFF")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(LIBAV QUIET IMPORTED_TARGET libavformat libavcodec libavutil)
  endif()
  if(LIBAV_FOUND)
    set(LOCKSTEP_HAVE_LIBAV 1)
  elseif(LOCKSTEP_FFMPEG STREQUAL "ON")
    message(FATAL_ERROR "LOCKSTEP_FFMPEG=ON but pkg-config did not find libavformat, libavcodec "
                        "and libavutil (apt-get install libavformat-dev libavcodec-dev libavutil-dev)")
  endif()
endif()
if(LOCKSTEP_HAVE_LIBAV)
  message(STATUS "lockstep containers: FFmpeg's libraries (libavformat ${LIBAV_libavformat_VERSION}, "
                 "libavcodec ${LIBAV_libavcodec_VERSION}, libavutil ${LIBAV_libavutil_VERSION})")
elseif(LOCKSTEP_FFMPEG STREQUAL "OFF")
  message(STATUS "lockstep containers: none (LOCKSTEP_FFMPEG=OFF: the readers take Y4M and raw YUV)")
else()
  message(STATUS "lockstep containers: none (libavformat, libavcodec, libavutil not found: the "
                 "readers take Y4M and raw YUV; install libavformat-dev libavcodec-dev "
                 "libavutil-dev to read .mp4, .mkv, ...)")
endif()

# cmake --install: the CLI, liblockstep.so and .a (and libvmaf.so.3 with LOCKSTEP_LIBVMAF_SONAME),
# the headers (<lockstep/lockstep.h>, <libvmaf/libvmaf.h>, and <libvmaf.h> through the libvmaf
# include directory), lockstep.pc and libvmaf.pc, the licences.
include(GNUInstallDirs)

install(TARGETS lockstep_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS lockstep ${LS_SHARED_TARGETS}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/lockstep ${PROJECT_SOURCE_DIR}/include/libvmaf
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# the built-in models are Netflix's, under their own notice (BSD-2-Clause-Patent)
install(FILES ${PROJECT_SOURCE_DIR}/models/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME LICENSE.models)

# Static linking needs what the archive uses: cJSON, libm, threads, libdl.
get_filename_component(LS_CJSON_LIBDIR "${CJSON_LIBRARY}" DIRECTORY)
set(LS_PC_LIBS_PRIVATE "-lcjson -lm -lpthread")
if(NOT LS_CJSON_LIBDIR IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
  string(PREPEND LS_PC_LIBS_PRIVATE "-L${LS_CJSON_LIBDIR} ")
endif()
if(CMAKE_DL_LIBS)
  string(APPEND LS_PC_LIBS_PRIVATE " -l${CMAKE_DL_LIBS}")
endif()
if(LOCKSTEP_LIBVMAF_SONAME)
  set(LS_PC_LIBVMAF_LIB vmaf)      # programs built with pkg-config libvmaf need libvmaf.so.3
else()
  set(LS_PC_LIBVMAF_LIB lockstep)
endif()

# The .pc files name the prefix given at install time (cmake --install --prefix), so they are
# written then, not at configure time.
foreach(pc lockstep libvmaf)
  install(CODE "
    set(LS_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(LS_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
    set(LS_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
    if(NOT IS_ABSOLUTE \"\${LS_PC_LIBDIR}\")
      set(LS_PC_LIBDIR \"\\\${prefix}/\${LS_PC_LIBDIR}\")
    endif()
    if(NOT IS_ABSOLUTE \"\${LS_PC_INCLUDEDIR}\")
      set(LS_PC_INCLUDEDIR \"\\\${prefix}/\${LS_PC_INCLUDEDIR}\")
    endif()
    set(PROJECT_VERSION \"${PROJECT_VERSION}\")
    set(LS_LIBVMAF_API_VERSION \"${LS_LIBVMAF_API_VERSION}\")
    set(LS_PC_LIBVMAF_LIB \"${LS_PC_LIBVMAF_LIB}\")
    set(LS_PC_LIBS_PRIVATE \"${LS_PC_LIBS_PRIVATE}\")
    configure_file(\"${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in\"
                   \"${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc\" @ONLY)
    file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\"
         TYPE FILE FILES \"${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc\")
  ")
endforeach()

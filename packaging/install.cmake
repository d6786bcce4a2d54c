# `make install` (cmake --install) and `cpack -G DEB`: the binaries, the
# layer archives with a pkg-config file, the public headers, the example
# config, the systemd unit and its user, the Grafana dashboard and the
# Prometheus alert rules. Included by CMakeLists.txt after
# the targets; tests/install/test_install.sh checks the result.
include(GNUInstallDirs)

# Static archives in link order, each before the layers it uses: the
# reverse of tests/layers/test_layers.sh's ORDER (ntt and msm share a rank).
set(CUZK_LINK_ORDER server provers engine filecoin gadgets hash cuda groth16 cs ntt msm ec util)
set(CUZK_PC_LIBS "")
set(cuzk_archives "")
foreach(l ${CUZK_LINK_ORDER})
  string(APPEND CUZK_PC_LIBS "-lcuzk_${l} ")
  list(APPEND cuzk_archives cuzk_${l})
endforeach()
if(CUZK_CUDA_ENABLED)
  # cuzk_cuda holds nvcc objects linked against the static CUDA runtime.
  string(APPEND CUZK_PC_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lstdc++ -ldl -lrt ")
endif()
string(APPEND CUZK_PC_LIBS "-lcrypto -ljansson -lpthread -lm")
configure_file(${CMAKE_SOURCE_DIR}/packaging/cuzk.pc.in ${CMAKE_BINARY_DIR}/cuzk.pc @ONLY)

set(cuzk_programs cuzk-bench cuzk-prove)
if(TARGET cuzk-daemon)
  list(PREPEND cuzk_programs cuzk-daemon)
endif()
install(TARGETS ${cuzk_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${cuzk_archives} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/cuzk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_BINARY_DIR}/cuzk.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES tools/cuzk-daemon/cuzk.example.toml DESTINATION ${CMAKE_INSTALL_DATADIR}/cuzk)
# The Grafana dashboard and the Prometheus alert rules (docs/operating.md,
# "Metrics to alert on").
install(FILES packaging/grafana/cuzk.json packaging/prometheus/cuzk-alerts.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cuzk)
install(FILES LICENSE README.md docs/operating.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# sysusers.d and the unit sit under <prefix>/lib whatever the libdir
# (/usr/lib/systemd/system, /usr/local/lib/systemd/system: both searched).
install(FILES packaging/cuzk.sysusers DESTINATION lib/sysusers.d RENAME cuzk.conf)

# The unit names absolute paths, and the config lives in /etc for prefix
# /usr (else <prefix>/etc): both are worked out when installing, so that
# `cmake --install build --prefix /usr` writes /usr/bin into the unit even
# when the build was configured for /usr/local. An existing cuzk.toml is
# the operator's and is never overwritten.
install(CODE "
  if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
    set(CUZK_SYSCONFDIR /etc)
  else()
    set(CUZK_SYSCONFDIR \"\${CMAKE_INSTALL_PREFIX}/etc\")
  endif()
  set(CUZK_BINDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  set(CUZK_DOCDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}\")
  configure_file(\"${CMAKE_SOURCE_DIR}/packaging/cuzk.service.in\"
                 \"${CMAKE_BINARY_DIR}/packaging/cuzk.service\" @ONLY)
  file(INSTALL \"${CMAKE_BINARY_DIR}/packaging/cuzk.service\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\")
  if(NOT EXISTS \"\$ENV{DESTDIR}\${CUZK_SYSCONFDIR}/cuzk/cuzk.toml\")
    file(INSTALL \"${CMAKE_SOURCE_DIR}/tools/cuzk-daemon/cuzk.example.toml\"
         DESTINATION \"\${CUZK_SYSCONFDIR}/cuzk\" RENAME cuzk.toml)
  endif()
")

# cpack -G DEB (from the build folder): package cuzk, installed under /usr.
# DESTDIR staging, so that /etc/cuzk/cuzk.toml stays /etc (a conffile).
set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 proving daemon for Filecoin (Curio's cuzk.v1 API)")
set(CUZK_PACKAGE_CONTACT "cuzk maintainers <maintainers@cuzk.invalid>" CACHE STRING
    "Maintainer field of the .deb")
set(CPACK_PACKAGE_CONTACT "${CUZK_PACKAGE_CONTACT}")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_SET_DESTDIR ON)
# With DESTDIR staging CPack installs with CPACK_INSTALL_PREFIX.
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/filecoin-project/curio")
# The shared libraries' packages (libssl3, libjansson4, libgrpc29,
# libprotobuf-c1, libc6) from dpkg-shlibdeps when dpkg-dev is there.
find_program(CUZK_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(CUZK_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libssl3, libjansson4, libgrpc29, libprotobuf-c1")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/packaging/conffiles "/etc/cuzk/cuzk.toml\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_SOURCE_DIR}/packaging/postinst ${CMAKE_BINARY_DIR}/packaging/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)

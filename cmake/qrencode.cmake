# The QR code of the page's link (src/core/link/, drawn by src/ui/qr_panel.cpp): Debian's
# libqrencode, fetched from its source package by tools/setup.sh into third_party/qrencode (never
# committed) and built here as a small static library for the page and the native build alike.
# Included by CMakeLists.txt in every build but the fuzz build (nothing there draws).
#
# Licence: libqrencode is LGPL-2.1-or-later (third_party/qrencode/COPYING). The page links it
# statically into swiglu_lab.wasm, unmodified, from Debian's published source; the build here and
# tools/setup.sh are the complete means to rebuild the page against a changed copy of the library.

set(QRENCODE_DIR ${CMAKE_SOURCE_DIR}/third_party/qrencode CACHE PATH "libqrencode sources (tools/setup.sh fetches them)")
if(NOT EXISTS ${QRENCODE_DIR}/qrencode.c)
  message(FATAL_ERROR "libqrencode sources not found in ${QRENCODE_DIR}: run tools/setup.sh")
endif()
# Its version, as its own CMakeLists.txt declares it (QRcode_APIVersion reports it).
file(STRINGS ${QRENCODE_DIR}/CMakeLists.txt QRENCODE_PROJECT REGEX "^project\\(QRencode VERSION [0-9.]+")
string(REGEX MATCH "([0-9]+)\\.([0-9]+)\\.([0-9]+)" QRENCODE_VERSION "${QRENCODE_PROJECT}")
if(NOT QRENCODE_VERSION)
  message(FATAL_ERROR "${QRENCODE_DIR}/CMakeLists.txt declares no version: not libqrencode 4.x?")
endif()

# The library without its command-line tool (qrenc.c) and without pthreads: the page calls it from
# its main thread only. STATIC_IN_RELEASE=static as its own build sets when tests are off.
add_library(qrencode STATIC
  ${QRENCODE_DIR}/qrencode.c ${QRENCODE_DIR}/qrinput.c ${QRENCODE_DIR}/bitstream.c ${QRENCODE_DIR}/qrspec.c
  ${QRENCODE_DIR}/rsecc.c ${QRENCODE_DIR}/split.c ${QRENCODE_DIR}/mask.c ${QRENCODE_DIR}/mqrspec.c
  ${QRENCODE_DIR}/mmask.c)
target_include_directories(qrencode PUBLIC ${QRENCODE_DIR})
target_compile_definitions(qrencode PRIVATE STATIC_IN_RELEASE=static HAVE_STRDUP=1
  MAJOR_VERSION=${CMAKE_MATCH_1} MINOR_VERSION=${CMAKE_MATCH_2} MICRO_VERSION=${CMAKE_MATCH_3}
  VERSION="${QRENCODE_VERSION}")
target_compile_options(qrencode PRIVATE -w $<$<BOOL:${EMSCRIPTEN}>:-Oz>)  # third party; in the page, built for size

# The core's side: a text in, a module grid out (qr_code.h), and the words said with it (qr_text.h).
# Its own library, as the tokenizer is, so only what draws the code links the encoder.
add_library(swiglu_qr STATIC src/core/link/qr_code.cpp src/core/link/qr_text.cpp)
target_link_libraries(swiglu_qr PUBLIC swiglu_core PRIVATE qrencode)
if(EMSCRIPTEN)
  target_compile_options(swiglu_qr PRIVATE -Oz -fno-rtti)
endif()

# The page carries the library's licence beside itself (LGPL-2.1 §6: a copy of the licence with
# each copy of the work that uses it): site/licenses/libqrencode-COPYING.txt, not in the first load.
if(EMSCRIPTEN)
  add_custom_target(qrencode_licence ALL
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/site/licenses
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${QRENCODE_DIR}/COPYING ${CMAKE_BINARY_DIR}/site/licenses/libqrencode-COPYING.txt
    VERBATIM)
endif()

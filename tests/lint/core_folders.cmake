# The core's folders depend one way (README "Source layout"): base/ (words, numbers, hashing,
# JSON) includes nothing else of the core; link/ (what a shared URL reproduces), lesson/ (the
# lessons' maths and words) and model/ (the whole model) never include views/ (each view's rows
# and mirror); model/ and checkpoint_remote/ never include pack/ (the converted weight format).
#   cmake -DDIR=src/core -P core_folders.cmake                         fails on any such include
#   cmake -DDIR=fixtures/bad_folders -DEXPECT=5 -P core_folders.cmake  the check's own test
if(NOT DIR)
  message(FATAL_ERROR "usage: cmake -DDIR=<core folder> [-DEXPECT=N] -P core_folders.cmake")
endif()
get_filename_component(DIR "${DIR}" ABSOLUTE)
if(NOT EXPECT)
  set(EXPECT 0)
endif()
# Each rule: a folder, then the regex its includes may not match.
set(rules
  "base" "^[ \t]*#[ \t]*include[ \t]*\"core/([^b]|b[^a]|ba[^s]|bas[^e]|base[^/])"
  "link" "^[ \t]*#[ \t]*include[ \t]*\"core/views/"
  "lesson" "^[ \t]*#[ \t]*include[ \t]*\"core/views/"
  "model" "^[ \t]*#[ \t]*include[ \t]*\"core/(views|pack)/"
  "checkpoint_remote" "^[ \t]*#[ \t]*include[ \t]*\"core/pack/")
set(found 0)
set(checked 0)
list(LENGTH rules n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last} 2)
  math(EXPR j "${i} + 1")
  list(GET rules ${i} folder)
  list(GET rules ${j} banned)
  file(GLOB_RECURSE files LIST_DIRECTORIES false ${DIR}/${folder}/*.h ${DIR}/${folder}/*.cpp ${DIR}/${folder}/*.inc)
  foreach(f ${files})
    math(EXPR checked "${checked} + 1")
    file(STRINGS ${f} hits REGEX "${banned}")
    foreach(h ${hits})
      file(RELATIVE_PATH rel ${DIR} ${f})
      string(STRIP "${h}" h)
      message("${rel}: ${h} (${folder}/ may not include that)")
      math(EXPR found "${found} + 1")
    endforeach()
  endforeach()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no sources under ${DIR}'s folders")
endif()
if(NOT found EQUAL EXPECT)
  message(FATAL_ERROR "${found} include(s) against the folders' direction in ${DIR} (${checked} files), expected ${EXPECT}")
endif()
message("${checked} files under ${DIR}: ${found} include(s) against the folders' direction, as expected")

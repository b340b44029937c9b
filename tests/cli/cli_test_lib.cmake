# Helpers shared by the command-line tests (cmake -P scripts): run a command, check its output.
#   run(EXPECTED_EXIT command args...)  sets ${out} and ${err} in the caller
#   expect(TEXT "${out}")               fails unless TEXT occurs in the haystack
#   expect_regex(RE "${out}")           fails unless RE matches the haystack
function(run expect_rc)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "${ARGN}: exit ${rc}, expected ${expect_rc}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
function(expect text haystack)
  string(FIND "${haystack}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected to find '${text}' in:\n${haystack}")
  endif()
endfunction()
function(expect_regex re haystack)
  if(NOT "${haystack}" MATCHES "${re}")
    message(FATAL_ERROR "expected to match '${re}' in:\n${haystack}")
  endif()
endfunction()

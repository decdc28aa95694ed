# ctest's post-test step (see tests/CMakeLists.txt, CTestCustom.cmake): after
# ctest's own summary, say how many of the real-board tests (label `boards`)
# ran and how many were skipped, so that "100% tests passed" cannot hide a
# run in which no board was tested. A board test that skips prints "SKIP".
#   cmake -DBUILD=... -DBOARDS=... -P BoardTestsRan.cmake
# The board tests are read from the CTestTestfile.cmake files (a nested
# `ctest -N` would overwrite the log this reads).
set(log ${BUILD}/Testing/Temporary/LastTest.log.tmp)
if(NOT EXISTS ${log}) # ctest renames it when it ends
  set(log ${BUILD}/Testing/Temporary/LastTest.log)
endif()
if(NOT EXISTS ${log})
  return()
endif()
file(READ ${log} text)
file(GLOB_RECURSE testfiles ${BUILD}/CTestTestfile.cmake)
set(names)
foreach(f ${testfiles})
  file(STRINGS ${f} lines REGEX "PROPERTIES +LABELS \"[^\"]*boards")
  foreach(line ${lines})
    string(REGEX REPLACE "^set_tests_properties\\(\\[=\\[([^]]+)\\]=\\].*" "\\1" name "${line}")
    list(APPEND names ${name})
  endforeach()
endforeach()
set(ran 0)
set(skipped 0)
foreach(name ${names})
  string(FIND "${text}" " Test: ${name}\n" at)
  if(at EQUAL -1)
    continue() # not part of this ctest run
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  string(FIND "${rest}" "\nOutput:\n" out) # after the command line
  string(SUBSTRING "${rest}" ${out} -1 rest)
  string(FIND "${rest}" "<end of output>" end)
  string(SUBSTRING "${rest}" 0 ${end} output)
  if(output MATCHES "SKIP")
    math(EXPR skipped "${skipped} + 1")
  else()
    math(EXPR ran "${ran} + 1")
  endif()
endforeach()
math(EXPR total "${ran} + ${skipped}")
if(total EQUAL 0)
  return()
endif()
if(skipped EQUAL 0)
  message("real-board tests: ${ran} of ${total} ran (boards of ${BOARDS})")
else()
  message("real-board tests: ${ran} of ${total} ran, ${skipped} SKIPPED: their boards are "
    "not in ${BOARDS} (configure with -DDOMINO_BOARDS=DIR, a folder of board blobs)")
endif()

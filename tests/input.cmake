# Readers: every fixture's header and frame count against MANIFEST.json, raw and Y4M round trips,
# stdin and pipes, and one case per kind of bad input.
add_executable(test_input ${CMAKE_CURRENT_LIST_DIR}/test_input.c)
target_link_libraries(test_input PRIVATE lockstep_input lockstep)
add_test(NAME input
         COMMAND test_input --manifest ${LS_SHARED_DIR}/fixtures/MANIFEST.json
                 --fixtures ${LS_FIXTURE_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/input)
set_tests_properties(input PROPERTIES FIXTURES_REQUIRED fixtures)

# The generator: deterministic output that the reader accepts.
add_test(NAME input_gen
         COMMAND test_input --gen $<TARGET_FILE:lockstep_gen>
                 --work ${CMAKE_CURRENT_BINARY_DIR}/input_gen)

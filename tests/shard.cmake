# Shards: every frame of a synthetic video as a shard of its own against the whole run, for every
# temporal extractor, and the least context each declares (test_shard, C API); cutting fixtures
# and generated pairs into shards and merging them through the CLI, every model kind and output
# format, and what merge refuses (shard_test.py).
add_executable(test_shard ${CMAKE_CURRENT_LIST_DIR}/test_shard.c)
target_include_directories(test_shard PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_shard PRIVATE lockstep m)
add_test(NAME shard COMMAND test_shard)
add_test(NAME shard_cli
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/shard_test.py
                 --cli ${LS_CLI} --gen $<TARGET_FILE:lockstep_gen> --fixtures ${LS_FIXTURE_DIR}
                 --work ${CMAKE_CURRENT_BINARY_DIR}/shard_cli)
set_tests_properties(shard_cli PROPERTIES FIXTURES_REQUIRED fixtures)

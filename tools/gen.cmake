# lockstep-gen: deterministic synthetic reference/distorted pairs (samples, GPU parity, bench).
add_executable(lockstep_gen ${CMAKE_CURRENT_LIST_DIR}/lockstep-gen.c)
set_target_properties(lockstep_gen PROPERTIES OUTPUT_NAME lockstep-gen)
target_link_libraries(lockstep_gen PRIVATE lockstep_input lockstep)

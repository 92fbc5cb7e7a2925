# VMAF models: loading (built in, from a path, collections), every refusal's exact message,
# ownership, overloads and feature names, prediction steps (transform, knots, clip, chroma
# correction, bootstrap), scoring through a context, and every number of every shipped model
# file against strtod/strtof of its text (test_model); every model score of the goldens from
# their own feature values (test_model_golden).
foreach(unit model model_golden)
  add_executable(test_${unit} ${CMAKE_CURRENT_LIST_DIR}/test_${unit}.c)
  target_include_directories(test_${unit} PRIVATE ${PROJECT_SOURCE_DIR}/src ${CJSON_INCLUDE_DIR})
  target_link_libraries(test_${unit} PRIVATE lockstep)
endforeach()
add_test(NAME model COMMAND test_model ${PROJECT_SOURCE_DIR}/models ${CMAKE_CURRENT_BINARY_DIR}/model)
add_test(NAME model_golden COMMAND test_model_golden ${LS_SHARED_DIR}/golden)

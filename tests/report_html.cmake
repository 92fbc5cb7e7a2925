# The HTML report: its writer on 100,000 imported frames and on edge cases (test_report_html,
# which leaves big.html/small.html and their JSON reports), then tests/report_test.py: CLI runs
# whose pages must show the JSON report's numbers (pooled, worst frames, every plotted point)
# and, in the release build, render in headless Chromium without console errors, one point per
# frame or bucket, the tooltip showing the plotted value.
add_executable(test_report_html ${CMAKE_CURRENT_LIST_DIR}/test_report_html.c
               ${PROJECT_SOURCE_DIR}/tools/report_html.c ${PROJECT_SOURCE_DIR}/tools/cli_parse.c)
target_include_directories(test_report_html PRIVATE ${PROJECT_SOURCE_DIR}/tools ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_report_html PRIVATE lockstep_input lockstep m)
add_test(NAME report_html COMMAND test_report_html ${CMAKE_CURRENT_BINARY_DIR}/report_html)
set_tests_properties(report_html PROPERTIES FIXTURES_SETUP report_pages)

set(LS_REPORT_TEST_ARGS)
if(NOT LOCKSTEP_SANITIZE)
  list(APPEND LS_REPORT_TEST_ARGS --browser)
endif()
add_test(NAME report
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/report_test.py
                 --cli ${LS_CLI} --fixtures ${LS_FIXTURE_DIR} --pages ${CMAKE_CURRENT_BINARY_DIR}/report_html
                 --work ${CMAKE_CURRENT_BINARY_DIR}/report ${LS_REPORT_TEST_ARGS})
set_tests_properties(report PROPERTIES FIXTURES_REQUIRED "fixtures;report_pages")

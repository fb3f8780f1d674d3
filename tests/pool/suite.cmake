# The relay pool (pool.h), once per compiled backend (pool.<backend>): options and memory,
# relays and their connections, publishes and their retries, subscriptions, deduplication,
# EOSE, the cursor and its bytes, NIP-42, the tolerance rules, NIP-17 routing (delivery.h:
# the inbox directory, the delivery record), and no allocation in any pool call (the
# library's own calls to malloc, calloc and realloc go through ld's --wrap and are counted;
# linkers without --wrap skip that test, saying so).
softchat_add_test_executable(test_pool
  test_pool.c
  test_pool_setup.c
  test_pool_pub.c
  test_pool_sub.c
  test_pool_cursor.c
  test_pool_auth.c
  test_pool_delivery.c
  test_pool_alloc.c)
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_pool_setup.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_pool_pub.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_pool_sub.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_pool_cursor.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang" AND NOT APPLE AND NOT EMSCRIPTEN AND NOT WIN32)
  target_link_options(test_pool PRIVATE "LINKER:--wrap=malloc,--wrap=calloc,--wrap=realloc")
  target_compile_definitions(test_pool PRIVATE SC_TEST_WRAP_MALLOC)
endif()
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "pool.${b}" COMMAND test_pool --backend "${b}")
  set_tests_properties("pool.${b}" PROPERTIES TIMEOUT 300 LABELS "pool")
endforeach()

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

# The pool's deterministic fault simulator (sim.h): simulated relays, links and applications
# that crash, driving the real pool and delivery record; 10000 seeded scenarios per backend
# here, any number with --scenarios (scripts/pool-sim.sh runs the long mode). A failure prints
# the seed that replays it.
set(SOFTCHAT_POOL_SIM_SCENARIOS 10000 CACHE STRING
    "Scenarios per backend of pool.sim.* (the cross presets lower it: each runs under an emulator)")
softchat_add_test_executable(test_pool_sim sim_main.c sim_app.c sim_link.c sim_relay.c)
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "pool.sim.${b}" COMMAND test_pool_sim --backend "${b}"
                                        --scenarios "${SOFTCHAT_POOL_SIM_SCENARIOS}")
  set_tests_properties("pool.sim.${b}" PROPERTIES TIMEOUT 900 LABELS "pool")
endforeach()

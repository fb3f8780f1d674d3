# table: backend tables: validation, registry, malformed and miswired doubles, one entry.
softchat_add_test_executable(test_table
  test_table.c
  test_table_doubles.c)

add_test(NAME table COMMAND test_table)
set_tests_properties(table PROPERTIES TIMEOUT 300)

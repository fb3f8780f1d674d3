/* Backend-independent unit tests of the core: encodings, constant-time compare, wiping,
 * statuses, argument and context-state checks. */
#ifndef SOFTCHAT_TESTS_TEST_CORE_H
#define SOFTCHAT_TESTS_TEST_CORE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <softchat/softchat.h>

#include "vectors_util.h"

void test_hex_encode(void **state);
void test_hex_decode(void **state);
void test_hex_decode_rejects(void **state);
void test_hex_decode_every_byte_everywhere(void **state);
void test_base64_round_trip(void **state);
void test_base64_known(void **state);
void test_base64_rejects(void **state);
void test_base64_rejects_everywhere(void **state);
void test_base64_buffer_too_small(void **state);
void test_base64_kernels_agree(void **state);
void test_ct_compare(void **state);
void test_memzero(void **state);
void test_json_put_string(void **state);

#endif

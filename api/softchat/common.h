/* libsoftchat: shared macros for every public header.
 *
 * Global rules for every function declared under include/softchat/ (the libsecp256k1 preamble):
 *  1. Pointer arguments must be non-NULL unless the parameter's doc says otherwise. A NULL
 *     pointer that is not allowed returns SC_ERR_ARG; the library never aborts or asserts.
 *  2. A length (size_t) follows the pointer it describes. A zero-length input may be NULL.
 *  3. Argument order: context, outputs, in/out, inputs, flags.
 *  4. Variable-size outputs are (uint8_t *out, size_t out_cap, size_t *out_len). On
 *     SC_ERR_BUFFER_TOO_SMALL, *out_len holds the required size and nothing else is written.
 *     Every variable-size output has a pure size function.
 *  5. Nothing allocates unless the function's doc says so.
 *  6. On failure, outputs are zeroed unless the doc says they are left untouched.
 *  7. A sc_ctx carries per-context scratch state: use one context from one thread at a time
 *     (make one per thread; they are independent). Everything else is reentrant.
 */
#ifndef SOFTCHAT_COMMON_H
#define SOFTCHAT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(SOFTCHAT_SHARED_BUILD)
#define SC_API __declspec(dllexport)
#elif defined(_WIN32) && defined(SOFTCHAT_SHARED)
#define SC_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define SC_API __attribute__((visibility("default")))
#else
#define SC_API
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SC_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define SC_WARN_UNUSED
#endif

/* Compiler-checked non-NULL contracts for consumers only: inside the library build they are
 * off, so the defensive NULL checks that return SC_ERR_ARG are not optimised away. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(SOFTCHAT_BUILDING)
#define SC_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define SC_NONNULL(...)
#endif

#ifdef __cplusplus
#define SC_BEGIN_DECLS extern "C" {
#define SC_END_DECLS }
#else
#define SC_BEGIN_DECLS
#define SC_END_DECLS
#endif

#endif

/* libsoftchat: shared macros and types for every public header.
 *
 * Global rules for every function declared under include/softchat/ (the libsecp256k1 preamble):
 *  1. Pointer arguments must be non-NULL unless the parameter's doc says otherwise. A NULL
 *     pointer that is not allowed returns SC_ERR_ARG; the library never aborts or asserts.
 *  2. A length (size_t) follows the pointer it describes. A zero-length input may be NULL.
 *  3. Argument order: context (or the operation's state), outputs, in/out, inputs, options
 *     and flags.
 *  4. Variable-size outputs are (out, out_cap, out_len), for bytes and for arrays alike. On
 *     SC_ERR_BUFFER_TOO_SMALL, *out_len holds the required size and nothing else is written.
 *     Every variable-size output has a pure size function.
 *  5. Size functions: sc_<fn>_len(...) is the exact size of the output of sc_<fn>;
 *     sc_<fn>_max(...) an upper bound that always suffices (the call reports the exact need
 *     through *out_len); a buffer that is not the call's `out` adds its parameter name,
 *     sc_<fn>_<param>_max (arena, scratch, buf). The one sentinel is 0: no output of that
 *     size exists (invalid input, or a size that does not fit size_t); passing a capacity
 *     of 0 to the call then reports the precise error. sc_<object>_bytes() returns the fixed
 *     size behind an SC_<OBJECT>_BYTES macro, for bindings that cannot see macros.
 *  6. Text outputs (hex, base64, JSON, bech32, NIP-44 payloads) are never NUL-terminated:
 *     *out_len is their length. Allocate one more byte and terminate them when needed.
 *  7. Nothing allocates unless the function's doc says so.
 *  8. On failure, outputs are zeroed unless the doc says they are left untouched.
 *  9. Options structs: a NULL pointer means exactly what a zero-initialised struct means.
 *     Unknown flag bits are SC_ERR_FLAGS.
 * 10. Explicit randomness: a function that draws from the RNG has a twin with the suffix
 *     _with_rand that takes every random input as an argument and never calls the RNG; the
 *     plain form draws the values and calls the twin, so test vectors run the real code.
 * 11. Lifecycle: objects are set up by _init (or _import / _generate) and wiped by _clear;
 *     streaming operations run _init, _update..., _final, or _abort.
 * 12. A sc_ctx carries per-context scratch state: use one context from one thread at a time
 *     (make one per thread; they are independent). Everything else is reentrant; see ctx.h
 *     for which objects may be shared between threads.
 * 13. Every function documents its Returns (every status), In, Out (and what outputs hold on
 *     failure), whether it is constant time in its secret inputs, and whether it calls the
 *     RNG. tests/docs/check_headers.py enforces this for every exported function.
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

SC_BEGIN_DECLS

/** A string view: len bytes at ptr. Not NUL-terminated, and it may contain NUL bytes. An
 *  optional string is absent when len is 0 (ptr may then be NULL), unless its field says
 *  otherwise. */
typedef struct sc_str {
    const char *ptr;
    size_t len;
} sc_str;

/** An sc_str of a string literal, without its terminator: SC_STR("wss://relay.example"). */
#define SC_STR(lit) ((sc_str){(lit), sizeof(lit) - 1})

SC_END_DECLS

#endif

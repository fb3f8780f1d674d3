/* The alignment of the sc_tag and sc_str arrays that the builder and the parser place in
 * caller memory. */
#ifndef SOFTCHAT_CORE_EVENT_ALIGN_H
#define SOFTCHAT_CORE_EVENT_ALIGN_H

#include <stddef.h>
#include <stdint.h>

/* A pointer and a size_t each; an alignment always divides the size. */
#define SC_EVENT_ALIGN (sizeof(void *) > sizeof(size_t) ? sizeof(void *) : sizeof(size_t))

/* Bytes to skip at p to reach SC_EVENT_ALIGN. */
static inline size_t sc_event_align_pad(const void *p)
{
    size_t r = (size_t)((uintptr_t)p % SC_EVENT_ALIGN);

    return r == 0 ? 0 : SC_EVENT_ALIGN - r;
}

#endif

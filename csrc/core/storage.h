/* storage.h - reference-counted bytes on one device, owned by tensorlib's allocator
 * or by a foreign exporter (NumPy array, buffer, DLPack capsule) kept alive until
 * the storage dies. */
#ifndef TL_STORAGE_H
#define TL_STORAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/device.h"

typedef void (*tl_release_fn)(void *owner);

typedef struct tl_storage {
    int64_t refcnt;      /* atomic: ops running without the GIL take and drop views */
    char *data;
    size_t nbytes;
    tl_device device;
    bool readonly;       /* imported from a read-only buffer: in-place writes raise */
    bool resizable;      /* owned by tensorlib's allocator */
    bool shared;         /* lives in a MAP_SHARED mapping (share_memory_): forked children see writes */
    bool pinned;         /* page-locked host memory of the CUDA backend (pin_memory) */
    int64_t exports;     /* live buffer-protocol / NumPy exports, and ops running without the GIL
                            (python/nogil.c): resize_, set_, share_memory_ refuse while > 0;
                            changed with the GIL held only */
    void *owner;         /* foreign owner, released through release() */
    tl_release_fn release;
} tl_storage;

/* New reference; zero-filled when `zero`. Returns NULL with MemoryError set. */
tl_storage *tl_storage_new(size_t nbytes, tl_device device, bool zero);
/* New reference to nbytes of pinned host memory from the CUDA backend's host_alloc; NULL
 * with the error set (RuntimeError `no_allocator` when no backend offers it). */
tl_storage *tl_storage_new_pinned(size_t nbytes, const char *no_allocator);
/* New reference wrapping foreign memory; `release(owner)` runs when the storage dies. */
tl_storage *tl_storage_new_foreign(void *data, size_t nbytes, tl_device device, void *owner,
                                   tl_release_fn release, bool readonly);
static inline tl_storage *tl_storage_retain(tl_storage *s)
{
    if (s) __atomic_fetch_add(&s->refcnt, 1, __ATOMIC_RELAXED);
    return s;
}
void tl_storage_release(tl_storage *s);
/* Grows an allocator-owned storage in place (resize_); keeps the old bytes. */
int tl_storage_resize(tl_storage *s, size_t nbytes);

/* Moves the bytes into shared memory (MAP_SHARED | MAP_ANONYMOUS) so processes forked
 * afterwards see each other's writes; no-op when already shared. Refused for memory
 * tensorlib does not own or that is exported (moving it would break the other side). */
int tl_storage_share(tl_storage *s);

/* Raw allocator used for storages and scratch: 64-byte aligned, huge pages for big blocks. */
void *tl_alloc(size_t nbytes);
void *tl_alloc_zeroed(size_t nbytes);
void tl_free(void *p, size_t nbytes);

#endif

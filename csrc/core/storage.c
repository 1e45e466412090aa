/* storage.c - storages and the CPU allocator.
 *
 * Large blocks are where the time goes: a fresh 40 MB result spends most of its life
 * in page faults. Blocks above TL_HUGE_THRESHOLD are 2 MiB aligned and advised for
 * transparent huge pages, and the most recently freed large blocks (up to 8, 256 MB) are
 * kept for reuse, the oldest evicted first.
 * Small blocks (<= TL_SMALL_MAX bytes, the results of small ops) are kept per 64-byte size
 * class for reuse too: posix_memalign + free cost more than a small op's arithmetic. */
#include "core/storage.h"

#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/backend.h"
#include "core/error.h"

#define TL_HUGE_THRESHOLD ((size_t)4 << 20)
#define TL_HUGE_ALIGN ((size_t)2 << 20)
#define TL_CACHE_SLOTS 8
#define TL_CACHE_MAX_BYTES ((size_t)256 << 20)

typedef struct { void *p; size_t n; uint64_t stamp; } cache_slot;
static cache_slot cache[TL_CACHE_SLOTS];
static size_t cache_bytes;
static uint64_t cache_clock; /* stamps the slots in the order their blocks were freed */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;  /* ops allocate without the GIL */

static size_t round_big(size_t n) { return (n + TL_HUGE_ALIGN - 1) & ~(TL_HUGE_ALIGN - 1); }

#ifdef __SANITIZE_ADDRESS__
#define TL_SMALL_MAX 0 /* ASan builds free every block, so use-after-free stays visible */
#else
#define TL_SMALL_MAX 1024
#endif
#define TL_SMALL_DEPTH 32 /* blocks kept per size class: at most 32 x 17 KB in all */
static void *small_blocks[TL_SMALL_MAX / 64 + 1][TL_SMALL_DEPTH];
static int small_count[TL_SMALL_MAX / 64 + 1];
/* The small caches' lock guards a few loads and stores: a spin on one flag (an exchange to
 * take, a release store to drop) costs a fraction of a pthread mutex pair, which a small op
 * paid twice. A waiter yields its core after a few tries, so a holder that was descheduled
 * is not spun against. */
static atomic_flag small_lock = ATOMIC_FLAG_INIT;

static void small_lock_take(void)
{
    for (int tries = 0; atomic_flag_test_and_set_explicit(&small_lock, memory_order_acquire); tries++)
        if (tries >= 64) sched_yield();
}

static void small_lock_drop(void) { atomic_flag_clear_explicit(&small_lock, memory_order_release); }

/* 64-byte rounded size (at least 64) of a small block. */
static size_t round_small(size_t nbytes) { return nbytes ? (nbytes + 63) & ~(size_t)63 : 64; }

static void *small_take(size_t n)
{
    void *p = NULL;
    int c = (int)(n / 64) - 1;
    small_lock_take();
    if (small_count[c] > 0) p = small_blocks[c][--small_count[c]];
    small_lock_drop();
    return p;
}

static bool small_keep(void *p, size_t n)
{
    bool kept = false;
    int c = (int)(n / 64) - 1;
    small_lock_take();
    if (small_count[c] < TL_SMALL_DEPTH) {
        small_blocks[c][small_count[c]++] = p;
        kept = true;
    }
    small_lock_drop();
    return kept;
}

/* Storage records are kept for reuse the same way (calloc + free of one cost more than the
 * rest of a small op's allocation). ASan builds keep none. */
#define TL_RECORD_DEPTH (TL_SMALL_MAX ? 64 : 0)
static tl_storage *records[64];
static int record_count;

static tl_storage *record_new(void)
{
    tl_storage *s = NULL;
    if (TL_RECORD_DEPTH) {
        small_lock_take();
        if (record_count > 0) s = records[--record_count];
        small_lock_drop();
    }
    if (s) memset(s, 0, sizeof *s);
    else s = calloc(1, sizeof *s);
    if (!s) tl_err(TL_ERR_MEMORY, "out of memory");
    return s;
}

static void record_free(tl_storage *s)
{
    bool kept = false;
    if (TL_RECORD_DEPTH) {
        small_lock_take();
        if (record_count < TL_RECORD_DEPTH) {
            records[record_count++] = s;
            kept = true;
        }
        small_lock_drop();
    }
    if (!kept) free(s);
}

static void *cache_take(size_t n)
{
    /* Exact rounded size only: a bigger block would waste memory the user can see. */
    void *p = NULL;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < TL_CACHE_SLOTS && !p; i++) {
        if (cache[i].p && cache[i].n == n) {
            p = cache[i].p;
            cache[i].p = NULL;
            cache_bytes -= n;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    return p;
}

static void *map_big(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, n, MADV_HUGEPAGE);
#endif
    return p;
}

void *tl_alloc(size_t nbytes)
{
    if (nbytes >= TL_HUGE_THRESHOLD) {
        size_t n = round_big(nbytes);
        void *p = cache_take(n);
        return p ? p : map_big(n);
    }
    size_t n = round_small(nbytes);
    void *p = n <= TL_SMALL_MAX ? small_take(n) : NULL;
    if (!p && posix_memalign(&p, 64, n) != 0) return NULL;
    return p;
}

void *tl_alloc_zeroed(size_t nbytes)
{
    /* Fresh anonymous mappings are zero already and fault in lazily: no memset. */
    if (nbytes >= TL_HUGE_THRESHOLD) return map_big(round_big(nbytes));
    void *p = tl_alloc(nbytes);
    if (p) memset(p, 0, nbytes);
    return p;
}

void tl_free(void *p, size_t nbytes)
{
    if (!p) return;
    if (nbytes < TL_HUGE_THRESHOLD) {
        size_t n = round_small(nbytes);
        if (n > TL_SMALL_MAX || !small_keep(p, n)) free(p);
        return;
    }
    size_t n = round_big(nbytes);
    bool kept = false;
    void *drop[TL_CACHE_SLOTS];
    size_t drop_n[TL_CACHE_SLOTS];
    int ndrop = 0;
    pthread_mutex_lock(&cache_lock);
    if (n <= TL_CACHE_MAX_BYTES) {
        /* the most recently freed blocks are the ones a loop asks for again: evict the
         * oldest until this one fits (a slot and the byte budget) */
        for (;;) {
            int free_slot = -1, oldest = -1;
            for (int i = 0; i < TL_CACHE_SLOTS; i++) {
                if (!cache[i].p) free_slot = free_slot < 0 ? i : free_slot;
                else if (oldest < 0 || cache[i].stamp < cache[oldest].stamp) oldest = i;
            }
            if (free_slot >= 0 && cache_bytes + n <= TL_CACHE_MAX_BYTES) {
                cache[free_slot] = (cache_slot){p, n, ++cache_clock};
                cache_bytes += n;
                kept = true;
                break;
            }
            if (oldest < 0) break;
            drop[ndrop] = cache[oldest].p;
            drop_n[ndrop++] = cache[oldest].n;
            cache_bytes -= cache[oldest].n;
            cache[oldest].p = NULL;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    for (int i = 0; i < ndrop; i++) munmap(drop[i], drop_n[i]);
    if (!kept) munmap(p, n);
}

/* Device memory comes from the device's registered backend (which keeps its own
 * statistics and cache); such a storage is not resizable in place. */
static tl_storage *device_storage(tl_storage *s, size_t nbytes, tl_device device, bool zero)
{
    const tl_device_backend *b = tl_backend_get(device.type);
    if (tl_backend_check(device) < 0 || !(s->data = b->alloc(nbytes, device.index))) {
        record_free(s);
        return NULL;
    }
    if (zero && b->memset_zero(s->data, nbytes, device.index) < 0) {
        b->free(s->data, nbytes, device.index);
        record_free(s);
        return NULL;
    }
    s->refcnt = 1;
    s->nbytes = nbytes;
    s->device = device;
    return s;
}

tl_storage *tl_storage_new(size_t nbytes, tl_device device, bool zero)
{
    tl_storage *s = record_new();
    if (!s) return NULL;
    if (device.type != TL_DEV_CPU) return device_storage(s, nbytes, device, zero);
    s->data = zero ? tl_alloc_zeroed(nbytes) : tl_alloc(nbytes);
    if (!s->data) {
        record_free(s);
        tl_err(TL_ERR_MEMORY, "DefaultCPUAllocator: can't allocate memory: you tried to allocate %zu bytes.", nbytes);
        return NULL;
    }
    s->refcnt = 1;
    s->nbytes = nbytes;
    s->device = device;
    s->resizable = true;
    return s;
}

tl_storage *tl_storage_new_foreign(void *data, size_t nbytes, tl_device device, void *owner,
                                   tl_release_fn release, bool readonly)
{
    tl_storage *s = record_new();
    if (!s) return NULL;
    s->refcnt = 1;
    s->data = data;
    s->nbytes = nbytes;
    s->device = device;
    s->owner = owner;
    s->release = release;
    s->readonly = readonly;
    return s;
}

static size_t shared_len(size_t nbytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return nbytes ? (nbytes + page - 1) / page * page : page;
}

/* nbytes of pinned host memory from the CUDA backend, or NULL with the error set. */
static char *pinned_alloc(size_t nbytes, const char *no_allocator)
{
    const tl_device_backend *b = tl_backend_get(TL_DEV_CUDA);
    if (!b || !b->host_alloc || !b->host_free) {
        tl_err(TL_ERR_RUNTIME, "%s", no_allocator);
        return NULL;
    }
    return b->host_alloc(nbytes ? nbytes : 1);
}

tl_storage *tl_storage_new_pinned(size_t nbytes, const char *no_allocator)
{
    tl_storage *s = record_new();
    if (!s) return NULL;
    if (!(s->data = pinned_alloc(nbytes, no_allocator))) {
        record_free(s);
        return NULL;
    }
    s->refcnt = 1;
    s->nbytes = nbytes;
    s->device = (tl_device){TL_DEV_CPU, -1};
    s->pinned = true;
    s->resizable = true;
    return s;
}

/* Gives back the bytes of a storage tensorlib allocated (not a foreign one). */
static void free_own_data(tl_storage *s)
{
    if (s->device.type != TL_DEV_CPU) {
        tl_backend_get(s->device.type)->free(s->data, s->nbytes, s->device.index);
    } else if (s->pinned) {
        /* the backend stays registered for the process; without it the memory is left */
        const tl_device_backend *b = tl_backend_get(TL_DEV_CUDA);
        if (b && b->host_free) b->host_free(s->data);
    } else if (s->shared) {
        munmap(s->data, shared_len(s->nbytes));
    } else {
        tl_free(s->data, s->nbytes);
    }
}

void tl_storage_release(tl_storage *s)
{
    if (!s || __atomic_sub_fetch(&s->refcnt, 1, __ATOMIC_ACQ_REL) > 0) return;
    if (s->release) s->release(s->owner);
    else free_own_data(s);
    record_free(s);
}

int tl_storage_share(tl_storage *s)
{
    if (s->shared) return 0;
    if (s->release)
        return tl_err(TL_ERR_RUNTIME, "share_memory_: the storage is owned by another library (NumPy, a buffer "
                      "or DLPack); copy it with clone() first");
    if (s->exports > 0)
        return tl_err(TL_ERR_RUNTIME, "share_memory_: the storage has %lld live buffer exports; moving it would "
                      "detach them", (long long)s->exports);
    size_t n = shared_len(s->nbytes);
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return tl_err(TL_ERR_MEMORY, "share_memory_: can't map %zu bytes of shared memory", n);
    memcpy(p, s->data, s->nbytes);
    free_own_data(s);
    s->data = p;
    s->shared = true;
    s->pinned = false;
    s->resizable = false;
    return 0;
}

int tl_storage_resize(tl_storage *s, size_t nbytes)
{
    if (nbytes <= s->nbytes) return 0;
    if (!s->resizable)
        return tl_err(TL_ERR_RUNTIME, "Trying to resize storage that is not resizable");
    if (s->exports > 0)
        return tl_err(TL_ERR_RUNTIME, "Trying to resize storage while it is exported (%lld live buffer exports)",
                      (long long)s->exports);
    /* a pinned storage stays pinned, as torch's resize of a pinned tensor */
    char *p = s->pinned ? pinned_alloc(nbytes, "Cannot access accelerator device when none is available.")
                        : tl_alloc_zeroed(nbytes);
    if (!p && s->pinned) return -1;
    if (!p) return tl_err(TL_ERR_MEMORY, "DefaultCPUAllocator: can't allocate memory: you tried to allocate %zu bytes.", nbytes);
    if (s->pinned) memset(p + s->nbytes, 0, nbytes - s->nbytes);
    memcpy(p, s->data, s->nbytes);
    free_own_data(s);
    s->data = p;
    s->nbytes = nbytes;
    return 0;
}

/* meta.c - the meta device's backend: tensors with sizes, strides and a dtype but no
 * elements. Its allocator hands out one shared guard address (a page mapped PROT_NONE):
 * a storage's size is kept, no memory is taken, and a kernel that ever read or wrote meta
 * data would fault at once instead of touching someone's memory. Ops on meta tensors
 * compute their result's geometry as on the CPU and skip the loops (core/iter.c returns
 * an empty iteration; reductions and products return after shaping their result); the gate
 * (python/gate.c) refuses the ops that have no such path. */
#include "backend/backend.h"

#include <pthread.h>
#include <sys/mman.h>

#include "core/error.h"

static void *guard = MAP_FAILED;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

static void map_guard(void) { guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); }

static void *meta_alloc(size_t nbytes, int device_index)
{
    pthread_once(&guard_once, map_guard);
    if (guard == MAP_FAILED) {
        tl_err(TL_ERR_MEMORY, "tensorlib: could not map the meta device's guard page");
        return NULL;
    }
    return guard;
}

static void meta_free(void *ptr, size_t nbytes, int device_index) {}
static int meta_zero(void *dst, size_t nbytes, int device_index) { return 0; }

/* Into a meta tensor nothing moves; out of one there is nothing to move (torch's text). */
static int meta_copy(void *dst, tl_device dst_dev, const void *src, tl_device src_dev, size_t nbytes)
{
    if (dst_dev.type == TL_DEV_META) return 0;
    return tl_err(TL_ERR_NOTIMPL, "Cannot copy out of meta tensor; no data!");
}

static int meta_binary(int op, int dtype, void *out, const void *a, const void *b, int64_t n, int device_index)
{
    return 0;
}
static int meta_unary(int op, int dtype, void *out, const void *a, int64_t n, int device_index) { return 0; }

const tl_device_backend tl_meta_backend = {
    .abi_version = TL_BACKEND_ABI_VERSION,
    .size = sizeof(tl_device_backend),
    .name = "meta",
    .current_device = NULL, /* meta devices have no index */
    .alloc = meta_alloc,
    .free = meta_free,
    .copy = meta_copy,
    .memset_zero = meta_zero,
    .binary = meta_binary,
    .unary = meta_unary,
};

int tl_meta_refuse(const char *op)
{
    return tl_err(TL_ERR_NOTIMPL, "aten::%s: attempted to run this operator with Meta tensors, but there was no fake "
                  "impl or Meta kernel registered. You may have run into this message while using an operator with PT2 "
                  "compilation APIs (torch.compile/torch.export); in order to use this operator with those APIs you'll "
                  "need to add a fake impl. Please see the following for next steps:  "
                  "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html", op);
}

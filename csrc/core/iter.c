/* iter.c - broadcast, sort, coalesce, and the outer loop over 1-D inner loops. */
#include "core/iter.h"

#include <string.h>

#include "core/error.h"
#include "core/parallel.h"

int tl_iter_init(tl_iter *it, int nops, const tl_tensor *const *ops, const int64_t *shape, int ndim, int flags)
{
    int64_t st[TL_MAX_DIMS][TL_ITER_MAX_OPS];
    int64_t sh[TL_MAX_DIMS];
    /* The CPU kernels run over host memory only. Operands share the output's device (a 0-d
     * CPU tensor goes with any, as in torch); a meta iteration checks the shapes and then
     * runs no loop (see below); other devices take only the geometry from here
     * (TL_ITER_GEOMETRY, for a backend's kernel) or are refused. */
    tl_device dev = ops[0]->device;
    for (int k = 1; k < nops && !(flags & TL_ITER_GEOMETRY); k++)
        if (ops[k] && !tl_device_eq(ops[k]->device, dev) && !(ops[k]->device.type == TL_DEV_CPU && ops[k]->ndim == 0) &&
            tl_device_expect(dev, ops[k]->device) < 0)
            return -1;
    if (dev.type != TL_DEV_CPU && dev.type != TL_DEV_META && !(flags & TL_ITER_GEOMETRY))
        return tl_err(TL_ERR_NOTIMPL, "tensorlib: this operation is not implemented for %s tensors yet",
                      tl_device_type_names[dev.type]);
    it->nops = nops;
    it->flags = flags;
    it->numel = 1;
    /* Broadcast every operand onto the shape; dims stored innermost first. */
    for (int d = 0; d < ndim; d++) {
        int src = ndim - 1 - d;
        sh[d] = shape[src];
        it->numel *= shape[src];
        for (int k = 0; k < nops; k++) {
            const tl_tensor *t = ops[k];
            int td = t->ndim - 1 - d;
            int64_t size = td >= 0 ? t->sizes[td] : 1;
            int64_t stride = td >= 0 ? t->strides[td] : 0;
            if (size == sh[d]) st[d][k] = sh[d] == 1 ? 0 : stride * tl_itemsize(t);
            else if (size == 1) st[d][k] = 0;
            else
                return tl_err(TL_ERR_RUNTIME, "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                              (long long)sh[d], (long long)size, src);
        }
    }
    for (int k = 0; k < nops; k++) {
        it->data[k] = tl_data(ops[k]);
        it->isz[k] = tl_itemsize(ops[k]);
    }
    if (dev.type == TL_DEV_META) it->numel = 0; /* meta: shapes checked, no elements to visit */
    if (it->numel == 0) {
        it->ndim = 1;
        it->shape[0] = 0;
        for (int k = 0; k < nops; k++) it->strides[0][k] = 0;
        return 0;
    }
    /* Drop size-1 dims. */
    int n = 0;
    for (int d = 0; d < ndim; d++) {
        if (sh[d] == 1) continue;
        sh[n] = sh[d];
        memcpy(st[n], st[d], sizeof(int64_t) * nops);
        n++;
    }
    /* Sort dims so strides grow outward; the first operand with distinct non-zero
     * strides decides (torch's TensorIterator rule), stable otherwise. */
    int perm[TL_MAX_DIMS];
    for (int d = 0; d < n; d++) perm[d] = d;
    if (!(flags & TL_ITER_NO_REORDER)) {
        for (int i = 1; i < n; i++) {
            for (int j = i; j > 0; j--) {
                int a = perm[j - 1], b = perm[j]; /* a currently inner to b */
                int swap = 0;
                for (int k = 0; k < nops; k++) {
                    int64_t sa = st[a][k], sb = st[b][k];
                    if (sa == 0 || sb == 0) continue;
                    if (sa < 0) sa = -sa;
                    if (sb < 0) sb = -sb;
                    if (sa == sb) continue;
                    swap = sa > sb;
                    break;
                }
                if (!swap) break;
                perm[j - 1] = b;
                perm[j] = a;
            }
        }
    }
    /* Coalesce adjacent dims whose strides chain for every operand. */
    int m = 0;
    for (int i = 0; i < n; i++) {
        int d = perm[i];
        if (m > 0) {
            int ok = 1;
            for (int k = 0; k < nops && ok; k++)
                ok = it->strides[m - 1][k] * it->shape[m - 1] == st[d][k];
            if (ok) {
                it->shape[m - 1] *= sh[d];
                continue;
            }
        }
        it->shape[m] = sh[d];
        memcpy(it->strides[m], st[d], sizeof(int64_t) * nops);
        m++;
    }
    if (m == 0) {
        it->shape[0] = 1;
        for (int k = 0; k < nops; k++) it->strides[0][k] = 0;
        m = 1;
    }
    it->ndim = m;
    return 0;
}

void tl_iter_run_range(const tl_iter *it, tl_loop_fn fn, void *ctx, int64_t begin, int64_t end)
{
    int nops = it->nops, nd = it->ndim;
    int64_t idx[TL_MAX_DIMS];
    char *ptr[TL_ITER_MAX_OPS];
    int64_t inner = it->shape[0];
    /* decompose begin into a multi-index */
    int64_t rem = begin;
    for (int d = 0; d < nd; d++) {
        idx[d] = rem % it->shape[d];
        rem /= it->shape[d];
    }
    for (int k = 0; k < nops; k++) {
        char *p = it->data[k];
        for (int d = 0; d < nd; d++) p += idx[d] * it->strides[d][k];
        ptr[k] = p;
    }
    int64_t pos = begin;
    while (pos < end) {
        int64_t n = inner - idx[0];
        if (n > end - pos) n = end - pos;
        fn(ptr, it->strides[0], n, ctx);
        pos += n;
        if (pos >= end) break;
        /* advance: inner dim wraps, carry outward */
        for (int k = 0; k < nops; k++) ptr[k] += n * it->strides[0][k];
        idx[0] += n;
        int d = 0;
        while (idx[d] == it->shape[d] && d + 1 < nd) {
            for (int k = 0; k < nops; k++) ptr[k] += it->strides[d + 1][k] - it->shape[d] * it->strides[d][k];
            idx[d] = 0;
            idx[++d]++;
        }
    }
}

typedef struct { const tl_iter *it; tl_loop_fn fn; void *ctx; } run_args;

static void run_chunk(int64_t b, int64_t e, void *p)
{
    run_args *a = p;
    tl_iter_run_range(a->it, a->fn, a->ctx, b, e);
}

void tl_iter_run(const tl_iter *it, tl_loop_fn fn, void *ctx, int64_t grain)
{
    if (it->numel == 0) return;
    if (tl_iter_run_tiled(it, fn, ctx, grain)) return;
    if (grain <= 0 || it->numel < grain) {
        tl_iter_run_range(it, fn, ctx, 0, it->numel);
        return;
    }
    run_args a = {it, fn, ctx};
    tl_parallel_for(it->numel, grain, run_chunk, &a);
}

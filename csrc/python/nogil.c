/* nogil.c - running long work without the GIL, so that other Python threads go on meanwhile.
 * The op then reads private views of its inputs (a concurrent transpose_, set_ or resize_ of the
 * Python objects cannot change what it reads) whose storages are pinned: counted as exports,
 * so resize_, set_ and share_memory_ on any tensor of those storages are refused until the op
 * ends. Results must be fresh tensors no other thread can reach (out= is written afterwards,
 * with the GIL held). Storage reference counts are atomic (core/storage.h), the allocator's
 * cache is locked and tensorlib's error state is per thread, so ops may run concurrently. */
#include "python/binding.h"

#include <string.h>

#include "core/promote.h"

/* Below this many elements (summed over the inputs) the GIL round trip costs more than
 * what it frees. */
#define TL_NOGIL_MIN_ELEMS ((int64_t)1 << 15)

int tl_nogil_begin(tl_nogil *g, const tl_tensor **ts, int n)
{
    g->ts = NULL;
    g->n = 0;
    int64_t work = 0;
    for (int k = 0; k < n; k++) {
        const tl_tensor *t = ts[k];
        if (!t) continue;
        /* named and non-strided inputs keep the GIL: their metadata is not plain geometry */
        if (t->names || t->layout != TL_LAYOUT_STRIDED || t->device.type != TL_DEV_CPU) return 0;
        work += tl_numel(t);
    }
    if (work < TL_NOGIL_MIN_ELEMS || n > TL_NOGIL_MAX_ARGS) return 0;
    memset(g->in, 0, sizeof g->in);
    for (int k = 0; k < n; k++) {
        if (!ts[k]) continue;
        tl_tensor *c = &g->in[k];
        const tl_tensor *t = ts[k];
        if (tl_tensor_init(c, t->storage, t->offset, t->ndim, t->sizes, t->strides, (tl_dtype)t->dtype) < 0) {
            tl_err_clear();
            g->n = k;
            tl_nogil_end(g);  /* keep the GIL: the op runs on the originals */
            return 0;
        }
        c->storage->exports++;
    }
    g->n = n;
    for (int k = 0; k < n; k++)
        if (ts[k]) ts[k] = &g->in[k];
    tl_default_float_pin(true);
    g->ts = PyEval_SaveThread();
    return 1;
}

void tl_nogil_end(tl_nogil *g)
{
    if (g->ts) {
        PyEval_RestoreThread(g->ts);
        tl_default_float_pin(false);
    }
    g->ts = NULL;
    for (int k = 0; k < g->n; k++) {
        if (!g->in[k].storage) continue;
        g->in[k].storage->exports--;
        tl_tensor_clear(&g->in[k]);
    }
    g->n = 0;
}

/* index.c - advanced indexing engine: byte offsets computed (and bounds-checked) from the
 * index tensors first, then one gather or scatter pass through the strided iterator.
 * Offsets are validated before anything is written, so a bad index leaves t untouched. */
#include "ops/index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/index_core.h"
#include "core/error.h"
#include "core/iter.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "kernels/cast.h"
#include "kernels/ew_kernels.h"
#include "named/unify.h"
#include "ops/copy.h"

typedef struct { uint64_t lo, hi; } b16;

/* ---- inner loops -------------------------------------------------------------------- */

/* Offsets operand holds byte offsets (int64). gather: op0 out, op1 src, op2 off.
 * put: op0 dst, op1 values, op2 off. dim loops: op2 holds indices (int64) scaled by ctx. */
typedef struct {
    int64_t stride;       /* bytes per index step */
    int64_t size;         /* valid range [0, size) (negatives wrap when flags & WRAP) */
    int flags;
    volatile int bad;
    volatile int64_t badval;
    tl_scatter_loop fn;   /* accumulate: the typed loop for (dtype, op) */
    tl_loop_fn row_add;   /* accumulate: the elementwise add kernel, for runs sharing one offset */
    tl_ew_params prm;
    int idx32;            /* index operand is int32 */
    int first;            /* offsets loop: assign instead of add */
    int bmode;            /* accumulate on a backend: the combining put (TL_BIX_PUT_ADD when 0) */
} idx_ctx;

static inline int fix_index(idx_ctx *c, int64_t *v)
{
    int64_t x = *v;
    if (x < 0 && (c->flags & TL_IDX_WRAP)) x += c->size;
    if ((uint64_t)x >= (uint64_t)c->size) {
        if (!c->bad) { c->badval = *v; c->bad = 1; }
        return 0;
    }
    *v = x;
    return 1;
}

#define DEF_LOOPS(N, T)                                                                            \
    static void gather_off_##N(char **d, const int64_t *s, int64_t n, void *ctx)                  \
    {                                                                                              \
        (void)ctx;                                                                                 \
        char *o = d[0];                                                                            \
        const char *src = d[1], *off = d[2];                                                       \
        const int64_t s0 = s[0], s1 = s[1], s2 = s[2]; /* locals: stores may alias s */           \
        for (int64_t i = 0; i < n; i++)                                                            \
            *(T *)(o + i * s0) = *(const T *)(src + i * s1 + *(const int64_t *)(off + i * s2));    \
    }                                                                                              \
    static void put_off_##N(char **d, const int64_t *s, int64_t n, void *ctx)                     \
    {                                                                                              \
        (void)ctx;                                                                                 \
        char *o = d[0];                                                                            \
        const char *v = d[1], *off = d[2];                                                         \
        const int64_t s0 = s[0], s1 = s[1], s2 = s[2]; /* locals: stores may alias s */           \
        for (int64_t i = 0; i < n; i++)                                                            \
            *(T *)(o + i * s0 + *(const int64_t *)(off + i * s2)) = *(const T *)(v + i * s1);      \
    }                                                                                              \
    /* op0 out, op1 src (0 stride along dim), op2 int64 indices; c->stride bytes per index \
     * step, negatives wrap when c->flags has TL_IDX_WRAP. Outputs are fresh tensors, so a \
     * bad index just sets c->bad and stops (the caller finds it and discards the output). \
     * Runs with a fixed index are row copies; a contiguous output over contiguous indices \
     * is the tight element gather (the predictable in-loop check costs nothing measurable). */ \
    static void gather_dim_##N(char **d, const int64_t *s, int64_t n, void *ctx)                  \
    {                                                                                              \
        idx_ctx *c = ctx;                                                                          \
        char *o = d[0];                                                                            \
        const char *src = d[1], *ix = d[2];                                                        \
        const int64_t size = c->size, stride = c->stride, s0 = s[0], s1 = s[1], s2 = s[2];         \
        const int64_t wrap = (c->flags & TL_IDX_WRAP) ? size : 0;                                  \
        const uint64_t span = (uint64_t)size + (uint64_t)wrap;                                     \
        if (s2 == 0) {                                                                             \
            int64_t v = *(const int64_t *)ix;                                                      \
            if ((uint64_t)v + (uint64_t)wrap >= span) { c->bad = 1; return; }                      \
            const char *base = src + (v < 0 ? v + wrap : v) * stride;                              \
            if (s0 == N && s1 == N) {                                                              \
                memcpy(o, base, (size_t)n * N);                                                    \
            } else {                                                                               \
                for (int64_t i = 0; i < n; i++) *(T *)(o + i * s0) = *(const T *)(base + i * s1);  \
            }                                                                                      \
        } else if (s0 == N && s1 == 0 && s2 == 8) {                                                \
            T *restrict po = (T *)o;                                                               \
            const int64_t *restrict pi = (const int64_t *)ix;                                      \
            const T *ps = (const T *)src;                                                          \
            const int64_t es = stride / N;                                                         \
            if (!wrap && es == 1) {                                                                \
                for (int64_t i = 0; i < n; i++) {                                                  \
                    uint64_t v = (uint64_t)pi[i];                                                  \
                    if (v >= (uint64_t)size) { c->bad = 1; return; }                               \
                    po[i] = ps[v];                                                                 \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t i = 0; i < n; i++) {                                                  \
                    int64_t v = pi[i];                                                             \
                    v += (v >> 63) & wrap;                                                         \
                    if ((uint64_t)v >= (uint64_t)size) { c->bad = 1; return; }                     \
                    po[i] = ps[v * es];                                                            \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                int64_t v = *(const int64_t *)(ix + i * s2);                                       \
                if ((uint64_t)v + (uint64_t)wrap >= span) { c->bad = 1; return; }                  \
                *(T *)(o + i * s0) = *(const T *)(src + i * s1 + (v < 0 ? v + wrap : v) * stride); \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void put_dim_##N(char **d, const int64_t *s, int64_t n, void *ctx)                     \
    {                                                                                              \
        idx_ctx *c = ctx;                                                                          \
        /* locals: the stores may alias *c, d and s */                                             \
        char *o = d[0];                                                                            \
        const char *v = d[1], *ix = d[2];                                                          \
        const int64_t s0 = s[0], s1 = s[1], s2 = s[2], stride = c->stride;                         \
        for (int64_t i = 0; i < n; i++) {                                                          \
            int64_t k = *(const int64_t *)(ix + i * s2);                                           \
            *(T *)(o + i * s0 + k * stride) = *(const T *)(v + i * s1);                            \
        }                                                                                          \
    }
DEF_LOOPS(1, uint8_t)
DEF_LOOPS(2, uint16_t)
DEF_LOOPS(4, uint32_t)
DEF_LOOPS(8, uint64_t)
DEF_LOOPS(16, b16)

static void put_off_acc(char **d, const int64_t *s, int64_t n, void *ctx)
{
    idx_ctx *c = ctx;
    if (c->row_add && s[2] == 0) { /* one destination row: a vectorized dst += values */
        char *row = d[0] + *(const int64_t *)d[2];
        char *p[3] = {row, row, d[1]};
        int64_t st[3] = {s[0], s[0], s[1]};
        c->row_add(p, st, n, &c->prm);
        return;
    }
    c->fn(d[0], s[0], d[1], s[1], d[2], s[2], 1, n); /* byte offsets: index stride 1 */
}
static void put_dim_acc(char **d, const int64_t *s, int64_t n, void *ctx)
{
    idx_ctx *c = ctx;
    c->fn(d[0], s[0], d[1], s[1], d[2], s[2], c->stride, n);
}

#define PICK(fam, isz) ((isz) == 1 ? fam##_1 : (isz) == 2 ? fam##_2 : (isz) == 4 ? fam##_4 : (isz) == 8 ? fam##_8 : fam##_16)

/* op0: int64 offsets (in/out), op1: indices (int64 or int32). */
static void offsets_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    idx_ctx *c = ctx;
    char *d0 = d[0];
    const char *d1 = d[1]; /* locals: the stores may alias d, s and *c */
    const int64_t s0 = s[0], s1 = s[1], stride = c->stride;
    const int idx32 = c->idx32, first = c->first;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = idx32 ? *(const int32_t *)(d1 + i * s1) : *(const int64_t *)(d1 + i * s1);
        int64_t *o = (int64_t *)(d0 + i * s0);
        if (!fix_index(c, &v)) continue;
        *o = (first ? 0 : *o) + v * stride;
    }
}

/* Checks indices (int64, any strides) lie in range without writing anything. */
static void check_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t v = *(const int64_t *)(d[0] + i * s[0]);
        fix_index(ctx, &v);
    }
}

/* Tensors on a backend's device run their passes through its index entry (backend/index.c). */
static inline bool on_backend(const tl_tensor *t) { return tl_device_on_backend(t->device); }

static int report_bad(const idx_ctx *c, int dim)
{
    tl_errkind kind = (c->flags & TL_IDX_RUNTIME) ? TL_ERR_RUNTIME : TL_ERR_INDEX;
    if (c->flags & TL_IDX_MSG_SELF) return tl_err(kind, "index out of range in self");
    return tl_err(kind, "%sindex %lld is out of bounds for dimension %d with size %lld",
                  (c->flags & TL_IDX_COPY_PREFIX) ? "index_copy_(): " : "", (long long)c->badval, dim, (long long)c->size);
}

/* Position of the first value of the contiguous int64 run p[0..n) outside [0, size)
 * ([-size, size) when wrap), or -1 (the error path and empty sources only: the gathers
 * check in their loops). */
static int64_t first_bad(const int64_t *p, int64_t n, int64_t size, bool wrap)
{
    const uint64_t shift = wrap ? (uint64_t)size : 0, span = size + shift;
    for (int64_t i = 0; i < n; i++)
        if ((uint64_t)p[i] + shift >= span) return i;
    return -1;
}

/* first_bad over the contiguous int64 tensor idx; on a bad value fills c->badval and
 * c->size (for report_bad) and returns 1. */
static int find_bad(const tl_tensor *idx, int64_t size, bool wrap, idx_ctx *c)
{
    if (on_backend(idx)) { /* the error path of a device pass: its values looked at on the host */
        tl_tensor h = {0};
        if (tl_backend_to_host(&h, idx) < 0) return 0;
        int found = find_bad(&h, size, wrap, c);
        tl_tensor_clear(&h);
        return found;
    }
    const int64_t *p = (const int64_t *)tl_data(idx);
    int64_t k = first_bad(p, tl_numel(idx), size, wrap);
    if (k < 0) return 0;
    c->badval = p[k];
    c->size = size;
    return 1;
}

/* 1 when a value of the contiguous int64 run p[0..n) lies outside [0, span) after adding
 * shift (wrapping indices: shift = span / 2); branch-free, so it vectorizes. */
TL_CLONES static int any_bad(const int64_t *p, int64_t n, uint64_t shift, uint64_t span)
{
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) bad |= (uint64_t)p[i] + shift >= span;
    return bad != 0;
}

/* Validates idx (int64, any strides) against `size` before anything is written. A bad
 * index is found again serially, so the one reported is the first in row-major order
 * whatever the thread count. Contiguous indices are checked on the calling thread: the
 * check is bandwidth-bound, and on a busy machine one more parallel region (a barrier
 * waiting for a descheduled worker) costs more than a second thread saves. */
static int report_device_bad(const tl_tensor *idx, int64_t size, int dim, int flags);

static int check_range(const tl_tensor *idx, int64_t size, int dim, int flags)
{
    if (idx->device.type == TL_DEV_META) return 0; /* no values to check */
    if (on_backend(idx)) { /* checked on the device; the first bad one found on the host */
        bool bad;
        if (tl_backend_index(TL_BIX_CHECK, (flags & TL_IDX_WRAP) ? TL_BIX_WRAP : 0, idx, idx, idx, idx->sizes, idx->ndim,
                             0, 0, size, &bad, "index") < 0)
            return -1;
        return bad ? report_device_bad(idx, size, dim, flags) : 0;
    }
    idx_ctx c = {0};
    c.size = size;
    c.flags = flags;
    bool wrap = flags & TL_IDX_WRAP;
    if (tl_is_contiguous(idx)) {
        uint64_t shift = wrap ? (uint64_t)size : 0;
        int bad = any_bad((const int64_t *)tl_data(idx), tl_numel(idx), shift, (uint64_t)size + shift);
        return bad && find_bad(idx, size, wrap, &c) ? report_bad(&c, dim) : 0;
    }
    const tl_tensor *ops[1] = {idx};
    tl_iter it;
    if (tl_iter_init(&it, 1, ops, idx->sizes, idx->ndim, 0) < 0) return -1;
    tl_iter_run(&it, check_loop, &c, TL_GRAIN_SIZE);
    if (c.bad) {
        c.bad = 0;
        if (tl_iter_init(&it, 1, ops, idx->sizes, idx->ndim, TL_ITER_NO_REORDER) < 0) return -1;
        tl_iter_run(&it, check_loop, &c, 0);
    }
    return c.bad ? report_bad(&c, dim) : 0;
}

/* The error of indices a device pass found out of range: the first bad one, found on the host
 * (int32 indices widened first). Returns -1. */
static int report_device_bad(const tl_tensor *idx, int64_t size, int dim, int flags)
{
    tl_tensor h = {0}, i64 = {0};
    int rc = tl_backend_to_host(&h, idx);
    if (rc == 0) rc = tl_index_as_i64(&i64, &h);
    if (rc == 0) rc = check_range(&i64, size, dim, flags);
    if (i64.storage) tl_tensor_clear(&i64);
    if (h.storage) tl_tensor_clear(&h);
    return rc < 0 ? -1 : tl_err(TL_ERR_RUNTIME, "tensorlib: the device found an index out of range the host did not");
}

/* ---- threaded scatters ---------------------------------------------------------------
 * A scatter (op0 written at data-dependent places) is split across threads along one
 * "owner" dim: a dim where different positions always write different elements of op0
 * (for scatter every dim but `dim`, for index_put_ the dims not indexed). Each thread runs
 * the serial, row-major iteration on its slab, so every element sees its updates in the
 * same order as the one-thread run: results are bit-identical for any thread count
 * (torch's CPU scatter splits the same way). */
typedef struct {
    int nops, ndim, k, flags;
    const tl_tensor *const *ops;
    const int64_t *shape;
    tl_loop_fn fn;
    void *ctx;
} split_ctx;

static void split_chunk(int64_t b, int64_t e, void *p)
{
    const split_ctx *s = p;
    int64_t sh[TL_MAX_DIMS], osz[TL_ITER_MAX_OPS][TL_MAX_DIMS];
    tl_tensor g[TL_ITER_MAX_OPS];
    const tl_tensor *gp[TL_ITER_MAX_OPS];
    memcpy(sh, s->shape, 8 * s->ndim);
    sh[s->k] = e - b;
    for (int j = 0; j < s->nops; j++) {
        g[j] = *s->ops[j];
        int kk = s->k - (s->ndim - g[j].ndim); /* operands broadcast from the right */
        if (kk >= 0 && g[j].sizes[kk] != 1) {
            memcpy(osz[j], g[j].sizes, 8 * g[j].ndim);
            osz[j][kk] = e - b;
            g[j].sizes = osz[j];
            g[j].offset += b * g[j].strides[kk];
        }
        gp[j] = &g[j];
    }
    tl_iter it;
    if (tl_iter_init(&it, s->nops, gp, sh, s->ndim, s->flags) == 0) tl_iter_run(&it, s->fn, s->ctx, 0);
}

/* Runs fn over `shape` for the scatter into `target` (ops[0] a geometry over it); owner[k]
 * marks the dims that may be split. Serial below the grain, with one thread, or when
 * target may overlap itself. */
static int run_scatter(const tl_tensor *target, const tl_tensor *const *ops, int nops, const int64_t *shape, int ndim,
                       const bool *owner, int flags, tl_loop_fn fn, void *ctx)
{
    if (on_backend(target)) { /* the device pass of the loop: fn names the mode */
        const idx_ctx *c = ctx;
        bool raw = fn == put_off_acc || fn == PICK(put_off, tl_itemsize(target));
        int mode = fn == put_off_acc || fn == put_dim_acc ? (c->bmode ? c->bmode : TL_BIX_PUT_ADD) : TL_BIX_PUT;
        return tl_backend_index(mode, raw ? TL_BIX_RAW : 0, ops[0], ops[1], ops[2], shape, ndim, flags, raw ? 1 : c->stride,
                                c->size, NULL, "scatter");
    }
    int64_t numel = 1;
    for (int k = 0; k < ndim; k++) numel *= shape[k];
    int nt = tl_get_num_threads(), k = -1;
    for (int j = 0; j < ndim; j++) /* the outermost owner dim with work for every thread, else the largest */
        if (owner[j] && shape[j] > 1 && (k < 0 || (shape[k] < 2 * nt && shape[j] > shape[k]))) k = j;
    if (nt > 1 && numel >= TL_GRAIN_SIZE && k >= 0 && tl_is_non_overlapping_and_dense(target)) {
        split_ctx s = {nops, ndim, k, flags, ops, shape, fn, ctx};
        int64_t per = numel / shape[k], grain = per >= TL_GRAIN_SIZE ? 1 : TL_GRAIN_SIZE / per;
        /* Split along the innermost dim, each slab's rows become short runs that every
         * thread walks with the whole loop overhead per row (and neighbouring slabs share
         * the target's cache lines): keep slabs at least TL_MIN_RUN_BYTES wide, so a
         * (1000, 1000) float32 scatter_add along dim 0 runs as two 500-column slabs, not
         * 32-column ones (which cost 2.4x the CPU time of one thread). */
        int64_t run = TL_MIN_RUN_BYTES / (int64_t)tl_itemsize(target);
        if (k == ndim - 1 && grain < run) grain = run;
        tl_parallel_for(shape[k], grain, split_chunk, &s);
        return 0;
    }
    tl_iter it;
    if (tl_iter_init(&it, nops, ops, shape, ndim, flags) < 0) return -1;
    tl_iter_run(&it, fn, ctx, 0);
    return 0;
}

/* ---- advanced indexing ------------------------------------------------------------------ */

typedef struct {
    int ndim;
    int64_t shape[TL_MAX_DIMS];
    int64_t src_strides[TL_MAX_DIMS]; /* t's strides on kept dims, 0 on broadcast-index dims */
    int64_t off_strides[TL_MAX_DIMS]; /* offsets' strides on index dims, 0 elsewhere */
    tl_tensor off;                    /* int64 byte offsets, shape of the broadcast indices */
} adv_plan;

/* torch's meta kernel broadcasts the index tensors with its Python reference (_broadcast_shapes):
 * its error is a RuntimeError with that function's text, where the CPU raises an IndexError. */
static int meta_broadcast_error(const tl_tensor *const *idx, int n)
{
    int64_t common[TL_MAX_DIMS];
    int nd = 0, arg = 0;
    for (int k = 0; k < n; k++)
        if (idx[k] && idx[k]->ndim > nd) nd = idx[k]->ndim;
    for (int d = 0; d < nd; d++) common[d] = 1;
    for (int k = 0; k < n; k++) {
        if (!idx[k]) continue;
        const tl_tensor *x = idx[k];
        for (int i = 1; i <= x->ndim; i++) {
            int64_t *c = &common[nd - i], s = x->sizes[x->ndim - i];
            if (*c == 1) *c = s;
            else if (s != 1 && s != *c) {
                char b1[512], b2[512];
                tl_shape_str(x->sizes, x->ndim, b1, sizeof b1);
                tl_shape_str(common, nd, b2, sizeof b2);
                return tl_err(TL_ERR_RUNTIME, "Attempting to broadcast a dimension of length %lld at -%d! Mismatching "
                              "argument at index %d had torch.Size(%s); but expected shape should be broadcastable to %s",
                              (long long)s, i, arg, b1, b2);
            }
        }
        arg++;
    }
    return tl_err(TL_ERR_INDEX, "shape mismatch: indexing tensors could not be broadcast together");
}

static int adv_prepare_on(adv_plan *p, const tl_tensor *t, const tl_tensor *const *idx, int n, int flags)
{
    memset(p, 0, sizeof(*p));
    if (n > t->ndim) return tl_err(TL_ERR_INDEX, "too many indices for tensor of dimension %d", t->ndim);
    int64_t B[TL_MAX_DIMS];
    int nb = 0, first = -1, last = -1, count = 0;
    char b1[512], b2[512];
    for (int k = 0; k < n; k++) {
        if (!idx[k]) continue;
        if (idx[k]->dtype != TL_INT64 && idx[k]->dtype != TL_INT32)
            return tl_err(TL_ERR_INDEX, "tensors used as indices must be long, int, byte or bool tensors");
        if (count == 0) {
            nb = idx[k]->ndim;
            memcpy(B, idx[k]->sizes, sizeof(int64_t) * nb);
        } else {
            int64_t nbs[TL_MAX_DIMS];
            int nn;
            if (tl_broadcast_shapes(B, nb, idx[k]->sizes, idx[k]->ndim, nbs, &nn) < 0) {
                tl_err_clear();
                if (t->device.type == TL_DEV_META) return meta_broadcast_error(idx, n);
                return tl_err(TL_ERR_INDEX, "shape mismatch: indexing tensors could not be broadcast together with shapes %s, %s",
                              tl_shape_str(B, nb, b1, sizeof b1), tl_shape_str(idx[k]->sizes, idx[k]->ndim, b2, sizeof b2));
            }
            memcpy(B, nbs, sizeof(int64_t) * nn);
            nb = nn;
        }
        if (first < 0) first = k;
        last = k;
        count++;
    }
    if (first < 0) first = last = 0;
    bool adjacent = count == 0 || last - first + 1 == count;
    if (tl_tensor_empty(&p->off, nb, B, TL_INT64, t->device, count == 0) < 0) return -1;
    int isz = tl_itemsize(t);
    int done = 0;
    for (int k = 0; k < n && t->device.type != TL_DEV_META; k++) { /* meta: no offsets, geometry only */
        if (!idx[k]) continue;
        idx_ctx c = {0};
        c.stride = t->strides[k] * isz;
        c.size = t->sizes[k];
        c.flags = (flags & TL_IDX_NOWRAP) ? flags : (flags | TL_IDX_WRAP);
        c.idx32 = idx[k]->dtype == TL_INT32;
        c.first = done == 0;
        if (on_backend(t)) {
            bool bad;
            int f = ((c.flags & TL_IDX_WRAP) ? TL_BIX_WRAP : 0) | (done ? TL_BIX_ACC : 0);
            int rc = tl_backend_index(TL_BIX_OFFSET, f, &p->off, idx[k], idx[k], B, nb, 0, c.stride, c.size, &bad, "index");
            if (rc == 0 && bad) rc = report_device_bad(idx[k], c.size, k, c.flags);
            if (rc < 0) {
                tl_tensor_clear(&p->off);
                return -1;
            }
            done++;
            continue;
        }
        const tl_tensor *ops[2] = {&p->off, idx[k]};
        tl_iter it;
        if (tl_iter_init(&it, 2, ops, B, nb, 0) < 0) { tl_tensor_clear(&p->off); return -1; }
        tl_iter_run(&it, offsets_loop, &c, TL_GRAIN_SIZE);
        if (c.bad) { /* again on one thread: the first bad index in order, for any thread count */
            c.bad = 0;
            tl_iter_run(&it, offsets_loop, &c, 0);
            tl_tensor_clear(&p->off);
            return report_bad(&c, k);
        }
        done++;
    }
    int64_t offst[TL_MAX_DIMS];
    tl_contiguous_strides(B, nb, offst);
    int nd = 0;
#define PUSH(sz, ss, os) do { p->shape[nd] = (sz); p->src_strides[nd] = (ss); p->off_strides[nd] = (os); nd++; } while (0)
    if (nb + t->ndim - count > TL_MAX_DIMS) { tl_tensor_clear(&p->off); return tl_err(TL_ERR_INDEX, "too many dimensions"); }
    if (adjacent) {
        for (int d = 0; d < first; d++) PUSH(t->sizes[d], t->strides[d], 0);
        for (int j = 0; j < nb; j++) PUSH(B[j], 0, offst[j]);
        for (int d = count ? last + 1 : 0; d < t->ndim; d++) PUSH(t->sizes[d], t->strides[d], 0);
    } else {
        for (int j = 0; j < nb; j++) PUSH(B[j], 0, offst[j]);
        for (int d = 0; d < t->ndim; d++)
            if (d >= n || !idx[d]) PUSH(t->sizes[d], t->strides[d], 0);
    }
#undef PUSH
    p->ndim = nd;
    return 0;
}

/* adv_prepare_on, index tensors on the CPU moved to a backend device's t first (as torch's
 * x[i] of a CUDA x takes CPU indices). */
static int adv_prepare(adv_plan *p, const tl_tensor *t, const tl_tensor *const *idx, int n, int flags)
{
    if (!on_backend(t) || n > TL_MAX_DIMS) return adv_prepare_on(p, t, idx, n, flags);
    tl_tensor moved[TL_MAX_DIMS];
    const tl_tensor *use[TL_MAX_DIMS];
    int rc = 0;
    for (int k = 0; k < n; k++) {
        memset(&moved[k], 0, sizeof moved[k]);
        use[k] = idx[k];
        if (rc == 0 && idx[k] && idx[k]->device.type == TL_DEV_CPU) {
            rc = tl_backend_to_device(&moved[k], idx[k], t->device, idx[k]->dtype, false);
            use[k] = &moved[k];
        }
    }
    if (rc == 0) rc = adv_prepare_on(p, t, use, n, flags);
    for (int k = 0; k < n; k++)
        if (moved[k].storage) tl_tensor_clear(&moved[k]);
    return rc;
}

int tl_index(tl_tensor *out, const tl_tensor *t, const tl_tensor *const *indices, int n, int flags)
{
    if (tl_check_unnamed(t, "index") < 0) return -1;
    adv_plan p;
    if (adv_prepare(&p, t, indices, n, flags) < 0) return -1;
    int rc = tl_tensor_empty(out, p.ndim, p.shape, (tl_dtype)t->dtype, t->device, false);
    if (rc == 0 && tl_numel(out) > 0 && t->device.type != TL_DEV_META) {
        tl_tensor src = tl_tensor_geom(t, p.ndim, p.shape, p.src_strides);
        tl_tensor off = tl_tensor_geom(&p.off, p.ndim, p.shape, p.off_strides);
        const tl_tensor *ops[3] = {out, &src, &off};
        tl_iter it;
        if (on_backend(t)) rc = tl_backend_index(TL_BIX_GATHER, TL_BIX_RAW, out, &src, &off, p.shape, p.ndim, 0, 1, 0, NULL, "index");
        else if ((rc = tl_iter_init(&it, 3, ops, p.shape, p.ndim, 0)) == 0)
            tl_iter_run(&it, PICK(gather_off, tl_itemsize(t)), NULL, TL_GRAIN_SIZE);
    }
    tl_tensor_clear(&p.off);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    return rc;
}

/* values prepared for writing into t over `shape`: t's dtype, no overlap with t, leading
 * unit dims beyond the result's rank dropped, broadcastable. */
static int prepare_values(tl_tensor *v, const tl_tensor *t, const tl_tensor *values, const tl_scalar *fill,
                          const int64_t *shape, int nd)
{
    if (fill) {
        if (tl_tensor_empty(v, 0, NULL, (tl_dtype)t->dtype, t->device, false) < 0) return -1;
        return tl_fill_(v, *fill);
    }
    int vn = values->ndim, lead = 0;
    while (vn - lead > nd && values->sizes[lead] == 1) lead++;
    char b1[512], b2[512];
    bool ok = vn - lead <= nd;
    for (int d = 0; ok && d < vn - lead; d++) {
        int64_t vs = values->sizes[vn - 1 - d], rs = shape[nd - 1 - d];
        ok = vs == rs || vs == 1;
    }
    if (!ok)
        return tl_err(TL_ERR_RUNTIME, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
                      tl_shape_str(values->sizes, vn, b1, sizeof b1), tl_shape_str(shape, nd, b2, sizeof b2));
    int rc;
    if (!tl_device_eq(values->device, t->device)) rc = tl_backend_to_device(v, values, t->device, t->dtype, false);
    else if (values->dtype != t->dtype || tl_may_overlap(values, t)) rc = tl_clone(v, values, (tl_dtype)t->dtype, TL_MEMFMT_CONTIGUOUS);
    else rc = tl_tensor_alias(v, values);
    if (rc < 0) return -1;
    if (lead) {
        tl_tensor tmp = {0};
        rc = tl_tensor_view_init(&tmp, v, vn - lead, v->sizes + lead, v->strides + lead, v->offset);
        if (rc == 0) rc = tl_tensor_alias(v, &tmp);
        tl_tensor_clear(&tmp);
    }
    return rc;
}

int tl_index_put_(tl_tensor *t, const tl_tensor *const *indices, int n, const tl_tensor *values,
                  const tl_scalar *fill, bool accumulate, int flags)
{
    if (tl_check_writable(t) < 0) return -1;
    idx_ctx c = {0};
    /* torch's kernel names: index_add_ (TL_IDX_NOWRAP) runs its own vector kernel for a self of
     * at most one dim (TL_IDX_MSG_SELF), scatter_add's for the others */
    const char *kernel = !(flags & TL_IDX_NOWRAP) ? "index_put" : (flags & TL_IDX_MSG_SELF) ? "index_add_"
                                                                                           : "scatter_gather_tensor_cpu";
    if (accumulate && !(c.fn = tl_scatter_loop_for((tl_dtype)t->dtype, TL_RED_SUM, kernel))) return -1;
    /* rows of dtypes computed in their own type can use the elementwise add kernel (same result
     * per element as fn: one rounding or wrap per addition) */
    if (accumulate && t->dtype != TL_FLOAT16 && t->dtype != TL_BFLOAT16 && t->dtype != TL_COMPLEX32)
        c.row_add = tl_ew_binary_kernel(TL_BOP_add, (tl_dtype)t->dtype);
    adv_plan p;
    if (adv_prepare(&p, t, indices, n, flags) < 0) return -1;
    tl_tensor v = {0};
    int rc = prepare_values(&v, t, values, fill, p.shape, p.ndim);
    int64_t numel = 1;
    for (int d = 0; d < p.ndim; d++) numel *= p.shape[d];
    if (rc == 0 && numel > 0 && t->device.type != TL_DEV_META) {
        tl_tensor dst = tl_tensor_geom(t, p.ndim, p.shape, p.src_strides);
        tl_tensor off = tl_tensor_geom(&p.off, p.ndim, p.shape, p.off_strides);
        const tl_tensor *ops[3] = {&dst, &v, &off};
        bool owner[TL_MAX_DIMS];
        for (int k = 0; k < p.ndim; k++) owner[k] = p.off_strides[k] == 0;
        rc = run_scatter(t, ops, 3, p.shape, p.ndim, owner, TL_ITER_NO_REORDER,
                         accumulate ? put_off_acc : PICK(put_off, tl_itemsize(t)), &c);
    }
    tl_tensor_clear(&v);
    tl_tensor_clear(&p.off);
    return rc;
}

/* ---- gather / scatter ------------------------------------------------------------------ */

/* Rank-1 stand-in for 0-d tensors (gather/scatter treat them as size-1 vectors). */
typedef struct { int ndim; int64_t sizes[TL_MAX_DIMS], strides[TL_MAX_DIMS]; } shp;
static void shp_of(shp *s, const tl_tensor *t)
{
    s->ndim = t->ndim ? t->ndim : 1;
    if (t->ndim == 0) { s->sizes[0] = 1; s->strides[0] = 0; return; }
    memcpy(s->sizes, t->sizes, 8 * t->ndim);
    memcpy(s->strides, t->strides, 8 * t->ndim);
}

int tl_gather(tl_tensor *out, const tl_tensor *t, int64_t dim, const tl_tensor *index)
{
    int32_t names[TL_MAX_DIMS]; /* index's dims line up with self's: their names unify */
    const tl_tensor *named_in[2] = {t, index};
    int named = tl_names_unify_n(names, index->ndim, named_in, 2);
    if (named < 0) return -1;
    int d;
    if (tl_wrap_dim(dim, t->ndim ? t->ndim : 1, &d) < 0) return -1;
    if (index->dtype != TL_INT64 && index->dtype != TL_INT32)
        return tl_err(TL_ERR_RUNTIME, "gather(): Expected dtype int32/int64 for index");
    if (index->dtype == TL_INT32) {
        tl_tensor i64 = {0};
        if (tl_index_as_i64(&i64, index) < 0) return -1;
        int rc = tl_gather(out, t, dim, &i64);
        tl_tensor_clear(&i64);
        return rc;
    }
    shp st, si;
    shp_of(&st, t);
    shp_of(&si, index);
    if (tl_numel(index) != 0 && st.ndim != si.ndim)
        return tl_err(TL_ERR_RUNTIME, "Index tensor must have the same number of dimensions as input tensor");
    char b1[512], b2[512];
    if (tl_numel(index) != 0)
        for (int k = 0; k < st.ndim; k++)
            if (k != d && si.sizes[k] > st.sizes[k])
                return tl_err(TL_ERR_RUNTIME, "Size does not match at dimension %d expected index %s to be no larger than self %s apart from dimension %d",
                              k, tl_shape_str(index->sizes, index->ndim, b1, sizeof b1), tl_shape_str(t->sizes, t->ndim, b2, sizeof b2), d);
    if (tl_tensor_empty(out, index->ndim, index->sizes, (tl_dtype)t->dtype, t->device, false) < 0) return -1;
    if (named && tl_tensor_set_names(out, names) < 0) {
        tl_tensor_clear(out);
        return -1;
    }
    if (tl_numel(index) == 0 || out->device.type == TL_DEV_META) return 0; /* meta: shaped and checked */
    tl_tensor ixc = {0};
    if (tl_index_as_i64(&ixc, index) < 0) {
        tl_tensor_clear(out);
        return -1;
    }
    idx_ctx c = {0};
    c.flags = TL_IDX_RUNTIME;
    c.stride = st.strides[d] * tl_itemsize(t);
    c.size = st.sizes[d];
    int64_t sstr[TL_MAX_DIMS], istr[TL_MAX_DIMS], ostr[TL_MAX_DIMS];
    memcpy(sstr, st.strides, 8 * st.ndim);
    sstr[d] = 0;
    tl_contiguous_strides(si.sizes, si.ndim, istr);
    tl_contiguous_strides(si.sizes, si.ndim, ostr);
    tl_tensor src = tl_tensor_geom(t, si.ndim, si.sizes, sstr);
    tl_tensor ix = tl_tensor_geom(&ixc, si.ndim, si.sizes, istr);
    tl_tensor o = tl_tensor_geom(out, si.ndim, si.sizes, ostr);
    const tl_tensor *ops[3] = {&o, &src, &ix};
    tl_iter it;
    int rc = 0;
    if (on_backend(t)) {
        bool bad;
        rc = tl_backend_index(TL_BIX_GATHER, 0, &o, &src, &ix, si.sizes, si.ndim, 0, c.stride, c.size, &bad, "gather");
        c.bad = bad;
    } else if ((rc = tl_iter_init(&it, 3, ops, si.sizes, si.ndim, 0)) == 0) {
        tl_iter_run(&it, PICK(gather_dim, tl_itemsize(t)), &c, TL_GRAIN_SIZE);
    }
    if (rc == 0 && c.bad && find_bad(&ixc, st.sizes[d], false, &c)) rc = report_bad(&c, d);
    tl_tensor_clear(&ixc);
    if (rc < 0) tl_tensor_clear(out);
    return rc;
}

typedef struct { idx_ctx c; char bytes[16]; } fill_ctx;

/* The combining loop of a scatter, refused as torch's kernels refuse t's dtype: the reset of
 * self to the identity (include_self=False) first, which torch runs on its scatter dtypes only
 * (not complex32 or the float8 types, whose sums tensorlib has), then the reduction's own
 * kernel (mean and amax/amin have their own names, sums and products the plain one's). */
static tl_scatter_loop scatter_loop(const tl_tensor *t, tl_reduce_op op, bool scalar_src, bool include_self)
{
    tl_dtype dt = (tl_dtype)t->dtype;
    switch (dt) {
    case TL_BOOL: case TL_UINT8: case TL_INT8: case TL_INT16: case TL_INT32: case TL_INT64: case TL_FLOAT16:
    case TL_BFLOAT16: case TL_FLOAT32: case TL_FLOAT64: case TL_COMPLEX64: case TL_COMPLEX128: break;
    default:
        if (!include_self) {
            tl_err_dispatch(TL_ERR_NOTIMPL, dt, "scatter_reduce_exclude_input_init");
            return NULL;
        }
    }
    const char *name = op == TL_RED_MEAN ? "mean" : op == TL_RED_AMAX ? "amax" : op == TL_RED_AMIN ? "amin" : NULL;
    char kernel[64];
    snprintf(kernel, sizeof kernel, "scatter_gather_%s_cpu%s%s", scalar_src ? "scalar" : "tensor", name ? "_reduce_" : "",
             name ? name : "");
    return tl_scatter_loop_for(dt, op, kernel);
}

int tl_scatter_(tl_tensor *t, int64_t dim, const tl_tensor *index, const tl_tensor *src, const tl_scalar *value,
                tl_reduce_op op, bool include_self, const char *opname)
{
    if (tl_check_writable(t) < 0) return -1;
    int32_t names[TL_MAX_DIMS]; /* in place: self takes the names unified with index's and src's */
    const tl_tensor *named_in[3] = {t, index, src};
    int named = tl_names_unify_n(names, t->ndim, named_in, 3);
    if (named < 0) return -1;
    int d;
    if (tl_wrap_dim(dim, t->ndim ? t->ndim : 1, &d) < 0) return -1;
    if (index->dtype != TL_INT64 && index->dtype != TL_INT32)
        return tl_err(TL_ERR_RUNTIME, "%s(): Expected dtype int32/int64 for index", opname);
    if (index->dtype == TL_INT32 || tl_may_overlap(index, t)) {
        /* int32 indices widen first; indices sharing memory with t are read from a copy, as
         * src is (the loops read each index after earlier writes) */
        tl_tensor i64 = {0};
        if (tl_clone(&i64, index, TL_INT64, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
        int rc = tl_scatter_(t, dim, &i64, src, value, op, include_self, opname);
        tl_tensor_clear(&i64);
        return rc;
    }
    if (src && src->dtype != t->dtype)
        return tl_err(TL_ERR_RUNTIME, "%s(): Expected self.dtype to be equal to src.dtype", opname);
    shp st, si, ss;
    shp_of(&st, t);
    shp_of(&si, index);
    if (src) shp_of(&ss, src);
    char b1[512], b2[512], b3[512];
    if (tl_numel(index) == 0) return named ? tl_tensor_set_names(t, names) : 0;
    if (st.ndim != si.ndim || (src && ss.ndim != si.ndim))
        return tl_err(TL_ERR_RUNTIME, "Index tensor must have the same number of dimensions as %s tensor",
                      st.ndim != si.ndim ? "self" : "src");
    for (int k = 0; k < st.ndim; k++) {
        if ((k != d && si.sizes[k] > st.sizes[k]) || (src && si.sizes[k] > ss.sizes[k])) {
            if (src)
                return tl_err(TL_ERR_RUNTIME, "Expected index %s to be no larger than self %s apart from dimension %d and to be no larger size than src %s",
                              tl_shape_str(index->sizes, index->ndim, b1, sizeof b1), tl_shape_str(t->sizes, t->ndim, b2, sizeof b2), d,
                              tl_shape_str(src->sizes, src->ndim, b3, sizeof b3));
            return tl_err(TL_ERR_RUNTIME, "Expected index %s to be no larger than self %s apart from dimension %d",
                          tl_shape_str(index->sizes, index->ndim, b1, sizeof b1), tl_shape_str(t->sizes, t->ndim, b2, sizeof b2), d);
        }
    }
    tl_scatter_loop fn = NULL;
    if (op != TL_RED_NONE && !(fn = scatter_loop(t, op, src == NULL, include_self))) return -1;
    if (t->device.type == TL_DEV_META) return named ? tl_tensor_set_names(t, names) : 0; /* shapes checked */
    if (on_backend(t) && op == TL_RED_MEAN) return tl_backend_refuse(opname, t->device, -1);
    tl_tensor ix = tl_tensor_geom(index, si.ndim, si.sizes, si.strides);
    if (check_range(&ix, st.sizes[d], d, TL_IDX_RUNTIME) < 0) return -1;
    /* the source operand: src restrided to index's shape, or the value as a 0-stride element */
    tl_tensor sv = {0}, vtmp = {0};
    int64_t zeros[TL_MAX_DIMS] = {0};
    int rc = 0;
    if (src) {
        if (tl_may_overlap(src, t)) {
            if (tl_clone(&vtmp, src, (tl_dtype)src->dtype, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
            shp_of(&ss, &vtmp);
            sv = tl_tensor_geom(&vtmp, si.ndim, si.sizes, ss.strides);
        } else {
            sv = tl_tensor_geom(src, si.ndim, si.sizes, ss.strides);
        }
    } else {
        if (tl_tensor_empty(&vtmp, 0, NULL, (tl_dtype)t->dtype, t->device, false) < 0) return -1;
        if (tl_fill_(&vtmp, *value) < 0) { tl_tensor_clear(&vtmp); return -1; }
        sv = tl_tensor_geom(&vtmp, si.ndim, si.sizes, zeros);
    }
    int64_t dstr[TL_MAX_DIMS];
    memcpy(dstr, st.strides, 8 * st.ndim);
    dstr[d] = 0;
    tl_tensor dst = tl_tensor_geom(t, si.ndim, si.sizes, dstr);
    idx_ctx c = {0};
    c.stride = st.strides[d] * tl_itemsize(t);
    c.size = st.sizes[d];
    tl_tensor cnt = {0};
    bool owner[TL_MAX_DIMS]; /* the dims whose positions write disjoint elements */
    for (int k = 0; k < si.ndim; k++) owner[k] = k != d;
    if (op != TL_RED_NONE && !include_self) {
        /* reset every target to the reduction's identity first */
        tl_tensor idv = {0};
        rc = tl_tensor_empty(&idv, 0, NULL, (tl_dtype)t->dtype, t->device, false);
        if (rc == 0 && on_backend(t)) rc = tl_fill_(&idv, tl_elem_identity_scalar((tl_dtype)t->dtype, op));
        else if (rc == 0) tl_elem_identity(tl_data(&idv), (tl_dtype)t->dtype, op);
        if (rc == 0) {
            tl_tensor iv = tl_tensor_geom(&idv, si.ndim, si.sizes, zeros);
            const tl_tensor *ops0[3] = {&dst, &iv, &ix};
            rc = run_scatter(t, ops0, 3, si.sizes, si.ndim, owner, TL_ITER_NO_REORDER, PICK(put_dim, tl_itemsize(t)), &c);
        }
        tl_tensor_clear(&idv);
    }
    if (rc == 0 && op == TL_RED_MEAN) {
        /* counts per target: include_self counts self once */
        rc = tl_tensor_empty(&cnt, st.ndim, st.sizes, TL_INT64, t->device, false);
        if (rc == 0) rc = tl_fill_(&cnt, tl_scalar_int(include_self ? 1 : 0));
        if (rc == 0) {
            int64_t cstr[TL_MAX_DIMS], one = 1;
            tl_contiguous_strides(st.sizes, st.ndim, cstr);
            idx_ctx cc = {0};
            cc.stride = cstr[d] * 8;
            cc.fn = tl_scatter_loop_for(TL_INT64, TL_RED_SUM, opname);
            cstr[d] = 0;
            tl_tensor cd = tl_tensor_geom(&cnt, si.ndim, si.sizes, cstr);
            tl_tensor onev = tl_tensor_geom(&cnt, si.ndim, si.sizes, zeros);
            onev.storage = &(tl_storage){.data = (char *)&one};
            onev.offset = 0;
            const tl_tensor *opsc[3] = {&cd, &onev, &ix};
            rc = run_scatter(&cnt, opsc, 3, si.sizes, si.ndim, owner, TL_ITER_NO_REORDER, put_dim_acc, &cc);
        }
    }
    if (rc == 0) {
        const tl_tensor *ops[3] = {&dst, &sv, &ix};
        c.fn = fn;
        c.bmode = op == TL_RED_PROD ? TL_BIX_PUT_MUL : op == TL_RED_AMAX ? TL_BIX_PUT_MAX
                  : op == TL_RED_AMIN ? TL_BIX_PUT_MIN : TL_BIX_PUT_ADD;
        tl_loop_fn loop = !fn ? PICK(put_dim, tl_itemsize(t)) : put_dim_acc;
        rc = run_scatter(t, ops, 3, si.sizes, si.ndim, owner, TL_ITER_NO_REORDER, loop, &c);
    }
    if (rc == 0 && op == TL_RED_MEAN) {
        /* divide every element whose count exceeds one, a row of the last dim at a time */
        const int64_t *cp = (const int64_t *)tl_data(&cnt);
        int nd = st.ndim, isz = tl_itemsize(t);
        int64_t row = st.sizes[nd - 1], rows = row ? tl_numel(&cnt) / row : 0, idx[TL_MAX_DIMS] = {0};
        for (int64_t r = 0; r < rows; r++, cp += row) {
            int64_t off = 0;
            for (int k = 0; k < nd - 1; k++) off += idx[k] * st.strides[k];
            tl_elem_div_counts(tl_data(t) + off * isz, st.strides[nd - 1] * isz, cp, row, (tl_dtype)t->dtype);
            for (int k = nd - 2; k >= 0 && ++idx[k] == st.sizes[k]; k--) idx[k] = 0;
        }
    }
    if (rc == 0 && named) rc = tl_tensor_set_names(t, names);
    tl_tensor_clear(&cnt);
    tl_tensor_clear(&vtmp);
    return rc;
}

/* index_select when the dims after `dim` form one packed block of `rb` bytes in the
 * source: each output row (outer position, index position) is one block copy. Rows are
 * split across threads; the index is checked as each row is read (out is fresh). */
typedef struct {
    char *out;
    const char *src;
    const int64_t *ix;
    int64_t L, size, sd, rb;       /* sd: source bytes per index step; rb: bytes per row */
    int ond;                       /* outer dims (before `dim`): sizes and byte strides */
    int64_t osz[TL_MAX_DIMS], ostr[TL_MAX_DIMS];
    volatile int bad;
} rows_ctx;

static inline void copy_row(char *restrict d, const char *restrict s, int64_t rb)
{
    switch (rb) { /* constant sizes become a few moves */
    case 8: memcpy(d, s, 8); break;
    case 12: memcpy(d, s, 12); break;
    case 16: memcpy(d, s, 16); break;
    case 32: memcpy(d, s, 32); break;
    default: memcpy(d, s, (size_t)rb); break;
    }
}

static void rows_chunk(int64_t b, int64_t e, void *ctx)
{
    rows_ctx *c = ctx;
    /* locals: the row writes are char stores, which may alias *c */
    const int64_t L = c->L, size = c->size, sd = c->sd, rb = c->rb;
    const int64_t *ix = c->ix;
    int64_t o = b / L, i = b % L;
    char *dst = c->out + b * rb;
    while (b < e) {
        int64_t off = 0, rem = o;
        for (int k = c->ond - 1; k >= 0; k--) {
            off += (rem % c->osz[k]) * c->ostr[k];
            rem /= c->osz[k];
        }
        const char *base = c->src + off;
        int64_t stop = i + (e - b) < L ? i + (e - b) : L;
        b += stop - i;
        for (; i < stop; i++, dst += rb) {
            uint64_t v = (uint64_t)ix[i];
            if (v >= (uint64_t)size) { c->bad = 1; return; }
            copy_row(dst, base + (int64_t)v * sd, rb);
        }
        i = 0;
        o++;
    }
}

/* torch's index_select error: dim 0 (or a vector) raises IndexError "index out of range
 * in self"; an inner dim goes through its index kernel, which names the first bad value. */
static int select_error(const tl_tensor *ix, int ndim, int d, int64_t size)
{
    idx_ctx c = {0};
    c.flags = TL_IDX_MSG_SELF;
    if (ndim <= 1 || d == 0 || !find_bad(ix, size, false, &c)) return report_bad(&c, d);
    return tl_err(TL_ERR_RUNTIME, "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld", (long long)c.badval,
                  (long long)size);
}

int tl_index_select(tl_tensor *out, const tl_tensor *t, int64_t dim, const tl_tensor *index)
{
    int d;
    if (tl_wrap_dim(dim, t->ndim ? t->ndim : 1, &d) < 0) return -1;
    if (tl_check_index_dtype(index, "index_select", true) < 0) return -1;
    if (index->ndim > 1) return tl_err(TL_ERR_INDEX, "index_select(): Index is supposed to be a vector");
    tl_tensor ix = {0};
    if (tl_index_as_i64(&ix, index) < 0) return -1;
    int64_t L = tl_numel(&ix);
    shp st;
    shp_of(&st, t);
    int64_t osz[TL_MAX_DIMS], sstr[TL_MAX_DIMS], istr[TL_MAX_DIMS] = {0};
    memcpy(osz, st.sizes, 8 * st.ndim);
    memcpy(sstr, st.strides, 8 * st.ndim);
    osz[d] = L;
    sstr[d] = 0;
    istr[d] = 1;
    int rc;
    if (t->ndim == 0) {
        if (L != 1) { tl_tensor_clear(&ix); return tl_err(TL_ERR_INDEX, "index_select(): Index to scalar can have only 1 value, got %lld value(s)", (long long)L); }
        rc = tl_tensor_empty(out, 0, NULL, (tl_dtype)t->dtype, t->device, false);
    } else {
        rc = tl_tensor_empty(out, t->ndim, osz, (tl_dtype)t->dtype, t->device, false);
    }
    if (rc < 0 || out->device.type == TL_DEV_META) { /* meta: shaped, no values */
        tl_tensor_clear(&ix);
        return rc;
    }
    idx_ctx c = {0};
    c.flags = TL_IDX_MSG_SELF;
    if (on_backend(t)) { /* one gather pass (or a check when there is nothing to gather) */
        bool bad = false;
        int64_t ostr[TL_MAX_DIMS];
        tl_contiguous_strides(osz, st.ndim, ostr);
        tl_tensor src = tl_tensor_geom(t, st.ndim, osz, sstr);
        tl_tensor iv = tl_tensor_geom(&ix, st.ndim, osz, istr);
        tl_tensor o = tl_tensor_geom(out, st.ndim, osz, ostr);
        if (L > 0 && tl_numel(t) > 0)
            rc = tl_backend_index(TL_BIX_GATHER, 0, &o, &src, &iv, osz, st.ndim, 0, st.strides[d] * tl_itemsize(t),
                                  st.sizes[d], &bad, "index_select");
        else if (L > 0)
            rc = tl_backend_index(TL_BIX_CHECK, 0, &ix, &ix, &ix, ix.sizes, ix.ndim, 0, 0, st.sizes[d], &bad, "index_select");
        if (rc == 0 && bad) rc = select_error(&ix, t->ndim, d, st.sizes[d]);
        if (rc == 0 && t->names) rc = tl_tensor_copy_names(out, t);
        tl_tensor_clear(&ix);
        if (rc < 0) tl_tensor_clear(out);
        return rc;
    }
    if (rc == 0 && L > 0 && tl_numel(t) == 0 && first_bad((const int64_t *)tl_data(&ix), L, st.sizes[d], false) >= 0)
        rc = select_error(&ix, t->ndim, d, st.sizes[d]);
    int64_t inner = 1, expect = 1;
    bool packed = true;
    for (int k = st.ndim - 1; k > d; k--) {
        if (st.sizes[k] != 1 && st.strides[k] != expect) packed = false;
        expect *= st.sizes[k];
        inner *= st.sizes[k];
    }
    if (rc == 0 && L > 0 && tl_numel(t) > 0 && packed && inner > 1) {
        rows_ctx r = {.out = tl_data(out), .src = tl_data(t), .ix = (const int64_t *)tl_data(&ix), .L = L,
                      .size = st.sizes[d], .sd = st.strides[d] * tl_itemsize(t), .rb = inner * tl_itemsize(t), .ond = d};
        int64_t rows = L;
        for (int k = 0; k < d; k++) {
            r.osz[k] = st.sizes[k];
            r.ostr[k] = st.strides[k] * tl_itemsize(t);
            rows *= st.sizes[k];
        }
        tl_parallel_for(rows, TL_GRAIN_SIZE / inner + 1, rows_chunk, &r);
        if (r.bad) rc = select_error(&ix, t->ndim, d, st.sizes[d]);
    } else if (rc == 0 && L > 0 && tl_numel(t) > 0) {
        c.stride = st.strides[d] * tl_itemsize(t);
        c.size = st.sizes[d];
        tl_tensor src = tl_tensor_geom(t, st.ndim, osz, sstr);
        tl_tensor iv = tl_tensor_geom(&ix, st.ndim, osz, istr);
        int64_t ostr[TL_MAX_DIMS];
        tl_contiguous_strides(osz, st.ndim, ostr);
        tl_tensor o = tl_tensor_geom(out, st.ndim, osz, ostr);
        const tl_tensor *ops[3] = {&o, &src, &iv};
        tl_iter it;
        rc = tl_iter_init(&it, 3, ops, osz, st.ndim, 0);
        if (rc == 0) tl_iter_run(&it, PICK(gather_dim, tl_itemsize(t)), &c, TL_GRAIN_SIZE);
        if (rc == 0 && c.bad) rc = select_error(&ix, t->ndim, d, st.sizes[d]);
    }
    if (rc == 0 && t->names) rc = tl_tensor_copy_names(out, t);
    tl_tensor_clear(&ix);
    if (rc < 0) tl_tensor_clear(out);
    return rc;
}

/* ---- take / put_ ------------------------------------------------------------------------- */

typedef struct {
    const tl_tensor *t;
    int64_t numel, cstr[TL_MAX_DIMS];
    bool contig;
    volatile int bad;
    volatile int64_t badval;
} lin_ctx;

/* op0: int64 byte offsets out, op1: int64 linear indices into t (row-major, negatives wrap). */
static void linear_offsets_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    lin_ctx *c = ctx;
    const tl_tensor *t = c->t;
    int isz = tl_itemsize(t);
    char *d0 = d[0];
    const char *d1 = d[1]; /* locals: the stores may alias d and s */
    const int64_t s0 = s[0], s1 = s[1];
    for (int64_t i = 0; i < n; i++) {
        int64_t v = *(const int64_t *)(d1 + i * s1), x = v < 0 ? v + c->numel : v;
        if (x < 0 || x >= c->numel) {
            if (!c->bad) { c->badval = v; c->bad = 1; }
            continue;
        }
        int64_t off = 0;
        if (c->contig) off = x;
        else
            for (int k = 0; k < t->ndim; k++) {
                off += (x / c->cstr[k]) * t->strides[k];
                x %= c->cstr[k];
            }
        *(int64_t *)(d0 + i * s0) = off * isz;
    }
}

static int linear_offsets(tl_tensor *off, const tl_tensor *t, const tl_tensor *index)
{
    lin_ctx c = {0};
    c.t = t;
    c.numel = tl_numel(t);
    c.contig = tl_is_contiguous(t);
    tl_contiguous_strides(t->sizes, t->ndim, c.cstr);
    if (tl_tensor_empty(off, index->ndim, index->sizes, TL_INT64, t->device, false) < 0) return -1;
    if (on_backend(t)) { /* t is contiguous there (tl_put_): offsets are the wrapped index times the itemsize */
        bool bad;
        idx_ctx ic = {0};
        int rc = tl_backend_index(TL_BIX_OFFSET, TL_BIX_WRAP, off, index, index, index->sizes, index->ndim, 0,
                                  tl_itemsize(t), c.numel, &bad, "put_");
        if (rc < 0) {
            tl_tensor_clear(off);
            return -1;
        }
        if (bad && find_bad(index, c.numel, true, &ic)) c.badval = ic.badval;
        c.bad = bad;
    }
    const tl_tensor *ops[2] = {off, index};
    tl_iter it;
    if (!on_backend(t)) {
        if (tl_iter_init(&it, 2, ops, index->sizes, index->ndim, 0) < 0) { tl_tensor_clear(off); return -1; }
        tl_iter_run(&it, linear_offsets_loop, &c, TL_GRAIN_SIZE);
    }
    if (c.bad) {
        tl_tensor_clear(off);
        return tl_err(TL_ERR_INDEX, "out of range: tried to access index %lld on a tensor of %lld elements.",
                      (long long)c.badval, (long long)c.numel);
    }
    return 0;
}

int tl_take(tl_tensor *out, const tl_tensor *t, const tl_tensor *index)
{
    if (tl_check_unnamed(t, "take") < 0) return -1;
    if (index->dtype != TL_INT64)
        return tl_err(TL_ERR_RUNTIME, "take(): Expected a long tensor for index, but got %s", tl_dtype_infos[index->dtype].cname);
    if (t->device.type == TL_DEV_META) return tl_tensor_empty(out, index->ndim, index->sizes, (tl_dtype)t->dtype, t->device, false);
    if (on_backend(t) && !tl_is_contiguous(t)) { /* the device gathers from a contiguous copy */
        tl_tensor tc = {0};
        int rc = tl_clone(&tc, t, (tl_dtype)t->dtype, TL_MEMFMT_CONTIGUOUS);
        if (rc == 0) rc = tl_take(out, &tc, index);
        if (tc.storage) tl_tensor_clear(&tc);
        return rc;
    }
    if (tl_is_contiguous(t)) {
        /* t is one run of numel elements: validate (wrapping) once, then the element gather */
        tl_tensor ix = {0};
        if (tl_index_as_i64(&ix, index) < 0) return -1;
        idx_ctx c = {0};
        c.flags = TL_IDX_WRAP;
        int rc = tl_tensor_empty(out, index->ndim, index->sizes, (tl_dtype)t->dtype, t->device, false);
        if (rc == 0 && tl_numel(out) > 0) {
            int64_t zero[TL_MAX_DIMS] = {0}, istr[TL_MAX_DIMS];
            tl_contiguous_strides(index->sizes, index->ndim, istr);
            tl_tensor src = tl_tensor_geom(t, index->ndim, index->sizes, zero);
            tl_tensor iv = tl_tensor_geom(&ix, index->ndim, index->sizes, istr);
            c.stride = tl_itemsize(t);
            c.size = tl_numel(t);
            const tl_tensor *ops[3] = {out, &src, &iv};
            tl_iter it;
            if (on_backend(t)) {
                bool bad;
                rc = tl_backend_index(TL_BIX_GATHER, TL_BIX_WRAP, out, &src, &iv, index->sizes, index->ndim, 0, c.stride,
                                      c.size, &bad, "take");
                c.bad = bad;
            } else if ((rc = tl_iter_init(&it, 3, ops, index->sizes, index->ndim, 0)) == 0) {
                tl_iter_run(&it, PICK(gather_dim, tl_itemsize(t)), &c, TL_GRAIN_SIZE);
            }
            if (rc == 0 && c.bad && find_bad(&ix, tl_numel(t), true, &c))
                rc = tl_err(TL_ERR_INDEX, "out of range: tried to access index %lld on a tensor of %lld elements.",
                            (long long)c.badval, (long long)tl_numel(t));
            if (rc < 0) tl_tensor_clear(out);
        }
        tl_tensor_clear(&ix);
        return rc;
    }
    tl_tensor off = {0};
    if (linear_offsets(&off, t, index) < 0) return -1;
    int rc = tl_tensor_empty(out, index->ndim, index->sizes, (tl_dtype)t->dtype, t->device, false);
    if (rc == 0 && tl_numel(out) > 0) {
        int64_t zero[TL_MAX_DIMS] = {0};
        tl_tensor src = tl_tensor_geom(t, index->ndim, index->sizes, zero);
        const tl_tensor *ops[3] = {out, &src, &off};
        tl_iter it;
        rc = tl_iter_init(&it, 3, ops, index->sizes, index->ndim, 0);
        if (rc == 0) tl_iter_run(&it, PICK(gather_off, tl_itemsize(t)), NULL, TL_GRAIN_SIZE);
    }
    tl_tensor_clear(&off);
    return rc;
}

int tl_put_(tl_tensor *t, const tl_tensor *index, const tl_tensor *source, bool accumulate)
{
    if (tl_check_writable(t) < 0) return -1;
    if (index->dtype != TL_INT64)
        return tl_err(TL_ERR_RUNTIME, "put_(): Expected a long tensor for index, but got %s", tl_dtype_infos[index->dtype].cname);
    if (source->dtype != t->dtype)
        return tl_err(TL_ERR_RUNTIME, "put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s",
                      tl_dtype_infos[t->dtype].cname, tl_dtype_infos[source->dtype].cname);
    if (tl_numel(index) != tl_numel(source))
        return tl_err(TL_ERR_INDEX, "put_(): Expected source and index to have the same number of elements, but got source.numel() = %lld, index.numel() = %lld",
                      (long long)tl_numel(source), (long long)tl_numel(index));
    idx_ctx c = {0};
    if (accumulate && !(c.fn = tl_scatter_loop_for((tl_dtype)t->dtype, TL_RED_SUM, "take_put_cpu"))) return -1;
    if (tl_numel(index) > 0 && tl_numel(t) == 0)
        return tl_err(TL_ERR_INDEX, "put_(): Tried to put elements into an empty tensor");
    if (t->device.type == TL_DEV_META) return 0; /* meta: checked, nothing to write */
    if (on_backend(t) && !tl_is_contiguous(t)) { /* the device puts into a contiguous copy, copied back */
        tl_tensor tc = {0};
        int rc = tl_clone(&tc, t, (tl_dtype)t->dtype, TL_MEMFMT_CONTIGUOUS);
        if (rc == 0) rc = tl_put_(&tc, index, source, accumulate);
        if (rc == 0) rc = tl_copy_(t, &tc);
        if (tc.storage) tl_tensor_clear(&tc);
        return rc;
    }
    tl_tensor off = {0}, src = {0};
    if (linear_offsets(&off, t, index) < 0) return -1;
    int rc = tl_clone(&src, source, (tl_dtype)source->dtype, TL_MEMFMT_CONTIGUOUS);
    if (rc == 0 && tl_numel(index) > 0) {
        int64_t zero[TL_MAX_DIMS] = {0}, cs[TL_MAX_DIMS];
        tl_contiguous_strides(index->sizes, index->ndim, cs);
        tl_tensor dst = tl_tensor_geom(t, index->ndim, index->sizes, zero);
        tl_tensor sv = tl_tensor_geom(&src, index->ndim, index->sizes, cs);
        const tl_tensor *ops[3] = {&dst, &sv, &off};
        tl_iter it;
        if (on_backend(t))
            rc = tl_backend_index(accumulate ? TL_BIX_PUT_ADD : TL_BIX_PUT, TL_BIX_RAW, &dst, &sv, &off, index->sizes,
                                  index->ndim, TL_ITER_NO_REORDER, 1, 0, NULL, "put_");
        else if ((rc = tl_iter_init(&it, 3, ops, index->sizes, index->ndim, TL_ITER_NO_REORDER)) == 0)
            tl_iter_run(&it, accumulate ? put_off_acc : PICK(put_off, tl_itemsize(t)), &c, 0);
    }
    tl_tensor_clear(&src);
    tl_tensor_clear(&off);
    return rc;
}

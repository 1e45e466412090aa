/* mask.c - boolean-mask ops: masked_select, masked_scatter_, nonzero. Row-major order
 * throughout (the iterator runs with TL_ITER_NO_REORDER); counts first, then one pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/convert.h"
#include "core/error.h"
#include "core/iter.h"
#include "core/parallel.h"
#include "ops/copy.h"
#include "ops/elementwise.h"
#include "ops/index.h"

typedef struct { int64_t count; } count_ctx;

/* op0 (or the only operand): bool mask */
static void count_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    int64_t k = 0;
    const char *m = d[0];
    if (s[0] == 1)
        for (int64_t i = 0; i < n; i++) k += m[i] != 0;
    else
        for (int64_t i = 0; i < n; i++) k += m[i * s[0]] != 0;
    __atomic_fetch_add(&((count_ctx *)ctx)->count, k, __ATOMIC_RELAXED);
}

static int count_true(const tl_tensor *mask, const int64_t *shape, int nd, int64_t *out)
{
    count_ctx c = {0};
    const tl_tensor *ops[1] = {mask};
    tl_iter it;
    if (tl_iter_init(&it, 1, ops, shape, nd, TL_ITER_ALLOW_OUTPUT_BROADCAST) < 0) return -1;
    tl_iter_run(&it, count_loop, &c, TL_GRAIN_SIZE);
    *out = c.count;
    return 0;
}

typedef struct { char *out; int isz; } sel_ctx;

/* Strides are copied into locals: the build allows any store to alias them (no strict
 * aliasing), and reloading them per element cost 3x. select writes every element and
 * advances over the kept ones (branch-free; one slot past the last is written). */
#define DEF_SEL(N, T)                                                               \
    static void select_##N(char **d, const int64_t *s, int64_t n, void *ctx)       \
    {                                                                               \
        sel_ctx *c = ctx;                                                           \
        T *o = (T *)c->out;                                                         \
        const char *src = d[0], *m = d[1];                                          \
        const int64_t s0 = s[0], s1 = s[1];                                         \
        if (s0 == (int64_t)sizeof(T) && s1 == 1) {                                  \
            const T *sp = (const T *)src;                                           \
            for (int64_t i = 0; i < n; i++) {                                       \
                *o = sp[i];                                                         \
                o += m[i] != 0;                                                     \
            }                                                                       \
        } else {                                                                    \
            for (int64_t i = 0; i < n; i++) {                                       \
                *o = *(const T *)(src + i * s0);                                    \
                o += m[i * s1] != 0;                                                \
            }                                                                       \
        }                                                                           \
        c->out = (char *)o;                                                         \
    }                                                                               \
    static void scatter_##N(char **d, const int64_t *s, int64_t n, void *ctx)      \
    {                                                                               \
        sel_ctx *c = ctx;                                                           \
        const T *v = (const T *)c->out;                                             \
        char *dst = d[0];                                                           \
        const char *m = d[1];                                                       \
        const int64_t s0 = s[0], s1 = s[1];                                         \
        for (int64_t i = 0; i < n; i++)                                             \
            if (m[i * s1]) *(T *)(dst + i * s0) = *v++;                             \
        c->out = (char *)v;                                                         \
    }
typedef struct { uint64_t lo, hi; } b16m;
DEF_SEL(1, uint8_t)
DEF_SEL(2, uint16_t)
DEF_SEL(4, uint32_t)
DEF_SEL(8, uint64_t)
DEF_SEL(16, b16m)
#define PICKM(fam, isz) ((isz) == 1 ? fam##_1 : (isz) == 2 ? fam##_2 : (isz) == 4 ? fam##_4 : (isz) == 8 ? fam##_8 : fam##_16)

/* ---- on a backend's device ------------------------------------------------------------------
 * The positions come from the backend's select entry (CUB's DeviceSelect on CUDA) and only their
 * count crosses to the host (the result's size depends on it, so the host waits for the device
 * either way); without that entry, from a host copy of the data. The values move on the
 * device. */
static bool on_backend(const tl_tensor *t) { return tl_device_on_backend(t->device); }

/* nonzero by the backend's select entry: flags x != 0 (the device's comparison: -0 is zero, NaN
 * is not), their positions and count, then each dim's coordinate (position // stride % size) by
 * the device's element-wise ops; only the count crosses to the host. */
static int nonzero_select(tl_tensor *out, const tl_tensor *t, const tl_device_backend *b)
{
    int nd = t->ndim;
    int64_t n = tl_numel(t), cs[TL_MAX_DIMS], count = 0;
    tl_contiguous_strides(t->sizes, nd, cs);
    tl_tensor tc = {0}, flags = {0}, lin = {0}, cnt = {0};
    int rc = tl_clone(&tc, t, (tl_dtype)t->dtype, TL_MEMFMT_CONTIGUOUS);
    if (rc == 0) {
        tl_ew_dest dst = {.mode = TL_EW_NEW, .out = &flags};
        tl_ew_arg x = {.t = &tc}, zero = {.t = NULL, .s = tl_scalar_int(0)};
        rc = tl_ew_binary(TL_BOP_ne, x, zero, &dst, NULL);
    }
    if (rc == 0) rc = tl_tensor_empty(&lin, 1, &n, TL_INT64, t->device, false);
    if (rc == 0) rc = tl_tensor_empty(&cnt, 0, NULL, TL_INT64, t->device, true);
    if (rc == 0) {
        tl_backend_select_call c;
        memset(&c, 0, sizeof c);
        c.size = sizeof c;
        c.device_index = t->device.index;
        c.numel = n;
        c.flags = (const uint8_t *)tl_data(&flags);
        c.out = (int64_t *)tl_data(&lin);
        c.count = (int64_t *)tl_data(&cnt);
        rc = b->select(&c);
    }
    if (rc == 0) rc = tl_backend_read_element(&cnt, &count);
    if (rc == 0) rc = tl_tensor_empty(out, 2, (int64_t[]){count, nd}, TL_INT64, t->device, false);
    for (int k = 0; rc == 0 && k < nd && count > 0; k++) {
        tl_tensor pos = tl_tensor_geom(&lin, 1, &count, (int64_t[]){1}), q = {0};
        tl_tensor col = tl_tensor_geom(out, 1, &count, (int64_t[]){nd});
        col.offset = out->offset + k;
        tl_ew_dest dq = {.mode = TL_EW_NEW, .out = &q}, dc = {.mode = TL_EW_OUT, .out = &col};
        tl_ew_arg pa = {.t = &pos}, sa = {.t = NULL, .s = tl_scalar_int(cs[k])};
        rc = tl_ew_binary(TL_BOP_div_floor, pa, sa, &dq, NULL);
        tl_ew_arg qa = {.t = &q}, za = {.t = NULL, .s = tl_scalar_int(t->sizes[k])};
        if (rc == 0) rc = tl_ew_binary(TL_BOP_remainder, qa, za, &dc, NULL);
        if (q.storage) tl_tensor_clear(&q);
    }
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    tl_tensor *tmp[] = {&tc, &flags, &lin, &cnt};
    for (int i = 0; i < 4; i++)
        if (tmp[i]->storage) tl_tensor_clear(tmp[i]);
    return rc;
}

static int nonzero_backend(tl_tensor *out, const tl_tensor *t)
{
    const tl_device_backend *b = tl_backend_get(t->device.type);
    if (b && b->select && tl_backend_dtype_code(t->dtype) >= 0 && tl_numel(t) > 0 && tl_numel(t) <= INT32_MAX)
        return nonzero_select(out, t, b);
    /* no select entry, a dtype without device arithmetic (float8, complex32), or empty */
    tl_tensor h = {0}, hz = {0};
    int rc = tl_backend_to_host(&h, t);
    if (rc == 0) rc = tl_nonzero(&hz, &h);
    if (rc == 0) rc = tl_backend_to_device(out, &hz, t->device, TL_INT64, false);
    if (hz.storage) tl_tensor_clear(&hz);
    if (h.storage) tl_tensor_clear(&h);
    return rc;
}

/* t's strides broadcast to sh (n dims, aligned from the right): 0 on new and size-1 dims. */
static void bcast_strides(const tl_tensor *t, const int64_t *sh, int n, int64_t *st)
{
    for (int k = 0; k < n; k++) {
        int j = t->ndim - n + k;
        st[k] = j >= 0 && t->sizes[j] == sh[k] && sh[k] != 1 ? t->strides[j] : 0;
    }
}

static int masked_select_backend(tl_tensor *out, const tl_tensor *t, const tl_tensor *mask, const int64_t *shape, int nd)
{
    if (tl_device_expect_same(t->device, mask->device) < 0) return -1;
    /* t and mask broadcast to shape (a 0-d pair as one element), x[nonzero(mask) columns] */
    int64_t one = 1, ts[TL_MAX_DIMS], ms[TL_MAX_DIMS];
    int n = nd ? nd : 1;
    const int64_t *sh = nd ? shape : &one;
    bcast_strides(t, sh, n, ts);
    bcast_strides(mask, sh, n, ms);
    tl_tensor tv = tl_tensor_geom(t, n, (int64_t *)sh, ts), mv = tl_tensor_geom(mask, n, (int64_t *)sh, ms);
    tl_tensor nz = {0}, cols[TL_MAX_DIMS];
    const tl_tensor *cp[TL_MAX_DIMS];
    int rc = nonzero_backend(&nz, &mv), made = 0;
    for (int k = 0; rc == 0 && k < n; k++, made++) {
        memset(&cols[k], 0, sizeof cols[k]);
        rc = tl_tensor_view_init(&cols[k], &nz, 1, nz.sizes, &nz.strides[0], nz.offset + k);
        cp[k] = &cols[k];
    }
    if (rc == 0) rc = tl_index(out, &tv, cp, n, 0);
    for (int k = 0; k < made; k++)
        if (cols[k].storage) tl_tensor_clear(&cols[k]);
    if (nz.storage) tl_tensor_clear(&nz);
    return rc;
}

/* masked_scatter_ on a backend's device: the True positions of the mask broadcast to t's shape in
 * row-major order (nonzero by the select entry; only their count crosses to the host, to check
 * it against source's size before anything is written), then t[positions] = the first `count`
 * elements of source in row-major order (a contiguous copy of it: source may share t's memory),
 * one put of the index entry. The positions are distinct, so the put is deterministic. */
static int masked_scatter_backend(tl_tensor *t, const tl_tensor *mask, const tl_tensor *source)
{
    if (tl_device_expect_same(t->device, mask->device) < 0 || tl_device_expect_same(t->device, source->device) < 0)
        return -1;
    int64_t one = 1, ms[TL_MAX_DIMS], ts1 = 1;
    int n = t->ndim ? t->ndim : 1; /* a 0-d t as one element */
    int64_t *sh = t->ndim ? t->sizes : &one;
    bcast_strides(mask, sh, n, ms);
    tl_tensor mv = tl_tensor_geom(mask, n, sh, ms);
    tl_tensor tv = t->ndim ? tl_tensor_geom(t, n, sh, t->strides) : tl_tensor_geom(t, 1, &one, &ts1);
    tl_tensor nz = {0}, src = {0}, cols[TL_MAX_DIMS];
    const tl_tensor *cp[TL_MAX_DIMS];
    int rc = nonzero_backend(&nz, &mv), made = 0;
    int64_t count = rc == 0 ? nz.sizes[0] : 0;
    if (rc == 0 && count > tl_numel(source))
        rc = tl_err(TL_ERR_RUNTIME, "Number of elements of source < number of ones in mask");
    if (rc == 0 && count > 0) {
        rc = tl_clone(&src, source, (tl_dtype)source->dtype, TL_MEMFMT_CONTIGUOUS);
        for (int k = 0; rc == 0 && k < n; k++, made++) {
            memset(&cols[k], 0, sizeof cols[k]);
            rc = tl_tensor_view_init(&cols[k], &nz, 1, nz.sizes, &nz.strides[0], nz.offset + k);
            cp[k] = &cols[k];
        }
        if (rc == 0) {
            tl_tensor sv = tl_tensor_geom(&src, 1, &count, &ts1);
            rc = tl_index_put_(&tv, cp, n, &sv, NULL, false, 0);
        }
    }
    for (int k = 0; k < made; k++)
        if (cols[k].storage) tl_tensor_clear(&cols[k]);
    if (nz.storage) tl_tensor_clear(&nz);
    if (src.storage) tl_tensor_clear(&src);
    return rc;
}

int tl_masked_select(tl_tensor *out, const tl_tensor *t, const tl_tensor *mask)
{
    if (mask->dtype != TL_BOOL) return tl_err(TL_ERR_RUNTIME, "masked_select: expected BoolTensor for mask");
    int64_t shape[TL_MAX_DIMS];
    int nd;
    if (tl_broadcast_shapes(t->sizes, t->ndim, mask->sizes, mask->ndim, shape, &nd) < 0) return -1;
    if (on_backend(t) || on_backend(mask)) return masked_select_backend(out, t, mask, shape, nd);
    int64_t n;
    if (count_true(mask, shape, nd, &n) < 0) return -1;
    /* the select loop writes one element past the last kept one: over-allocate by one */
    if (tl_tensor_empty(out, 1, (int64_t[]){n + 1}, (tl_dtype)t->dtype, t->device, false) < 0) return -1;
    out->sizes[0] = n;
    if (n == 0) return 0;
    sel_ctx c = {tl_data(out), tl_itemsize(t)};
    const tl_tensor *ops[2] = {t, mask};
    tl_iter it;
    if (tl_iter_init(&it, 2, ops, shape, nd, TL_ITER_NO_REORDER | TL_ITER_ALLOW_OUTPUT_BROADCAST) < 0) {
        tl_tensor_clear(out);
        return -1;
    }
    tl_iter_run(&it, PICKM(select, c.isz), &c, 0);
    return 0;
}

int tl_masked_scatter_(tl_tensor *t, const tl_tensor *mask, const tl_tensor *source)
{
    if (tl_check_writable(t) < 0) return -1;
    if (mask->dtype != TL_BOOL)
        return tl_err(TL_ERR_RUNTIME, "masked_scatter_ only supports boolean masks, but got mask with dtype %s",
                      tl_dtype_infos[mask->dtype].cname);
    if (source->dtype != t->dtype)
        return tl_err(TL_ERR_RUNTIME, "masked_scatter_: expected self and source to have same dtypes but got %s and %s",
                      tl_dtype_infos[t->dtype].cname, tl_dtype_infos[source->dtype].cname);
    int64_t shape[TL_MAX_DIMS];
    int nd;
    if (tl_broadcast_shapes(t->sizes, t->ndim, mask->sizes, mask->ndim, shape, &nd) < 0) return -1;
    char b1[512], b2[512];
    if (nd != t->ndim || memcmp(shape, t->sizes, 8 * nd))
        return tl_err(TL_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                      tl_shape_str(t->sizes, t->ndim, b1, sizeof b1), tl_shape_str(shape, nd, b2, sizeof b2));
    if (t->device.type == TL_DEV_META) return 0; /* meta: shapes checked; the count of ones is in the data */
    if (on_backend(t) || on_backend(mask) || on_backend(source)) return masked_scatter_backend(t, mask, source);
    int64_t n;
    if (count_true(mask, shape, nd, &n) < 0) return -1;
    if (n > tl_numel(source))
        return tl_err(TL_ERR_RUNTIME, "Number of elements of source < number of ones in mask");
    if (n == 0) return 0;
    tl_tensor src = {0};
    if (tl_clone(&src, source, (tl_dtype)source->dtype, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
    sel_ctx c = {tl_data(&src), tl_itemsize(t)};
    const tl_tensor *ops[2] = {t, mask};
    tl_iter it;
    int rc = tl_iter_init(&it, 2, ops, shape, nd, TL_ITER_NO_REORDER);
    if (rc == 0) tl_iter_run(&it, PICKM(scatter, c.isz), &c, 0);
    tl_tensor_clear(&src);
    return rc;
}

/* ---- nonzero ---------------------------------------------------------------------------- */

static bool elem_nonzero(const char *p, tl_dtype dt)
{
    switch (dt) {
    case TL_FLOAT32: return *(const float *)p != 0;
    case TL_FLOAT64: return *(const double *)p != 0;
    case TL_FLOAT16: return (*(const uint16_t *)p & 0x7fff) != 0;
    case TL_BFLOAT16: return (*(const uint16_t *)p & 0x7fff) != 0;
    case TL_COMPLEX32: return (((const uint16_t *)p)[0] & 0x7fff) || (((const uint16_t *)p)[1] & 0x7fff);
    case TL_COMPLEX64: return ((const float *)p)[0] != 0 || ((const float *)p)[1] != 0;
    case TL_COMPLEX128: return ((const double *)p)[0] != 0 || ((const double *)p)[1] != 0;
    case TL_FLOAT8_E4M3FN: case TL_FLOAT8_E5M2: return (*(const uint8_t *)p & 0x7f) != 0;
    default: {
        /* integers, bool and the remaining shells: any set bit */
        int isz = tl_dtype_itemsize(dt);
        for (int i = 0; i < isz; i++)
            if (p[i]) return true;
        return false;
    }
    }
}

int tl_nonzero(tl_tensor *out, const tl_tensor *t)
{
    if (tl_check_unnamed(t, "nonzero") < 0) return -1;
    if (on_backend(t)) return nonzero_backend(out, t);
    if (t->dtype == TL_FLOAT4_E2M1FN_X2 || t->dtype == TL_FLOAT8_E8M0FNU || t->dtype == TL_FLOAT8_E4M3FNUZ ||
        t->dtype == TL_FLOAT8_E5M2FNUZ)
        return tl_err_dispatch(TL_ERR_RUNTIME, (tl_dtype)(t->dtype), "nonzero_cpu");
    tl_tensor c = {0};
    if (tl_contiguous(&c, t, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
    int64_t numel = tl_numel(&c), n = 0;
    int isz = tl_itemsize(&c), nd = t->ndim;
    tl_dtype dt = (tl_dtype)t->dtype;
    const char *p = tl_data(&c);
    /* per-element flags, then coordinates */
    uint8_t *flags = numel ? malloc(numel) : NULL;
    if (numel && !flags) { tl_tensor_clear(&c); return tl_err(TL_ERR_MEMORY, "out of memory"); }
    if (dt == TL_BOOL || (tl_dtype_kind(dt) == TL_KIND_INT && isz == 1)) {
        for (int64_t i = 0; i < numel; i++) n += (flags[i] = p[i] != 0);
    } else if (dt == TL_FLOAT32) {
        const float *f = (const float *)p;
        for (int64_t i = 0; i < numel; i++) n += (flags[i] = f[i] != 0);
    } else {
        for (int64_t i = 0; i < numel; i++) n += (flags[i] = elem_nonzero(p + i * isz, dt));
    }
    int rc = tl_tensor_empty(out, 2, (int64_t[]){n, nd}, TL_INT64, t->device, false);
    if (rc == 0 && n > 0) {
        int64_t *o = (int64_t *)tl_data(out), idx[TL_MAX_DIMS] = {0};
        for (int64_t i = 0; i < numel; i++) {
            if (flags[i]) {
                memcpy(o, idx, 8 * nd);
                o += nd;
            }
            for (int k = nd - 1; k >= 0; k--) {
                if (++idx[k] < t->sizes[k]) break;
                idx[k] = 0;
            }
        }
    }
    free(flags);
    tl_tensor_clear(&c);
    return rc;
}

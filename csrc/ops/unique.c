/* unique.c - unique(dim=...) and unique_consecutive: the slices along dim are rows,
 * ordered lexicographically (torch's comparator: `<` then `>` per element, so a NaN
 * ties and the next element decides) by a stable merge sort of row indices, then grouped
 * into runs of rows equal under `==` (NaN never equal, -0.0 == 0.0). The first row of a
 * run represents it, as in torch's _unique_dim_cpu_impl. */
#include "ops/sort.h"

#include <stdlib.h>
#include <string.h>

#include "core/convert.h"
#include "core/error.h"
#include "ops/copy.h"
#include "ops/view.h"

/* The dtypes torch's unique_dim dispatches: all ints (barebones unsigned included),
 * bool, half, bfloat16, float, double. Each gets a value loader. */
#define UNIQUE_IDS(X) X(BOOL) X(UINT8) X(INT8) X(INT16) X(INT32) X(INT64) X(UINT16) X(UINT32) X(UINT64) \
    X(FLOAT16) X(BFLOAT16) X(FLOAT32) X(FLOAT64)

#define LD_BOOL(p, i) (((const uint8_t *)(p))[i])
#define LD_UINT8(p, i) (((const uint8_t *)(p))[i])
#define LD_INT8(p, i) (((const int8_t *)(p))[i])
#define LD_INT16(p, i) (((const int16_t *)(p))[i])
#define LD_INT32(p, i) (((const int32_t *)(p))[i])
#define LD_INT64(p, i) (((const int64_t *)(p))[i])
#define LD_UINT16(p, i) (((const uint16_t *)(p))[i])
#define LD_UINT32(p, i) (((const uint32_t *)(p))[i])
#define LD_UINT64(p, i) (((const uint64_t *)(p))[i])
#define LD_FLOAT16(p, i) tl_f16_to_f32(((const uint16_t *)(p))[i])
#define LD_BFLOAT16(p, i) tl_bf16_to_f32(((const uint16_t *)(p))[i])
#define LD_FLOAT32(p, i) (((const float *)(p))[i])
#define LD_FLOAT64(p, i) (((const double *)(p))[i])

typedef int (*row_cmp_fn)(const char *a, const char *b, int64_t L);
typedef bool (*row_eq_fn)(const char *a, const char *b, int64_t L);

#define DEF_ROW_FNS(ID)                                                          \
    static int cmp_##ID(const char *a, const char *b, int64_t L)                 \
    {                                                                            \
        for (int64_t i = 0; i < L; i++) {                                        \
            if (LD_##ID(a, i) < LD_##ID(b, i)) return -1;                        \
            if (LD_##ID(a, i) > LD_##ID(b, i)) return 1;                         \
        }                                                                        \
        return 0;                                                                \
    }                                                                            \
    static bool eq_##ID(const char *a, const char *b, int64_t L)                 \
    {                                                                            \
        for (int64_t i = 0; i < L; i++)                                          \
            if (!(LD_##ID(a, i) == LD_##ID(b, i))) return false;                 \
        return true;                                                             \
    }
UNIQUE_IDS(DEF_ROW_FNS)
#undef DEF_ROW_FNS

static const struct {
    row_cmp_fn cmp;
    row_eq_fn eq;
} row_fns[TL_NUM_DTYPES] = {
#define ROW_ENTRY(ID) [TL_##ID] = {cmp_##ID, eq_##ID},
    UNIQUE_IDS(ROW_ENTRY)
#undef ROW_ENTRY
};

typedef struct {
    const char *base;
    int64_t row_bytes, L;
    row_cmp_fn cmp;
} rows_ctx;

static int row_less(const rows_ctx *c, int64_t a, int64_t b)
{
    return c->cmp(c->base + a * c->row_bytes, c->base + b * c->row_bytes, c->L) < 0;
}

/* Stable merge sort of the row indices a[0..n) (tmp holds n more); insertion sort below 16. */
static void sort_rows(const rows_ctx *c, int64_t *a, int64_t *tmp, int64_t n)
{
    if (n <= 16) {
        for (int64_t i = 1; i < n; i++) {
            int64_t v = a[i], j = i;
            while (j > 0 && row_less(c, v, a[j - 1])) a[j] = a[j - 1], j--;
            a[j] = v;
        }
        return;
    }
    int64_t h = n / 2;
    sort_rows(c, a, tmp, h);
    sort_rows(c, a + h, tmp, n - h);
    if (!row_less(c, a[h], a[h - 1])) return; /* already in order */
    memcpy(tmp, a, sizeof(int64_t) * (size_t)h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) a[k++] = row_less(c, a[j], tmp[i]) ? a[j++] : tmp[i++];
    while (i < h) a[k++] = tmp[i++];
}

/* torch's checks for inputs with no elements; *done = 1 when the (empty) result is built. */
static int unique_empty(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x, int dim,
                        int *done)
{
    int zero_dims = 0;
    for (int i = 0; i < x->ndim; i++) zero_dims += x->sizes[i] == 0;
    if (x->sizes[dim] != 0)
        return tl_err(TL_ERR_RUNTIME, "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
    if (zero_dims != 1)
        return tl_err(TL_ERR_RUNTIME, "Number of zero sized dimensions is more than one, so unique cannot be applied ");
    int64_t zero = 0;
    int rc = tl_tensor_empty(out, x->ndim, x->sizes, (tl_dtype)x->dtype, x->device, false);
    if (rc == 0 && inverse) rc = tl_tensor_empty(inverse, 1, &zero, TL_INT64, x->device, false);
    if (rc == 0 && counts) rc = tl_tensor_empty(counts, 1, &zero, TL_INT64, x->device, false);
    *done = 1;
    return rc;
}

/* Unique rows of the contiguous [R, L] buffer: fills order (sorted row ids unless
 * consecutive), inv (row -> group), cnt (group sizes), first (group -> its first row);
 * returns the group count. */
static int64_t group_rows(const rows_ctx *c, row_eq_fn eq, bool consecutive, int64_t R, int64_t *order,
                          int64_t *tmp, int64_t *inv, int64_t *cnt, int64_t *first)
{
    for (int64_t i = 0; i < R; i++) order[i] = i;
    if (!consecutive) sort_rows(c, order, tmp, R);
    int64_t U = 0;
    for (int64_t i = 0; i < R; i++) {
        int64_t r = order[i];
        if (U == 0 || !eq(c->base + first[U - 1] * c->row_bytes, c->base + r * c->row_bytes, c->L)) {
            first[U] = r;
            cnt[U++] = 0;
        }
        cnt[U - 1]++;
        inv[r] = U - 1;
    }
    return U;
}

int tl_unique_dim(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x, int64_t dim,
                  bool flat, bool consecutive)
{
    tl_dtype dt = (tl_dtype)x->dtype;
    if (!row_fns[dt].cmp)
        return tl_err_dispatch(TL_ERR_NOTIMPL, dt, "%s", flat ? "unique" : "unique_dim");
    int d = 0, nd = x->ndim;
    if (!flat) {
        if (nd == 0)
            return tl_err(TL_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        if (tl_wrap_dim(dim, nd, &d) < 0) return -1;
        int64_t numel = 1;
        for (int i = 0; i < nd; i++) numel *= x->sizes[i];
        if (numel == 0) {
            int done = 0;
            int rc = unique_empty(out, inverse, counts, x, d, &done);
            if (rc < 0) {
                if (out->storage) tl_tensor_clear(out);
                if (inverse && inverse->storage) tl_tensor_clear(inverse);
            }
            return rc;
        }
    }
    /* rows = slices along d, moved first and made contiguous */
    int64_t perm[TL_MAX_DIMS], back[TL_MAX_DIMS];
    perm[0] = d;
    for (int i = 0, k = 1; i < nd; i++)
        if (i != d) perm[k++] = i;
    for (int i = 0; i < nd; i++) back[perm[i]] = i;
    tl_tensor mv = {0}, xc = {0}, tmp = {0};
    int rc = flat || nd == 0 ? tl_tensor_alias(&mv, x) : tl_permute(&mv, x, perm, nd);
    if (rc == 0) rc = tl_contiguous(&xc, &mv, TL_MEMFMT_CONTIGUOUS);
    if (mv.storage) tl_tensor_clear(&mv);
    if (rc < 0) return -1;
    int64_t numel = 1;
    for (int i = 0; i < nd; i++) numel *= x->sizes[i];
    int64_t R = flat ? numel : x->sizes[d], L = R ? numel / R : 0;
    int64_t isz = tl_dtype_itemsize(dt);
    int64_t *buf = malloc(sizeof(int64_t) * (size_t)(5 * R + 1));
    if (!buf) {
        tl_tensor_clear(&xc);
        return tl_err(TL_ERR_MEMORY, "out of memory");
    }
    int64_t *order = buf, *stmp = buf + R, *inv = buf + 2 * R, *cnt = buf + 3 * R, *first = buf + 4 * R;
    rows_ctx c = {(const char *)tl_data(&xc), L * isz, L, row_fns[dt].cmp};
    int64_t U = group_rows(&c, row_fns[dt].eq, consecutive, R, order, stmp, inv, cnt, first);

    /* result rows in moved layout [U, rest...], then moved back (torch returns that view) */
    int64_t osz[TL_MAX_DIMS];
    int ond = flat ? 1 : nd;
    osz[0] = U;
    for (int i = 1; i < ond; i++) osz[i] = x->sizes[perm[i]];
    rc = tl_tensor_empty(&tmp, ond, osz, dt, x->device, false);
    if (rc == 0) {
        char *o = tl_data(&tmp);
        for (int64_t u = 0; u < U; u++) memcpy(o + u * c.row_bytes, c.base + first[u] * c.row_bytes, (size_t)c.row_bytes);
        rc = flat || nd == 1 ? tl_tensor_alias(out, &tmp) : tl_permute(out, &tmp, back, nd);
    }
    if (rc == 0 && inverse) {
        rc = flat ? tl_tensor_empty(inverse, nd, x->sizes, TL_INT64, x->device, false)
                  : tl_tensor_empty(inverse, 1, &R, TL_INT64, x->device, false);
        if (rc == 0) memcpy(tl_data(inverse), inv, sizeof(int64_t) * (size_t)R);
    }
    if (rc == 0 && counts) {
        rc = tl_tensor_empty(counts, 1, &U, TL_INT64, x->device, false);
        if (rc == 0) memcpy(tl_data(counts), cnt, sizeof(int64_t) * (size_t)U);
    }
    free(buf);
    tl_tensor_clear(&xc);
    if (tmp.storage) tl_tensor_clear(&tmp);
    if (rc < 0) {
        if (out->storage) tl_tensor_clear(out);
        if (inverse && inverse->storage) tl_tensor_clear(inverse);
        if (counts && counts->storage) tl_tensor_clear(counts);
    }
    return rc;
}

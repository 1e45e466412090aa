/* unique.c - unique(dim=...) and unique_consecutive: the slices along dim are rows,
 * ordered lexicographically (torch's comparator: `<` then `>` per element, so a NaN
 * ties and the next element decides) by a stable merge sort of row indices, then grouped
 * into runs of rows equal under `==` (NaN never equal, -0.0 == 0.0). The first row of a
 * run represents it, as in torch's _unique_dim_cpu_impl. */
#include "ops/sort.h"

#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/convert.h"
#include "core/error.h"
#include "ops/copy.h"
#include "ops/elementwise.h"
#include "ops/index.h"
#include "ops/join.h"
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

/* ---- on a backend's device ----------------------------------------------------------------
 * The same steps from the backend's entries, on the contiguous [R, L] rows xc: unless consecutive,
 * the rows' lexicographic order by stable sorts of one column after the other, the last first
 * (sort entry; the gathers through the index entry), which is the CPU's stable order wherever
 * `<` is a total order (NaN-free rows: the device's key puts NaN above everything, torch's
 * comparator lets it tie); a run starts at row 0 and where a row differs from the one before in
 * some element (!=: NaN never equal, -0 == 0; "some" as a row-wise cumulative count of the
 * differences, the scan entry); the starts' positions (select entry, through nonzero) give the
 * rows (first of each run) and the counts (differences of the starts); the inverse is each
 * row's run (a cumulative sum of the start flags, minus one), put back at the row's place when
 * sorted. Only the number of runs crosses to the host. */
static int unique_rows_backend(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x,
                               const tl_tensor *xc, int64_t R, int64_t L, bool flat, bool consecutive,
                               const int64_t *perm, const int64_t *back)
{
    int nd = x->ndim;
    int64_t one = 1, zero = 0, rs[2] = {R, L}, rst[2] = {L, 1};
    tl_tensor t[16];
    memset(t, 0, sizeof t);
    tl_tensor *ords = &t[0] /* two: ping-pong */, *srt = &t[2], *ne = &t[3], *cnt = &t[4], *anyd = &t[5],
              *head = &t[6], *flags = &t[7], *nz = &t[8], *rows = &t[9], *grp = &t[10],
              *inv = &t[11], *tmp = &t[12];
    int rc = 0, cur = 0;
    if (R == 0) { /* flat and empty: empty results */
        rc = tl_tensor_empty(out, 1, &zero, (tl_dtype)x->dtype, x->device, false);
        if (rc == 0 && inverse) rc = tl_tensor_empty(inverse, nd, x->sizes, TL_INT64, x->device, false);
        if (rc == 0 && counts) rc = tl_tensor_empty(counts, 1, &zero, TL_INT64, x->device, false);
        goto done;
    }
    tl_tensor X = tl_tensor_geom(xc, 2, rs, rst);
    const tl_tensor *Xs = &X;
    if (!consecutive) {
        for (int64_t j = L - 1; rc == 0 && j >= 0; j--) {
            tl_tensor col = tl_tensor_geom(xc, 1, &R, &rst[0]), keys = {0}, sv = {0}, p = {0};
            col.offset = xc->offset + j;
            if (j == L - 1) {
                rc = tl_sort(&sv, &ords[cur], &col, 0, false);
            } else { /* the column in the order so far, sorted stably; the order follows */
                rc = tl_index_select(&keys, &col, 0, &ords[cur]);
                if (rc == 0) rc = tl_sort(&sv, &p, &keys, 0, false);
                if (rc == 0) rc = tl_index_select(&ords[1 - cur], &ords[cur], 0, &p);
                if (rc == 0) {
                    tl_tensor_clear(&ords[cur]);
                    cur = 1 - cur;
                }
            }
            tl_tensor *tt[] = {&keys, &sv, &p};
            for (int k = 0; k < 3; k++)
                if (tt[k]->storage) tl_tensor_clear(tt[k]);
        }
        if (rc == 0) rc = tl_index_select(srt, &X, 0, &ords[cur]);
        Xs = srt;
    }
    /* flags: 1 for the first row, then whether a row differs from the one before */
    if (rc == 0) rc = tl_tensor_empty(head, 1, &one, TL_BOOL, x->device, false);
    if (rc == 0) rc = tl_fill_(head, tl_scalar_int(1));
    if (rc == 0 && R > 1) {
        int64_t m[2] = {R - 1, L};
        tl_tensor later = tl_tensor_geom(Xs, 2, m, Xs->strides), earlier = later;
        later.offset = Xs->offset + Xs->strides[0];
        tl_ew_dest dst = {.mode = TL_EW_NEW, .out = ne};
        tl_ew_arg la = {.t = &later}, ea = {.t = &earlier};
        rc = tl_ew_binary(TL_BOP_ne, la, ea, &dst, NULL);
        if (rc == 0 && L > 1) { /* any along the row: the last of its cumulative count != 0 */
            rc = tl_scan(cnt, NULL, ne, TL_SCAN_CUMSUM, 1, TL_INT64);
            tl_tensor last = tl_tensor_geom(cnt, 1, m, &cnt->strides[0]);
            last.offset = cnt->offset + (L - 1) * cnt->strides[1];
            tl_ew_dest d2 = {.mode = TL_EW_NEW, .out = anyd};
            tl_ew_arg a = {.t = &last}, z = {.t = NULL, .s = tl_scalar_int(0)};
            if (rc == 0) rc = tl_ew_binary(TL_BOP_ne, a, z, &d2, NULL);
        }
    }
    if (rc == 0) {
        int64_t rm1 = R - 1;
        const tl_tensor *diff = L > 1 ? anyd : ne; /* [R - 1] or [R - 1, 1] */
        tl_tensor col0 = R > 1 ? tl_tensor_geom(diff, 1, &rm1, diff->strides) : (tl_tensor){0};
        const tl_tensor *parts[2] = {head, &col0};
        rc = tl_cat(flags, parts, R > 1 ? 2 : 1, 0);
    }
    if (rc == 0) rc = tl_nonzero(nz, flags); /* (U, 1): the run starts */
    int64_t U = rc == 0 ? nz->sizes[0] : 0;
    tl_tensor starts = rc == 0 ? tl_tensor_geom(nz, 1, &U, nz->strides) : (tl_tensor){0};
    if (rc == 0) rc = tl_index_select(rows, Xs, 0, &starts);
    if (rc == 0) { /* [U, L] as the moved layout [U, rest...], then moved back */
        int ond = flat ? 1 : nd;
        int64_t osz[TL_MAX_DIMS], ost[TL_MAX_DIMS];
        osz[0] = U;
        for (int i = 1; i < ond; i++) osz[i] = x->sizes[perm[i]];
        tl_contiguous_strides(osz, ond, ost);
        rc = tl_tensor_view_init(tmp, rows, ond, osz, ost, rows->offset);
        if (rc == 0) rc = flat || nd == 1 ? tl_tensor_alias(out, tmp) : tl_permute(out, tmp, back, nd);
    }
    if (rc == 0 && counts) rc = tl_run_counts(counts, &starts, R);
    if (rc == 0 && inverse) {
        rc = tl_run_ids(grp, flags);
        const tl_tensor *src = grp, *ix[1] = {&ords[cur]};
        if (rc == 0 && !consecutive) { /* each sorted row's run, put back at the row's place */
            rc = tl_tensor_empty(inv, 1, &R, TL_INT64, x->device, false);
            if (rc == 0) rc = tl_index_put_(inv, ix, 1, grp, NULL, false, 0);
            src = inv;
        }
        if (rc == 0) rc = flat ? tl_tensor_empty(inverse, nd, x->sizes, TL_INT64, x->device, false)
                               : tl_tensor_empty(inverse, 1, &R, TL_INT64, x->device, false);
        if (rc == 0) {
            tl_tensor sv = tl_tensor_geom(src, inverse->ndim, inverse->sizes, inverse->strides);
            rc = tl_copy_(inverse, &sv);
        }
    }
done:
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (t[k].storage) tl_tensor_clear(&t[k]);
    if (rc < 0) {
        if (out->storage) tl_tensor_clear(out);
        if (inverse && inverse->storage) tl_tensor_clear(inverse);
        if (counts && counts->storage) tl_tensor_clear(counts);
    }
    return rc;
}

int tl_unique_dim(tl_tensor *out, tl_tensor *inverse, tl_tensor *counts, const tl_tensor *x, int64_t dim,
                  bool flat, bool consecutive)
{
    tl_dtype dt = (tl_dtype)x->dtype;
    if (!row_fns[dt].cmp)
        return tl_err_dispatch(TL_ERR_NOTIMPL, dt, "%s", flat ? "unique" : "unique_dim");
    int d = 0, nd = x->ndim;
    if (tl_device_on_backend(x->device) && tl_backend_dtype_code(dt) < 0) /* no device arithmetic */
        return tl_backend_refuse(consecutive ? "unique_consecutive" : "unique", x->device, dt);
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
    if (tl_device_on_backend(x->device)) {
        rc = unique_rows_backend(out, inverse, counts, x, &xc, R, L, flat, consecutive, perm, back);
        tl_tensor_clear(&xc);
        return rc;
    }
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

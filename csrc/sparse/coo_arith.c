/* coo_arith.c - sparse + sparse and sparse * sparse on COO tensors, each one walk over
 * linearized indices writing the result's indices and values directly: torch's add walk
 * (both index lists in their stored order, taking the lesser entry, or both summed when
 * equal) and the intersection of two coalesced tensors for mul; for mul with an
 * uncoalesced operand, torch's source-driven intersection (tl_coo_mul_source). The values
 * arrive promoted to one dtype (and b's scaled by alpha) from tensorlib/_sparse.py. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "ops/copy.h"
#include "sparse/sparse.h"

/* The two index lists being walked: linear keys when the sizes' product fits int64 (the
 * bounds of every index checked), else lexicographic compares of the columns. */
typedef struct {
    const tl_tensor *ia, *ib;
    uint64_t *ka, *kb;
    int64_t na, nb;
    int sd;
    bool fits;
} walk;

static int walk_init(walk *w, const tl_tensor *a, const tl_tensor *b)
{
    uint64_t top;
    bool fb = false;
    w->ia = &a->sparse->indices;
    w->ib = &b->sparse->indices;
    w->na = w->ia->sizes[1];
    w->nb = w->ib->sizes[1];
    w->sd = a->sparse->sparse_dim;
    w->ka = malloc(sizeof(uint64_t) * (size_t)(w->na + w->nb + 1));
    w->kb = w->ka ? w->ka + w->na : NULL;
    if (!w->ka) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (tl_coo_linearize(a, w->ka, &w->fits, &top) < 0 || tl_coo_linearize(b, w->kb, &fb, &top) < 0) {
        free(w->ka);
        return -1;
    }
    w->fits = w->fits && fb;
    return 0;
}

static inline int walk_cmp(const walk *w, int64_t i, int64_t j)
{
    if (w->fits) return w->ka[i] < w->kb[j] ? -1 : w->ka[i] > w->kb[j];
    return tl_coo_cmp_entries(w->ia, i, w->ib, j, w->sd);
}

/* The walk in one pass: (pa[k], pb[k]) = the sources of result entry k in a and b (-1:
 * none); returns the number of entries. Each step advances past the lesser entry, or past
 * both when equal, without a branch on the comparison (random interleavings would
 * mispredict half of them). pa/pb hold na + nb (add) or min(na, nb) + 1 (mul). */
static int64_t plan(const walk *w, bool mul, int64_t *pa, int64_t *pb)
{
    int64_t i = 0, j = 0, m = 0, na = w->na, nb = w->nb;
    while (i < na && j < nb) {
        int c = walk_cmp(w, i, j);
        bool le = c <= 0, ge = c >= 0;
        if (mul) {
            pa[m] = i;
            pb[m] = j;
            m += le & ge;
        } else {
            pa[m] = le ? i : -1;
            pb[m] = ge ? j : -1;
            m++;
        }
        i += le;
        j += ge;
    }
    for (; !mul && i < na; m++) {
        pa[m] = i++;
        pb[m] = -1;
    }
    for (; !mul && j < nb; m++) {
        pa[m] = -1;
        pb[m] = j++;
    }
    return m;
}

/* Result entry k's R values from rows pa[k] of x (a's) and pb[k] of y (b's): the sum
 * (product for mul) where both exist, else the one that does. Sums start from zero, as
 * torch's axpy into a zeroed buffer (so -0.0 comes out +0.0). */
#define VALUE_LOOP(T, SUM, PROD)                                                           \
    {                                                                                     \
        T *o = (T *)vo;                                                                   \
        const T *x = (const T *)xa, *y = (const T *)yb;                                   \
        for (int64_t k = 0; k < m; k++) {                                                 \
            int64_t i = pa[k], j = pb[k];                                                 \
            T *ok = o + k * R;                                                            \
            const T *xr = x + (i >= 0 ? i : 0) * R, *yr = y + (j >= 0 ? j : 0) * R;       \
            if (mul && hybrid) /* torch: zeros, then addcmul (so -0 products become +0) */ \
                for (int64_t r = 0; r < R; r++) ok[r] = (T)((T)PROD(xr[r], yr[r]) + (T)0); \
            else if (mul)                                                                 \
                for (int64_t r = 0; r < R; r++) ok[r] = (T)PROD(xr[r], yr[r]);            \
            else if (i >= 0 && j >= 0)                                                    \
                for (int64_t r = 0; r < R; r++) ok[r] = (T)SUM((T)((T)0 + xr[r]), yr[r]);  \
            else                                                                          \
                for (int64_t r = 0; r < R; r++) ok[r] = (T)((T)0 + (i >= 0 ? xr : yr)[r]); \
        }                                                                                 \
    }
#define PLUS(p, q) ((p) + (q))
#define TIMES(p, q) ((p) * (q))
#define OR(p, q) ((p) | (q))
#define AND(p, q) ((p) & (q))

/* The result's index columns and values from the plan (hybrid: values with dense dims). */
static void fill(const walk *w, bool mul, bool hybrid, int64_t m, const int64_t *pa, const int64_t *pb, int64_t *ni, char *vo,
                 const char *xa, const char *yb, int64_t R, tl_dtype d)
{
    const int64_t *ia = (const int64_t *)tl_data(w->ia), *ib = (const int64_t *)tl_data(w->ib);
    int64_t as0 = w->ia->strides[0], as1 = w->ia->strides[1], bs0 = w->ib->strides[0], bs1 = w->ib->strides[1];
    for (int dd = 0; dd < w->sd; dd++) {
        const int64_t *ra = ia + dd * as0, *rb = ib + dd * bs0;
        int64_t *o = ni + dd * m;
        for (int64_t k = 0; k < m; k++) o[k] = pa[k] >= 0 ? ra[pa[k] * as1] : rb[pb[k] * bs1];
    }
    switch (d) {
    case TL_BOOL: VALUE_LOOP(uint8_t, OR, AND) break;
#define CASE(ID, T) case TL_##ID: VALUE_LOOP(T, PLUS, TIMES) break;
        TL_SPARSE_NATIVE_LIST(CASE)
#undef CASE
    default: break;
    }
}

/* The shared body of tl_coo_add / tl_coo_mul. */
static int combine(tl_tensor *out, const tl_tensor *a, const tl_tensor *av, const tl_tensor *b, const tl_tensor *bv,
                   bool mul)
{
    tl_dtype dt = (tl_dtype)av->dtype, acc = tl_sparse_acc_dtype(dt);
    if (bv->dtype != dt || av->ndim != bv->ndim || memcmp(av->sizes + 1, bv->sizes + 1, sizeof(int64_t) * (av->ndim - 1)))
        return tl_err(TL_ERR_RUNTIME, "sparse add/mul: values of one dtype and one row shape expected");
    walk w;
    tl_tensor x = {0}, y = {0}, nind = {0}, nval = {0}, cast = {0};
    int rc = -1;
    if (walk_init(&w, a, b) < 0) return -1;
    int64_t cap = mul ? (w.na < w.nb ? w.na : w.nb) + 1 : w.na + w.nb + 1;
    int64_t *pa = malloc(sizeof(int64_t) * (size_t)(2 * cap)), *pb = pa ? pa + cap : NULL, m = 0;
    if (!pa) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    m = plan(&w, mul, pa, pb);
    /* values read contiguous, in the dtype the arithmetic runs in */
    if ((acc == dt ? tl_contiguous(&x, av, TL_MEMFMT_CONTIGUOUS) : tl_clone(&x, av, acc, TL_MEMFMT_CONTIGUOUS)) < 0 ||
        (acc == dt ? tl_contiguous(&y, bv, TL_MEMFMT_CONTIGUOUS) : tl_clone(&y, bv, acc, TL_MEMFMT_CONTIGUOUS)) < 0)
        goto done;
    int64_t isz[2] = {w.sd, m}, vsz[TL_MAX_DIMS], R = 1;
    memcpy(vsz, av->sizes, sizeof(int64_t) * av->ndim);
    vsz[0] = m;
    for (int d = 1; d < av->ndim; d++) R *= av->sizes[d];
    if (tl_tensor_empty(&nind, 2, isz, TL_INT64, a->device, false) < 0 ||
        tl_tensor_empty(&nval, av->ndim, vsz, acc, a->device, false) < 0)
        goto done;
    fill(&w, mul, av->ndim > 1, m, pa, pb, (int64_t *)tl_data(&nind), tl_data(&nval), tl_data(&x), tl_data(&y), R, acc);
    if (acc != dt && tl_clone(&cast, &nval, dt, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
    rc = tl_coo_wrap(out, &nind, acc != dt ? &cast : &nval, a->ndim, a->sizes,
                     mul || (a->sparse->coalesced && b->sparse->coalesced));
done:
    free(w.ka);
    free(pa);
    tl_tensor_clear(&x);
    tl_tensor_clear(&y);
    tl_tensor_clear(&nind);
    tl_tensor_clear(&nval);
    tl_tensor_clear(&cast);
    return rc;
}

int tl_coo_add(tl_tensor *out, const tl_tensor *a, const tl_tensor *av, const tl_tensor *b, const tl_tensor *bv)
{
    return combine(out, a, av, b, bv, false);
}

int tl_coo_mul(tl_tensor *out, const tl_tensor *a, const tl_tensor *av, const tl_tensor *b, const tl_tensor *bv)
{
    if (!a->sparse->coalesced || !b->sparse->coalesced)
        return tl_err(TL_ERR_RUNTIME, "tl_coo_mul: expects coalesced operands");
    return combine(out, a, av, b, bv, true);
}

/* keys[0, n) sorted ascending (stable), perm[k] = the original position of sorted key k;
 * keys need kb bits. */
static int sort_with_perm(uint64_t *keys, int64_t n, int kb, int64_t *perm)
{
    int pb = tl_bit_width((uint64_t)n);
    uint64_t *tk = malloc(sizeof(uint64_t) * (size_t)(n + 1));
    int64_t *tp = NULL;
    int rc = -1;
    if (!tk) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (kb + pb <= 64) { /* positions ride below the keys: one array to move */
        for (int64_t i = 0; i < n; i++) keys[i] = keys[i] << pb | (uint64_t)i;
        if (tl_coo_radix_sort(keys, NULL, n, pb, kb, tk, NULL) < 0) goto done;
        uint64_t pmask = ((uint64_t)1 << pb) - 1;
        for (int64_t i = 0; i < n; i++) {
            perm[i] = (int64_t)(keys[i] & pmask);
            keys[i] >>= pb;
        }
    } else {
        tp = malloc(sizeof(int64_t) * (size_t)(n + 1));
        if (!tp) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
        for (int64_t i = 0; i < n; i++) perm[i] = i;
        if (tl_coo_radix_sort(keys, perm, n, 0, kb, tk, tp) < 0) goto done;
    }
    rc = 0;
done:
    free(tk);
    free(tp);
    return rc;
}

/* The dtype torch's intersection kernel accumulates dtype d in (at::acc_type on the CPU),
 * as the dtype whose arithmetic this file runs: every integer in int64 (computed as
 * uint64, wrapping), half-width floats in float32, float32 in float64, complex32 in
 * complex64, complex64 in complex128; TL_NUM_DTYPES when there is none. */
static tl_dtype mul_acc_dtype(tl_dtype d)
{
    switch (d) {
    case TL_BOOL: return TL_BOOL;
    case TL_UINT8: case TL_INT8: case TL_INT16: case TL_INT32: case TL_INT64: case TL_UINT16: case TL_UINT32:
    case TL_UINT64: return TL_INT64;
    case TL_FLOAT16: case TL_BFLOAT16: case TL_FLOAT8_E4M3FN: case TL_FLOAT8_E5M2: return TL_FLOAT32;
    case TL_FLOAT32: case TL_FLOAT64: return TL_FLOAT64;
    case TL_COMPLEX32: return TL_COMPLEX64;
    case TL_COMPLEX64: case TL_COMPLEX128: return TL_COMPLEX128;
    default: return TL_NUM_DTYPES;
    }
}

/* Result row i = zero, then += x row i * y row perm[c] for each match c in [first[i],
 * first[i] + cnt[i]), element by element in T (rows of R elements of W words: complex
 * numbers are W = 2 words multiplied by the schoolbook formula, as c10::complex). */
#define ACC_LOOP(T, W, MULADD)                                                                  \
    {                                                                                          \
        T *o = (T *)vo;                                                                        \
        const T *x = (const T *)xv, *y = (const T *)yv;                                        \
        for (int64_t i = 0; i < n; i++) {                                                      \
            T *oi = o + i * R * W;                                                             \
            const T *xi = x + i * R * W;                                                       \
            memset(oi, 0, sizeof(T) * (size_t)(R * W));                                        \
            for (int64_t c = first[i]; c < first[i] + cnt[i]; c++) {                           \
                const T *yj = y + perm[c] * R * W;                                             \
                for (int64_t r = 0; r < R; r++) MULADD(oi, xi, yj, r);                         \
            }                                                                                  \
        }                                                                                      \
    }
#define MULADD_BOOL(o, x, y, r) (o)[r] |= (uint8_t)((x)[r] & (y)[r])
#define MULADD_PLAIN(o, x, y, r) (o)[r] += (x)[r] * (y)[r]
/* in the element type of x: float for complex64 sums, double for complex128 */
#define MULADD_COMPLEX(o, x, y, r)                                                             \
    do {                                                                                       \
        __typeof__((x)[0]) a = (x)[2 * (r)], b = (x)[2 * (r) + 1], cc = (y)[2 * (r)], d = (y)[2 * (r) + 1]; \
        (o)[2 * (r)] += a * cc - b * d;                                                        \
        (o)[2 * (r) + 1] += a * d + b * cc;                                                    \
    } while (0)

int tl_coo_mul_source(tl_tensor *out, const tl_tensor *src, const tl_tensor *sv, const tl_tensor *pc,
                      const tl_tensor *pv)
{
    tl_dtype dt = (tl_dtype)sv->dtype, acc = mul_acc_dtype(dt);
    if (acc == TL_NUM_DTYPES || pv->dtype != dt || sv->ndim != pv->ndim ||
        memcmp(sv->sizes + 1, pv->sizes + 1, sizeof(int64_t) * (sv->ndim - 1)))
        return tl_err(TL_ERR_RUNTIME, "tl_coo_mul_source: values of one supported dtype and one row shape expected");
    int sd = src->sparse->sparse_dim;
    int64_t n = src->sparse->indices.sizes[1], m = pc->sparse->indices.sizes[1], R = 1;
    for (int d = 1; d < sv->ndim; d++) R *= sv->sizes[d];
    tl_tensor x = {0}, y = {0}, nind = {0}, nval = {0}, cast = {0};
    uint64_t *ks = malloc(sizeof(uint64_t) * (size_t)(n + m + 1)), *kp = ks ? ks + n : NULL, top = 0;
    int64_t *buf = malloc(sizeof(int64_t) * (size_t)(3 * n + m + 1));
    int64_t *first = buf, *cnt = buf ? buf + n : NULL, *sperm = buf ? buf + 2 * n : NULL,
            *perm = buf ? buf + 3 * n : NULL;
    bool fs = false, fp = false;
    int rc = -1;
    if (!ks || !buf) { tl_err(TL_ERR_MEMORY, "out of memory"); goto done; }
    if (tl_coo_linearize(pc, kp, &fp, &top) < 0 || tl_coo_linearize(src, ks, &fs, &top) < 0) goto done;
    if (!fs || !fp) { tl_err(TL_ERR_RUNTIME, "tl_coo_mul_source: sparse sizes too large to linearize"); goto done; }
    int kb = tl_bit_width(top);
    /* pc's entries in index order (stable: equal indices in stored order), as torch's sort */
    if (pc->sparse->coalesced) {
        for (int64_t j = 0; j < m; j++) perm[j] = j;
    } else if (sort_with_perm(kp, m, kb, perm) < 0) {
        goto done;
    }
    /* each source entry's run of equal keys in pc: a merge walk over src in index order */
    if (!src->sparse->coalesced && sort_with_perm(ks, n, kb, sperm) < 0) goto done;
    for (int64_t k = 0, j = 0, hi = 0; k < n; k++) {
        int64_t i = src->sparse->coalesced ? k : sperm[k];
        uint64_t key = ks[k];
        if (k == 0 || key != ks[k - 1]) {
            while (j < m && kp[j] < key) j++;
            for (hi = j; hi < m && kp[hi] == key; hi++) {}
        }
        first[i] = j;
        cnt[i] = hi - j;
    }
    /* values in the accumulation dtype, contiguous; the sums run there, rounded once */
    int64_t vsz[TL_MAX_DIMS], osz[TL_MAX_DIMS];
    memcpy(vsz, sv->sizes, sizeof(int64_t) * sv->ndim);
    memcpy(osz, src->sizes, sizeof(int64_t) * sd);
    memcpy(osz + sd, sv->sizes + 1, sizeof(int64_t) * (sv->ndim - 1));
    if (tl_clone(&x, sv, acc, TL_MEMFMT_CONTIGUOUS) < 0 || tl_clone(&y, pv, acc, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_clone(&nind, &src->sparse->indices, TL_INT64, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_tensor_empty(&nval, sv->ndim, vsz, acc, src->device, false) < 0)
        goto done;
    char *vo = tl_data(&nval);
    const char *xv = tl_data(&x), *yv = tl_data(&y);
    switch (acc) {
    case TL_BOOL: ACC_LOOP(uint8_t, 1, MULADD_BOOL) break;
    case TL_INT64: ACC_LOOP(uint64_t, 1, MULADD_PLAIN) break; /* wraps, defined */
    case TL_FLOAT32: ACC_LOOP(float, 1, MULADD_PLAIN) break;
    case TL_FLOAT64: ACC_LOOP(double, 1, MULADD_PLAIN) break;
    case TL_COMPLEX64: ACC_LOOP(float, 2, MULADD_COMPLEX) break;
    default: ACC_LOOP(double, 2, MULADD_COMPLEX) break;
    }
    if (acc != dt && tl_clone(&cast, &nval, dt, TL_MEMFMT_CONTIGUOUS) < 0) goto done;
    rc = tl_coo_wrap(out, &nind, acc != dt ? &cast : &nval, sd + sv->ndim - 1, osz, src->sparse->coalesced);
done:
    free(ks);
    free(buf);
    tl_tensor_clear(&x);
    tl_tensor_clear(&y);
    tl_tensor_clear(&nind);
    tl_tensor_clear(&nval);
    tl_tensor_clear(&cast);
    return rc;
}

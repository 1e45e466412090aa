/* coo_arith.c - sparse + sparse and sparse * sparse on COO tensors, each one walk over
 * linearized indices writing the result's indices and values directly: torch's add walk
 * (both index lists in their stored order, taking the lesser entry, or both summed when
 * equal) and the intersection of two coalesced tensors for mul. The values arrive promoted
 * to one dtype (and b's scaled by alpha) from tensorlib/_sparse.py. */
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
 * (product for mul) where both exist, else a copy of the one that does. */
#define VALUE_LOOP(T, SUM, PROD)                                                           \
    {                                                                                     \
        T *o = (T *)vo;                                                                   \
        const T *x = (const T *)xa, *y = (const T *)yb;                                   \
        for (int64_t k = 0; k < m; k++) {                                                 \
            int64_t i = pa[k], j = pb[k];                                                 \
            T *ok = o + k * R;                                                            \
            const T *xr = x + (i >= 0 ? i : 0) * R, *yr = y + (j >= 0 ? j : 0) * R;       \
            if (mul)                                                                      \
                for (int64_t r = 0; r < R; r++) ok[r] = (T)PROD(xr[r], yr[r]);            \
            else if (i >= 0 && j >= 0)                                                    \
                for (int64_t r = 0; r < R; r++) ok[r] = (T)SUM(xr[r], yr[r]);             \
            else                                                                          \
                memcpy(ok, i >= 0 ? xr : yr, sizeof(T) * (size_t)R);                      \
        }                                                                                 \
    }
#define PLUS(p, q) ((p) + (q))
#define TIMES(p, q) ((p) * (q))
#define OR(p, q) ((p) | (q))
#define AND(p, q) ((p) & (q))

/* The result's index columns and values from the plan. */
static void fill(const walk *w, bool mul, int64_t m, const int64_t *pa, const int64_t *pb, int64_t *ni, char *vo,
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
    fill(&w, mul, m, pa, pb, (int64_t *)tl_data(&nind), tl_data(&nval), tl_data(&x), tl_data(&y), R, acc);
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

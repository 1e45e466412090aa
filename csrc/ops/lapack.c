/* lapack.c - the LAPACK-backed primitives of tensorlib.linalg (see lapack.h): typed calls
 * into the LAPACK of the OpenBLAS tensorlib links (scipy_-prefixed in the wheel build,
 * unprefixed with the system library: TL_BLAS pastes the prefix), the column-major copies
 * LAPACK works on, and one batched loop per driver. Decompositions composed from these
 * (det, inv, pinv, lu, ...) and torch's checks and messages live in tensorlib/_linalg_lapack.py. */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "ops/blas.h"
#include "ops/copy.h"
#include "ops/lapack.h"

typedef int lp_int; /* scipy-openblas32 and the system build: 32-bit LAPACK integers */

/* ---- Fortran entry points: matrices as void * (one prototype per routine for s/d/c/z);
 * each trailing size_t is the hidden length of a CHARACTER argument ---- */
typedef const lp_int cint;
typedef void getrf_t(cint *m, cint *n, void *a, cint *lda, lp_int *ipiv, lp_int *info);
typedef void getrs_t(const char *tr, cint *n, cint *nrhs, const void *a, cint *lda, const lp_int *ipiv, void *b,
                     cint *ldb, lp_int *info, size_t);
typedef void potrf_t(const char *uplo, cint *n, void *a, cint *lda, lp_int *info, size_t);
typedef void geqrf_t(cint *m, cint *n, void *a, cint *lda, void *tau, void *work, cint *lwork, lp_int *info);
typedef void orgqr_t(cint *m, cint *n, cint *k, void *a, cint *lda, const void *tau, void *work, cint *lwork,
                     lp_int *info);
typedef void syevd_t(const char *jobz, const char *uplo, cint *n, void *a, cint *lda, void *w, void *work,
                     cint *lwork, lp_int *iwork, cint *liwork, lp_int *info, size_t, size_t);
typedef void heevd_t(const char *jobz, const char *uplo, cint *n, void *a, cint *lda, void *w, void *work,
                     cint *lwork, void *rwork, cint *lrwork, lp_int *iwork, cint *liwork, lp_int *info, size_t,
                     size_t);
typedef void gesdd_rt(const char *jobz, cint *m, cint *n, void *a, cint *lda, void *s, void *u, cint *ldu, void *vt,
                     cint *ldvt, void *work, cint *lwork, lp_int *iwork, lp_int *info, size_t);
typedef void gesdd_ct(const char *jobz, cint *m, cint *n, void *a, cint *lda, void *s, void *u, cint *ldu, void *vt,
                     cint *ldvt, void *work, cint *lwork, void *rwork, lp_int *iwork, lp_int *info, size_t);
typedef void geev_rt(const char *jl, const char *jr, cint *n, void *a, cint *lda, void *wr, void *wi, void *vl,
                    cint *ldvl, void *vr, cint *ldvr, void *work, cint *lwork, lp_int *info, size_t, size_t);
typedef void geev_ct(const char *jl, const char *jr, cint *n, void *a, cint *lda, void *w, void *vl, cint *ldvl,
                    void *vr, cint *ldvr, void *work, cint *lwork, void *rwork, lp_int *info, size_t, size_t);
typedef void sytrf_t(const char *uplo, cint *n, void *a, cint *lda, lp_int *ipiv, void *work, cint *lwork,
                     lp_int *info, size_t);
typedef void sytrs_t(const char *uplo, cint *n, cint *nrhs, const void *a, cint *lda, const lp_int *ipiv, void *b,
                     cint *ldb, lp_int *info, size_t);
typedef void gels_t(const char *tr, cint *m, cint *n, cint *nrhs, void *a, cint *lda, void *b, cint *ldb, void *work,
                    cint *lwork, lp_int *info, size_t);
typedef void gelsy_rt(cint *m, cint *n, cint *nrhs, void *a, cint *lda, void *b, cint *ldb, lp_int *jpvt,
                     const void *rcond, lp_int *rank, void *work, cint *lwork, lp_int *info);
typedef void gelsy_ct(cint *m, cint *n, cint *nrhs, void *a, cint *lda, void *b, cint *ldb, lp_int *jpvt,
                     const void *rcond, lp_int *rank, void *work, cint *lwork, void *rwork, lp_int *info);
typedef void gelsd_rt(cint *m, cint *n, cint *nrhs, void *a, cint *lda, void *b, cint *ldb, void *s,
                     const void *rcond, lp_int *rank, void *work, cint *lwork, lp_int *iwork, lp_int *info);
typedef void gelsd_ct(cint *m, cint *n, cint *nrhs, void *a, cint *lda, void *b, cint *ldb, void *s,
                     const void *rcond, lp_int *rank, void *work, cint *lwork, void *rwork, lp_int *iwork,
                     lp_int *info);
typedef void gelss_rt(cint *m, cint *n, cint *nrhs, void *a, cint *lda, void *b, cint *ldb, void *s,
                     const void *rcond, lp_int *rank, void *work, cint *lwork, lp_int *info);
typedef void gelss_ct(cint *m, cint *n, cint *nrhs, void *a, cint *lda, void *b, cint *ldb, void *s,
                     const void *rcond, lp_int *rank, void *work, cint *lwork, void *rwork, lp_int *info);

#define LP_S(x) TL_BLAS(s##x##_)
#define LP_D(x) TL_BLAS(d##x##_)
#define LP_C(x) TL_BLAS(c##x##_)
#define LP_Z(x) TL_BLAS(z##x##_)
/* Declares the four routines and a table indexed by lp_kind (s, d, c, z). */
#define LP_ALL4(T, x)                                                                              \
    T LP_S(x), LP_D(x), LP_C(x), LP_Z(x);                                                          \
    static T *const x##_fn[4] = {LP_S(x), LP_D(x), LP_C(x), LP_Z(x)}
/* Real and complex routines with different arguments (or names): two tables of two. */
#define LP_RC(TR, xr, TC, xc)                                                                      \
    TR LP_S(xr), LP_D(xr);                                                                         \
    TC LP_C(xc), LP_Z(xc);                                                                         \
    static TR *const xr##_r[2] = {LP_S(xr), LP_D(xr)};                                             \
    static TC *const xc##_c[2] = {LP_C(xc), LP_Z(xc)}

LP_ALL4(getrf_t, getrf);
LP_ALL4(getrs_t, getrs);
LP_ALL4(potrf_t, potrf);
LP_ALL4(geqrf_t, geqrf);
LP_ALL4(gels_t, gels);
LP_ALL4(sytrf_t, sytrf); /* complex: the complex-symmetric routines */
LP_ALL4(sytrs_t, sytrs);
sytrf_t LP_C(hetrf), LP_Z(hetrf); /* complex Hermitian (real: sytrf is the Hermitian case) */
sytrs_t LP_C(hetrs), LP_Z(hetrs);
static sytrf_t *const hetrf_c[2] = {LP_C(hetrf), LP_Z(hetrf)};
static sytrs_t *const hetrs_c[2] = {LP_C(hetrs), LP_Z(hetrs)};
LP_RC(orgqr_t, orgqr, orgqr_t, ungqr);
LP_RC(syevd_t, syevd, heevd_t, heevd);
LP_RC(gesdd_rt, gesdd, gesdd_ct, gesdd);
LP_RC(geev_rt, geev, geev_ct, geev);
LP_RC(gelsy_rt, gelsy, gelsy_ct, gelsy);
LP_RC(gelsd_rt, gelsd, gelsd_ct, gelsd);
LP_RC(gelss_rt, gelss, gelss_ct, gelss);

/* ---- dtypes, shapes and outputs ---- */

/* 0 s, 1 d, 2 c, 3 z; the real/complex tables take kind & 1 and kind >= 2. */
static int lp_kind(const tl_tensor *a)
{
    switch ((tl_dtype)a->dtype) {
    case TL_FLOAT32: return 0;
    case TL_FLOAT64: return 1;
    case TL_COMPLEX64: return 2;
    case TL_COMPLEX128: return 3;
    default: return -1;
    }
}

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }
static int64_t rows(const tl_tensor *a) { return a->sizes[a->ndim - 2]; }
static int64_t cols(const tl_tensor *a) { return a->sizes[a->ndim - 1]; }

/* The matrices (tail 2) or vectors (tail 1) in a's batch: none for a meta tensor, so every
 * op shapes its outputs (on a's device, by alloc_out) and runs no LAPACK call. */
static int64_t batch_count(const tl_tensor *a, int tail)
{
    if (a->device.type == TL_DEV_META) return 0;
    int64_t b = 1;
    for (int i = 0; i < a->ndim - tail; i++) b *= a->sizes[i];
    return b;
}

/* The op's input: a supported dtype, >= 2 dims, dims that 32-bit LAPACK integers hold.
 * Returns its lp_kind. */
static int prep(const tl_tensor *a, int tail, const char *op)
{
    int k = lp_kind(a);
    if (a->ndim < tail) return tl_err(TL_ERR_RUNTIME, "%s: expected a tensor with at least %d dims", op, tail);
    if (k < 0)
        return tl_err(TL_ERR_NOTIMPL, "\"%s\" not implemented for '%s'", op, tl_dtype_infos[a->dtype].cname);
    for (int i = a->ndim - tail; i < a->ndim; i++)
        if (a->sizes[i] > TL_BLAS_INT_MAX / 8)
            return tl_err(TL_ERR_RUNTIME, "%s: matrix dims above 2^28 are not supported", op);
    return k;
}

/* b's first nb dims equal a's (the Python layer broadcasts batches). */
static int same_batch(const tl_tensor *a, const tl_tensor *b, int nb, const char *op)
{
    if (b->ndim < nb) return tl_err(TL_ERR_RUNTIME, "%s: batch dims differ", op);
    for (int i = 0; i < nb; i++)
        if (a->sizes[i] != b->sizes[i]) return tl_err(TL_ERR_RUNTIME, "%s: batch dims differ", op);
    return 0;
}

/* Fresh output [like's first nb dims..., tail] with ntail = 0, 1 (r) or 2 (r x c, column-
 * major) trailing dims; batches contiguous; zero-filled when `zero`. */
static int alloc_out(tl_tensor *out, const tl_tensor *like, int nb, int ntail, int64_t r, int64_t c, tl_dtype dt,
                     bool zero)
{
    int64_t sz[TL_MAX_DIMS], st[TL_MAX_DIMS], inner = ntail == 2 ? r * c : ntail == 1 ? r : 1;
    for (int i = 0; i < nb; i++) sz[i] = like->sizes[i];
    if (ntail >= 1) sz[nb] = r, st[nb] = 1;
    if (ntail == 2) sz[nb + 1] = c, st[nb + 1] = max1(r);
    int64_t acc = max1(inner);
    for (int i = nb - 1; i >= 0; i--) st[i] = acc, acc *= max1(sz[i]);
    if (tl_tensor_empty_strided(out, nb + ntail, sz, st, dt, like->device) < 0) return -1;
    if (zero && out->device.type == TL_DEV_CPU) memset(tl_data(out), 0, (size_t)(tl_numel(out) * tl_itemsize(out)));
    return 0;
}

/* out = a column-major copy of matrix batch a (same shape and dtype). */
static int copy_mat(tl_tensor *out, const tl_tensor *a)
{
    if (alloc_out(out, a, a->ndim - 2, 2, rows(a), cols(a), (tl_dtype)a->dtype, false) < 0) return -1;
    return tl_copy_(out, a);
}

/* out = a contiguous copy of vector batch v ([..., k]) in dtype dt. */
static int copy_vec(tl_tensor *out, const tl_tensor *v, tl_dtype dt)
{
    if (alloc_out(out, v, v->ndim - 1, 1, v->sizes[v->ndim - 1], 0, dt, false) < 0) return -1;
    return tl_copy_(out, v);
}

/* Matrix / vector b of an output from alloc_out (per: its element count). */
static char *at(const tl_tensor *t, int64_t b, int64_t per) { return tl_data(t) + b * per * tl_itemsize(t); }

/* Workspace: the size a query wrote into w[0] (real part), as an element count. */
static int64_t wsize(int kind, const void *w)
{
    double v = (kind & 1) ? *(const double *)w : (double)*(const float *)w;
    return max1((int64_t)(v * (1 + 1e-6)) + 1);
}

static void *ws_alloc(int64_t n, size_t elem)
{
    if (n > TL_BLAS_INT_MAX) return NULL;
    return malloc((size_t)max1(n) * elem);
}

static int oom(void) { return tl_err(TL_ERR_MEMORY, "linalg: out of memory for the LAPACK workspace"); }

static size_t real_size(int kind) { return (kind & 1) ? sizeof(double) : sizeof(float); }
static size_t elem_size(int kind) { return real_size(kind) * (kind >= 2 ? 2 : 1); }

/* ---- LU ---- */

int tl_lapack_getrf(tl_tensor *lu, tl_tensor *piv, tl_tensor *info, const tl_tensor *a)
{
    int k = prep(a, 2, "lu_factor");
    if (k < 0 || copy_mat(lu, a) < 0) return -1;
    int nb = a->ndim - 2;
    int64_t m = rows(a), n = cols(a), mn = m < n ? m : n, B = batch_count(a, 2);
    if (alloc_out(piv, a, nb, 1, mn, 0, TL_INT32, true) < 0 || alloc_out(info, a, nb, 0, 0, 0, TL_INT32, true) < 0)
        return -1;
    lp_int M = (lp_int)m, N = (lp_int)n, ld = (lp_int)max1(m);
    for (int64_t b = 0; b < B; b++)
        getrf_fn[k](&M, &N, at(lu, b, m * n), &ld, (lp_int *)at(piv, b, mn), (lp_int *)at(info, b, 1));
    return 0;
}

int tl_lapack_getrs(tl_tensor *x, const tl_tensor *lu, const tl_tensor *piv, const tl_tensor *b, char trans)
{
    int k = prep(lu, 2, "lu_solve");
    if (k < 0) return -1;
    int nb = lu->ndim - 2;
    int64_t n = rows(lu), nrhs = b->ndim >= 2 ? cols(b) : 0, B = batch_count(lu, 2);
    if (cols(lu) != n || b->ndim != lu->ndim || rows(b) != n || piv->ndim != nb + 1 || piv->sizes[nb] != n ||
        b->dtype != lu->dtype)
        return tl_err(TL_ERR_RUNTIME, "lu_solve: expected LU [..., n, n], pivots [..., n], B [..., n, k]");
    if (same_batch(lu, b, nb, "lu_solve") < 0 || same_batch(lu, piv, nb, "lu_solve") < 0) return -1;
    tl_tensor f = {0}, p = {0};
    int rc = -1;
    if (copy_mat(&f, lu) < 0 || copy_vec(&p, piv, TL_INT32) < 0 || copy_mat(x, b) < 0) goto done;
    lp_int N = (lp_int)n, R = (lp_int)nrhs, ld = (lp_int)max1(n), info = 0;
    for (int64_t i = 0; i < B && n > 0 && nrhs > 0; i++)
        getrs_fn[k](&trans, &N, &R, at(&f, i, n * n), &ld, (lp_int *)at(&p, i, n), at(x, i, n * nrhs), &ld, &info,
                    1);
    rc = 0;
done:
    tl_tensor_clear(&f);
    tl_tensor_clear(&p);
    return rc;
}

int tl_lapack_pivots_to_perm(tl_tensor *perm, const tl_tensor *piv, int64_t m)
{
    if (piv->ndim < 1) return tl_err(TL_ERR_RUNTIME, "lu_unpack: pivots must have at least 1 dim");
    int nb = piv->ndim - 1;
    int64_t k = piv->sizes[nb], B = batch_count(piv, 1);
    if (k > m) return tl_err(TL_ERR_RUNTIME, "lu_unpack: more pivots than rows");
    tl_tensor p = {0};
    if (copy_vec(&p, piv, TL_INT64) < 0 || alloc_out(perm, piv, nb, 1, m, 0, TL_INT64, false) < 0) {
        tl_tensor_clear(&p);
        return -1;
    }
    int rc = 0;
    for (int64_t b = 0; b < B && rc == 0; b++) {
        int64_t *out = (int64_t *)at(perm, b, m);
        const int64_t *pv = (const int64_t *)at(&p, b, k);
        for (int64_t i = 0; i < m; i++) out[i] = i;
        for (int64_t i = 0; i < k; i++) {
            int64_t j = pv[i] - 1;
            if (j < 0 || j >= m) {
                rc = tl_err(TL_ERR_RUNTIME, "lu_unpack: pivot %lld out of range [1, %lld]", (long long)pv[i],
                            (long long)m);
                break;
            }
            int64_t t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    }
    tl_tensor_clear(&p);
    return rc;
}

/* ---- Cholesky and QR ---- */

int tl_lapack_potrf(tl_tensor *l, tl_tensor *info, const tl_tensor *a, bool upper)
{
    int k = prep(a, 2, "cholesky");
    if (k < 0 || copy_mat(l, a) < 0) return -1;
    int64_t n = rows(a), B = batch_count(a, 2);
    if (alloc_out(info, a, a->ndim - 2, 0, 0, 0, TL_INT32, true) < 0) return -1;
    lp_int N = (lp_int)n, ld = (lp_int)max1(n);
    char uplo = upper ? 'U' : 'L';
    size_t es = elem_size(k);
    for (int64_t b = 0; b < B; b++) {
        char *m = at(l, b, n * n);
        potrf_fn[k](&uplo, &N, m, &ld, (lp_int *)at(info, b, 1), 1);
        for (int64_t j = 0; j < n; j++) /* zero the triangle LAPACK leaves as it was */
            if (upper) memset(m + (j * n + j + 1) * es, 0, (size_t)(n - j - 1) * es);
            else memset(m + j * n * es, 0, (size_t)j * es);
    }
    return 0;
}

int tl_lapack_geqrf(tl_tensor *qr, tl_tensor *tau, const tl_tensor *a)
{
    int k = prep(a, 2, "geqrf");
    if (k < 0 || copy_mat(qr, a) < 0) return -1;
    int64_t m = rows(a), n = cols(a), mn = m < n ? m : n, B = batch_count(a, 2);
    if (alloc_out(tau, a, a->ndim - 2, 1, mn, 0, (tl_dtype)a->dtype, true) < 0) return -1;
    if (B == 0 || mn == 0) return 0;
    lp_int M = (lp_int)m, N = (lp_int)n, ld = (lp_int)max1(m), info = 0, q = -1;
    double probe[2];
    geqrf_fn[k](&M, &N, at(qr, 0, 0), &ld, tl_data(tau), probe, &q, &info);
    lp_int lw = (lp_int)wsize(k, probe);
    void *work = ws_alloc(lw, elem_size(k));
    if (!work) return oom();
    for (int64_t b = 0; b < B; b++) geqrf_fn[k](&M, &N, at(qr, b, m * n), &ld, at(tau, b, mn), work, &lw, &info);
    free(work);
    return 0;
}

int tl_lapack_orgqr(tl_tensor *q, const tl_tensor *a, const tl_tensor *tau)
{
    int k = prep(a, 2, "householder_product");
    if (k < 0) return -1;
    int nb = a->ndim - 2;
    int64_t m = rows(a), n = cols(a), kk = tau->ndim == nb + 1 ? tau->sizes[nb] : -1, B = batch_count(a, 2);
    if (kk < 0 || m < n || n < kk || tau->dtype != a->dtype)
        return tl_err(TL_ERR_RUNTIME, "householder_product: expected A [..., m, n], tau [..., k], m >= n >= k");
    if (same_batch(a, tau, nb, "householder_product") < 0) return -1;
    tl_tensor t = {0};
    int rc = -1;
    void *work = NULL;
    if (copy_mat(q, a) < 0 || copy_vec(&t, tau, (tl_dtype)a->dtype) < 0) goto done;
    rc = 0;
    if (B == 0 || n == 0) goto done;
    lp_int M = (lp_int)m, N = (lp_int)n, K = (lp_int)kk, ld = (lp_int)max1(m), info = 0, qq = -1;
    double probe[2];
    if (k < 2) orgqr_r[k](&M, &N, &K, at(q, 0, 0), &ld, tl_data(&t), probe, &qq, &info);
    else ungqr_c[k - 2](&M, &N, &K, at(q, 0, 0), &ld, tl_data(&t), probe, &qq, &info);
    lp_int lw = (lp_int)wsize(k, probe);
    if (!(work = ws_alloc(lw, elem_size(k)))) {
        rc = oom();
        goto done;
    }
    for (int64_t b = 0; b < B; b++)
        if (k < 2) orgqr_r[k](&M, &N, &K, at(q, b, m * n), &ld, at(&t, b, kk), work, &lw, &info);
        else ungqr_c[k - 2](&M, &N, &K, at(q, b, m * n), &ld, at(&t, b, kk), work, &lw, &info);
done:
    free(work);
    tl_tensor_clear(&t);
    return rc;
}


/* ---- eigenvalues and singular values ---- */

int tl_lapack_syevd(tl_tensor *w, tl_tensor *v, tl_tensor *info, const tl_tensor *a, bool upper, bool vectors)
{
    int k = prep(a, 2, "linalg_eigh_cpu");
    if (k < 0) return -1;
    int nb = a->ndim - 2;
    int64_t n = rows(a), B = batch_count(a, 2);
    tl_tensor tmp = {0}, *vv = vectors ? v : &tmp;
    void *work = NULL, *rwork = NULL;
    lp_int *iwork = NULL;
    int rc = -1;
    if (copy_mat(vv, a) < 0 || alloc_out(w, a, nb, 1, n, 0, tl_dtype_to_real((tl_dtype)a->dtype), true) < 0 ||
        alloc_out(info, a, nb, 0, 0, 0, TL_INT32, true) < 0)
        goto done;
    if (!vectors && alloc_out(v, a, nb, 2, 0, 0, (tl_dtype)a->dtype, false) < 0) goto done;
    rc = 0;
    if (B == 0 || n == 0) goto done;
    char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
    lp_int N = (lp_int)n, ld = (lp_int)max1(n), q = -1, iq = 0, lw, lrw = 0, liw, inf = 0;
    double probe[2], rprobe[2];
    if (k < 2) syevd_r[k](&jobz, &uplo, &N, at(vv, 0, 0), &ld, tl_data(w), probe, &q, &iq, &q, &inf, 1, 1);
    else heevd_c[k - 2](&jobz, &uplo, &N, at(vv, 0, 0), &ld, tl_data(w), probe, &q, rprobe, &q, &iq, &q, &inf, 1, 1);
    lw = (lp_int)wsize(k, probe), liw = (lp_int)max1(iq);
    if (k >= 2) lrw = (lp_int)wsize(k & 1, rprobe);
    work = ws_alloc(lw, elem_size(k));
    rwork = ws_alloc(lrw, real_size(k));
    iwork = ws_alloc(liw, sizeof(lp_int));
    if (!work || !rwork || !iwork) {
        rc = oom();
        goto done;
    }
    for (int64_t b = 0; b < B; b++) {
        lp_int *pi = (lp_int *)at(info, b, 1);
        if (k < 2) syevd_r[k](&jobz, &uplo, &N, at(vv, b, n * n), &ld, at(w, b, n), work, &lw, iwork, &liw, pi, 1, 1);
        else
            heevd_c[k - 2](&jobz, &uplo, &N, at(vv, b, n * n), &ld, at(w, b, n), work, &lw, rwork, &lrw, iwork, &liw,
                           pi, 1, 1);
    }
done:
    free(work);
    free(rwork);
    free(iwork);
    tl_tensor_clear(&tmp);
    return rc;
}

int tl_lapack_gesdd(tl_tensor *u, tl_tensor *s, tl_tensor *vh, tl_tensor *info, const tl_tensor *a, char jobz)
{
    int k = prep(a, 2, "linalg_svd_cpu");
    if (k < 0) return -1;
    int nb = a->ndim - 2;
    int64_t m = rows(a), n = cols(a), mn = m < n ? m : n, mx = m < n ? n : m, B = batch_count(a, 2);
    bool none = jobz == 'N', some = jobz == 'S';
    int64_t ur = none ? 0 : m, uc = none ? 0 : some ? mn : m, vr = none ? 0 : some ? mn : n, vc = none ? 0 : n;
    tl_tensor c = {0};
    void *work = NULL, *rwork = NULL;
    lp_int *iwork = NULL;
    int rc = -1;
    tl_dtype dt = (tl_dtype)a->dtype;
    if (copy_mat(&c, a) < 0 || alloc_out(s, a, nb, 1, mn, 0, tl_dtype_to_real(dt), true) < 0 ||
        alloc_out(u, a, nb, 2, ur, uc, dt, true) < 0 || alloc_out(vh, a, nb, 2, vr, vc, dt, true) < 0 ||
        alloc_out(info, a, nb, 0, 0, 0, TL_INT32, true) < 0)
        goto done;
    rc = 0;
    if (B == 0 || mn == 0) goto done; /* u, vh of an empty matrix: zeros (torch: the identity's columns) */
    lp_int M = (lp_int)m, N = (lp_int)n, lda = (lp_int)max1(m), ldu = (lp_int)max1(ur), ldv = (lp_int)max1(vr);
    lp_int q = -1, inf = 0, lw;
    int64_t lrw = none ? 7 * mn : (5 * mn * mn + 5 * mn > 2 * mx * mn + 2 * mn * mn + mn ? 5 * mn * mn + 5 * mn
                                                                                        : 2 * mx * mn + 2 * mn * mn + mn);
    double probe[2];
    iwork = ws_alloc(8 * mn, sizeof(lp_int));
    rwork = k >= 2 ? ws_alloc(lrw, real_size(k)) : NULL;
    if (!iwork || (k >= 2 && !rwork)) {
        rc = oom();
        goto done;
    }
    if (k < 2)
        gesdd_r[k](&jobz, &M, &N, at(&c, 0, 0), &lda, tl_data(s), tl_data(u), &ldu, tl_data(vh), &ldv, probe, &q,
                   iwork, &inf, 1);
    else
        gesdd_c[k - 2](&jobz, &M, &N, at(&c, 0, 0), &lda, tl_data(s), tl_data(u), &ldu, tl_data(vh), &ldv, probe,
                       &q, rwork, iwork, &inf, 1);
    lw = (lp_int)wsize(k, probe);
    if (!(work = ws_alloc(lw, elem_size(k)))) {
        rc = oom();
        goto done;
    }
    for (int64_t b = 0; b < B; b++) {
        char *A = at(&c, b, m * n), *S = at(s, b, mn), *U = at(u, b, ur * uc), *V = at(vh, b, vr * vc);
        lp_int *pi = (lp_int *)at(info, b, 1);
        if (k < 2) gesdd_r[k](&jobz, &M, &N, A, &lda, S, U, &ldu, V, &ldv, work, &lw, iwork, pi, 1);
        else gesdd_c[k - 2](&jobz, &M, &N, A, &lda, S, U, &ldu, V, &ldv, work, &lw, rwork, iwork, pi, 1);
    }
done:
    free(work);
    free(rwork);
    free(iwork);
    tl_tensor_clear(&c);
    return rc;
}

/* Real geev's output as complex: w = wr + i wi; a conjugate pair's vectors are the
 * columns vr[:, j] +- i vr[:, j + 1]. */
#define GEEV_TO_COMPLEX(R, C)                                                                          \
    static void geev_complex_##R(int64_t n, const R *wr, const R *wi, const R *vr, C *w, C *v)           \
    {                                                                                                    \
        for (int64_t j = 0; j < n; j++) w[j] = wr[j] + wi[j] * (C)I;                                     \
        if (!v) return;                                                                                  \
        for (int64_t j = 0; j < n; j++) {                                                                \
            if (wi[j] == 0 || j + 1 == n) {                                                              \
                for (int64_t i = 0; i < n; i++) v[j * n + i] = vr[j * n + i];                            \
                continue;                                                                                \
            }                                                                                            \
            for (int64_t i = 0; i < n; i++) {                                                            \
                v[j * n + i] = vr[j * n + i] + vr[(j + 1) * n + i] * (C)I;                               \
                v[(j + 1) * n + i] = vr[j * n + i] - vr[(j + 1) * n + i] * (C)I;                         \
            }                                                                                            \
            j++;                                                                                         \
        }                                                                                                \
    }
GEEV_TO_COMPLEX(float, float complex)
GEEV_TO_COMPLEX(double, double complex)

int tl_lapack_geev(tl_tensor *w, tl_tensor *v, tl_tensor *info, const tl_tensor *a, bool vectors)
{
    int k = prep(a, 2, "linalg_eig");
    if (k < 0) return -1;
    int nb = a->ndim - 2;
    int64_t n = rows(a), vn = vectors ? n : 0, B = batch_count(a, 2);
    tl_dtype cdt = k == 0 ? TL_COMPLEX64 : k == 1 ? TL_COMPLEX128 : (tl_dtype)a->dtype;
    tl_tensor c = {0};
    char *work = NULL, *extra = NULL;
    int rc = -1;
    if (copy_mat(&c, a) < 0 || alloc_out(w, a, nb, 1, n, 0, cdt, true) < 0 ||
        alloc_out(v, a, nb, 2, vn, vn, cdt, true) < 0 || alloc_out(info, a, nb, 0, 0, 0, TL_INT32, true) < 0)
        goto done;
    rc = 0;
    if (B == 0 || n == 0) goto done;
    char jl = 'N', jr = vectors ? 'V' : 'N';
    lp_int N = (lp_int)n, ld = (lp_int)max1(n), one = 1, q = -1, inf = 0, lw;
    double probe[2];
    size_t rs = real_size(k);
    /* real: wr, wi (n each) and vr (n x n); complex: rwork (2n) */
    if (!(extra = ws_alloc(k < 2 ? 2 * n + n * n : 2 * n, rs))) {
        rc = oom();
        goto done;
    }
    char *wr = extra, *wi = extra + n * rs, *vr = extra + 2 * n * rs;
    if (k < 2)
        geev_r[k](&jl, &jr, &N, at(&c, 0, 0), &ld, wr, wi, NULL, &one, vr, &ld, probe, &q, &inf, 1, 1);
    else
        geev_c[k - 2](&jl, &jr, &N, at(&c, 0, 0), &ld, tl_data(w), NULL, &one, tl_data(v), &ld, probe, &q, extra, &inf,
                      1, 1);
    lw = (lp_int)wsize(k, probe);
    if (!(work = ws_alloc(lw, elem_size(k)))) {
        rc = oom();
        goto done;
    }
    for (int64_t b = 0; b < B; b++) {
        lp_int *pi = (lp_int *)at(info, b, 1);
        char *W = at(w, b, n), *V = vectors ? at(v, b, n * n) : NULL;
        if (k >= 2) {
            geev_c[k - 2](&jl, &jr, &N, at(&c, b, n * n), &ld, W, NULL, &one, vectors ? V : tl_data(v), &ld, work,
                          &lw, extra, pi, 1, 1);
            continue;
        }
        geev_r[k](&jl, &jr, &N, at(&c, b, n * n), &ld, wr, wi, NULL, &one, vr, &ld, work, &lw, pi, 1, 1);
        if (*pi != 0) continue;
        if (k == 0) geev_complex_float(n, (float *)wr, (float *)wi, (float *)vr, (float complex *)W, (float complex *)V);
        else geev_complex_double(n, (double *)wr, (double *)wi, (double *)vr, (double complex *)W, (double complex *)V);
    }
done:
    free(work);
    free(extra);
    tl_tensor_clear(&c);
    return rc;
}

/* ---- least squares and triangular solves ---- */

int tl_lapack_gels(tl_tensor *x, tl_tensor *rank, tl_tensor *sv, tl_tensor *info, const tl_tensor *a,
                   const tl_tensor *b, int driver, double rcond)
{
    int k = prep(a, 2, "linalg_lstsq");
    if (k < 0) return -1;
    int nb = a->ndim - 2;
    int64_t m = rows(a), n = cols(a), mn = m < n ? m : n, mx = m < n ? n : m, B = batch_count(a, 2);
    if (b->ndim != a->ndim || rows(b) != m || b->dtype != a->dtype || driver < 0 || driver > 3)
        return tl_err(TL_ERR_RUNTIME, "lstsq: expected A [..., m, n] and B [..., m, k] of one dtype");
    if (same_batch(a, b, nb, "lstsq") < 0) return -1;
    int64_t nrhs = cols(b);
    tl_tensor c = {0}, top = {0};
    char *work = NULL, *rwork = NULL;
    lp_int *iwork = NULL;
    int rc = -1;
    tl_dtype dt = (tl_dtype)a->dtype;
    if (copy_mat(&c, a) < 0 || alloc_out(x, a, nb, 2, mx, nrhs, dt, true) < 0 ||
        alloc_out(rank, a, nb, 0, 0, 0, TL_INT64, true) < 0 ||
        alloc_out(sv, a, nb, 1, driver >= 2 ? mn : 0, 0, tl_dtype_to_real(dt), true) < 0 ||
        alloc_out(info, a, nb, 0, 0, 0, TL_INT32, true) < 0)
        goto done;
    int64_t st[TL_MAX_DIMS], sz[TL_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) sz[i] = x->sizes[i], st[i] = x->strides[i];
    sz[nb] = m; /* b goes into the first m rows of x */
    if (tl_tensor_view_init(&top, x, x->ndim, sz, st, x->offset) < 0 || tl_copy_(&top, b) < 0) goto done;
    rc = 0;
    if (B == 0 || mn == 0 || nrhs == 0) goto done;
    lp_int M = (lp_int)m, N = (lp_int)n, R = (lp_int)nrhs, lda = (lp_int)max1(m), ldb = (lp_int)max1(mx);
    lp_int q = -1, inf = 0, lw, rk = 0, iq = 1;
    double probe[2], rprobe[2] = {0, 0}, rc_d = rcond;
    float rc_f = (float)rcond;
    const void *rcp = (k & 1) ? (const void *)&rc_d : (const void *)&rc_f;
    char trans = 'N';
    size_t rs = real_size(k);
    lp_int *jpvt = iwork = ws_alloc(n, sizeof(lp_int)); /* for the query */
    if (!jpvt) {
        rc = oom();
        goto done;
    }
    char *A0 = at(&c, 0, 0), *X0 = at(x, 0, 0), *S0 = tl_data(sv);
    bool cx = k >= 2;
    int r2 = k & 1;
    switch (driver) {
    case 0: gels_fn[k](&trans, &M, &N, &R, A0, &lda, X0, &ldb, probe, &q, &inf, 1); break;
    case 1:
        if (cx) gelsy_c[r2](&M, &N, &R, A0, &lda, X0, &ldb, jpvt, rcp, &rk, probe, &q, rprobe, &inf);
        else gelsy_r[r2](&M, &N, &R, A0, &lda, X0, &ldb, jpvt, rcp, &rk, probe, &q, &inf);
        break;
    case 2:
        if (cx) gelsd_c[r2](&M, &N, &R, A0, &lda, X0, &ldb, S0, rcp, &rk, probe, &q, rprobe, &iq, &inf);
        else gelsd_r[r2](&M, &N, &R, A0, &lda, X0, &ldb, S0, rcp, &rk, probe, &q, &iq, &inf);
        break;
    default:
        if (cx) gelss_c[r2](&M, &N, &R, A0, &lda, X0, &ldb, S0, rcp, &rk, probe, &q, rprobe, &inf);
        else gelss_r[r2](&M, &N, &R, A0, &lda, X0, &ldb, S0, rcp, &rk, probe, &q, &inf);
        break;
    }
    lw = (lp_int)wsize(k, probe);
    /* rwork: gelsy 2n, gelss 5 min(m, n), gelsd its query; iwork: gelsd its query (after jpvt) */
    int64_t lrw = driver == 1 ? 2 * n : driver == 3 ? 5 * mn : driver == 2 ? wsize(r2, rprobe) : 1;
    lrw = lrw > 2 * n ? lrw : 2 * n;
    free(jpvt); /* jpvt (n) then gelsd's iwork (its query's size) */
    jpvt = iwork = ws_alloc(n + max1(iq), sizeof(lp_int));
    lp_int *iw = iwork ? iwork + n : NULL;
    work = ws_alloc(lw, elem_size(k));
    rwork = cx ? ws_alloc(lrw, rs) : NULL;
    if (!iwork || !work || (cx && !rwork)) {
        rc = oom();
        goto done;
    }
    for (int64_t i = 0; i < B; i++) {
        char *A = at(&c, i, m * n), *X = at(x, i, mx * nrhs), *S = driver >= 2 ? at(sv, i, mn) : NULL;
        lp_int *pi = (lp_int *)at(info, i, 1);
        memset(jpvt, 0, (size_t)n * sizeof(lp_int));
        rk = 0;
        switch (driver) {
        case 0: gels_fn[k](&trans, &M, &N, &R, A, &lda, X, &ldb, work, &lw, pi, 1); break;
        case 1:
            if (cx) gelsy_c[r2](&M, &N, &R, A, &lda, X, &ldb, jpvt, rcp, &rk, work, &lw, rwork, pi);
            else gelsy_r[r2](&M, &N, &R, A, &lda, X, &ldb, jpvt, rcp, &rk, work, &lw, pi);
            break;
        case 2:
            if (cx) gelsd_c[r2](&M, &N, &R, A, &lda, X, &ldb, S, rcp, &rk, work, &lw, rwork, iw, pi);
            else gelsd_r[r2](&M, &N, &R, A, &lda, X, &ldb, S, rcp, &rk, work, &lw, iw, pi);
            break;
        default:
            if (cx) gelss_c[r2](&M, &N, &R, A, &lda, X, &ldb, S, rcp, &rk, work, &lw, rwork, pi);
            else gelss_r[r2](&M, &N, &R, A, &lda, X, &ldb, S, rcp, &rk, work, &lw, pi);
            break;
        }
        ((int64_t *)tl_data(rank))[i] = rk;
    }
done:
    free(work);
    free(rwork);
    free(iwork);
    tl_tensor_clear(&c);
    tl_tensor_clear(&top);
    return rc;
}

int tl_lapack_trsm(tl_tensor *x, const tl_tensor *a, const tl_tensor *b, bool left, bool upper, bool unit)
{
    int k = prep(a, 2, "linalg_solve_triangular");
    if (k < 0) return -1;
    int nb = a->ndim - 2;
    int64_t n = rows(a), B = batch_count(a, 2);
    if (cols(a) != n || b->ndim != a->ndim || b->dtype != a->dtype || (left ? rows(b) : cols(b)) != n)
        return tl_err(TL_ERR_RUNTIME, "solve_triangular: expected A [..., n, n] and B matching it");
    if (same_batch(a, b, nb, "solve_triangular") < 0) return -1;
    tl_tensor c = {0};
    if (copy_mat(&c, a) < 0 || copy_mat(x, b) < 0) {
        tl_tensor_clear(&c);
        return -1;
    }
    int64_t m = rows(b), r = cols(b);
    enum CBLAS_SIDE side = left ? CblasLeft : CblasRight;
    enum CBLAS_UPLO ul = upper ? CblasUpper : CblasLower;
    enum CBLAS_DIAG dg = unit ? CblasUnit : CblasNonUnit;
    lp_int M = (lp_int)m, R = (lp_int)r, lda = (lp_int)max1(n), ldb = (lp_int)max1(m);
    const float one_c[2] = {1, 0};
    const double one_z[2] = {1, 0};
    for (int64_t i = 0; i < B && m > 0 && r > 0; i++) {
        const char *A = at(&c, i, n * n);
        char *X = at(x, i, m * r);
        switch (k) {
        case 0: TL_BLAS(cblas_strsm)(CblasColMajor, side, ul, CblasNoTrans, dg, M, R, 1.0f, (const float *)A, lda,
                                     (float *)X, ldb); break;
        case 1: TL_BLAS(cblas_dtrsm)(CblasColMajor, side, ul, CblasNoTrans, dg, M, R, 1.0, (const double *)A, lda,
                                     (double *)X, ldb); break;
        case 2: TL_BLAS(cblas_ctrsm)(CblasColMajor, side, ul, CblasNoTrans, dg, M, R, one_c, A, lda, X, ldb); break;
        default: TL_BLAS(cblas_ztrsm)(CblasColMajor, side, ul, CblasNoTrans, dg, M, R, one_z, A, lda, X, ldb); break;
        }
    }
    tl_tensor_clear(&c);
    return 0;
}

/* ---- LDL^T / LDL^H (Bunch-Kaufman) ---- */

int tl_lapack_sytrf(tl_tensor *ld, tl_tensor *piv, tl_tensor *info, const tl_tensor *a, bool hermitian)
{
    int k = prep(a, 2, "ldl_factor");
    if (k < 0) return -1;
    int nb = a->ndim - 2;
    int64_t n = rows(a), B = batch_count(a, 2);
    if (cols(a) != n) return tl_err(TL_ERR_RUNTIME, "ldl_factor: expected square matrices");
    if (copy_mat(ld, a) < 0 || alloc_out(piv, a, nb, 1, n, 0, TL_INT32, true) < 0 ||
        alloc_out(info, a, nb, 0, 0, 0, TL_INT32, true) < 0)
        return -1;
    if (B == 0 || n == 0) return 0;
    sytrf_t *fn = (hermitian && k >= 2) ? hetrf_c[k - 2] : sytrf_fn[k];
    lp_int N = (lp_int)n, lda = (lp_int)max1(n), q = -1, inf = 0;
    char uplo = 'L';
    double probe[2];
    fn(&uplo, &N, at(ld, 0, 0), &lda, (lp_int *)tl_data(piv), probe, &q, &inf, 1);
    lp_int lw = (lp_int)wsize(k, probe);
    void *work = ws_alloc(lw, elem_size(k));
    if (!work) return oom();
    size_t es = elem_size(k);
    for (int64_t b = 0; b < B; b++) {
        char *m = at(ld, b, n * n);
        fn(&uplo, &N, m, &lda, (lp_int *)at(piv, b, n), work, &lw, (lp_int *)at(info, b, 1), 1);
        for (int64_t j = 1; j < n; j++) memset(m + j * n * es, 0, (size_t)j * es); /* the upper triangle: 0 */
    }
    free(work);
    return 0;
}

int tl_lapack_sytrs(tl_tensor *x, const tl_tensor *ld, const tl_tensor *piv, const tl_tensor *b, bool hermitian)
{
    int k = prep(ld, 2, "ldl_solve");
    if (k < 0) return -1;
    int nb = ld->ndim - 2;
    int64_t n = rows(ld), nrhs = b->ndim >= 2 ? cols(b) : 0, B = batch_count(ld, 2);
    if (cols(ld) != n || b->ndim != ld->ndim || rows(b) != n || piv->ndim != nb + 1 || piv->sizes[nb] != n ||
        b->dtype != ld->dtype)
        return tl_err(TL_ERR_RUNTIME, "ldl_solve: expected LD [..., n, n], pivots [..., n], B [..., n, k]");
    if (same_batch(ld, b, nb, "ldl_solve") < 0 || same_batch(ld, piv, nb, "ldl_solve") < 0) return -1;
    tl_tensor f = {0}, p = {0};
    int rc = -1;
    if (copy_mat(&f, ld) < 0 || copy_vec(&p, piv, TL_INT32) < 0 || copy_mat(x, b) < 0) goto done;
    sytrs_t *fn = (hermitian && k >= 2) ? hetrs_c[k - 2] : sytrs_fn[k];
    lp_int N = (lp_int)n, R = (lp_int)nrhs, lda = (lp_int)max1(n), info = 0;
    char uplo = 'L';
    for (int64_t i = 0; i < B && n > 0 && nrhs > 0; i++)
        fn(&uplo, &N, &R, at(&f, i, n * n), &lda, (lp_int *)at(&p, i, n), at(x, i, n * nrhs), &lda, &info, 1);
    rc = 0;
done:
    tl_tensor_clear(&f);
    tl_tensor_clear(&p);
    return rc;
}

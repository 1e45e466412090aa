/* svd.c - singular values (linalg.svdvals) through LAPACK ?gesdd (jobz='N') from the
 * OpenBLAS tensorlib links, batched over the leading dims. Each matrix is gathered
 * row-major, which LAPACK reads as the transpose: the same singular values, and a copy
 * that streams along the innermost (usually contiguous) dim. The matrix norms 2, -2 and
 * 'nuc' are reductions of these values (tensorlib/_linalg.py). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "ops/blas.h"
#include "ops/linalg.h"

typedef int lp_int; /* scipy-openblas32 and the system build: 32-bit LAPACK integers */

/* Fortran LAPACK entry points (trailing size_t: the hidden length of the CHARACTER arg). */
void TL_BLAS(sgesdd_)(const char *jobz, const lp_int *m, const lp_int *n, float *a, const lp_int *lda, float *s,
                      float *u, const lp_int *ldu, float *vt, const lp_int *ldvt, float *work, const lp_int *lwork,
                      lp_int *iwork, lp_int *info, size_t);
void TL_BLAS(dgesdd_)(const char *jobz, const lp_int *m, const lp_int *n, double *a, const lp_int *lda, double *s,
                      double *u, const lp_int *ldu, double *vt, const lp_int *ldvt, double *work, const lp_int *lwork,
                      lp_int *iwork, lp_int *info, size_t);
void TL_BLAS(cgesdd_)(const char *jobz, const lp_int *m, const lp_int *n, float complex *a, const lp_int *lda,
                      float *s, float complex *u, const lp_int *ldu, float complex *vt, const lp_int *ldvt,
                      float complex *work, const lp_int *lwork, float *rwork, lp_int *iwork, lp_int *info, size_t);
void TL_BLAS(zgesdd_)(const char *jobz, const lp_int *m, const lp_int *n, double complex *a, const lp_int *lda,
                      double *s, double complex *u, const lp_int *ldu, double complex *vt, const lp_int *ldvt,
                      double complex *work, const lp_int *lwork, double *rwork, lp_int *iwork, lp_int *info, size_t);

/* One gesdd call for the dtype: a is m x n column-major (lda = m), s gets min(m, n)
 * values; lwork == -1 asks for the workspace size in work[0] (real part). */
static lp_int gesdd(tl_dtype dt, lp_int m, lp_int n, void *a, void *s, void *work, lp_int lwork, void *rwork,
                    lp_int *iwork)
{
    lp_int info = 0, lda = m > 1 ? m : 1, one = 1;
    const char jobz = 'N';
    switch (dt) {
    case TL_FLOAT32:
        TL_BLAS(sgesdd_)(&jobz, &m, &n, a, &lda, s, NULL, &one, NULL, &one, work, &lwork, iwork, &info, 1);
        break;
    case TL_FLOAT64:
        TL_BLAS(dgesdd_)(&jobz, &m, &n, a, &lda, s, NULL, &one, NULL, &one, work, &lwork, iwork, &info, 1);
        break;
    case TL_COMPLEX64:
        TL_BLAS(cgesdd_)(&jobz, &m, &n, a, &lda, s, NULL, &one, NULL, &one, work, &lwork, rwork, iwork, &info, 1);
        break;
    default:
        TL_BLAS(zgesdd_)(&jobz, &m, &n, a, &lda, s, NULL, &one, NULL, &one, work, &lwork, rwork, iwork, &info, 1);
        break;
    }
    return info;
}

/* Copies matrix x[..., :, :] at element offset off into buf row-major (m rows of n). */
static void gather(char *buf, const tl_tensor *x, int64_t off, int64_t m, int64_t n, int64_t isz)
{
    const char *base = (const char *)tl_data(x) + (off - x->offset) * isz;
    int64_t sm = x->strides[x->ndim - 2], sn = x->strides[x->ndim - 1];
    for (int64_t i = 0; i < m; i++) {
        const char *row = base + i * sm * isz;
        char *dst = buf + i * n * isz;
        if (sn == 1) memcpy(dst, row, (size_t)(n * isz));
        else
            for (int64_t j = 0; j < n; j++) memcpy(dst + j * isz, row + j * sn * isz, (size_t)isz);
    }
}

static bool all_finite(const char *buf, int64_t cnt, bool f64)
{
    for (int64_t i = 0; i < cnt; i++)
        if (!isfinite(f64 ? ((const double *)buf)[i] : (double)((const float *)buf)[i])) return false;
    return true;
}

int tl_svdvals(tl_tensor *out, const tl_tensor *x)
{
    tl_dtype dt = (tl_dtype)x->dtype;
    if (x->ndim < 2) return tl_err(TL_ERR_RUNTIME, "linalg.svd: The input tensor A must have at least 2 dimensions.");
    if (!tl_dtype_is_float(dt) && !tl_dtype_is_complex(dt))
        return tl_err(TL_ERR_RUNTIME, "linalg.svd: Expected a floating point or complex tensor as input. Got %s",
                      tl_dtype_infos[dt].cname);
    if (dt != TL_FLOAT32 && dt != TL_FLOAT64 && dt != TL_COMPLEX64 && dt != TL_COMPLEX128)
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dt, "linalg_svd_cpu");
    int nd = x->ndim;
    int64_t m = x->sizes[nd - 2], n = x->sizes[nd - 1], k = m < n ? m : n, B = 1;
    if (m > TL_BLAS_INT_MAX || n > TL_BLAS_INT_MAX)
        return tl_err(TL_ERR_RUNTIME, "linalg.svd: matrix dims above 2^31-1 are not supported");
    int64_t osz[TL_MAX_DIMS];
    for (int i = 0; i < nd - 2; i++) osz[i] = x->sizes[i], B *= x->sizes[i];
    osz[nd - 2] = k;
    tl_dtype rdt = tl_dtype_to_real(dt);
    if (tl_tensor_empty(out, nd - 1, osz, rdt, x->device, false) < 0) return -1;
    if (B == 0 || k == 0) return 0;

    bool cplx = tl_dtype_is_complex(dt), f64 = rdt == TL_FLOAT64;
    int64_t isz = tl_dtype_itemsize(dt), rsz = tl_dtype_itemsize(rdt);
    /* LAPACK sees the n x m transpose */
    lp_int lm = (lp_int)n, ln = (lp_int)m, *iwork = malloc(sizeof(lp_int) * (size_t)(8 * k));
    char *a = malloc((size_t)(m * n * isz));
    double probe[2] = {0, 0};
    size_t rwork_n = cplx ? (size_t)(7 * k + 16) : 0; /* LAPACK >= 3.7's bound for jobz='N' (older: 5k) */
    void *rwork = cplx ? malloc(rwork_n * (size_t)rsz) : NULL;
    void *work = NULL;
    int rc = 0;
    if (!iwork || !a || (cplx && !rwork)) rc = tl_err(TL_ERR_MEMORY, "out of memory");
    lp_int info = 0;
    if (rc == 0) {
        gather(a, x, x->offset, m, n, isz); /* a realistic matrix for the size query */
        info = gesdd(dt, lm, ln, a, tl_data(out), probe, -1, rwork, iwork);
        double want = f64 ? probe[0] : (double)((float *)probe)[0];
        int64_t lwork = (int64_t)want + 1;
        if (info != 0 || lwork > TL_BLAS_INT_MAX) rc = tl_err(TL_ERR_RUNTIME, "linalg.svd: workspace query failed");
        else if (!(work = malloc((size_t)(lwork * isz)))) rc = tl_err(TL_ERR_MEMORY, "out of memory");
        int64_t idx[TL_MAX_DIMS] = {0};
        for (int64_t b = 0; rc == 0 && b < B; b++) {
            int64_t off = x->offset;
            for (int i = 0; i < nd - 2; i++) off += idx[i] * x->strides[i];
            gather(a, x, off, m, n, isz);
            char *s = (char *)tl_data(out) + b * k * rsz;
            info = gesdd(dt, lm, ln, a, s, work, (lp_int)lwork, rwork, iwork);
            if (info != 0) {
                char batch[64] = "";
                if (nd > 2) snprintf(batch, sizeof batch, " (Batch element %lld):", (long long)b);
                gather(a, x, off, m, n, isz);
                if (info == -4 || !all_finite(a, m * n * (cplx ? 2 : 1), f64))
                    rc = tl_err(TL_ERR_RUNTIME,
                                "linalg.svd:%s The algorithm failed to converge because the input "
                                               "matrix contained non-finite values.", batch);
                else
                    rc = tl_err(TL_ERR_RUNTIME,
                                "linalg.svd:%s The algorithm failed to converge because the input "
                                               "matrix is ill-conditioned or has too many repeated singular values "
                                               "(error code: %d).", batch, (int)info);
            }
            for (int i = nd - 3; i >= 0; i--) {
                if (++idx[i] < x->sizes[i]) break;
                idx[i] = 0;
            }
        }
    }
    free(iwork);
    free(a);
    free(rwork);
    free(work);
    if (rc < 0) tl_tensor_clear(out);
    return rc;
}

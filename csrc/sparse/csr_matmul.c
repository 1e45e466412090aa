/* csr_matmul.c - CSR @ strided (SpMV for a vector, SpMM for a matrix): the one product
 * kernel of the compressed layouts (CSC, BSR and dense @ CSR are composed onto it in
 * tensorlib/_sparse_compressed.py). Rows are split across the thread pool into one
 * contiguous range per thread holding about the same number of stored elements (balanced
 * by nnz, not by rows: a few dense rows do not serialize the product). Each output row is
 * written by one thread, so no atomics; the index checks are inline (a flag, never a wild
 * read), so the indices are read once. Sums run in the operands' dtype (as torch), in an
 * order fixed by the code, so the AVX2/AVX-512 clones give the same bits. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "ops/copy.h"
#include "sparse/compressed.h"
#include "sparse/sparse.h"

typedef struct {
    const void *crow, *col, *val, *b;
    void *out;
    const int64_t *bounds; /* bounds[c] .. bounds[c + 1]: the rows of chunk c */
    int64_t N, K, nse;
    int bad; /* 1: a compressed index out of order, 2: a plain index out of range */
} spmm_ctx;

/* The row loop for value type T and index type I. A vector row sums into four partial
 * sums (the floating-point add latency, not memory, bounds one chain). */
#define SPMM_KERNEL(NAME, T, I)                                                                     \
    TL_CLONES_WIDE static void NAME(int64_t c0, int64_t c1, void *p)                                \
    {                                                                                               \
        spmm_ctx *x = p;                                                                            \
        const I *restrict crow = x->crow, *restrict col = x->col;                                   \
        const T *restrict val = x->val, *restrict b = x->b;                                         \
        T *restrict out = x->out;                                                                   \
        const int64_t N = x->N, nse = x->nse;                                                       \
        const uint64_t K = (uint64_t)x->K;                                                          \
        for (int64_t r = x->bounds[c0]; r < x->bounds[c1]; r++) {                                   \
            int64_t lo = crow[r], hi = crow[r + 1];                                                 \
            if (lo < 0 || hi < lo || hi > nse) {                                                    \
                __atomic_store_n(&x->bad, 1, __ATOMIC_RELAXED);                                     \
                return;                                                                             \
            }                                                                                       \
            uint64_t badcol = 0;                                                                    \
            if (N == 1) {                                                                           \
                T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                   \
                int64_t k = lo;                                                                     \
                for (; k + 4 <= hi; k += 4) {                                                       \
                    uint64_t j0 = (uint64_t)col[k], j1 = (uint64_t)col[k + 1];                      \
                    uint64_t j2 = (uint64_t)col[k + 2], j3 = (uint64_t)col[k + 3];                  \
                    badcol |= (j0 >= K) | (j1 >= K) | (j2 >= K) | (j3 >= K);                        \
                    if (badcol) break;                                                              \
                    s0 += val[k] * b[j0];                                                           \
                    s1 += val[k + 1] * b[j1];                                                       \
                    s2 += val[k + 2] * b[j2];                                                       \
                    s3 += val[k + 3] * b[j3];                                                       \
                }                                                                                   \
                for (; !badcol && k < hi; k++) {                                                    \
                    uint64_t j = (uint64_t)col[k];                                                  \
                    badcol = j >= K;                                                                \
                    if (!badcol) s0 += val[k] * b[j];                                               \
                }                                                                                   \
                out[r] = (s0 + s1) + (s2 + s3);                                                     \
            } else {                                                                                \
                T *restrict o = out + r * N;                                                        \
                for (int64_t k = lo; k < hi && !badcol; k++) {                                      \
                    uint64_t j = (uint64_t)col[k];                                                  \
                    badcol = j >= K;                                                                \
                    if (badcol) break;                                                              \
                    const T v = val[k];                                                             \
                    const T *restrict br = b + j * N;                                               \
                    for (int64_t q = 0; q < N; q++) o[q] += v * br[q];                              \
                }                                                                                   \
            }                                                                                       \
            if (badcol) {                                                                           \
                __atomic_store_n(&x->bad, 2, __ATOMIC_RELAXED);                                     \
                return;                                                                             \
            }                                                                                       \
        }                                                                                           \
    }

/* The value dtypes with a native C product (others are cast by the caller). */
#define SPMM_DTYPES(X) X(FLOAT32, float) X(FLOAT64, double) X(COMPLEX64, float complex)             \
    X(COMPLEX128, double complex) X(INT64, int64_t) X(INT32, int32_t) X(INT16, int16_t) X(INT8, int8_t) \
    X(UINT8, uint8_t)

#define DEFINE(ID, T) SPMM_KERNEL(spmm_##ID##_i32, T, int32_t) SPMM_KERNEL(spmm_##ID##_i64, T, int64_t)
SPMM_DTYPES(DEFINE)
#undef DEFINE

bool tl_csr_matmul_supports(int dtype)
{
    switch (dtype) {
#define CASE(ID, T) case TL_##ID:
        SPMM_DTYPES(CASE)
#undef CASE
        return true;
    default: return false;
    }
}

/* bounds[0..nc]: row ranges holding about nse / nc stored elements each. */
static void balance(const void *crow, bool i32, int64_t M, int64_t nse, int nc, int64_t *bounds)
{
    bounds[0] = 0;
    for (int c = 1; c < nc; c++) {
        int64_t want = nse * c / nc, lo = bounds[c - 1], hi = M;
        while (lo < hi) { /* first row whose start reaches `want` */
            int64_t mid = lo + (hi - lo) / 2;
            int64_t v = i32 ? ((const int32_t *)crow)[mid] : ((const int64_t *)crow)[mid];
            if (v < want) lo = mid + 1; else hi = mid;
        }
        bounds[c] = lo;
    }
    bounds[nc] = M;
}

int tl_csr_matmul(tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    const tl_sparse *s = a->sparse;
    tl_dtype dt = (tl_dtype)a->dtype;
    int64_t M = a->sizes[0], K = a->sizes[1], N = b->ndim == 2 ? b->sizes[1] : 1, nse = s->plain.sizes[0];
    int64_t osz[2] = {M, N};
    tl_tensor ci = {0}, pi = {0}, val = {0}, bc = {0};
    int rc = -1, nc = tl_get_num_threads();
    if (nse < TL_GRAIN_SIZE || M < 2) nc = 1;
    if (nc > M) nc = (int)M;
    int64_t *bounds = malloc(sizeof(int64_t) * (size_t)(nc + 1));
    if (!bounds) return tl_err(TL_ERR_MEMORY, "out of memory");
    if (tl_contiguous(&ci, &s->indices, TL_MEMFMT_CONTIGUOUS) < 0 || tl_contiguous(&pi, &s->plain, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_contiguous(&val, &s->values, TL_MEMFMT_CONTIGUOUS) < 0 || tl_contiguous(&bc, b, TL_MEMFMT_CONTIGUOUS) < 0 ||
        tl_tensor_empty(out, b->ndim, osz, dt, a->device, true) < 0) /* b 1-D: (M,) */
        goto done;
    bool i32 = ci.dtype == TL_INT32;
    const char *crow = tl_data(&ci);
    /* the partition reads crow: its ends first, so a bad tensor cannot steer it */
    int64_t first = i32 ? ((const int32_t *)crow)[0] : ((const int64_t *)crow)[0];
    int64_t last = i32 ? ((const int32_t *)crow)[M] : ((const int64_t *)crow)[M];
    if (first != 0 || last != nse) {
        tl_err(TL_ERR_RUNTIME, first != 0 ? "`crow_indices[..., 0] == 0` is not satisfied."
                                          : "`crow_indices[..., -1] == nnz` is not satisfied.");
        goto done;
    }
    balance(crow, i32, M, nse, nc, bounds);
    spmm_ctx x = {crow, tl_data(&pi), tl_data(&val), tl_data(&bc), tl_data(out), bounds, N, K, nse, 0};
    void (*fn)(int64_t, int64_t, void *) = NULL;
    switch (dt) {
#define CASE(ID, T) case TL_##ID: fn = i32 ? spmm_##ID##_i32 : spmm_##ID##_i64; break;
        SPMM_DTYPES(CASE)
#undef CASE
    default:
        tl_err(TL_ERR_RUNTIME, "addmm: unsupported dtype %s for a sparse CSR operand", tl_dtype_infos[dt].cname);
        goto done;
    }
    tl_parallel_for(nc, 1, fn, &x);
    if (x.bad == 1) {
        tl_err(TL_ERR_RUNTIME, "`0 <= crow_indices[..., 1:] - crow_indices[..., :-1] <= ncols` is not satisfied.");
        goto done;
    }
    if (x.bad == 2) {
        tl_err(TL_ERR_RUNTIME, "`0 <= col_indices < ncols` is not satisfied.");
        goto done;
    }
    rc = 0;
done:
    free(bounds);
    tl_tensor_clear(&ci);
    tl_tensor_clear(&pi);
    tl_tensor_clear(&val);
    tl_tensor_clear(&bc);
    return rc;
}

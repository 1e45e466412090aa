/* spmm.c (backend) - the core's side of a backend's sparse-product entry (mm, mv, matmul, addmm
 * and tl.sparse.mm of device sparse tensors with a dense operand) and its host runner.
 * tl_backend_spmm_host runs a call on host memory, for the tests' stand-in backend. */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "kernels/hd_math.h"

/* ---- the host runner ---- */

static double complex load(const char *p, int dt)
{
    double z[2];
    tl_hd_convert(z, TL_BDT_COMPLEX128, p, dt);
    return z[0] + z[1] * I;
}

static int64_t index_at(const void *p, int idt, int64_t i)
{
    return idt == TL_BDT_INT32 ? ((const int32_t *)p)[i] : ((const int64_t *)p)[i];
}

int tl_backend_spmm_host(const tl_backend_spmm_call *c)
{
    bool trans = c->op_a == TL_BGEMM_OP_T;
    int64_t m = trans ? c->cols : c->rows, k = trans ? c->rows : c->cols, n = c->n > 0 ? c->n : 1;
    if (c->size != sizeof *c || c->rows < 1 || c->cols < 1 || c->nnz < 1 || c->n < 0 ||
        (c->op_a != TL_BGEMM_OP_N && !trans) || c->format < TL_BSP_CSR || c->format > TL_BSP_COO ||
        (c->index_dtype != TL_BDT_INT32 && c->index_dtype != TL_BDT_INT64) || c->dtype < TL_BDT_FLOAT16 ||
        c->dtype > TL_BDT_COMPLEX128 ||
        (c->n > 0 && (c->order == TL_BSP_ROW_MAJOR ? c->ldb < n || c->ldc < n : c->ldb < k || c->ldc < m)))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend spmm call");
    int dt = c->dtype, idt = c->index_dtype;
    int64_t isz = tl_hd_dt_size(dt);
    bool cplx = dt == TL_BDT_COMPLEX64 || dt == TL_BDT_COMPLEX128, beta0 = c->beta[0] == 0 && c->beta[1] == 0;
    double complex alpha = c->alpha[0] + c->alpha[1] * I, beta = c->beta[0] + c->beta[1] * I;
    /* element (r, s) of B (k x n) and C (m x n); vectors are one contiguous column */
    int64_t brs = c->n == 0 ? 1 : c->order == TL_BSP_ROW_MAJOR ? c->ldb : 1;
    int64_t bcs = c->n == 0 ? 0 : c->order == TL_BSP_ROW_MAJOR ? 1 : c->ldb;
    int64_t crs = c->n == 0 ? 1 : c->order == TL_BSP_ROW_MAJOR ? c->ldc : 1;
    int64_t ccs = c->n == 0 ? 0 : c->order == TL_BSP_ROW_MAJOR ? 1 : c->ldc;
    double complex *acc = calloc((size_t)(m * n), sizeof *acc);
    if (!acc) return tl_err(TL_ERR_MEMORY, "out of memory");
    int64_t seg = c->format == TL_BSP_CSR ? c->rows : c->format == TL_BSP_CSC ? c->cols : 0;
    for (int64_t i = 0, o = 0; i < c->nnz; i++) {
        int64_t r, s; /* A's stored (row, column) of element i */
        if (c->format == TL_BSP_COO) {
            r = index_at(c->offsets, idt, i);
            s = index_at(c->indices, idt, i);
        } else {
            while (o < seg && index_at(c->offsets, idt, o + 1) <= i) o++;
            r = c->format == TL_BSP_CSR ? o : index_at(c->indices, idt, i);
            s = c->format == TL_BSP_CSR ? index_at(c->indices, idt, i) : o;
        }
        double complex v = load(c->values + i * isz, dt);
        int64_t dr = trans ? s : r, br = trans ? r : s; /* C's row gets v * B's row */
        for (int64_t j = 0; j < n; j++) acc[dr * n + j] += v * load(c->b + (br * brs + j * bcs) * isz, dt);
    }
    for (int64_t r = 0; r < m; r++)
        for (int64_t j = 0; j < n; j++) {
            char *dst = c->c + (r * crs + j * ccs) * isz;
            double complex v = alpha * acc[r * n + j] + (beta0 ? 0 : beta * load(dst, dt));
            double out[2] = {creal(v), cplx ? cimag(v) : 0};
            if (dt == TL_BDT_FLOAT16 || dt == TL_BDT_BFLOAT16) { /* float32 accumulator, rounded once */
                float f = (float)out[0];
                tl_hd_convert(dst, dt, &f, TL_BDT_FLOAT32);
            } else {
                tl_hd_convert(dst, dt, out, TL_BDT_COMPLEX128);
            }
        }
    free(acc);
    return 0;
}

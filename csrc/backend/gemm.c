/* gemm.c (backend) - the core's side of a backend's dense-product entry (mm, bmm, matmul,
 * mv, dot, addmm, addmv, baddbmm, addbmm of device tensors: every product ends in tl_gemm,
 * which sends a device c here) and its host runner. ops/linalg.c has made torch's checks and
 * the result; this turns c = beta*c + alpha*a@b over broadcast batch dims into BLAS calls in
 * column-major terms: a row-major c is computed as c^T = b^T a^T, an operand whose last two
 * strides fit BLAS (one of them 1) is passed as it is with the transposition that matches,
 * any other operand is copied dense on the device first (the element-wise copy), the batch
 * dims are merged into one stride where they allow it (one strided-batched call) and looped
 * over otherwise. k == 0 never reaches the backend: c = 0, or c *= beta element-wise (torch).
 * tl_backend_gemm_host runs a call on host memory, for the tests' stand-in backend. */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/host_product.h"
#include "core/error.h"
#include "kernels/hd_math.h"
#include "ops/copy.h"
#include "ops/elementwise.h"
#include "ops/linalg.h"

/* Default as torch: no TF32, reduced-precision reductions allowed. */
static int gemm_flags;

void tl_backend_gemm_set_flags(int flags) { __atomic_store_n(&gemm_flags, flags, __ATOMIC_RELAXED); }
int tl_backend_gemm_get_flags(void) { return __atomic_load_n(&gemm_flags, __ATOMIC_RELAXED); }

/* The backend's transposition and leading dim of matrix t (R x C) seen as the col-major
 * operand of a call whose result is stored with layout lc (1 row-major, 2 col-major). */
static int op_of(int layout, int lc) { return layout == lc ? TL_BGEMM_OP_N : TL_BGEMM_OP_T; }

static int gemm_calls(const tl_device_backend *be, tl_tensor *c, const tl_tensor *a, const tl_tensor *b,
                      const double al[2], const double bt[2])
{
    int nd = c->ndim, nb = nd - 2;
    int64_t lda, ldb, ldc;
    int la = tl_gemm_layout(a, &lda), lb = tl_gemm_layout(b, &ldb), lc = tl_gemm_layout(c, &ldc);
    int64_t M = c->sizes[nd - 2], N = c->sizes[nd - 1], K = a->sizes[nd - 1];
    if (M > INT32_MAX || N > INT32_MAX || K > INT32_MAX)
        return tl_err(TL_ERR_RUNTIME, "matrix dimensions exceed the 32-bit BLAS interface");
    /* batch dims: size 1 dropped, then merged where all three operands allow (innermost first) */
    int64_t bs[TL_MAX_DIMS], sa[TL_MAX_DIMS], sb[TL_MAX_DIMS], sc[TL_MAX_DIMS];
    int n = 0;
    for (int d = nb - 1; d >= 0; d--) {
        int64_t s = c->sizes[d];
        if (s == 1) continue;
        int64_t xa = a->sizes[d] == 1 ? 0 : a->strides[d], xb = b->sizes[d] == 1 ? 0 : b->strides[d];
        int64_t xc = c->strides[d];
        if (n > 0 && xa == sa[n - 1] * bs[n - 1] && xb == sb[n - 1] * bs[n - 1] && xc == sc[n - 1] * bs[n - 1]) {
            bs[n - 1] *= s;
            continue;
        }
        bs[n] = s, sa[n] = xa, sb[n] = xb, sc[n] = xc;
        n++;
    }
    if (n > 0 && bs[0] > INT32_MAX) return tl_err(TL_ERR_RUNTIME, "batch size exceeds the 32-bit BLAS interface");
    tl_backend_gemm_call call;
    memset(&call, 0, sizeof call);
    call.size = sizeof call;
    call.device_index = c->device.index;
    call.dtype = tl_backend_dtype_code(c->dtype);
    call.flags = tl_backend_gemm_get_flags();
    call.k = K;
    call.batch = n > 0 ? bs[0] : 1;
    memcpy(call.alpha, al, sizeof call.alpha);
    memcpy(call.beta, bt, sizeof call.beta);
    call.ldc = ldc;
    call.stride_c = n > 0 ? sc[0] : 0;
    /* c col-major: C = op(A) op(B); c row-major: C^T = op(B^T) op(A^T), the roles swapped */
    const tl_tensor *first = lc == 2 ? a : b, *second = lc == 2 ? b : a;
    int lf = lc == 2 ? la : lb, ls = lc == 2 ? lb : la;
    call.m = lc == 2 ? M : N;
    call.n = lc == 2 ? N : M;
    call.transa = op_of(lf, lc);
    call.transb = op_of(ls, lc);
    call.lda = lc == 2 ? lda : ldb;
    call.ldb = lc == 2 ? ldb : lda;
    call.stride_a = n > 0 ? (lc == 2 ? sa[0] : sb[0]) : 0;
    call.stride_b = n > 0 ? (lc == 2 ? sb[0] : sa[0]) : 0;
    int64_t isz = tl_itemsize(c), outer = 1;
    for (int d = 1; d < n; d++) outer *= bs[d];
    for (int64_t o = 0; o < outer; o++) { /* the batch dims that did not merge: one call each */
        int64_t q = o, oa = 0, ob = 0, oc = 0;
        for (int d = 1; d < n; d++) {
            int64_t i = q % bs[d];
            q /= bs[d];
            oa += i * sa[d];
            ob += i * sb[d];
            oc += i * sc[d];
        }
        call.a = (const char *)tl_data(first) + (lc == 2 ? oa : ob) * isz;
        call.b = (const char *)tl_data(second) + (lc == 2 ? ob : oa) * isz;
        call.c = (char *)tl_data(c) + oc * isz;
        if (be->gemm(&call) < 0) return -1;
    }
    return 0;
}

typedef struct {
    const tl_device_backend *be;
    double al[2], bt[2];
} calls_ctx;
static int run_calls(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, void *ctx)
{
    const calls_ctx *x = ctx;
    return gemm_calls(x->be, c, a, b, x->al, x->bt);
}

int tl_backend_gemm(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, double alpha_re, double alpha_im,
                    double beta_re, double beta_im)
{
    const tl_device_backend *be = tl_backend_get(c->device.type);
    tl_dtype dt = (tl_dtype)c->dtype;
    if (!be || !be->gemm) return tl_backend_refuse("matmul", c->device, -1);
    bool beta0 = beta_re == 0 && beta_im == 0;
    if (a->sizes[a->ndim - 1] == 0) { /* empty sum (any dtype, as torch): c = beta * c, torch's mul_ */
        if (beta0) return tl_fill_(c, tl_scalar_int(0));
        tl_ew_params prm;
        memset(&prm, 0, sizeof prm);
        tl_ew_dest dst = {.mode = TL_EW_INPLACE, .out = c};
        tl_ew_arg x = {.t = c}, s = {.t = NULL};
        s.s = tl_dtype_is_complex(dt) ? tl_scalar_complex(beta_re + beta_im * I)
              : tl_dtype_is_float(dt) ? tl_scalar_double(beta_re) : tl_scalar_int((int64_t)beta_re);
        return tl_ew_binary(TL_BOP_mul, x, s, &dst, &prm);
    }
    int code = tl_backend_dtype_code(dt);
    if (!(code == TL_BDT_FLOAT16 || code == TL_BDT_BFLOAT16 || code == TL_BDT_FLOAT32 || code == TL_BDT_FLOAT64 ||
          code == TL_BDT_COMPLEX64 || code == TL_BDT_COMPLEX128))
        return tl_backend_refuse("matmul", c->device, dt);
    calls_ctx x = {be, {alpha_re, alpha_im}, {beta_re, beta_im}};
    return tl_gemm_in_layouts(c, a, b, beta0, run_calls, &x);
}

/* ---- the host runner ---- */

/* Element (r, s) of op(X) for X stored with leading dim ld. */
static double complex elem(const char *x, int dt, int64_t isz, int op, int64_t ld, int64_t r, int64_t s)
{
    double complex v = op == TL_BGEMM_OP_N ? tl_host_load(x + (r + s * ld) * isz, dt) : tl_host_load(x + (s + r * ld) * isz, dt);
    return op == TL_BGEMM_OP_C ? conj(v) : v;
}

int tl_backend_gemm_host(const tl_backend_gemm_call *c)
{
    if (c->size != sizeof *c || c->m < 1 || c->n < 1 || c->k < 1 || c->batch < 1 || c->transa < 0 ||
        c->transa > TL_BGEMM_OP_C || c->transb < 0 || c->transb > TL_BGEMM_OP_C || c->dtype < TL_BDT_FLOAT16 ||
        c->dtype > TL_BDT_COMPLEX128 || c->ldc < c->m || c->lda < (c->transa == TL_BGEMM_OP_N ? c->m : c->k) ||
        c->ldb < (c->transb == TL_BGEMM_OP_N ? c->k : c->n))
        return tl_err(TL_ERR_RUNTIME, "tensorlib: malformed backend gemm call");
    int dt = c->dtype;
    int64_t isz = tl_hd_dt_size(dt);
    bool beta0 = c->beta[0] == 0 && c->beta[1] == 0;
    double complex alpha = c->alpha[0] + c->alpha[1] * I, beta = c->beta[0] + c->beta[1] * I;
    for (int64_t bi = 0; bi < c->batch; bi++) {
        const char *A = c->a + bi * c->stride_a * isz, *B = c->b + bi * c->stride_b * isz;
        char *C = c->c + bi * c->stride_c * isz;
        for (int64_t s = 0; s < c->n; s++) {
            for (int64_t r = 0; r < c->m; r++) {
                double complex acc = 0;
                for (int64_t k = 0; k < c->k; k++)
                    acc += elem(A, dt, isz, c->transa, c->lda, r, k) * elem(B, dt, isz, c->transb, c->ldb, k, s);
                tl_host_store(C + (r + s * c->ldc) * isz, dt, acc, alpha, beta, beta0);
            }
        }
    }
    return 0;
}

/* linalg.h - matrix products: the gemm engine and the torch ops built on it
 * (mm, bmm, matmul, mv, dot, vdot, outer, addmm, addmv, addr, baddbmm, addbmm).
 *
 * Every op fills a fresh (zeroed) `out` and follows torch 2.13's checks and messages;
 * names follow seed 003's "contracts away dims" rule (matmul unifies batch names). */
#ifndef TL_OPS_LINALG_H
#define TL_OPS_LINALG_H

#include <stdbool.h>

#include "core/scalar.h"
#include "core/tensor.h"

/* Points tl_set_num_threads at OpenBLAS and gives OpenBLAS tensorlib's thread count. */
void tl_linalg_init(void);
/* Dtypes the engine multiplies (floats, complex64/128, signed ints and uint8). */
bool tl_gemm_dtype_ok(tl_dtype d);
bool tl_scalar_is_zero(tl_scalar s);
/* How BLAS sees the last two dims of t: 1 row-major, 2 column-major (*ld the leading dim,
 * at most INT32_MAX), 0 neither (a copy is needed). */
int tl_gemm_layout(const tl_tensor *t, int64_t *ld);
/* run(c', a', b', ctx) over operands BLAS takes (tl_gemm_layout): those it does not are copied
 * contiguous first (c' holding c's values unless beta0) and c' is copied back into c. The CPU's
 * BLAS path and a backend's gemm entry (backend/gemm.c) both go through it. */
typedef int (*tl_gemm_run_fn)(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, void *ctx);
int tl_gemm_in_layouts(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, bool beta0, tl_gemm_run_fn run, void *ctx);

/* c = beta*c + alpha * a @ b. a [..., M, K], b [..., K, N], c [..., M, N], all the same
 * ndim >= 2 and dtype; a's and b's batch dims are c's or size 1 / stride 0 (broadcast).
 * beta == 0 overwrites c without reading it (NaN in c does not propagate). */
int tl_gemm(tl_tensor *c, const tl_tensor *a, const tl_tensor *b, tl_scalar alpha, tl_scalar beta);

int tl_mm(tl_tensor *out, const tl_tensor *a, const tl_tensor *b);
int tl_bmm(tl_tensor *out, const tl_tensor *a, const tl_tensor *b);
int tl_matmul(tl_tensor *out, const tl_tensor *a, const tl_tensor *b);
int tl_mv(tl_tensor *out, const tl_tensor *a, const tl_tensor *v);
int tl_dot(tl_tensor *out, const tl_tensor *a, const tl_tensor *b);
/* dot with the first argument conjugated. */
int tl_vdot(tl_tensor *out, const tl_tensor *a, const tl_tensor *b);
/* Outer product with type promotion (torch computes it as a broadcast multiply). */
int tl_outer(tl_tensor *out, const tl_tensor *a, const tl_tensor *b);
int tl_addmm(tl_tensor *out, const tl_tensor *input, const tl_tensor *m1, const tl_tensor *m2, tl_scalar beta,
             tl_scalar alpha);
int tl_addmv(tl_tensor *out, const tl_tensor *input, const tl_tensor *mat, const tl_tensor *vec, tl_scalar beta,
             tl_scalar alpha);
int tl_addr(tl_tensor *out, const tl_tensor *input, const tl_tensor *v1, const tl_tensor *v2, tl_scalar beta,
            tl_scalar alpha);
int tl_baddbmm(tl_tensor *out, const tl_tensor *input, const tl_tensor *b1, const tl_tensor *b2, tl_scalar beta,
               tl_scalar alpha);
int tl_addbmm(tl_tensor *out, const tl_tensor *input, const tl_tensor *b1, const tl_tensor *b2, tl_scalar beta,
              tl_scalar alpha);

#endif

/* lapack.h - the LAPACK-backed primitives of tensorlib.linalg (lapack.c): one batched op
 * per LAPACK driver, on float32/64 and complex64/128, through the OpenBLAS tensorlib links.
 *
 * Conventions of every op:
 * - inputs are [..., r, c] tensors; when an op takes two, their batch dims are equal (the
 *   Python layer broadcasts first); any strides, each input is copied before LAPACK runs;
 * - matrix outputs are fresh [batch..., r, c] tensors with column-major matrices (strides
 *   [..., 1, r], batches contiguous): LAPACK's layout and torch's for these results;
 * - numerical failures are not errors: `info` (int32 [batch...]) keeps LAPACK's info per
 *   matrix and tensorlib/_linalg_lapack.py raises torch's LinAlgError message from it;
 * - errors (-1) only for unsupported dtypes, dims beyond 32-bit LAPACK integers, memory. */
#ifndef TL_OPS_LAPACK_H
#define TL_OPS_LAPACK_H

#include <stdbool.h>

#include "core/tensor.h"

/* getrf: lu = P L U packed (m x n), piv int32 [..., min(m, n)] (1-based, LAPACK's). */
int tl_lapack_getrf(tl_tensor *lu, tl_tensor *piv, tl_tensor *info, const tl_tensor *a);
/* getrs: x = op(A)^-1 b from getrf's lu [..., n, n] and piv; trans 'N', 'T' or 'C'. */
int tl_lapack_getrs(tl_tensor *x, const tl_tensor *lu, const tl_tensor *piv, const tl_tensor *b, char trans);
/* Row permutation of getrf's pivots: perm int64 [..., m], row i of P^T A is row perm[i] of A. */
int tl_lapack_pivots_to_perm(tl_tensor *perm, const tl_tensor *piv, int64_t m);
/* potrf: the Cholesky factor (lower, or upper when `upper`), the other triangle zeroed. */
int tl_lapack_potrf(tl_tensor *l, tl_tensor *info, const tl_tensor *a, bool upper);
/* geqrf: qr = R above the diagonal and the Householder vectors below, tau [..., min(m, n)]. */
int tl_lapack_geqrf(tl_tensor *qr, tl_tensor *tau, const tl_tensor *a);
/* orgqr / ungqr (householder_product): q = the first n columns of H_1 ... H_k from the
 * vectors in a [..., m, n] (m >= n >= k) and tau [..., k]. */
int tl_lapack_orgqr(tl_tensor *q, const tl_tensor *a, const tl_tensor *tau);
/* syevd / heevd: w real [..., n] ascending; v the eigenvectors when `vectors` ([..., 0, 0]
 * otherwise). Reads the lower triangle, or the upper when `upper`. */
int tl_lapack_syevd(tl_tensor *w, tl_tensor *v, tl_tensor *info, const tl_tensor *a, bool upper, bool vectors);
/* gesdd: jobz 'N' (s only; u, vh [..., 0, 0]), 'S' (u m x k, vh k x n) or 'A' (u m x m,
 * vh n x n); s real [..., k] descending, k = min(m, n). */
int tl_lapack_gesdd(tl_tensor *u, tl_tensor *s, tl_tensor *vh, tl_tensor *info, const tl_tensor *a, char jobz);
/* geev: eigenvalues w and right eigenvectors v (unit norm), both complex; v [..., 0, 0]
 * without `vectors`. */
int tl_lapack_geev(tl_tensor *w, tl_tensor *v, tl_tensor *info, const tl_tensor *a, bool vectors);
/* Least squares min ||a x - b|| with driver 0 gels, 1 gelsy, 2 gelsd, 3 gelss: x [..., max(m, n),
 * nrhs] (the solution in its first n rows), rank int64 [...] (gelsy/gelsd/gelss), sv real
 * [..., min(m, n)] (gelsd/gelss; [..., 0] otherwise). rcond < 0: LAPACK's machine precision. */
int tl_lapack_gels(tl_tensor *x, tl_tensor *rank, tl_tensor *sv, tl_tensor *info, const tl_tensor *a,
                   const tl_tensor *b, int driver, double rcond);
/* trsm: x = op(a)^-1 b (left) or b a^-1 (right) for triangular a. */
int tl_lapack_trsm(tl_tensor *x, const tl_tensor *a, const tl_tensor *b, bool left, bool upper, bool unit);
/* sytrf / hetrf (Bunch-Kaufman, lower triangle read): ld = L and D packed (the upper triangle
 * zeroed), piv int32 [..., n] in LAPACK's format (1-based; negative pairs for 2 x 2 blocks);
 * `hermitian` picks hetrf for complex a (sytrf: complex symmetric). */
int tl_lapack_sytrf(tl_tensor *ld, tl_tensor *piv, tl_tensor *info, const tl_tensor *a, bool hermitian);
/* sytrs / hetrs: x = A^-1 b from sytrf's ld [..., n, n] and piv [..., n]. */
int tl_lapack_sytrs(tl_tensor *x, const tl_tensor *ld, const tl_tensor *piv, const tl_tensor *b, bool hermitian);

#endif

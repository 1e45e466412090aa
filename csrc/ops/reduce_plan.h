/* reduce_plan.h - the row planner shared by reductions, scans and sorts: it arranges a
 * tensor as M rows (the kept dims, in order) of N contiguous elements (the reduced dims,
 * in order) in a "buffer dtype" the kernels know (float32, float64, int64, complex64,
 * complex128), copying only when the input's layout or dtype does not already allow it,
 * and scatters per-row results back into an output in the input's dim order. */
#ifndef TL_OPS_REDUCE_PLAN_H
#define TL_OPS_REDUCE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor.h"

typedef struct {
    int ndim, nk, nr;
    int kdims[TL_MAX_DIMS], rdims[TL_MAX_DIMS];
    int64_t M, N;          /* rows, row length */
    const char *base;      /* row 0 */
    int64_t *offs;         /* element offset of each row from base; NULL: row i at i*N */
    tl_tensor tmp;         /* the materialized copy, when one was needed */
    tl_dtype bt;           /* buffer dtype */
} tl_rplan;

/* Plans rows over `x` reducing the dims set in `mask`. any_order: the op does not care
 * about element order within a row (sum, max), so a dense full reduction needs no copy. */
int tl_rplan_init(tl_rplan *p, const tl_tensor *x, uint64_t mask, tl_dtype bt, bool any_order);
/* Only the dim split (kdims, rdims, M, N): no layout analysis, nothing to free. */
void tl_rplan_dims(tl_rplan *p, const tl_tensor *x, uint64_t mask);
void tl_rplan_free(tl_rplan *p);

static inline const char *tl_rplan_row(const tl_rplan *p, int64_t i)
{
    return p->base + (p->offs ? p->offs[i] : i * p->N) * tl_dtype_itemsize(p->bt);
}

/* out has x's rank; its reduced dims may have any size L (1 for keepdim reductions,
 * N for scans and sorts, k for topk). res is contiguous holding M rows of L results.
 * Copies (casting) res into out. */
int tl_rplan_scatter(const tl_rplan *p, tl_tensor *out, const tl_tensor *res);

/* A keepdim-shaped view of `out` (which has the reduced dims of `x` removed), so scatter
 * can write into a squeezed output. */
int tl_rplan_keepdim_view(tl_tensor *view, const tl_tensor *out, const tl_tensor *x, uint64_t mask);

/* Output shape and names for a reduction of x over mask (names kept for kept dims). */
void tl_reduce_shape(const tl_tensor *x, uint64_t mask, bool keepdim, int64_t *sizes, int32_t *names, int *ndim);

/* Buffer dtype the kernels read for elements of dtype d: float32 for the narrow floats and
 * float32, float64, int64 for bool and the integers (uint64 for 64-bit unsigned ones),
 * complex64 / complex128. */
tl_dtype tl_rplan_buffer_dtype(tl_dtype d);

/* Dtypes reductions and scans compute on: every non-shell dtype and the integer shells
 * (uint16/32/64, which torch 2.13 reduces too). */
static inline bool tl_red_dtype_ok(tl_dtype d) { return !tl_dtype_is_shell(d) || tl_dtype_kind(d) == TL_KIND_INT; }

#endif

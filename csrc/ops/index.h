/* index.h - advanced indexing (index / index_put_ with accumulate), gather, scatter and
 * scatter_reduce, index_select, take/put_, masked_select/masked_scatter_, nonzero.
 * Every op validates all indices before writing anything: on error inputs are untouched. */
#ifndef TL_OPS_INDEX_H
#define TL_OPS_INDEX_H

#include <stdbool.h>

#include "core/scalar.h"
#include "core/tensor.h"
#include "ops/index_util.h"

/* How an index outside [0, size) is treated and reported. */
typedef enum {
    TL_IDX_WRAP = 1,          /* negative indices count from the end */
    TL_IDX_MSG_SELF = 2,      /* "index out of range in self" instead of naming the index */
    TL_IDX_RUNTIME = 4,       /* RuntimeError instead of IndexError */
    TL_IDX_NOWRAP = 8,        /* tl_index/tl_index_put_: negative indices are out of range */
    TL_IDX_COPY_PREFIX = 16,  /* message prefixed "index_copy_(): " */
} tl_index_flags;

/* out <- t[indices]: indices has n <= t->ndim entries, one per leading dim of t, NULL for
 * a dim taken whole; each non-NULL entry an int64/int32 tensor. Index tensors broadcast
 * together; the result puts the broadcast dims where the first indexed dim was when the
 * indexed dims are adjacent, first otherwise (torch/NumPy rule). */
int tl_index(tl_tensor *out, const tl_tensor *t, const tl_tensor *const *indices, int n, int flags);
/* t[indices] = values (broadcast to the indexing result, cast to t's dtype); accumulate
 * adds instead (duplicates accumulate). `fill` non-NULL: write that scalar instead. */
int tl_index_put_(tl_tensor *t, const tl_tensor *const *indices, int n, const tl_tensor *values,
                  const tl_scalar *fill, bool accumulate, int flags);

int tl_gather(tl_tensor *out, const tl_tensor *t, int64_t dim, const tl_tensor *index);
/* scatter into t along dim from src (or the scalar `value` when src is NULL) with
 * reduce op `op` (TL_RED_NONE = plain write). include_self=false first resets the targets.
 * `opname` names the op in messages ("scatter", "scatter_add", "scatter_reduce"). */
int tl_scatter_(tl_tensor *t, int64_t dim, const tl_tensor *index, const tl_tensor *src, const tl_scalar *value,
                tl_reduce_op op, bool include_self, const char *opname);
int tl_index_select(tl_tensor *out, const tl_tensor *t, int64_t dim, const tl_tensor *index);
/* out <- t.flatten()[index] (negative indices wrap); shape of index. */
int tl_take(tl_tensor *out, const tl_tensor *t, const tl_tensor *index);
/* t.flatten()[index] = source (or += with accumulate), in place on any strides. */
int tl_put_(tl_tensor *t, const tl_tensor *index, const tl_tensor *source, bool accumulate);
int tl_masked_select(tl_tensor *out, const tl_tensor *t, const tl_tensor *mask);
int tl_masked_scatter_(tl_tensor *t, const tl_tensor *mask, const tl_tensor *source);
/* [count, ndim] int64 coordinates of the non-zero elements, row-major order. */
int tl_nonzero(tl_tensor *out, const tl_tensor *t);

#endif

/* index_util.h - what the indexing and joining ops share: index-tensor validation and
 * conversion and element-wise accumulation (sum/prod/max/min) per dtype. */
#ifndef TL_OPS_INDEX_UTIL_H
#define TL_OPS_INDEX_UTIL_H

#include <stdbool.h>

#include "core/error.h"
#include "core/scalar.h"
#include "core/tensor.h"

typedef enum { TL_RED_NONE = 0, TL_RED_SUM, TL_RED_PROD, TL_RED_MEAN, TL_RED_AMAX, TL_RED_AMIN } tl_reduce_op;

/* A typed scatter loop, for i in [0, n):
 *     dst[i*ds + ix[i*xs] * st] = op(that element, src[i*ss])
 * with byte strides ds, ss, xs, int64 indices ix scaled by st bytes (assumed in range) and
 * dst not overlapping src or ix. */
typedef void (*tl_scatter_loop)(char *dst, int64_t ds, const char *src, int64_t ss, const char *ix, int64_t xs,
                                int64_t st, int64_t n);
/* The loop for (dt, op), or NULL with torch's NotImplementedError naming `kernel` (torch's
 * dispatch name) when the dtype has no arithmetic (shell dtypes), no order (amax/amin) or is
 * bool under TL_RED_MEAN (which otherwise accumulates like TL_RED_SUM). Integers wrap, bool
 * sums are logical or, float16/bfloat16 round per step. */
tl_scatter_loop tl_scatter_loop_for(tl_dtype dt, tl_reduce_op op, const char *kernel);
/* Writes op's identity (0, 1, lowest, highest) as an element of dtype dt into out. */
void tl_elem_identity(char *out, tl_dtype dt, tl_reduce_op op);
/* The same identity as a scalar (a device tensor is filled with it). */
tl_scalar tl_elem_identity_scalar(tl_dtype dt, tl_reduce_op op);
/* *dst = *dst / count (floor division for integers, as torch's scatter_reduce mean). */
void tl_elem_div_count(char *dst, tl_dtype dt, int64_t count);
/* p[i*ps] /= cnt[i] (as tl_elem_div_count) for i < n where cnt[i] > 1; ps in bytes. */
void tl_elem_div_counts(char *p, int64_t ps, const int64_t *cnt, int64_t n, tl_dtype dt);

#include "core/promote.h" /* tl_promote_types */

/* Checks idx's dtype is int64 (or int32 when allow_int32) with torch's
 * "<op>(): Expected dtype int64 for index" text (RuntimeError). */
int tl_check_index_dtype(const tl_tensor *idx, const char *opname, bool allow_int32);
/* out <- idx as a contiguous int64 tensor (aliased when already so). */
int tl_index_as_i64(tl_tensor *out, const tl_tensor *idx);
/* Validates every value of the int64 tensor idx against [-size, size); on failure sets
 * the error "index %lld is out of bounds for dimension %d with size %lld" (kind `kind`). */
int tl_check_index_range(const tl_tensor *idx, int64_t size, int dim, tl_errkind kind);

/* Errors out when t carries names: "<opname>: named tensors are not supported yet". */
int tl_check_unnamed(const tl_tensor *t, const char *opname);

#include "core/scalar.h"
/* t *= s in place (t's dtype arithmetic; used for index_add's alpha). */
int tl_scale_(tl_tensor *t, tl_scalar s);

#endif

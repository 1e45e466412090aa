/* reduce.h - reductions over a set of dims: sum, nansum, prod, mean, nanmean, var, std,
 * max/min (values), amax/amin, argmax/argmin, all, any, count_nonzero, norm, logsumexp.
 * Dims arrive as a bit mask (bit d = reduce dim d); `full` says no dim was given (error
 * texts differ). Output dims follow seed 003's "removes dimensions" rule: reduced dims are
 * dropped (kept with size 1 under keepdim), kept dims keep their names. */
#ifndef TL_OPS_REDUCE_H
#define TL_OPS_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor.h"

typedef enum {
    TL_RED_SUM, TL_RED_NANSUM, TL_RED_PROD, TL_RED_MEAN, TL_RED_NANMEAN, TL_RED_VAR, TL_RED_STD,
    TL_RED_MAX, TL_RED_MIN, TL_RED_AMAX, TL_RED_AMIN, TL_RED_ARGMAX, TL_RED_ARGMIN,
    TL_RED_ALL, TL_RED_ANY, TL_RED_COUNT_NONZERO, TL_RED_NORM, TL_RED_LOGSUMEXP,
    TL_RED_AMINMAX_MIN, TL_RED_AMINMAX_MAX,
    TL_RED_NUM
} tl_red_op;

/* out <- op(x) over the dims in mask. dtype: -1 for none, else the dtype= argument.
 * param: correction for var/std, p for norm. */
int tl_reduce(tl_tensor *out, const tl_tensor *x, tl_red_op op, uint64_t mask, bool full, bool keepdim,
              int dtype, double param);

/* The "removes dims" bit mask of the dims to reduce: dims wrapped with torch's
 * IndexError text, repeats rejected; n == 0 means every dim. */
int tl_reduce_mask(const tl_tensor *x, tl_red_op op, int dtype, const int64_t *dims, int n, uint64_t *mask);

#endif

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

/* X(CODE, torch's op name): the one list of reduction ops; the enum, the names in messages
 * and the codes tensorlib/_reduce.py uses (_C._reduce_op_codes) are generated from it. */
#define TL_RED_OPS(X)                                                                              \
    X(SUM, sum) X(NANSUM, nansum) X(PROD, prod) X(MEAN, mean) X(NANMEAN, nanmean) X(VAR, var)      \
    X(STD, std) X(MAX, max) X(MIN, min) X(AMAX, amax) X(AMIN, amin) X(ARGMAX, argmax)              \
    X(ARGMIN, argmin) X(ALL, all) X(ANY, any) X(COUNT_NONZERO, count_nonzero) X(NORM, norm)        \
    X(LOGSUMEXP, logsumexp) X(AMINMAX_MIN, aminmax) X(AMINMAX_MAX, aminmax)

typedef enum {
#define TL_RED_ENUM(code, name) TL_RED_##code,
    TL_RED_OPS(TL_RED_ENUM)
#undef TL_RED_ENUM
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

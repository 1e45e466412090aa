/* ew_kernels.h - lookup of the elementwise kernels generated in ew_unary.c,
 * ew_binary.c and ew_ternary.c. A kernel is a 1-D loop (iter.h signature) over operands
 * of the compute dtype: outputs first, then inputs. */
#ifndef TL_EW_KERNELS_H
#define TL_EW_KERNELS_H

#include <complex.h>

#include "core/iter.h"
#include "ops/ew_ops.h"

/* Per-call options a kernel reads (ctx): d/i/c hold the same value as double, int64
 * and complex; each kernel converts them to its own type once per call. */
typedef struct {
    double d[3];
    int64_t i[3];
    double complex c[3];
    int flag;    /* op option: equal_nan for isclose, eps-given for logit, negative decimals for round */
    int zerodiv; /* set by integer kernels on division by zero */
} tl_ew_params;

/* The kernel of `op` for compute dtype `compute`; NULL when the op has none. */
tl_loop_fn tl_ew_unary_kernel(tl_uop op, tl_dtype compute);
tl_loop_fn tl_ew_binary_kernel(tl_bop op, tl_dtype compute);
tl_loop_fn tl_ew_ternary_kernel(tl_top op, tl_dtype compute);

#endif

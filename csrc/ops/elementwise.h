/* elementwise.h - the elementwise op plumbing: checks -> names -> promotion -> output
 * allocation or out=/in-place checks -> iterator -> kernel. One generic entry per arity
 * driven by the op registry (ops/ew_ops.h); operands may be tensors or Python scalars. */
#ifndef TL_OPS_ELEMENTWISE_H
#define TL_OPS_ELEMENTWISE_H

#include "core/scalar.h"
#include "core/tensor.h"
#include "kernels/ew_kernels.h"

/* An operand: a tensor, or (t == NULL) a Python scalar. */
typedef struct {
    const tl_tensor *t;
    tl_scalar s;
} tl_ew_arg;

typedef enum {
    TL_EW_NEW,     /* fill `out` (uninitialized) with a new result */
    TL_EW_OUT,     /* out= : `out` is an existing tensor, resized when its shape differs */
    TL_EW_INPLACE, /* `out` is the first input; broadcasting may not change its shape */
} tl_ew_mode;

typedef struct {
    tl_ew_mode mode;
    tl_tensor *out;
    int resized; /* set when an out= tensor with elements was resized (the caller warns) */
    char old_shape[128], new_shape[128];
} tl_ew_dest;

/* Sets parameter k of prm to s (as double, int64 and complex). */
void tl_ew_param(tl_ew_params *prm, int k, tl_scalar s);

int tl_ew_unary(tl_uop op, const tl_tensor *x, tl_ew_dest *dst, const tl_ew_params *prm);
/* Unary kernel whose result dtype also takes the scalars bounds[0..nb) into account (clamp). */
int tl_ew_unary_promoting(tl_uop op, const tl_tensor *x, const tl_scalar *bounds, int nb, tl_ew_dest *dst,
                          const tl_ew_params *prm);
int tl_ew_binary(tl_bop op, tl_ew_arg a, tl_ew_arg b, tl_ew_dest *dst, const tl_ew_params *prm);
/* where(cond, a, b): cond must be bool. */
int tl_ew_where(const tl_tensor *cond, tl_ew_arg a, tl_ew_arg b, tl_ew_dest *dst);
/* lerp(start, end, weight tensor). */
/* addcmul (div = 0): a + value * t1 * t2; addcdiv (div = 1): a + value * t1 / t2 (torch's
 * error for two integral divisor operands); all three tensors promote together. */
int tl_ew_addc(int div, const tl_tensor *a, const tl_tensor *t1, const tl_tensor *t2, tl_scalar value, tl_ew_dest *dst);
int tl_ew_lerp(const tl_tensor *a, const tl_tensor *b, const tl_tensor *w, tl_ew_dest *dst);
/* masked_fill: x where mask is false, value where true; result has x's dtype. */
int tl_ew_masked_fill(const tl_tensor *x, const tl_tensor *mask, tl_ew_arg value, tl_ew_dest *dst);
/* Result dtype of a binary op over a and b (promotion only). */
int tl_ew_result_type2(tl_ew_arg a, tl_ew_arg b, tl_dtype *out);



/* real/imag views of a complex tensor (real of a real tensor is itself; imag raises). */
int tl_ew_real_view(tl_tensor *out, const tl_tensor *x, int imag);
#endif

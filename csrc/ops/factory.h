/* factory.h - factories that compute their values: arange, linspace, logspace, eye. */
#ifndef TL_OPS_FACTORY_H
#define TL_OPS_FACTORY_H

#include "core/scalar.h"
#include "core/tensor.h"

/* Number of elements arange(start, end, step) produces into `dtype`, with torch's checks. */
int tl_arange_numel(tl_scalar start, tl_scalar end, tl_scalar step, tl_dtype dtype, int64_t *out);
/* Fills the 1-D tensor t with start + i*step. */
int tl_arange_fill(tl_tensor *t, tl_scalar start, tl_scalar step);
/* Fills the 1-D tensor t with linspace(start, end, numel(t)) (base == 0) or
 * base ** linspace(...) (logspace). */
int tl_linspace_fill(tl_tensor *t, tl_scalar start, tl_scalar end, double base);
/* Fills the 2-D tensor t with the identity pattern. */
int tl_eye_fill(tl_tensor *t);

#endif

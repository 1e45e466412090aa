/* cast.h - element conversion loops between every pair of dtypes, generated from the
 * dtype table. */
#ifndef TL_KERNELS_CAST_H
#define TL_KERNELS_CAST_H

#include "core/iter.h"
#include "core/scalar.h"

/* Loop converting operand 1 (input, dtype src) into operand 0 (output, dtype dst);
 * NULL when the conversion is undefined (float4_e2m1fn_x2 to or from another dtype). */
tl_loop_fn tl_cast_loop(tl_dtype src, tl_dtype dst);
/* Loop copying `itemsize`-byte elements bit for bit. */
tl_loop_fn tl_copy_loop(int itemsize);
/* Loop writing the itemsize-byte value at ctx into operand 0. */
tl_loop_fn tl_fill_loop(int itemsize);

/* Writes `s` converted to `dtype` into out (itemsize bytes) with cast semantics;
 * -1 (RuntimeError) for float4_e2m1fn_x2. */
int tl_scalar_to_bytes(tl_scalar s, tl_dtype dtype, void *out);
/* torch's checked conversion of a Python number into `dtype` (used by fill_/full):
 * RuntimeError "value cannot be converted to type int8_t without overflow" when the value
 * does not fit. Tensor-valued fills are not checked, as in torch. */
int tl_scalar_check_fits(tl_scalar s, tl_dtype dtype);
/* Reads one element of `dtype` as a scalar of the dtype's kind (uint64 above INT64_MAX wraps). */
tl_scalar tl_scalar_from_bytes(const void *p, tl_dtype dtype);

#endif

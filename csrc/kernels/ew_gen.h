/* ew_gen.h - generators shared by the elementwise kernel files (private to
 * csrc/kernels). A kernel file defines expression macros E_<op>_<CAT>(T, U, x[, y[, z]])
 * per category (B bool, U uint8, I signed ints, F float32/64, C complex64/128), then
 * expands the op list through EW_GEN_ALL. T is the element type, U an unsigned type of at
 * least 32 bits used for wrapping integer arithmetic (no signed overflow), p0..p2 the
 * op's parameters as T, prm the raw parameters, zd a flag for division by zero.
 *
 * Each loop has branches for contiguous operands and for a broadcast scalar operand with
 * plain indexing so that -O3 vectorizes them; other strides take the generic branch. */
#ifndef TL_EW_GEN_H
#define TL_EW_GEN_H

#include <math.h>
#include <complex.h>
#include <stdint.h>

#include "kernels/ew_kernels.h"

#define EW_WHEN_0(...)
#define EW_WHEN_1(...) __VA_ARGS__

/* GEN(op, out, ID, T, U, RT, CAT) for each compute dtype of a category. */
#define EW_GEN_B(GEN, op, out) GEN(op, out, BOOL, uint8_t, uint32_t, uint8_t, B)
#define EW_GEN_U(GEN, op, out) GEN(op, out, UINT8, uint8_t, uint32_t, uint8_t, U)
#define EW_GEN_I(GEN, op, out) GEN(op, out, INT8, int8_t, uint32_t, int8_t, I) \
    GEN(op, out, INT16, int16_t, uint32_t, int16_t, I) GEN(op, out, INT32, int32_t, uint32_t, int32_t, I) \
    GEN(op, out, INT64, int64_t, uint64_t, int64_t, I)
#define EW_GEN_F(GEN, op, out) GEN(op, out, FLOAT32, float, float, float, F) GEN(op, out, FLOAT64, double, double, double, F)
#define EW_GEN_C(GEN, op, out) GEN(op, out, COMPLEX64, float complex, float complex, float, C) \
    GEN(op, out, COMPLEX128, double complex, double complex, double, C)
/* uint16/32/64 (TL_*_WIDE_UINT lists) with the uint8 formulas */
#define EW_GEN_W(GEN, op, out) GEN(op, out, UINT16, uint16_t, uint32_t, uint16_t, U) \
    GEN(op, out, UINT32, uint32_t, uint32_t, uint32_t, U) GEN(op, out, UINT64, uint64_t, uint64_t, uint64_t, U)
#define EW_GEN_ALL(GEN, op, out, b, u, i, f, c) EW_WHEN_##b(EW_GEN_B(GEN, op, out)) EW_WHEN_##u(EW_GEN_U(GEN, op, out)) \
    EW_WHEN_##i(EW_GEN_I(GEN, op, out)) EW_WHEN_##f(EW_GEN_F(GEN, op, out)) EW_WHEN_##c(EW_GEN_C(GEN, op, out))

#define EW_OUT_SAME(T, RT) T
#define EW_OUT_BOOL(T, RT) uint8_t
#define EW_OUT_REAL(T, RT) RT

#define EW_PRM(T, k) _Generic((T){0}, float: (T)prm->d[k], double: (T)prm->d[k], float complex: (T)prm->c[k], \
                              double complex: (T)prm->c[k], default: (T)prm->i[k])
#define EW_BEGIN(T)                                                         \
    const tl_ew_params *prm = (const tl_ew_params *)ctx;                    \
    const T p0 = EW_PRM(T, 0), p1 = EW_PRM(T, 1), p2 = EW_PRM(T, 2);        \
    int zd = 0;                                                             \
    (void)p0; (void)p1; (void)p2; (void)prm
#define EW_END \
    if (zd) __atomic_store_n(&((tl_ew_params *)ctx)->zerodiv, 1, __ATOMIC_RELAXED)

/* A complex number from real and imaginary parts without inf * I pitfalls. */
#define EW_MKC(T, re, im) _Generic((T){0}, float complex: CMPLXF((float)(re), (float)(im)), default: CMPLX((double)(re), (double)(im)))

#endif

/* vmath.h - vectorized transcendental loops over contiguous float32 / float64 arrays
 * (exp, expm1, log, log1p, log2, log10, sin, cos, tanh, sigmoid, erf, atan). Branch-free
 * polynomial kernels that the compiler vectorizes, dispatched at run time to AVX-512 /
 * AVX2+FMA clones on x86-64 (baseline code elsewhere). float32 uses native float kernels
 * (erf, atan: double, rounded once), float64 double ones, float64 within 1 ULP, float32 within
 * 0.5-2.4 ULP by op (docs/performance.md). Used by the contiguous fast path of ew_unary.c. */
#ifndef TL_KERNELS_VMATH_H
#define TL_KERNELS_VMATH_H

#include <stdint.h>

/* o[i] = f(a[i]) for i < n; o and a may be the same array (or overlap). */
typedef void (*tl_vm_fn)(void *o, const void *a, int64_t n);

#define TL_VM_OPS(X) X(exp) X(expm1) X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) X(tanh) X(sigmoid) X(erf) X(atan)

#define TL_VM_DECL(op) void tl_vm_##op##_f32(void *o, const void *a, int64_t n); \
    void tl_vm_##op##_f64(void *o, const void *a, int64_t n);
TL_VM_OPS(TL_VM_DECL)
#undef TL_VM_DECL

#endif

/* hd_math.h - element math compiled for both the host (C11) and the device (nvcc): the
 * per-op formulas of the backend interface's binary and unary ops (backend/backend.h)
 * for float32, float64 and int64. TL_HD marks them __host__ __device__ under nvcc and is
 * empty under the C compiler; csrc/cuda/ launches them on the GPU and
 * csrc/backend/hd_check.c runs the very same functions on the CPU for the test suite.
 * Integer arithmetic wraps (computed in uint64_t) like the CPU kernels; int64 has no
 * same-dtype division (torch's div promotes it) and no exp. */
#ifndef TL_HD_MATH_H
#define TL_HD_MATH_H

#include <math.h>
#include <stdint.h>

#include "backend/backend.h"

#ifdef __CUDACC__
#define TL_HD __host__ __device__
#else
#define TL_HD
#endif

/* X(suffix, C type, is_float) */
#define TL_HD_DTYPES(X) X(f32, float, 1) X(f64, double, 1) X(i64, int64_t, 0)

#define TL_HD_WRAP(T, expr) ((T)(expr))
#define TL_HD_DEFINE(S, T, FLT)                                                             \
    static inline TL_HD int tl_hd_binary_ok_##S(int op) { return FLT || op != TL_BOP_DIV; } \
    static inline TL_HD int tl_hd_unary_ok_##S(int op) { return FLT || op != TL_UOP_EXP; }  \
    static inline TL_HD T tl_hd_binary_##S(int op, T a, T b)                                \
    {                                                                                       \
        switch (op) {                                                                       \
        case TL_BOP_ADD: return FLT ? a + b : TL_HD_WRAP(T, (uint64_t)a + (uint64_t)b);     \
        case TL_BOP_SUB: return FLT ? a - b : TL_HD_WRAP(T, (uint64_t)a - (uint64_t)b);     \
        case TL_BOP_MUL: return FLT ? a * b : TL_HD_WRAP(T, (uint64_t)a * (uint64_t)b);     \
        default: return FLT ? a / b : (T)0; /* TL_BOP_DIV; refused for integers */          \
        }                                                                                   \
    }                                                                                       \
    static inline TL_HD T tl_hd_unary_##S(int op, T a)                                      \
    {                                                                                       \
        switch (op) {                                                                       \
        case TL_UOP_NEG: return FLT ? -a : TL_HD_WRAP(T, (uint64_t)0 - (uint64_t)a);        \
        case TL_UOP_ABS: return FLT ? (T)fabs((double)a)                                    \
                                    : (a < 0 ? TL_HD_WRAP(T, (uint64_t)0 - (uint64_t)a) : a); \
        default: return FLT ? (T)exp((double)a) : (T)0; /* TL_UOP_EXP; refused for integers */ \
        }                                                                                   \
    }
TL_HD_DTYPES(TL_HD_DEFINE)
#undef TL_HD_DEFINE

#endif

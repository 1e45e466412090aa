/* ew_ops.h - the elementwise op registry: one line per kernel op, read by the kernel
 * generators (csrc/kernels/ew_*.c) and by the plumbing (csrc/ops/elementwise.c).
 *
 * X(name, out, flags, B, U, I, F, C)
 *   out    SAME: result of the compute dtype; BOOL: bool result; REAL: complex -> its real dtype
 *   flags  EWF_* below
 *   B U I F C  1 where a kernel exists for bool / uint8 / signed ints / float32,float64 /
 *              complex64,complex128 compute dtypes (float16, bfloat16 compute in float32,
 *              complex32 in complex64, rounding once on store). */
#ifndef TL_EW_OPS_H
#define TL_EW_OPS_H

enum {
    EWF_FLOAT = 1,      /* bool and integer inputs promote to the default float dtype */
    EWF_ZERODIV = 2,    /* integer kernels may report division by zero */
    EWF_NO_HALF = 4,    /* no float16/bfloat16 */
    EWF_NO_C32 = 8,     /* no complex32 */
    EWF_F8 = 16,        /* float8 inputs too (computed in float32, rounded once on store), as torch */
    EWF_OUT_EXACT = 32, /* out= must have the result dtype (torch's "Found dtype ... but expected ...") */
    EWF_OUT_BOOL = 64,  /* out= must be bool */
};

/* The ops torch runs on its "barebones" unsigned dtypes uint16/uint32/uint64 (shell dtypes
 * elsewhere): X(name, out) as in the lists below; their kernels use the uint8 formulas. */
#define TL_UNARY_WIDE_UINT(X) X(isnan, BOOL) X(isinf, BOOL) X(isposinf, BOOL) X(isneginf, BOOL) \
    X(isfinite, BOOL) X(isreal, BOOL) X(signbit, BOOL) X(ceil, SAME) X(floor, SAME) X(trunc, SAME) \
    X(round, SAME) X(nan_to_num, SAME)
#define TL_BINARY_WIDE_UINT(X) X(mul, SAME) X(eq, BOOL) X(ne, BOOL) X(bitwise_and, SAME) X(bitwise_or, SAME) \
    X(bitwise_xor, SAME)
#define TL_TERNARY_WIDE_UINT(X) X(where, SAME)

#define TL_UNARY_OPS(X)                               \
    X(abs, REAL, EWF_F8 | EWF_OUT_EXACT, 0, 1, 1, 1, 1)           \
    X(neg, SAME, EWF_OUT_EXACT, 0, 1, 1, 1, 1)                    \
    X(sign, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 1, 1, 1, 1, 0)          \
    X(sgn, SAME, EWF_OUT_EXACT, 1, 1, 1, 1, 1)           \
    X(ceil, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 0, 1, 1, 1, 0)                   \
    X(floor, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 0, 1, 1, 1, 0)                  \
    X(trunc, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 0, 1, 1, 1, 0)                  \
    X(round, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 0, 1, 1, 1, 0)                  \
    X(round_dec, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 0, 0, 0, 1, 0)              \
    X(frac, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 0, 0, 0, 1, 0)                   \
    X(sqrt, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(rsqrt, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(square, SAME, EWF_NO_C32, 0, 1, 1, 1, 1)        \
    X(exp, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(exp2, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(expm1, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(log, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(log2, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(log10, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(log1p, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(sin, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(cos, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(tan, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(asin, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(acos, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(atan, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(sinh, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(cosh, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(tanh, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(asinh, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(acosh, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(atanh, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(sigmoid, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(logit, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)          \
    X(relu, SAME, EWF_NO_C32, 0, 1, 1, 1, 0)                   \
    X(gelu, SAME, EWF_NO_C32, 0, 0, 0, 1, 0)                   \
    X(gelu_tanh, SAME, EWF_NO_C32, 0, 0, 0, 1, 0)              \
    X(silu, SAME, EWF_NO_C32, 0, 0, 0, 1, 1)                   \
    X(mish, SAME, EWF_NO_C32, 0, 0, 0, 1, 0)                   \
    X(erf, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)            \
    X(erfc, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)           \
    X(erfinv, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)         \
    X(digamma, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)        \
    X(erfcx, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(ndtri, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(log_ndtr, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(ndtr, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)           \
    X(entr, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)           \
    X(bessel_j0, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(bessel_j1, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(bessel_y0, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(bessel_y1, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(spherical_bessel_j0, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(lgamma, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)         \
    X(reciprocal, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(deg2rad, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)        \
    X(rad2deg, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)        \
    X(angle, REAL, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(conj_physical, SAME, EWF_OUT_EXACT, 1, 1, 1, 1, 1)          \
    X(isnan, BOOL, EWF_F8, 1, 1, 1, 1, 1)                  \
    X(isinf, BOOL, EWF_F8, 1, 1, 1, 1, 1)                  \
    X(isposinf, BOOL, EWF_NO_C32 | EWF_OUT_BOOL, 1, 1, 1, 1, 0)               \
    X(isneginf, BOOL, EWF_NO_C32 | EWF_OUT_BOOL, 1, 1, 1, 1, 0)               \
    X(isfinite, BOOL, EWF_F8, 1, 1, 1, 1, 1)               \
    X(isreal, BOOL, EWF_F8, 1, 1, 1, 1, 1)                 \
    X(signbit, BOOL, EWF_NO_C32 | EWF_OUT_BOOL, 1, 1, 1, 1, 0)                \
    X(nan_to_num, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 1, 1, 1, 1, 1)             \
    X(logical_not, BOOL, EWF_NO_C32, 1, 1, 1, 1, 1)            \
    X(bitwise_not, SAME, EWF_NO_C32 | EWF_OUT_EXACT, 1, 1, 1, 0, 0)            \
    X(clamp_s, SAME, EWF_NO_C32, 0, 1, 1, 1, 0)                \
    X(clamp_min_s, SAME, EWF_NO_C32, 0, 1, 1, 1, 0)            \
    X(clamp_max_s, SAME, EWF_NO_C32, 0, 1, 1, 1, 0) \
    X(i0, SAME, EWF_FLOAT, 0, 0, 0, 1, 0) \
    X(i0e, SAME, EWF_FLOAT, 0, 0, 0, 1, 0) \
    X(i1, SAME, EWF_FLOAT, 0, 0, 0, 1, 0) \
    X(i1e, SAME, EWF_FLOAT, 0, 0, 0, 1, 0) \
    X(modified_bessel_i0, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(modified_bessel_i1, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(modified_bessel_k0, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(modified_bessel_k1, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(scaled_modified_bessel_k0, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(scaled_modified_bessel_k1, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(polygamma, SAME, EWF_FLOAT, 0, 0, 0, 1, 0) \
    X(frexp_mant, SAME, EWF_NO_C32, 0, 0, 0, 1, 0) \
    X(frexp_exp, SAME, EWF_NO_C32, 0, 0, 0, 1, 0) \
    X(sinc, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1) \
    X(airy_ai, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0)

#define TL_BINARY_OPS(X)                                   \
    X(add, SAME, 0, 1, 1, 1, 1, 1)                         \
    X(add_alpha, SAME, 0, 1, 1, 1, 1, 1)                   \
    X(sub, SAME, 0, 0, 1, 1, 1, 1)                         \
    X(mul, SAME, EWF_F8, 1, 1, 1, 1, 1)                         \
    X(div, SAME, EWF_FLOAT | EWF_NO_C32, 0, 0, 0, 1, 1)                 \
    X(div_trunc, SAME, EWF_ZERODIV, 0, 1, 1, 1, 0)         \
    X(div_floor, SAME, EWF_ZERODIV, 0, 1, 1, 1, 0)         \
    X(remainder, SAME, EWF_ZERODIV, 0, 1, 1, 1, 0)         \
    X(fmod, SAME, EWF_ZERODIV, 0, 1, 1, 1, 0)              \
    X(pow, SAME, EWF_NO_C32, 1, 1, 1, 1, 1)                         \
    X(atan2, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)               \
    X(hypot, SAME, EWF_NO_C32, 0, 0, 0, 1, 0)                       \
    X(maximum, SAME, EWF_NO_C32, 1, 1, 1, 1, 0)                     \
    X(minimum, SAME, EWF_NO_C32, 1, 1, 1, 1, 0)                     \
    X(fmax, SAME, EWF_NO_C32, 1, 1, 1, 1, 0)                        \
    X(fmin, SAME, EWF_NO_C32, 1, 1, 1, 1, 0)                        \
    X(copysign, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)            \
    X(xlogy, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)               \
    X(xlog1py, SAME, EWF_FLOAT, 0, 0, 0, 1, 0)             \
    X(igamma, SAME, 0, 0, 0, 0, 1, 0)                      \
    X(igammac, SAME, 0, 0, 0, 0, 1, 0)                     \
    X(logaddexp, SAME, EWF_NO_C32, 0, 0, 0, 1, 1)                   \
    X(lerp_s, SAME, EWF_NO_C32, 0, 0, 0, 1, 1)                      \
    X(eq, BOOL, EWF_F8, 1, 1, 1, 1, 1)                          \
    X(ne, BOOL, EWF_F8, 1, 1, 1, 1, 1)                          \
    X(lt, BOOL, EWF_NO_C32, 1, 1, 1, 1, 0)                          \
    X(le, BOOL, EWF_NO_C32, 1, 1, 1, 1, 0)                          \
    X(gt, BOOL, EWF_NO_C32, 1, 1, 1, 1, 0)                          \
    X(ge, BOOL, EWF_NO_C32, 1, 1, 1, 1, 0)                          \
    X(logical_and, BOOL, EWF_NO_C32, 1, 1, 1, 1, 1)                 \
    X(logical_or, BOOL, EWF_NO_C32, 1, 1, 1, 1, 1)                  \
    X(logical_xor, BOOL, EWF_NO_C32, 1, 1, 1, 1, 1)                 \
    X(bitwise_and, SAME, EWF_NO_C32, 1, 1, 1, 0, 0)                 \
    X(bitwise_or, SAME, EWF_NO_C32, 1, 1, 1, 0, 0)                  \
    X(bitwise_xor, SAME, EWF_NO_C32, 1, 1, 1, 0, 0)                 \
    X(lshift, SAME, EWF_NO_C32, 0, 1, 1, 0, 0)                      \
    X(rshift, SAME, EWF_NO_C32, 0, 1, 1, 0, 0)                      \
    X(isclose, BOOL, EWF_NO_C32, 1, 1, 1, 1, 1)                     \
    X(gcd, SAME, 0, 0, 1, 1, 0, 0)                                  \
    X(lcm, SAME, 0, 0, 1, 1, 0, 0)                                  \
    X(heaviside, SAME, EWF_NO_C32, 1, 1, 1, 1, 0)                   \
    X(nextafter, SAME, EWF_NO_HALF, 0, 0, 0, 1, 0)                  \
    X(logaddexp2, SAME, 0, 0, 0, 0, 1, 0)                           \
    X(zeta, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(chebyshev_polynomial_t, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(chebyshev_polynomial_u, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(chebyshev_polynomial_v, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(chebyshev_polynomial_w, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(shifted_chebyshev_polynomial_t, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(shifted_chebyshev_polynomial_u, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(shifted_chebyshev_polynomial_v, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(shifted_chebyshev_polynomial_w, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(hermite_polynomial_h, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(hermite_polynomial_he, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(laguerre_polynomial_l, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0) \
    X(legendre_polynomial_p, SAME, EWF_FLOAT | EWF_NO_HALF, 0, 0, 0, 1, 0)

/* Ternary kernels: (a, b, c) with a's role given by the op. */
#define TL_TERNARY_OPS(X)                                  \
    X(where, SAME, EWF_F8, 1, 1, 1, 1, 1)                  \
    X(lerp, SAME, EWF_NO_C32, 0, 0, 0, 1, 1)               \
    X(addcmul, SAME, 0, 0, 1, 1, 1, 1)                     \
    X(addcdiv, SAME, 0, 0, 0, 0, 1, 1)

typedef enum {
#define TL_X_UOP(name, ...) TL_UOP_##name,
    TL_UNARY_OPS(TL_X_UOP)
#undef TL_X_UOP
    TL_NUM_UOPS
} tl_uop;

typedef enum {
#define TL_X_BOP(name, ...) TL_BOP_##name,
    TL_BINARY_OPS(TL_X_BOP)
#undef TL_X_BOP
    TL_NUM_BOPS
} tl_bop;

typedef enum {
#define TL_X_TOP(name, ...) TL_TOP_##name,
    TL_TERNARY_OPS(TL_X_TOP)
#undef TL_X_TOP
    TL_NUM_TOPS
} tl_top;

enum { TL_EW_OUT_SAME, TL_EW_OUT_BOOL, TL_EW_OUT_REAL };

#endif

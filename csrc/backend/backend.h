/* backend.h - the device-backend registry: the versioned tables of function pointers that
 * join an out-of-tree backend (tensorlib._C_cuda) to the core. The core owns the registry;
 * a backend module receives a tl_core_api through the PyCapsule tensorlib._C._backend_api
 * and hands back its tl_device_backend. Plain C, no CUDA types: csrc/cuda/ includes this
 * header, the core never includes CUDA headers. */
#ifndef TL_BACKEND_H
#define TL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/ew_params.h"
#include "core/device.h"

/* Bump on any change to the two structs below; a backend built for another version is
 * refused at registration (the capsule name carries the version too). */
#define TL_BACKEND_ABI_VERSION 5
#define TL_BACKEND_CAPSULE_NAME "tensorlib._C._backend_api.v5"

/* Element-wise operations a backend may implement on contiguous operands of one dtype: the
 * parameter-free unary and binary ops of the elementwise registry (ops/ew_ops.h).
 * X(NAME, OUT, B, U, I, F, H, C)
 *   OUT          SAME: the operands' dtype; BOOL: bool; REAL: complex -> its real dtype
 *   B U I F H C  1 where the op is defined for bool / uint8 / int8..int64 / float32,float64 /
 *                float16,bfloat16 (computed in float32, rounded once on store) /
 *                complex64,complex128.
 * New ops are appended (op codes are positions in these lists). COPY is the identity: in the
 * strided entry it converts the input straight to the destination's dtype (the same bits for
 * one dtype), whatever the compute dtype. Integer division by zero
 * (DIV_TRUNC, DIV_FLOOR, REMAINDER, FMOD) gives 0: the caller checks for zero divisors. */
#define TL_BACKEND_UNARY_LIST(X)                                                          \
    X(NEG, SAME, 0, 1, 1, 1, 1, 1) X(ABS, REAL, 0, 1, 1, 1, 1, 1) X(EXP, SAME, 0, 0, 0, 1, 1, 1) \
    X(SIGN, SAME, 1, 1, 1, 1, 1, 0) X(SGN, SAME, 1, 1, 1, 1, 1, 1) X(CEIL, SAME, 0, 1, 1, 1, 1, 0) \
    X(FLOOR, SAME, 0, 1, 1, 1, 1, 0) X(TRUNC, SAME, 0, 1, 1, 1, 1, 0) X(ROUND, SAME, 0, 1, 1, 1, 1, 0) \
    X(FRAC, SAME, 0, 0, 0, 1, 1, 0) X(SQRT, SAME, 0, 0, 0, 1, 1, 1) X(RSQRT, SAME, 0, 0, 0, 1, 1, 1) \
    X(SQUARE, SAME, 0, 1, 1, 1, 1, 1) X(EXP2, SAME, 0, 0, 0, 1, 1, 1) X(EXPM1, SAME, 0, 0, 0, 1, 1, 1) \
    X(LOG, SAME, 0, 0, 0, 1, 1, 1) X(LOG2, SAME, 0, 0, 0, 1, 1, 1) X(LOG10, SAME, 0, 0, 0, 1, 1, 1) \
    X(LOG1P, SAME, 0, 0, 0, 1, 1, 1) X(SIN, SAME, 0, 0, 0, 1, 1, 1) X(COS, SAME, 0, 0, 0, 1, 1, 1) \
    X(TAN, SAME, 0, 0, 0, 1, 1, 1) X(ASIN, SAME, 0, 0, 0, 1, 1, 1) X(ACOS, SAME, 0, 0, 0, 1, 1, 1) \
    X(ATAN, SAME, 0, 0, 0, 1, 1, 1) X(SINH, SAME, 0, 0, 0, 1, 1, 1) X(COSH, SAME, 0, 0, 0, 1, 1, 1) \
    X(TANH, SAME, 0, 0, 0, 1, 1, 1) X(ASINH, SAME, 0, 0, 0, 1, 1, 1) X(ACOSH, SAME, 0, 0, 0, 1, 1, 1) \
    X(ATANH, SAME, 0, 0, 0, 1, 1, 1) X(SIGMOID, SAME, 0, 0, 0, 1, 1, 1) X(RELU, SAME, 0, 1, 1, 1, 1, 0) \
    X(GELU, SAME, 0, 0, 0, 1, 1, 0) X(GELU_TANH, SAME, 0, 0, 0, 1, 1, 0) X(SILU, SAME, 0, 0, 0, 1, 1, 1) \
    X(MISH, SAME, 0, 0, 0, 1, 1, 0) X(ERF, SAME, 0, 0, 0, 1, 1, 0) X(ERFC, SAME, 0, 0, 0, 1, 1, 0) \
    X(LGAMMA, SAME, 0, 0, 0, 1, 1, 0) X(RECIPROCAL, SAME, 0, 0, 0, 1, 1, 1) \
    X(DEG2RAD, SAME, 0, 0, 0, 1, 1, 0) X(RAD2DEG, SAME, 0, 0, 0, 1, 1, 0) X(ANGLE, REAL, 0, 0, 0, 1, 1, 1) \
    X(CONJ_PHYSICAL, SAME, 1, 1, 1, 1, 1, 1) X(ISNAN, BOOL, 1, 1, 1, 1, 1, 1) X(ISINF, BOOL, 1, 1, 1, 1, 1, 1) \
    X(ISPOSINF, BOOL, 1, 1, 1, 1, 1, 0) X(ISNEGINF, BOOL, 1, 1, 1, 1, 1, 0) X(ISFINITE, BOOL, 1, 1, 1, 1, 1, 1) \
    X(ISREAL, BOOL, 1, 1, 1, 1, 1, 1) X(SIGNBIT, BOOL, 1, 1, 1, 1, 1, 0) X(LOGICAL_NOT, BOOL, 1, 1, 1, 1, 1, 1) \
    X(BITWISE_NOT, SAME, 1, 1, 1, 0, 0, 0) X(COPY, SAME, 1, 1, 1, 1, 1, 1) X(ERFINV, SAME, 0, 0, 0, 1, 1, 0) \
    X(DIGAMMA, SAME, 0, 0, 0, 1, 1, 0) X(ERFCX, SAME, 0, 0, 0, 1, 0, 0) X(NDTRI, SAME, 0, 0, 0, 1, 0, 0) \
    X(LOG_NDTR, SAME, 0, 0, 0, 1, 0, 0) X(NDTR, SAME, 0, 0, 0, 1, 1, 0) X(ENTR, SAME, 0, 0, 0, 1, 1, 0) \
    X(BESSEL_J0, SAME, 0, 0, 0, 1, 0, 0) X(BESSEL_J1, SAME, 0, 0, 0, 1, 0, 0) X(BESSEL_Y0, SAME, 0, 0, 0, 1, 0, 0) \
    X(BESSEL_Y1, SAME, 0, 0, 0, 1, 0, 0) X(SPHERICAL_BESSEL_J0, SAME, 0, 0, 0, 1, 0, 0) \
    X(I0, SAME, 0, 0, 0, 1, 1, 0) X(I0E, SAME, 0, 0, 0, 1, 1, 0) X(I1, SAME, 0, 0, 0, 1, 1, 0) \
    X(I1E, SAME, 0, 0, 0, 1, 1, 0) X(MODIFIED_BESSEL_I0, SAME, 0, 0, 0, 1, 0, 0) X(MODIFIED_BESSEL_I1, SAME, 0, 0, 0, 1, 0, 0) \
    X(MODIFIED_BESSEL_K0, SAME, 0, 0, 0, 1, 0, 0) X(MODIFIED_BESSEL_K1, SAME, 0, 0, 0, 1, 0, 0) X(SCALED_MODIFIED_BESSEL_K0, SAME, 0, 0, 0, 1, 0, 0) \
    X(SCALED_MODIFIED_BESSEL_K1, SAME, 0, 0, 0, 1, 0, 0) X(FREXP_MANT, SAME, 0, 0, 0, 1, 1, 0) \
    X(FREXP_EXP, SAME, 0, 0, 0, 1, 1, 0) X(SINC, SAME, 0, 0, 0, 1, 1, 1) X(AIRY_AI, SAME, 0, 0, 0, 1, 0, 0)
#define TL_BACKEND_BINARY_LIST(X)                                                         \
    X(ADD, SAME, 1, 1, 1, 1, 1, 1) X(SUB, SAME, 0, 1, 1, 1, 1, 1) X(MUL, SAME, 1, 1, 1, 1, 1, 1) \
    X(DIV, SAME, 0, 0, 0, 1, 1, 1) X(DIV_TRUNC, SAME, 0, 1, 1, 1, 1, 0) X(DIV_FLOOR, SAME, 0, 1, 1, 1, 1, 0) \
    X(REMAINDER, SAME, 0, 1, 1, 1, 1, 0) X(FMOD, SAME, 0, 1, 1, 1, 1, 0) X(POW, SAME, 0, 1, 1, 1, 1, 1) \
    X(ATAN2, SAME, 0, 0, 0, 1, 1, 0) X(HYPOT, SAME, 0, 0, 0, 1, 1, 0) X(MAXIMUM, SAME, 1, 1, 1, 1, 1, 0) \
    X(MINIMUM, SAME, 1, 1, 1, 1, 1, 0) X(FMAX, SAME, 1, 1, 1, 1, 1, 0) X(FMIN, SAME, 1, 1, 1, 1, 1, 0) \
    X(COPYSIGN, SAME, 0, 0, 0, 1, 1, 0) X(XLOGY, SAME, 0, 0, 0, 1, 1, 0) X(LOGADDEXP, SAME, 0, 0, 0, 1, 1, 0) \
    X(EQ, BOOL, 1, 1, 1, 1, 1, 1) X(NE, BOOL, 1, 1, 1, 1, 1, 1) X(LT, BOOL, 1, 1, 1, 1, 1, 0) \
    X(LE, BOOL, 1, 1, 1, 1, 1, 0) X(GT, BOOL, 1, 1, 1, 1, 1, 0) X(GE, BOOL, 1, 1, 1, 1, 1, 0) \
    X(LOGICAL_AND, BOOL, 1, 1, 1, 1, 1, 1) X(LOGICAL_OR, BOOL, 1, 1, 1, 1, 1, 1) \
    X(LOGICAL_XOR, BOOL, 1, 1, 1, 1, 1, 1) X(BITWISE_AND, SAME, 1, 1, 1, 0, 0, 0) \
    X(BITWISE_OR, SAME, 1, 1, 1, 0, 0, 0) X(BITWISE_XOR, SAME, 1, 1, 1, 0, 0, 0) \
    X(LSHIFT, SAME, 0, 1, 1, 0, 0, 0) X(RSHIFT, SAME, 0, 1, 1, 0, 0, 0) X(GCD, SAME, 0, 1, 1, 0, 0, 0) \
    X(LCM, SAME, 0, 1, 1, 0, 0, 0) X(HEAVISIDE, SAME, 1, 1, 1, 1, 1, 0) X(NEXTAFTER, SAME, 0, 0, 0, 1, 0, 0) \
    X(XLOG1PY, SAME, 0, 0, 0, 1, 1, 0) X(IGAMMA, SAME, 0, 0, 0, 1, 1, 0) X(IGAMMAC, SAME, 0, 0, 0, 1, 1, 0) \
    X(LOGADDEXP2, SAME, 0, 0, 0, 1, 1, 0) X(ZETA, SAME, 0, 0, 0, 1, 0, 0) \
    X(CHEBYSHEV_POLYNOMIAL_T, SAME, 0, 0, 0, 1, 0, 0) X(CHEBYSHEV_POLYNOMIAL_U, SAME, 0, 0, 0, 1, 0, 0) X(CHEBYSHEV_POLYNOMIAL_V, SAME, 0, 0, 0, 1, 0, 0) \
    X(CHEBYSHEV_POLYNOMIAL_W, SAME, 0, 0, 0, 1, 0, 0) X(SHIFTED_CHEBYSHEV_POLYNOMIAL_T, SAME, 0, 0, 0, 1, 0, 0) X(SHIFTED_CHEBYSHEV_POLYNOMIAL_U, SAME, 0, 0, 0, 1, 0, 0) \
    X(SHIFTED_CHEBYSHEV_POLYNOMIAL_V, SAME, 0, 0, 0, 1, 0, 0) X(SHIFTED_CHEBYSHEV_POLYNOMIAL_W, SAME, 0, 0, 0, 1, 0, 0) X(HERMITE_POLYNOMIAL_H, SAME, 0, 0, 0, 1, 0, 0) \
    X(HERMITE_POLYNOMIAL_HE, SAME, 0, 0, 0, 1, 0, 0) X(LAGUERRE_POLYNOMIAL_L, SAME, 0, 0, 0, 1, 0, 0) X(LEGENDRE_POLYNOMIAL_P, SAME, 0, 0, 0, 1, 0, 0)
/* Ops with parameters or three inputs (ABI 4), an ew call with xop = 1:
 * X(NAME, NIN, OUT, B, U, I, F, H, C), the flags as above; OUT SAME: the compute dtype, BOOL: bool.
 *   CLAMP CLAMP_MIN CLAMP_MAX  x bounded by p0 (min) and p1 (max); a NaN bound or x gives NaN
 *   ADD_ALPHA                  x + p0 * y (bool: x || (y && p0))
 *   LERP_S                     x + p0 * (y - x), as y - (y - x) * (1 - p0) when |p0| >= 0.5
 *   WHERE                      x ? y : z (x read as bool from its own dtype)
 *   LERP                       LERP_S with the weight z
 *   ADDCMUL ADDCDIV            x + p0 * y * z, x + p0 * y / z
 *   ISCLOSE                    x == y or |x - y| <= d[1] + |d[0] * y| (floats: finite |x - y|, in
 *                              the compute type; integers in double; bool: x == y); i[2] != 0:
 *                              NaNs equal (equal_nan)
 *   ROUND_DEC                  nearbyint(x * p0) / p0; i[2] != 0: nearbyint(x / p0) * p0 (p0 =
 *                              10^|decimals|, i[2] = decimals < 0)
 *   LOGIT                      log(z / (1 - z)), z = x clamped to [p0, 1 - p0] when i[2] != 0
 *                              (eps given), z = x otherwise
 *   NAN_TO_NUM                 NaN -> p0, +inf -> p1, -inf -> p2 (complex: each part); integers: x
 *   POLYGAMMA                  the i[0]-th derivative of digamma (i[0] >= 0)
 * Parameters travel as the CPU kernels take them (kernels/ew_kernels.h's tl_ew_params): p_k is
 * (T)d[k] for a float compute dtype T, (T)i[k] for an integer or bool one, (T)c[k] for a
 * complex one; an op with a flag (tl_ew_params.flag) and at most two parameters gets the flag
 * as i[2]. The formulas are the CPU kernels' (kernels/ew_unary.c, ew_binary.c, ew_ternary.c;
 * those of the newer ops are shared through kernels/hd_math.h); integers wrap. */
#define TL_BACKEND_XOP_LIST(X)                                                                       \
    X(CLAMP, 1, SAME, 0, 1, 1, 1, 1, 0) X(CLAMP_MIN, 1, SAME, 0, 1, 1, 1, 1, 0)                       \
    X(CLAMP_MAX, 1, SAME, 0, 1, 1, 1, 1, 0) X(ADD_ALPHA, 2, SAME, 1, 1, 1, 1, 1, 1)                   \
    X(LERP_S, 2, SAME, 0, 0, 0, 1, 1, 1) X(WHERE, 3, SAME, 1, 1, 1, 1, 1, 1)                          \
    X(LERP, 3, SAME, 0, 0, 0, 1, 1, 1) X(ADDCMUL, 3, SAME, 0, 1, 1, 1, 1, 1)                          \
    X(ADDCDIV, 3, SAME, 0, 0, 0, 1, 1, 1) X(ISCLOSE, 2, BOOL, 1, 1, 1, 1, 1, 1)                       \
    X(ROUND_DEC, 1, SAME, 0, 0, 0, 1, 1, 0) X(LOGIT, 1, SAME, 0, 0, 0, 1, 1, 0)                       \
    X(NAN_TO_NUM, 1, SAME, 1, 1, 1, 1, 1, 1) X(POLYGAMMA, 1, SAME, 0, 0, 0, 1, 1, 0)
typedef enum {
#define TL_X_OP(N, ...) TL_XOP_##N,
    TL_BACKEND_XOP_LIST(TL_X_OP)
#undef TL_X_OP
    TL_BACKEND_NUM_XOPS
} tl_backend_xop;
typedef enum {
#define TL_X_OP(N, ...) TL_BOP_##N,
    TL_BACKEND_BINARY_LIST(TL_X_OP)
#undef TL_X_OP
    TL_BACKEND_NUM_BOPS
} tl_backend_binary_op;
typedef enum {
#define TL_X_OP(N, ...) TL_UOP_##N,
    TL_BACKEND_UNARY_LIST(TL_X_OP)
#undef TL_X_OP
    TL_BACKEND_NUM_UOPS
} tl_backend_unary_op;

/* The dtypes of the element-wise entry, by the backend's own codes (TL_BDT_*): a backend
 * needs no copy of the core's dtype table for them. kernels/hd_math.h has one set of
 * formulas and one converter per code. */
#define TL_BACKEND_DTYPES(X) X(BOOL) X(UINT8) X(INT8) X(INT16) X(INT32) X(INT64) X(FLOAT16) X(BFLOAT16) \
    X(FLOAT32) X(FLOAT64) X(COMPLEX64) X(COMPLEX128)
typedef enum {
#define TL_X_BDT(ID) TL_BDT_##ID,
    TL_BACKEND_DTYPES(TL_X_BDT)
#undef TL_X_BDT
    TL_NUM_BDTS
} tl_backend_dtype;

/* One strided element-wise call (ABI 2; ABI 4: a third input and parameters): out = op(a[, b[, c]]) over `numel` elements laid out by
 * an index calculator: `shape` (ndim dims, dim 0 innermost, broadcast, size-1 dims dropped and
 * mergeable dims merged by the core) and, per operand, byte strides (0 for a broadcast dim;
 * negative allowed). Element i of the iteration, split into the multi-index (i_0, i_1, ...)
 * with i_0 fastest, is at data + sum_d i_d * strides[d] for each operand. Inputs are
 * converted on load from their dtype to `compute`; the op runs in `compute` (one of the
 * formula dtypes: never FLOAT16/BFLOAT16, which the core computes in FLOAT32) and its result
 * (the op's OUT kind of `compute`) is converted on store to ops[0].dtype. An input with
 * data == NULL is a scalar: `value` holds it in the compute dtype. The core has checked that
 * the op is defined for `compute` and that every operand lies on `device_index`. */
#define TL_BACKEND_EW_MAX_DIMS 25
typedef struct tl_backend_ew_operand {
    char *data;     /* device address of the operand's first element; NULL: `value` (inputs) */
    int32_t dtype;  /* TL_BDT_* */
    int32_t pad_;
    double value[2];  /* a scalar input's bytes in the compute dtype (double: aligned for any) */
    int64_t strides[TL_BACKEND_EW_MAX_DIMS];
} tl_backend_ew_operand;
typedef struct tl_backend_ew_call {
    uint32_t size;          /* sizeof(tl_backend_ew_call): the backend checks it */
    int32_t op;             /* TL_UOP_* (nin 1) or TL_BOP_* (nin 2); TL_XOP_* when xop */
    int32_t nin;            /* 1 or 2 (3: xop only) */
    int32_t compute;        /* TL_BDT_* */
    int32_t device_index;
    int32_t ndim;           /* 1..TL_BACKEND_EW_MAX_DIMS */
    int64_t numel;          /* > 0 */
    int32_t xop;            /* ABI 4: op is a TL_XOP_* code */
    int32_t pad_;
    tl_backend_ew_params prm;  /* ABI 4: the xop's parameters */
    int64_t shape[TL_BACKEND_EW_MAX_DIMS];
    tl_backend_ew_operand ops[4];  /* out, a, b, c */
} tl_backend_ew_call;

/* Random sampling (ABI 3): one call fills a tensor with the values of one sampler from the
 * Philox4x32-10 counter blocks [first, first + ceil(values / per-block)) under key `seed`, the
 * layout of the CPU's Philox generator (kernels/hd_random.h says which words make which
 * value), so a seed gives the same numbers on the CPU and the device. The core has validated
 * the parameters, reserved the blocks from the generator and chosen the mode; the backend
 * stores value v (row-major element v; complex: element v/2, part v%2) converted to `dtype`.
 * Sampler codes equal the core's tl_dist (ops/random.h), TL_BRS_INT excepted. */
enum {
    TL_BRS_UNIFORM, TL_BRS_NORMAL, TL_BRS_EXPONENTIAL, TL_BRS_CAUCHY, TL_BRS_LOG_NORMAL, TL_BRS_GEOMETRIC,
    TL_BRS_BERNOULLI, TL_BRS_INT
};
/* F32: 4 float values per block (uniform, normal, bernoulli); F64: 2 double values per block;
 * U64: 2 integers per block (TL_BRS_INT). */
enum { TL_BRM_F32, TL_BRM_F64, TL_BRM_U64 };
typedef struct tl_backend_random_call {
    uint32_t size;          /* sizeof(tl_backend_random_call): the backend checks it */
    int32_t sampler;        /* TL_BRS_* */
    int32_t mode;           /* TL_BRM_* */
    int32_t dtype;          /* TL_BDT_* of the output */
    int32_t device_index;
    int32_t ndim;           /* 0..TL_BACKEND_EW_MAX_DIMS (0: one element) */
    int64_t numel;          /* elements, > 0 */
    double a, b;            /* uniform from/to, normal and log_normal mean/std (complex: std/sqrt 2),
                               exponential lambda, cauchy median/sigma, geometric and bernoulli p */
    uint64_t int_from, int_range;  /* TL_BRS_INT: from + u mod range (range 0: u) */
    uint64_t seed, first;   /* Philox key and first counter block */
    char *data;             /* device address of the first element */
    int64_t shape[TL_BACKEND_EW_MAX_DIMS];    /* row-major sizes, dim 0 innermost */
    int64_t strides[TL_BACKEND_EW_MAX_DIMS];  /* byte strides of those dims */
    /* Per-element parameters read on the device (mode F64, one value per element, complex
     * outputs get it as their real part): bernoulli: in[0] = p, value (u < p) for the uniform
     * u of sampler UNIFORM(0, 1); normal: in[0] = mean (NULL: a), in[1] = std (NULL: b),
     * value mean + std * z for the z of NORMAL(0, 1). Broadcast by stride 0. */
    int32_t nin;            /* 0: a and b only */
    int32_t in_dtype[2];    /* TL_BDT_* */
    int32_t pad_;
    const char *in[2];
    int64_t in_strides[2][TL_BACKEND_EW_MAX_DIMS];
} tl_backend_random_call;
/* Reductions (ABI 3). X(NAME, C): C is 1 where the op takes complex input.
 *   SUM PROD MEAN     sum / product / sum / N (N the number of reduced elements)
 *   NANSUM NANMEAN    the same skipping NaNs (NANMEAN: sum / count of non-NaN)
 *   VAR STD           sum |x - mean|^2 / max(N - param, 0) (param: the correction), STD its sqrt;
 *                     the result is real (a complex input's real dtype)
 *   MAX MIN           the extreme and (indices != NULL) its position: the first occurrence, a NaN
 *                     wins over numbers (the first NaN); values may be NULL (argmax, argmin)
 *   ALL ANY           1/0 (x != 0 for every / some element)
 *   COUNT_NONZERO     the count of x != 0 (int64)
 *   NORM              param p: inf max|x|, -inf min|x|, 0 count of x != 0, else (sum |x|^p)^(1/p)
 *   LOGSUMEXP         log(sum exp(x)) about the maximum (real input)
 * An element's position is its row-major index over the reduced dims: red dim 0 fastest. */
#define TL_BACKEND_REDUCE_LIST(X)                                                                   \
    X(SUM, 1) X(NANSUM, 0) X(PROD, 1) X(MEAN, 1) X(NANMEAN, 0) X(VAR, 1) X(STD, 1) X(MAX, 0)         \
    X(MIN, 0) X(ALL, 1) X(ANY, 1) X(COUNT_NONZERO, 1) X(NORM, 1) X(LOGSUMEXP, 0)
typedef enum {
#define TL_X_OP(N, ...) TL_ROP_##N,
    TL_BACKEND_REDUCE_LIST(TL_X_OP)
#undef TL_X_OP
    TL_BACKEND_NUM_ROPS
} tl_backend_reduce_op;

/* One reduction call (ABI 3): for each of the `nout` outputs (the kept dims' multi-index, kept dim
 * 0 fastest) the op over the `nred` elements of the reduced dims (red dim 0 fastest). Output o at
 * multi-index (k_0, k_1, ...) reads in + sum k_d * kin_strides[d] + sum r_d * rin_strides[d] and
 * writes out + sum k_d * kout_strides[d] (values, out_dtype) and indices + sum k_d * kidx_strides[d]
 * (int64 positions, MAX/MIN only). Byte strides, negative allowed; size-1 dims dropped and
 * mergeable dims merged by the core, which has checked the op and dtypes and the emptiness rules
 * (nred == 0 only for ops with an identity: sum 0, prod 1, mean/var NaN, all 1, any 0, norm 0,
 * logsumexp -inf). Elements are read as in_dtype (bool, integers: their integer value; floats: their
 * value; complex: both parts) and accumulated in acc_dtype: INT64 (integer sums and products wrap),
 * FLOAT32 (float16, bfloat16 and float32 sums, products and means, as torch's CUDA kernels),
 * FLOAT64, COMPLEX64 or COMPLEX128; VAR, STD, NORM and LOGSUMEXP run in float64 whatever acc_dtype.
 * The result is converted on store to out_dtype (the core's result dtype). */
#define TL_BACKEND_RED_MAX_DIMS TL_BACKEND_EW_MAX_DIMS
typedef struct tl_backend_reduce_call {
    uint32_t size;          /* sizeof(tl_backend_reduce_call): the backend checks it */
    int32_t op;             /* TL_ROP_* */
    int32_t device_index;
    int32_t in_dtype, acc_dtype, out_dtype;  /* TL_BDT_* */
    int32_t nkept, nred;    /* 0..TL_BACKEND_RED_MAX_DIMS each */
    int32_t pad_;
    int64_t nout;           /* product of kept_sizes, > 0 */
    int64_t nelem;          /* product of red_sizes, >= 0 */
    double param;           /* VAR/STD: correction; NORM: p */
    const char *in;         /* device addresses */
    char *out;              /* NULL: no values (argmax, argmin) */
    char *indices;          /* int64; NULL but for MAX/MIN with indices */
    int64_t kept_sizes[TL_BACKEND_RED_MAX_DIMS];
    int64_t kin_strides[TL_BACKEND_RED_MAX_DIMS];
    int64_t kout_strides[TL_BACKEND_RED_MAX_DIMS];
    int64_t kidx_strides[TL_BACKEND_RED_MAX_DIMS];
    int64_t red_sizes[TL_BACKEND_RED_MAX_DIMS];
    int64_t rin_strides[TL_BACKEND_RED_MAX_DIMS];
} tl_backend_reduce_call;

/* Scans (ABI 3): along one dim, for each of the `nrows` rows (the other dims' multi-index, kept
 * dim 0 fastest), out[i] = op(x[0..i]) for i < len; CUMMAX/CUMMIN also write the position of
 * the running extreme (int64; a NaN wins, later equal elements take over: torch's CPU rule).
 * Op codes equal the core's tl_scan_op (ops/sort.h). Elements are read as in_dtype and
 * accumulated as the CPU does (integers and bool wrapping through 64 bits; floats in double;
 * complex in double complex; extremes compared in double or int64), one element after the
 * other, so the results are the CPU's bits; stored converted to out_dtype. Byte strides.
 * LOGCUMSUMEXP: log(exp(x0) + ... + exp(xi)) by torch's running step (kernels/hd_scan.h), floats
 * in double, complex in double complex. */
enum { TL_SOP_CUMSUM, TL_SOP_CUMPROD, TL_SOP_CUMMAX, TL_SOP_CUMMIN, TL_SOP_LOGCUMSUMEXP };
typedef struct tl_backend_scan_call {
    uint32_t size;          /* sizeof(tl_backend_scan_call): the backend checks it */
    int32_t op;             /* TL_SOP_* */
    int32_t device_index;
    int32_t in_dtype, out_dtype;  /* TL_BDT_* */
    int32_t nkept;          /* 0..TL_BACKEND_EW_MAX_DIMS */
    int64_t nrows, len;     /* > 0 each */
    int64_t in_step, out_step, idx_step;  /* byte strides along the scanned dim */
    const char *in;         /* device addresses */
    char *out;
    char *indices;          /* int64, CUMMAX/CUMMIN only; else NULL */
    int64_t kept_sizes[TL_BACKEND_EW_MAX_DIMS];
    int64_t kin_strides[TL_BACKEND_EW_MAX_DIMS];
    int64_t kout_strides[TL_BACKEND_EW_MAX_DIMS];
    int64_t kidx_strides[TL_BACKEND_EW_MAX_DIMS];
} tl_backend_scan_call;

/* Indexing (ABI 4): one pass over `numel` elements of an iteration (shape innermost first, as the
 * element-wise call) with three operands, each with byte strides: data, src and index. At each
 * element the index operand holds k (int64, or int32 with TL_BIX_IDX32); with TL_BIX_RAW k is a
 * byte offset used as it is, otherwise k < 0 takes + bound under TL_BIX_WRAP, a k outside
 * [0, bound) sets *bad to 1 and the element is skipped, and the offset is k * step bytes. Then
 *   GATHER   data[i] = src[i + offset]                  (elsize bytes moved)
 *   PUT      data[i + offset] = src[i]                  (duplicates: any one of the writes wins)
 *   PUT_ADD  data[i + offset] += src[i]                 (dtype's addition, atomic on the device;
 *                                                        float16/bfloat16 add in float32, rounded)
 OFFSET   data[i] (int64) = (TL_BIX_ACC ? data[i] : 0) + offset
 *   CHECK    nothing is written: the range check alone
 *   PUT_MUL, PUT_MAX, PUT_MIN (ABI 5)  data[i + offset] = data[i + offset] op src[i] as PUT_ADD,
 *            op the dtype's product, or the larger / smaller of the two with NaN winning (the
 *            CPU's scatter_reduce prod, amax and amin; atomic on the device)
 * The core makes every pass that writes into an existing tensor after a CHECK (or an OFFSET) of
 * its indices, so a bad index leaves the tensor as it was; it reads *bad (an int32 on the
 * device, zeroed by the core) after the call. The kernels/hd_index.h functions are the element
 * steps of the CUDA kernel and of the host runner. */
enum { TL_BIX_GATHER, TL_BIX_PUT, TL_BIX_PUT_ADD, TL_BIX_OFFSET, TL_BIX_CHECK, TL_BIX_PUT_MUL, TL_BIX_PUT_MAX,
       TL_BIX_PUT_MIN };
enum { TL_BIX_WRAP = 1, TL_BIX_RAW = 2, TL_BIX_ACC = 4, TL_BIX_IDX32 = 8 };
typedef struct tl_backend_index_call {
    uint32_t size;          /* sizeof(tl_backend_index_call): the backend checks it */
    int32_t mode;           /* TL_BIX_GATHER .. TL_BIX_PUT_MIN */
    int32_t flags;          /* TL_BIX_WRAP | RAW | ACC | IDX32 */
    int32_t device_index;
    int32_t elsize;         /* bytes per data/src element: 1, 2, 4, 8 or 16 */
    int32_t dtype;          /* TL_BDT_* of data and src (the combining puts) */
    int32_t ndim;           /* 1..TL_BACKEND_EW_MAX_DIMS */
    int32_t pad_;
    int64_t numel;          /* > 0 */
    int64_t step, bound;
    char *data;             /* device addresses (data: the int64 offsets for OFFSET) */
    const char *src;
    const char *index;
    int32_t *bad;
    int64_t shape[TL_BACKEND_EW_MAX_DIMS];
    int64_t strides[3][TL_BACKEND_EW_MAX_DIMS];  /* data, src, index */
} tl_backend_index_call;

/* Sorting (ABI 4): each of the `nrows` contiguous rows of `len` elements of dtype `dtype` (row r at
 * in + r * len elements) sorted by the order-preserving key of kernels/hd_sort.h (NaN above
 * everything, -0 equal to 0), ascending or (descending) by the inverted key, stably: equal
 * elements keep their order, which is the CPU's sort. With select TL_BSS_ALL values gets the
 * sorted elements and indices (int64) their positions in the row, both contiguous rows like in;
 * otherwise one element per row (values[r], indices[r]) at the position tl_hd_select_pos picks
 * in the ascending order: KTH the k-th (0-based), MEDIAN the lower median (the first NaN of a
 * float row holding one), NANMEDIAN the lower median of the non-NaN elements, MODE the end of the
 * first longest run of equal keys (each NaN a run of its own). */
enum { TL_BSS_ALL, TL_BSS_KTH, TL_BSS_MEDIAN, TL_BSS_NANMEDIAN, TL_BSS_MODE };
typedef struct tl_backend_sort_call {
    uint32_t size;          /* sizeof(tl_backend_sort_call): the backend checks it */
    int32_t device_index;
    int32_t dtype;          /* TL_BDT_* (not complex) */
    int32_t descending;     /* TL_BSS_ALL only */
    int32_t select;         /* TL_BSS_* */
    int32_t pad_;
    int64_t k;              /* TL_BSS_KTH: 0 <= k < len */
    int64_t nrows, len;     /* > 0 each */
    const char *in;         /* device addresses */
    char *values;
    int64_t *indices;
} tl_backend_sort_call;
/* Dense products (ABI 4): one (strided-batched) gemm in BLAS's column-major terms. For each
 * batch i < batch, C_i = alpha * op(A_i) @ op(B_i) + beta * C_i, where C_i is the m x n matrix
 * at c + i * stride_c elements whose element (r, s) is at r + s * ldc; op(A_i) is m x k and
 * op(B_i) k x n; A_i at a + i * stride_a is stored k x m (transa T or C) or m x k (N) with
 * leading dim lda, B_i likewise (n x k or k x n, ldb). T transposes, C conjugate-transposes.
 * Strides and leading dims count elements; a batch stride of 0 shares the matrix. A, B and C
 * have one dtype: FLOAT16, BFLOAT16 (products accumulated in float32, rounded once on store),
 * FLOAT32, FLOAT64, COMPLEX64 or COMPLEX128; alpha and beta are (real, imag) in double (the
 * backend rounds them to the compute type). beta == 0: C is written without being read (NaN
 * in it does not propagate). The core has done everything else (ops/linalg.c, backend/gemm.c:
 * torch's checks, the result, row-major tensors as C^T = B^T A^T, copies of operands no BLAS
 * layout fits, k == 0, batch dims that do not merge into one stride); m, n, k, lda, ldb, ldc
 * and batch are in 1..INT32_MAX, each ld at least the stored matrix's row count. flags:
 * TL_BGEMM_ALLOW_TF32: float32 products may run on TF32 tensor cores
 * (tl.backends.cuda.matmul.allow_tf32); TL_BGEMM_NO_REDUCED_F16 / _BF16: float16 / bfloat16
 * products must not reduce split sums in reduced precision (the allow_*_reduced_precision_reduction
 * switches set to False). */
enum { TL_BGEMM_OP_N, TL_BGEMM_OP_T, TL_BGEMM_OP_C };
enum { TL_BGEMM_ALLOW_TF32 = 1, TL_BGEMM_NO_REDUCED_F16 = 2, TL_BGEMM_NO_REDUCED_BF16 = 4 };
typedef struct tl_backend_gemm_call {
    uint32_t size;          /* sizeof(tl_backend_gemm_call): the backend checks it */
    int32_t device_index;
    int32_t dtype;          /* TL_BDT_* of A, B and C */
    int32_t flags;          /* TL_BGEMM_* */
    int32_t transa, transb; /* TL_BGEMM_OP_* */
    int64_t m, n, k, batch;
    double alpha[2], beta[2];  /* real, imaginary part */
    const char *a, *b;      /* device addresses */
    char *c;
    int64_t lda, ldb, ldc;  /* leading dims, elements */
    int64_t stride_a, stride_b, stride_c;  /* elements from one batch's matrix to the next */
} tl_backend_gemm_call;

/* Selection (ABI 4): the positions i < numel whose flag (one byte, 0 or 1, contiguous) is 1, in
 * ascending order into out (int64, room for numel), and their count into *count (an int64 on
 * the device). The core makes the flags (x != 0 on the device) and turns positions into
 * coordinates (nonzero, masked_select, x[mask]). */
typedef struct tl_backend_select_call {
    uint32_t size;          /* sizeof(tl_backend_select_call): the backend checks it */
    int32_t device_index;
    int64_t numel;          /* > 0 */
    const uint8_t *flags;   /* device addresses */
    int64_t *out;
    int64_t *count;
} tl_backend_select_call;

/* Sparse products (ABI 5): C = alpha * op(A) @ B + beta * C for one sparse matrix A stored as
 * `rows` x `cols` with `nnz` > 0 elements, op(A) A itself (TL_BGEMM_OP_N) or its transpose
 * (TL_BGEMM_OP_T); m x k is op(A)'s shape. format:
 *   TL_BSP_CSR  offsets: rows + 1 (offsets[0] == 0, non-decreasing, offsets[rows] == nnz),
 *               indices: the column of each element, sorted and distinct within a row;
 *   TL_BSP_CSC  the same over columns: offsets cols + 1, indices the rows;
 *   TL_BSP_COO  offsets: the row of each element, indices: its column, (row, column) pairs
 *               sorted and distinct (a coalesced COO matrix).
 * offsets and indices are contiguous arrays of index_dtype (TL_BDT_INT32 or TL_BDT_INT64, both
 * the same), every index in range (the core has validated them), values nnz contiguous
 * elements of dtype. n == 0: SpMV, B a contiguous vector of k elements and C one of m; else B
 * (k x n) and C (m x n) are dense matrices in one `order` (TL_BSP_ROW_MAJOR: element (r, s) at
 * r * ld + s; TL_BSP_COL_MAJOR: at r + s * ld) with leading dims ldb, ldc. dtype (A, B and C
 * alike): FLOAT16 and BFLOAT16 (products accumulated in float32, rounded once on store),
 * FLOAT32, FLOAT64, COMPLEX64, COMPLEX128; alpha and beta are (real, imag) in double, rounded
 * to the compute type. beta == 0: C has been zeroed by the core (a NaN in it never shows). The
 * core has done torch's checks, the result, the operand copies no order fits, the transposes
 * that turn dense @ sparse into sparse @ dense, nnz == 0 and empty shapes; rows, cols, nnz,
 * n, ldb and ldc fit the index dtype. */
enum { TL_BSP_CSR, TL_BSP_CSC, TL_BSP_COO };
enum { TL_BSP_ROW_MAJOR, TL_BSP_COL_MAJOR };
typedef struct tl_backend_spmm_call {
    uint32_t size;          /* sizeof(tl_backend_spmm_call): the backend checks it */
    int32_t device_index;
    int32_t format;         /* TL_BSP_CSR / _CSC / _COO */
    int32_t index_dtype;    /* TL_BDT_INT32 or TL_BDT_INT64 */
    int32_t dtype;          /* TL_BDT_* of A's values, B and C */
    int32_t op_a;           /* TL_BGEMM_OP_N or TL_BGEMM_OP_T */
    int32_t order;          /* TL_BSP_ROW_MAJOR / _COL_MAJOR of B and C (n > 0) */
    int64_t rows, cols, nnz;  /* A as stored */
    int64_t n;              /* columns of B and C; 0: vectors */
    int64_t ldb, ldc;       /* leading dims, elements (n > 0) */
    double alpha[2], beta[2];  /* real, imaginary part */
    const void *offsets;    /* device addresses */
    const void *indices;
    const char *values;
    const char *b;
    char *c;
} tl_backend_spmm_call;

/* 2:4 semi-structured products (ABI 5): one call, three modes, for a structured matrix S stored
 * row-major as `rows` x `cols` (every group of 4 consecutive row elements holds at most 2
 * non-zeros; the core has checked the pattern when it built values and metadata) and
 * `left` saying which side of the product S takes (it fixes the compressed form, so a
 * buffer compressed for one side serves only that side):
 *   TL_BSEMI_SIZE      compressed_size = the bytes of S's compressed buffer (a backend's own
 *                      opaque format; cuSPARSELt's on CUDA, the pruned dense matrix on the host);
 *   TL_BSEMI_COMPRESS  `compressed` (compressed_size bytes) = S compressed from `dense`, the
 *                      pruned S (rows x cols, row-major contiguous on the device);
 *   TL_BSEMI_MM        left: C (rows x n) = S @ B, B (cols x n); else C (n x cols) = B @ S,
 *                      B (n x rows); B and C row-major contiguous, C fully written (no beta).
 * dtype (of S and B): FLOAT16 and BFLOAT16 (products accumulated in float32, rounded once on
 * store, C of dtype), INT8 (accumulated in int32 wrapping, C an INT32 matrix: the core casts
 * it to int8 as the CPU does). float32 is not a dtype of the call (cuSPARSELt's float
 * sparsity is 1:2, not 2:4). rows, cols and n are >= 1, cols a multiple of 16 (32 for int8)
 * as the CPU's compression requires; the core has done torch's checks. */
enum { TL_BSEMI_SIZE, TL_BSEMI_COMPRESS, TL_BSEMI_MM };
typedef struct tl_backend_semi_call {
    uint32_t size;          /* sizeof(tl_backend_semi_call): the backend checks it */
    int32_t device_index;
    int32_t mode;           /* TL_BSEMI_SIZE / _COMPRESS / _MM */
    int32_t dtype;          /* TL_BDT_FLOAT16, _BFLOAT16 or _INT8 */
    int32_t left;           /* 1: S @ B; 0: B @ S */
    int32_t pad_;
    int64_t rows, cols;     /* S as stored */
    int64_t n;              /* MM: the dense operand's free dimension */
    int64_t compressed_size;  /* SIZE: out; COMPRESS, MM: the buffer's bytes */
    const char *dense;      /* COMPRESS: the pruned S (device address) */
    char *compressed;       /* COMPRESS: written; MM: read */
    const char *b;          /* MM */
    char *c;                /* MM */
} tl_backend_semi_call;

/* What a backend provides. Every function returns 0, or -1 after api->set_error. Pointers
 * are device pointers of `device_index`; copies move contiguous bytes in any direction
 * between the host (index -1) and a device. */
typedef struct tl_device_backend {
    uint32_t abi_version;  /* TL_BACKEND_ABI_VERSION */
    uint32_t size;         /* sizeof(tl_device_backend) */
    const char *name;
    int (*current_device)(void);
    void *(*alloc)(size_t nbytes, int device_index);  /* NULL after set_error */
    void (*free)(void *ptr, size_t nbytes, int device_index);
    int (*copy)(void *dst, tl_device dst_dev, const void *src, tl_device src_dev, size_t nbytes);
    int (*memset_zero)(void *dst, size_t nbytes, int device_index);
    /* out[i] = a[i] op b[i] over n elements of dtype (tl_dtype value); out has the op's OUT
     * dtype (above); -1 "not supported" */
    int (*binary)(int op, int dtype, void *out, const void *a, const void *b, int64_t n, int device_index);
    int (*unary)(int op, int dtype, void *out, const void *a, int64_t n, int device_index);
    /* ABI 2: the strided, broadcasting, converting element-wise call above (every public
     * element-wise op the lists cover runs through it); NULL: not supported */
    int (*elementwise)(const tl_backend_ew_call *call);
    /* Page-locked host memory (pinned: the device reads and writes it directly, so copies
     * from and to it can run asynchronously); NULL after set_error. */
    void *(*host_alloc)(size_t nbytes);
    void (*host_free)(void *ptr);
    /* As copy, queued on the current stream of the device side and returning before it is
     * done; the host side is memory from host_alloc. */
    int (*copy_async)(void *dst, tl_device dst_dev, const void *src, tl_device src_dev, size_t nbytes);
    /* Marks the block at ptr (from alloc on device_index) as used by `stream` (the
     * backend's stream handle): once freed, it is handed out again only after the work
     * queued on that stream by then is done (torch's Tensor.record_stream). */
    int (*record_stream)(void *ptr, int device_index, uintptr_t stream);
    /* random (ABI 3): fills the tensor a tl_backend_random_call describes; NULL: not supported */
    int (*random)(const tl_backend_random_call *call);
    /* ---- reductions (ABI 3) ---- */
    /* The reduction call above; NULL: reductions of this device's tensors are not supported. */
    int (*reduce)(const tl_backend_reduce_call *call);
    /* ---- scans (ABI 3) ---- */
    /* The scan call above; NULL: cumsum/cumprod/cummax/cummin of this device's tensors are not supported. */
    int (*scan)(const tl_backend_scan_call *call);
    /* ---- indexing (ABI 4) ---- */
    /* The index call above; NULL: indexing, gather/scatter, index_select, take/put_ of this
     * device's tensors are not supported. */
    int (*index)(const tl_backend_index_call *call);
    /* The sort call above; NULL: sort, argsort, msort and topk of this device's tensors are not
     * supported. */
    int (*sort)(const tl_backend_sort_call *call);
    /* ---- dense products (ABI 4) ---- */
    /* The gemm call above; NULL: mm, bmm, matmul, addmm, ... of this device's tensors are not supported. */
    int (*gemm)(const tl_backend_gemm_call *call);
    /* The select call above; NULL: nonzero, masked_select and x[mask] of this device's tensors
     * look at a host copy of the data instead. */
    int (*select)(const tl_backend_select_call *call);
    /* ---- sparse products (ABI 5) ---- */
    /* The spmm call above; NULL: products of this device's sparse tensors are not supported. */
    int (*spmm)(const tl_backend_spmm_call *call);
    /* ---- 2:4 semi-structured products (ABI 5) ---- */
    /* The semi call above; NULL: products of this device's 2:4 tensors run on host copies. */
    int (*semi)(tl_backend_semi_call *call);  /* SIZE writes call->compressed_size */
} tl_device_backend;

/* What the core offers a backend (exported by tensorlib._C in the capsule). */
typedef struct tl_core_api {
    uint32_t abi_version;  /* TL_BACKEND_ABI_VERSION */
    uint32_t size;         /* sizeof(tl_core_api) */
    /* Registers (or, with NULL, removes) the backend of a device type; -1 on a version or
     * size mismatch, with the error set. The table must outlive the registration. */
    int (*register_backend)(int device_type, const tl_device_backend *backend);
    /* Sets the core's error slot: kind is a tl_errkind, the message torch's text. */
    void (*set_error)(int kind, const char *msg);
    /* Size in bytes of a tl_dtype (0 if out of range). */
    size_t (*dtype_itemsize)(int dtype);
    /* The tl_dtype value of a dtype name ("float32"), -1 if unknown: a backend learns the
     * dtype table from the core instead of compiling in core/dtype.h. */
    int (*dtype_from_name)(const char *name);
} tl_core_api;

/* The meta device's backend (backend/meta.c), registered from the start. */
extern const tl_device_backend tl_meta_backend;
/* torch's NotImplementedError for an op that has no meta implementation; returns -1. */
int tl_meta_refuse(const char *op);
/* The registered backend of a device type, or NULL. */
const tl_device_backend *tl_backend_get(int device_type);
int tl_backend_register(int device_type, const tl_device_backend *backend);
/* The op code of a backend list name, either case ("ADD", "div_floor"), or -1. */
int tl_backend_op_code(const char *name, bool binary);
/* The TL_XOP_* code of a list name, either case ("where", "ADDCMUL"), or -1. */
int tl_backend_xop_code(const char *name);
/* The list name of an op code ("DIV_FLOOR"). */
const char *tl_backend_op_name(int op, bool binary);
/* The core's table, for the capsule. */
const tl_core_api *tl_core_api_get(void);
/* 0 when tensors can live on `device` (CPU, or a registered backend); else -1 with torch's
 * RuntimeError naming the device type. */
int tl_backend_check(tl_device device);

struct tl_tensor;
/* Sets every element of a tensor on a backend's device to `value` (tl_itemsize(t) bytes).
 * Dense: cudaMemset-style zeroing when the bytes are all zero, else the pattern written on
 * the host and copied over (once up to 4 MiB, in 4 MiB pieces above). Non-dense: the value
 * copied into one device element, broadcast into t by the element-wise copy entry. */
int tl_backend_fill(struct tl_tensor *t, const void *value);
/* out = src moved to dev (one side is the CPU, the other a registered backend). With
 * non_blocking, a copy between device memory and pinned host memory is queued on the
 * stream (a device-to-host result is allocated pinned for that), as torch's. */
int tl_backend_to_device(struct tl_tensor *out, const struct tl_tensor *src, tl_device dev, int dtype,
                         bool non_blocking);
/* out = the device tensor t copied to host memory (t's dtype): tl_backend_to_device to the CPU. */
int tl_backend_to_host(struct tl_tensor *out, const struct tl_tensor *t);
/* NotImplementedError "tensorlib: <op> is not implemented for <device> tensors[ of dtype <d>]
 * yet" for an op (or a dtype, a tl_dtype; -1: none) a backend lacks, or, for
 * TL_BACKEND_REFUSE_DIMS, a geometry of more dims than a call carries; returns -1. */
#define TL_BACKEND_REFUSE_DIMS (-2)
int tl_backend_refuse(const char *op, tl_device dev, int dtype);
/* The backend's code (TL_BDT_*) of a core dtype (tl_dtype), -1 for one the backend list lacks. */
int tl_backend_dtype_code(int dtype);
/* The bytes of t's first element (on a backend's device) copied to the host buffer dst. */
int tl_backend_read_element(const struct tl_tensor *t, void *dst);
/* dst.copy_(src) across devices (one side the CPU, or two devices of a backend): one byte
 * copy when both hold the same elements in the same dense order (queued with non_blocking when
 * the host side is pinned), else src moved as it is and copied within dst's device. */
int tl_backend_copy_across(struct tl_tensor *dst, const struct tl_tensor *src, bool non_blocking);
/* out = a copy of the CPU tensor src in pinned host memory of the CUDA backend (src's
 * strides kept when dense, else contiguous). Without a pinned allocator: torch's
 * RuntimeError, in the wording of the factories' pin_memory=True when `factory`. */
int tl_backend_pin(struct tl_tensor *out, const struct tl_tensor *src, bool factory);
/* Tensor.record_stream: the CUDA tensor t's memory is used by `stream` (a handle). */
int tl_backend_record_stream(const struct tl_tensor *t, uintptr_t stream);
/* The host runner of a tl_backend_ew_call (kernels/hd_math.h through backend/hd_check.c):
 * what a backend's elementwise entry computes, on host memory; for tests. */
int tl_backend_ew_host(const tl_backend_ew_call *call);
/* The host runner of a tl_backend_random_call (kernels/hd_random.h through backend/random.c),
 * on host memory; for the tests' stand-in backend. */
int tl_backend_random_host(const tl_backend_random_call *call);
/* The host runner of a tl_backend_reduce_call (kernels/hd_reduce.h through backend/reduce.c):
 * what a backend's reduce entry computes, on host memory; for tests. */
int tl_backend_reduce_host(const tl_backend_reduce_call *call);
/* The host runner of a tl_backend_scan_call (kernels/hd_scan.h through backend/scan.c), on
 * host memory; for the tests' stand-in backend. */
int tl_backend_scan_host(const tl_backend_scan_call *call);
/* The host runner of a tl_backend_index_call (kernels/hd_index.h through backend/index.c), on
 * host memory; for the tests' stand-in backend. */
int tl_backend_index_host(const tl_backend_index_call *call);
/* The host runner of a tl_backend_sort_call (the kernels/hd_sort.h keys, the CPU's stable sort),
 * on host memory; for the tests' stand-in backend. */
int tl_backend_sort_host(const tl_backend_sort_call *call);
/* The host runner of a tl_backend_select_call (backend/select.c), on host memory; for the tests'
 * stand-in backend. */
int tl_backend_select_host(const tl_backend_select_call *call);
/* The host runner of a tl_backend_gemm_call (backend/gemm.c): the same products on host
 * memory, accumulated in double (complex double); for the tests' stand-in backend. */
int tl_backend_gemm_host(const tl_backend_gemm_call *call);
/* The host runner of a tl_backend_spmm_call (backend/spmm.c): the same product on host memory,
 * accumulated in double (complex double) in stored order; for the tests' stand-in backend. */
int tl_backend_spmm_host(const tl_backend_spmm_call *call);
/* The host runner of a tl_backend_semi_call (backend/semi.c): its compressed buffer is the
 * pruned dense matrix, the products accumulated as the CPU's; for the tests' stand-in backend. */
int tl_backend_semi_host(tl_backend_semi_call *call);
/* The backend's 2:4 entry: *size = the bytes of the compressed buffer of the pruned row-major
 * matrix `dense` (2-D, on a backend's device) for side `left`; with `compressed` (a uint8
 * device tensor of that many bytes) non-NULL, also fills it. NotImplementedError for a backend
 * or dtype without the entry (float32 included). */
int tl_backend_semi_compress(struct tl_tensor *compressed, int64_t *size, const struct tl_tensor *dense, bool left);
/* out (cleared) = S @ b (left) or b @ S for S given by its compressed buffer (from
 * tl_backend_semi_compress with the same `left`) and stored shape rows x cols, b a 2-D tensor
 * of S's dtype on its device; the result in S's dtype (int8: the int32 product cast as the CPU
 * casts it). */
int tl_backend_semi_mm(struct tl_tensor *out, const struct tl_tensor *compressed, int64_t rows, int64_t cols,
                       int dtype, const struct tl_tensor *b, bool left);
/* out (a cleared tensor) = op(a) @ b for a 2-D CSR, CSC or coalesced COO tensor a (no batch or
 * dense dims) on a backend's device, op(a) = a or (trans) its transpose, b a 1-D or 2-D strided
 * tensor of a's dtype on that device: the backend's spmm entry (backend/spmm.c). out is new,
 * laid out in b's order (column-major when b is). NotImplementedError for a backend or dtype
 * without the entry. */
int tl_backend_spmm(struct tl_tensor *out, const struct tl_tensor *a, const struct tl_tensor *b, bool trans);
/* c = beta*c + alpha*a@b (tl_gemm's contract) for c on a backend's device: the call(s) of
 * the backend's gemm entry (backend/gemm.c). c has elements; the dtype is a float or
 * complex dtype (ops/linalg.c refuses the others in torch's words). */
int tl_backend_gemm(struct tl_tensor *c, const struct tl_tensor *a, const struct tl_tensor *b, double alpha_re,
                    double alpha_im, double beta_re, double beta_im);
/* TL_BGEMM_* flags every later gemm call carries (tl.backends.cuda.matmul switches). */
void tl_backend_gemm_set_flags(int flags);
int tl_backend_gemm_get_flags(void);

#endif

/* cast.c - conversion loops for every (src, dst) dtype pair.
 *
 * Each dtype has a NAT_ macro giving its "natural" C value (bool -> int, narrow floats ->
 * float via convert.h, complex32 -> float complex) and an ST_ macro storing any C value
 * with torch's cast semantics. C's own conversions then do the work: single rounding
 * for int -> float, real part for complex -> real. Float -> integer, undefined in C
 * when out of range, goes through x86's truncating-conversion semantics explicitly
 * (out of range or NaN gives the minimum of int32, or of int64 for 64-bit targets),
 * which is what torch's CPU kernels produce. */
#include "kernels/cast.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/convert.h"
#include "core/error.h"

/* The cross product needs the castable ids twice (the preprocessor will not expand a
 * macro inside itself); both copies are checked against the dtype table below. */
#define CAST_IDS(X, A) X(A, BOOL) X(A, UINT8) X(A, INT8) X(A, INT16) X(A, INT32) X(A, INT64) \
    X(A, UINT16) X(A, UINT32) X(A, UINT64) X(A, FLOAT16) X(A, BFLOAT16) X(A, FLOAT32) X(A, FLOAT64) \
    X(A, COMPLEX32) X(A, COMPLEX64) X(A, COMPLEX128) X(A, FLOAT8_E4M3FN) X(A, FLOAT8_E5M2) \
    X(A, FLOAT8_E4M3FNUZ) X(A, FLOAT8_E5M2FNUZ) X(A, FLOAT8_E8M0FNU)
#define CAST_IDS_INNER(X, A) X(A, BOOL) X(A, UINT8) X(A, INT8) X(A, INT16) X(A, INT32) X(A, INT64) \
    X(A, UINT16) X(A, UINT32) X(A, UINT64) X(A, FLOAT16) X(A, BFLOAT16) X(A, FLOAT32) X(A, FLOAT64) \
    X(A, COMPLEX32) X(A, COMPLEX64) X(A, COMPLEX128) X(A, FLOAT8_E4M3FN) X(A, FLOAT8_E5M2) \
    X(A, FLOAT8_E4M3FNUZ) X(A, FLOAT8_E5M2FNUZ) X(A, FLOAT8_E8M0FNU)
#define COUNT_ONE(A, ID) +1
_Static_assert(0 CAST_IDS(COUNT_ONE, _) == TL_NUM_DTYPES - 1, "CAST_IDS must list every castable dtype");
_Static_assert(0 CAST_IDS_INNER(COUNT_ONE, _) == TL_NUM_DTYPES - 1, "CAST_IDS_INNER must list every castable dtype");

#define TY_BOOL uint8_t
#define TY_UINT8 uint8_t
#define TY_INT8 int8_t
#define TY_INT16 int16_t
#define TY_INT32 int32_t
#define TY_INT64 int64_t
#define TY_UINT16 uint16_t
#define TY_UINT32 uint32_t
#define TY_UINT64 uint64_t
#define TY_FLOAT16 uint16_t
#define TY_BFLOAT16 uint16_t
#define TY_FLOAT32 float
#define TY_FLOAT64 double
#define TY_COMPLEX32 tl_complex32
#define TY_COMPLEX64 float complex
#define TY_COMPLEX128 double complex
#define TY_FLOAT8_E4M3FN uint8_t
#define TY_FLOAT8_E5M2 uint8_t
#define TY_FLOAT8_E4M3FNUZ uint8_t
#define TY_FLOAT8_E5M2FNUZ uint8_t
#define TY_FLOAT8_E8M0FNU uint8_t

static inline float complex c32_load(tl_complex32 v) { return CMPLXF(tl_f16_to_f32(v.re), tl_f16_to_f32(v.im)); }
static inline tl_complex32 c32_store(float complex c)
{
    tl_complex32 r = {tl_f32_to_f16(crealf(c)), tl_f32_to_f16(cimagf(c))};
    return r;
}

#define NAT_BOOL(v) ((int)(v))
#define NAT_UINT8(v) (v)
#define NAT_INT8(v) (v)
#define NAT_INT16(v) (v)
#define NAT_INT32(v) (v)
#define NAT_INT64(v) (v)
#define NAT_UINT16(v) (v)
#define NAT_UINT32(v) (v)
#define NAT_UINT64(v) (v)
#define NAT_FLOAT16(v) tl_f16_to_f32(v)
#define NAT_BFLOAT16(v) tl_bf16_to_f32(v)
#define NAT_FLOAT32(v) (v)
#define NAT_FLOAT64(v) (v)
#define NAT_COMPLEX32(v) c32_load(v)
#define NAT_COMPLEX64(v) (v)
#define NAT_COMPLEX128(v) (v)
#define NAT_FLOAT8_E4M3FN(v) tl_f8e4m3fn_to_f32(v)
#define NAT_FLOAT8_E5M2(v) tl_f8e5m2_to_f32(v)
#define NAT_FLOAT8_E4M3FNUZ(v) tl_f8e4m3fnuz_to_f32(v)
#define NAT_FLOAT8_E5M2FNUZ(v) tl_f8e5m2fnuz_to_f32(v)
#define NAT_FLOAT8_E8M0FNU(v) tl_f8e8m0fnu_to_f32(v)

/* x86 truncating conversions, defined for every input. */
static inline int32_t f2i32(double x) { return (isnan(x) || x <= -2147483649.0 || x >= 2147483648.0) ? INT32_MIN : (int32_t)x; }
static inline int64_t f2i64(double x) { return (isnan(x) || x < -9223372036854775808.0 || x >= 9223372036854775808.0) ? INT64_MIN : (int64_t)x; }
static inline uint64_t f2u64(double x) { return (x >= 9223372036854775808.0 && x < 18446744073709551616.0) ? (uint64_t)x : (uint64_t)f2i64(x); }

#define IS_FLOATY(x) _Generic((x), float: 1, double: 1, float complex: 1, double complex: 1, default: 0)
/* Narrower than 64 bits: through int32 as the 32-bit truncating conversion does. */
#define TO_INT_NARROW(T, x) (IS_FLOATY(x) ? (T)f2i32((double)(x)) : (T)(x))
#define TO_INT_WIDE(T, x) (IS_FLOATY(x) ? (T)f2i64((double)(x)) : (T)(x))

#define ST_BOOL(x) ((uint8_t)((x) != 0))
#define ST_UINT8(x) TO_INT_NARROW(uint8_t, x)
#define ST_INT8(x) TO_INT_NARROW(int8_t, x)
#define ST_INT16(x) TO_INT_NARROW(int16_t, x)
#define ST_INT32(x) TO_INT_NARROW(int32_t, x)
#define ST_INT64(x) TO_INT_WIDE(int64_t, x)
#define ST_UINT16(x) TO_INT_NARROW(uint16_t, x)
#define ST_UINT32(x) (IS_FLOATY(x) ? (uint32_t)f2i64((double)(x)) : (uint32_t)(x))
#define ST_UINT64(x) (IS_FLOATY(x) ? f2u64((double)(x)) : (uint64_t)(x))
#define ST_FLOAT16(x) tl_f32_to_f16((float)(x))
#define ST_BFLOAT16(x) tl_f32_to_bf16((float)(x))
#define ST_FLOAT32(x) ((float)(x))
#define ST_FLOAT64(x) ((double)(x))
#define ST_COMPLEX32(x) c32_store((float complex)(x))
#define ST_COMPLEX64(x) ((float complex)(x))
#define ST_COMPLEX128(x) ((double complex)(x))
#define ST_FLOAT8_E4M3FN(x) tl_f32_to_f8e4m3fn((float)(x))
#define ST_FLOAT8_E5M2(x) tl_f32_to_f8e5m2((float)(x))
#define ST_FLOAT8_E4M3FNUZ(x) tl_f32_to_f8e4m3fnuz((float)(x))
#define ST_FLOAT8_E5M2FNUZ(x) tl_f32_to_f8e5m2fnuz((float)(x))
#define ST_FLOAT8_E8M0FNU(x) tl_f32_to_f8e8m0fnu((float)(x))

#define CAST_FN(S, D)                                                                   \
    static void cast_##S##_##D(char **data, const int64_t *st, int64_t n, void *ctx)   \
    {                                                                                   \
        (void)ctx;                                                                      \
        char *o = data[0];                                                              \
        const char *in = data[1];                                                       \
        if (st[0] == sizeof(TY_##D) && st[1] == sizeof(TY_##S)) {                       \
            TY_##D *restrict od = (TY_##D *)o;                                          \
            const TY_##S *restrict id = (const TY_##S *)in;                             \
            for (int64_t i = 0; i < n; i++) od[i] = ST_##D(NAT_##S(id[i]));             \
        } else {                                                                        \
            for (int64_t i = 0; i < n; i++)                                             \
                *(TY_##D *)(o + i * st[0]) = ST_##D(NAT_##S(*(const TY_##S *)(in + i * st[1]))); \
        }                                                                               \
    }
#define CAST_FN_ALL(A, S) CAST_IDS_INNER(CAST_FN, S)
CAST_IDS(CAST_FN_ALL, _)

#define CAST_CELL(S, D) [TL_##D] = cast_##S##_##D,
#define CAST_TABLE_ROW(A, S) [TL_##S] = {CAST_IDS_INNER(CAST_CELL, S)},
static const tl_loop_fn cast_table[TL_NUM_DTYPES][TL_NUM_DTYPES] = {CAST_IDS(CAST_TABLE_ROW, _)};

/* f32 <-> f16 has bulk converters; use them on contiguous runs. */
static void cast_f32_f16_fast(char **data, const int64_t *st, int64_t n, void *ctx)
{
    if (st[0] == 2 && st[1] == 4) tl_f32_to_f16_n((const float *)data[1], (uint16_t *)data[0], n);
    else cast_FLOAT32_FLOAT16(data, st, n, ctx);
}
static void cast_f16_f32_fast(char **data, const int64_t *st, int64_t n, void *ctx)
{
    if (st[0] == 4 && st[1] == 2) tl_f16_to_f32_n((const uint16_t *)data[1], (float *)data[0], n);
    else cast_FLOAT16_FLOAT32(data, st, n, ctx);
}

#define COPY_FN(T, SZ)                                                                  \
    static void copy_##SZ(char **data, const int64_t *st, int64_t n, void *ctx)        \
    {                                                                                   \
        (void)ctx;                                                                      \
        if (st[0] == SZ && st[1] == SZ) { memcpy(data[0], data[1], n * SZ); return; }   \
        for (int64_t i = 0; i < n; i++) *(T *)(data[0] + i * st[0]) = *(const T *)(data[1] + i * st[1]); \
    }                                                                                   \
    static void fill_##SZ(char **data, const int64_t *st, int64_t n, void *ctx)        \
    {                                                                                   \
        T v;                                                                            \
        memcpy(&v, ctx, SZ);                                                            \
        if (st[0] == SZ) { T *o = (T *)data[0]; for (int64_t i = 0; i < n; i++) o[i] = v; return; } \
        for (int64_t i = 0; i < n; i++) *(T *)(data[0] + i * st[0]) = v;                \
    }
typedef struct { uint64_t a, b; } u128;
COPY_FN(uint8_t, 1)
COPY_FN(uint16_t, 2)
COPY_FN(uint32_t, 4)
COPY_FN(uint64_t, 8)
COPY_FN(u128, 16)

tl_loop_fn tl_copy_loop(int itemsize)
{
    switch (itemsize) {
    case 1: return copy_1;
    case 2: return copy_2;
    case 4: return copy_4;
    case 8: return copy_8;
    default: return copy_16;
    }
}

tl_loop_fn tl_fill_loop(int itemsize)
{
    switch (itemsize) {
    case 1: return fill_1;
    case 2: return fill_2;
    case 4: return fill_4;
    case 8: return fill_8;
    default: return fill_16;
    }
}

tl_loop_fn tl_cast_loop(tl_dtype src, tl_dtype dst)
{
    if (src == dst) return tl_copy_loop(tl_dtype_itemsize(src));
    if (src == TL_FLOAT4_E2M1FN_X2 || dst == TL_FLOAT4_E2M1FN_X2) return NULL;
    if (src == TL_FLOAT32 && dst == TL_FLOAT16) return cast_f32_f16_fast;
    if (src == TL_FLOAT16 && dst == TL_FLOAT32) return cast_f16_f32_fast;
    return cast_table[src][dst];
}

int tl_scalar_to_bytes(tl_scalar s, tl_dtype dtype, void *out)
{
    uint8_t b = (uint8_t)(s.v.i != 0);
    tl_dtype src = s.kind == TL_KIND_COMPLEX ? TL_COMPLEX128 : s.kind == TL_KIND_FLOAT ? TL_FLOAT64
                 : s.kind == TL_KIND_BOOL ? TL_BOOL : TL_INT64;
    char *data[2] = {out, s.kind == TL_KIND_BOOL ? (char *)&b : (char *)&s.v};
    int64_t st[2] = {0, 0};
    tl_loop_fn f = tl_cast_loop(src, dtype);
    if (!f) return tl_err(TL_ERR_RUNTIME, "cannot convert a scalar to %s", tl_dtype_infos[dtype].name);
    f(data, st, 1, NULL);
    return 0;
}

tl_scalar tl_scalar_from_bytes(const void *p, tl_dtype dtype)
{
    tl_scalar s;
    tl_kind k = tl_dtype_kind(dtype);
    tl_dtype dst = k == TL_KIND_COMPLEX ? TL_COMPLEX128 : k == TL_KIND_FLOAT ? TL_FLOAT64 : TL_INT64;
    s.kind = k;
    s.v.c = 0;
    if (dtype == TL_UINT64) { /* wrap rather than go through the float path */
        uint64_t u;
        memcpy(&u, p, 8);
        s.v.i = (int64_t)u;
        return s;
    }
    tl_loop_fn f = tl_cast_loop(dtype, dst);
    char *data[2] = {(char *)&s.v, (char *)p};
    int64_t st[2] = {0, 0};
    if (f) f(data, st, 1, NULL);
    else s.v.i = *(const uint8_t *)p;
    return s;
}

/* C++ type names torch prints in overflow messages, and each integer type's range. */
static const struct { const char *name; double lo, hi; } int_ranges[TL_NUM_DTYPES] = {
    [TL_UINT8] = {"uint8_t", 0, 255},
    [TL_INT8] = {"int8_t", -128, 127},
    [TL_INT16] = {"int16_t", -32768, 32767},
    [TL_INT32] = {"int", -2147483648.0, 2147483647.0},
    [TL_INT64] = {"int64_t", -9223372036854775808.0, 9223372036854775807.0},
    [TL_UINT16] = {"uint16_t", 0, 65535},
    [TL_UINT32] = {"uint32_t", 0, 4294967295.0},
    [TL_UINT64] = {"uint64_t", 0, 18446744073709551615.0},
};

static int overflow(const char *type) { return tl_err(TL_ERR_RUNTIME, "value cannot be converted to type %s without overflow", type); }

/* torch's c10::overflows for a float8 target: beyond the finite range (an infinity where the
 * format has none; a complex value with an imaginary part, or with a part below e8m0's
 * smallest power of two, zero included); integers wrap into e8m0 unchecked. */
static int check_fits_float8(tl_scalar s, tl_dtype d)
{
    double max = d == TL_FLOAT8_E4M3FN ? 448.0 : d == TL_FLOAT8_E4M3FNUZ ? 240.0 : d == TL_FLOAT8_E8M0FNU ? 0x1p127 : 57344.0;
    double lowest = d == TL_FLOAT8_E8M0FNU ? 0x1p-127 : -max;
    if (s.kind == TL_KIND_BOOL || (s.kind == TL_KIND_INT && d == TL_FLOAT8_E8M0FNU)) return 0;
    double part[2] = {s.kind == TL_KIND_INT ? (double)s.v.i : s.kind == TL_KIND_FLOAT ? s.v.d : creal(s.v.c),
                      s.kind == TL_KIND_COMPLEX ? cimag(s.v.c) : 0};
    if (s.kind == TL_KIND_COMPLEX && part[1] != 0) return overflow(tl_dtype_typemeta(d));
    for (int k = 0; k < (s.kind == TL_KIND_COMPLEX ? 2 : 1); k++) {
        if (d == TL_FLOAT8_E5M2 && isinf(part[k])) continue;
        if (part[k] < lowest || part[k] > max) return overflow(tl_dtype_typemeta(d));
    }
    return 0;
}

int tl_scalar_check_fits(tl_scalar s, tl_dtype dtype)
{
    tl_kind k = tl_dtype_kind(dtype);
    if (tl_dtype_is_float8(dtype)) return check_fits_float8(s, dtype);
    if (dtype == TL_BOOL || (tl_dtype_is_shell(dtype) && k != TL_KIND_INT)) return 0;
    if (k == TL_KIND_INT) {
        const char *name = int_ranges[dtype].name;
        bool is_unsigned = !tl_dtype_infos[dtype].is_signed;
        if (s.kind == TL_KIND_BOOL) return 0;
        if (s.kind == TL_KIND_INT) {
            if (dtype == TL_INT64 || dtype == TL_UINT64) return 0;
            double v = (double)s.v.i, hi = int_ranges[dtype].hi;
            /* negative values wrap into unsigned types while their magnitude fits */
            if (v > hi || (is_unsigned ? -v > hi : v < int_ranges[dtype].lo)) return overflow(name);
            return 0;
        }
        double v = s.kind == TL_KIND_FLOAT ? s.v.d : creal(s.v.c);
        if (s.kind == TL_KIND_COMPLEX && cimag(s.v.c) != 0) return overflow(name);
        /* floating values get no two's complement wrap: strictly [lowest, max] */
        if (!isfinite(v) || v > int_ranges[dtype].hi || v < int_ranges[dtype].lo) return overflow(name);
        return 0;
    }
    if (k == TL_KIND_FLOAT) {
        if (s.kind == TL_KIND_COMPLEX && cimag(s.v.c) != 0) return overflow(tl_dtype_typemeta(dtype));
        double v = s.kind == TL_KIND_FLOAT ? s.v.d : s.kind == TL_KIND_COMPLEX ? creal(s.v.c) : (double)s.v.i;
        /* finite values beyond the range overflow; infinities and NaN pass (torch's
         * one-element fast path skips this check for float16/bfloat16; we always check) */
        if (isfinite(v)) {
            if (dtype == TL_FLOAT32 && fabs(v) > FLT_MAX) return overflow("float");
            if (dtype == TL_FLOAT16 && fabs(v) > 65504.0) return overflow("c10::Half");
            if (dtype == TL_BFLOAT16 && fabs(v) > 3.3895313892515355e38) return overflow("c10::BFloat16");
        }
        return 0;
    }
    if (dtype == TL_COMPLEX64 && s.kind != TL_KIND_BOOL) {
        double re = s.kind == TL_KIND_FLOAT ? s.v.d : s.kind == TL_KIND_COMPLEX ? creal(s.v.c) : (double)s.v.i;
        double im = s.kind == TL_KIND_COMPLEX ? cimag(s.v.c) : 0;
        if ((isfinite(re) && fabs(re) > FLT_MAX) || (isfinite(im) && fabs(im) > FLT_MAX)) return overflow("c10::complex<float>");
    }
    return 0;
}

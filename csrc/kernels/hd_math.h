/* hd_math.h - element math compiled for both the host (C11) and the device (nvcc): the
 * formulas of the backend interface's unary and binary ops (TL_BACKEND_UNARY_LIST /
 * TL_BACKEND_BINARY_LIST in backend/backend.h) for bool, uint8, int8..int64, float16,
 * bfloat16 (computed in float32, rounded once on store, as the CPU kernels do), float32,
 * float64, complex64 and complex128. TL_HD marks the functions __host__ __device__ under
 * nvcc and is empty under the C compiler; csrc/cuda/elementwise.cu launches them on the GPU
 * and csrc/backend/hd_check.c runs the very same functions on the CPU for the test suite.
 *
 * The formulas are those of the CPU kernels (kernels/ew_unary.c, ew_binary.c), written
 * without tgmath.h, _Generic or C99 complex so that nvcc compiles them: float math goes
 * through M(fn), which names fnf (float) or fn (double); complex values are {re, im}
 * structs with the layout of C's complex types. Integer arithmetic wraps through unsigned
 * types like the CPU kernels. Differences from the CPU kernels: integer division by zero
 * gives 0 (the CPU raises; the caller checks), and the complex sqrt, log, pow, trigonometric
 * and hyperbolic functions and their inverses are this header's own (the CPU calls glibc's;
 * within a few ulps on finite arguments, C99 Annex G's special values as glibc's). Some formulas are shared the other way:
 * the CPU kernels expand this header's erfinv, digamma, isclose, round(decimals), logit and
 * nan_to_num. */
#ifndef TL_HD_MATH_H
#define TL_HD_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "backend/backend.h"

#ifdef __CUDACC__
#define TL_HD __host__ __device__
#else
#define TL_HD
#endif

typedef struct { float re, im; } tl_hd_c64;
typedef struct { double re, im; } tl_hd_c128;

/* ------------------------------------------------------------ narrow float conversions */
/* Bit-exact with core/convert.c (torch 2.13's c10 rules: round to nearest even; float16 NaN
 * keeps sign and top payload with the quiet bit; every bfloat16 NaN encodes as 0x7FC0). */
static inline TL_HD uint32_t tl_hd_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline TL_HD float tl_hd_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline TL_HD uint32_t tl_hd_rne_shr(uint32_t m, unsigned shift)
{
    if (shift == 0) return m;
    if (shift > 31) return 0;
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    return q + ((rem > half) | ((rem == half) & (q & 1)));
}
static inline TL_HD float tl_hd_h2f(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
    if (exp == 0x1F) return tl_hd_u2f(sign | 0x7F800000u | (mant << 13) | (mant ? 0x400000u : 0u));
    if (exp == 0) {
        if (mant == 0) return tl_hd_u2f(sign);
        int e = 1;
        while (!(mant & 0x400u)) { mant <<= 1; e--; }
        mant &= 0x3FFu;
        return tl_hd_u2f(sign | ((uint32_t)(e - 15 + 127) << 23) | (mant << 13));
    }
    return tl_hd_u2f(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}
static inline TL_HD uint16_t tl_hd_f2h(float f)
{
    uint32_t u = tl_hd_f2u(f), a = u & 0x7FFFFFFFu;
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    if (a >= 0x7F800000u) return a == 0x7F800000u ? (uint16_t)(sign | 0x7C00u) : (uint16_t)(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
    if (a >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);
    int e = (int)(a >> 23);
    if (e >= 113) return (uint16_t)(sign | tl_hd_rne_shr(a - (112u << 23), 13));
    uint32_t m = (a & 0x7FFFFFu) | (e ? 0x800000u : 0u);
    return (uint16_t)(sign | tl_hd_rne_shr(m, (unsigned)((150 - (e ? e : 1)) - 24)));
}
static inline TL_HD float tl_hd_bf2f(uint16_t b) { return tl_hd_u2f((uint32_t)b << 16); }
static inline TL_HD uint16_t tl_hd_f2bf(float f)
{
    uint32_t u = tl_hd_f2u(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FC0u;
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
#define TL_HD_ID(x) (x)

/* ------------------------------------------------------------ helpers */
#define TL_HD_MF(fn) fn##f
#define TL_HD_MD(fn) fn
#define TL_HD_PI 3.14159265358979323846
#define TL_HD_LN2 0.693147180559945309417232121458176568

static inline TL_HD uint64_t tl_hd_ugcd(uint64_t a, uint64_t b)
{
    while (b) { uint64_t t = a % b; a = b; b = t; }
    return a;
}
static inline TL_HD int64_t tl_hd_ipow(int64_t b, int64_t e)
{
    if (e < 0) return b == 1 ? 1 : b == -1 ? ((e & 1) ? -1 : 1) : 0;
    uint64_t r = 1, bb = (uint64_t)b;
    while (e) {
        if (e & 1) r *= bb;
        bb *= bb;
        e >>= 1;
    }
    return (int64_t)r;
}
static inline TL_HD int tl_hd_shift_out(int64_t y, int64_t bits) { return y < 0 || y >= bits; }
static inline TL_HD double tl_hd_logaddexp(double a, double b)
{
    if (a == b && (a == INFINITY || a == -INFINITY)) return a;
    if (a != a || b != b) return a + b;
    return (a > b ? a : b) + log1p(exp(-fabs(a - b)));
}
/* log2(2^a + 2^b) (torch.logaddexp2), in double for every dtype */
static inline TL_HD double tl_hd_logaddexp2(double a, double b)
{
    if (a == b && (a == INFINITY || a == -INFINITY)) return a;
    if (a != a || b != b) return a + b;
    return (a > b ? a : b) + log1p(exp2(-fabs(a - b))) * 1.44269504088896340736;
}
/* The Hurwitz zeta function zeta(x, q) = sum_k (k + q)^-x (torch.special.zeta), Cephes' as
 * torch's: nine or more terms of the sum until q + k > 9, then Euler-Maclaurin's tail with
 * the Bernoulli numbers' twelve terms; x = 1 gives inf, x < 1 NaN, q a non-positive integer
 * inf, q < 0 with x not an integer NaN. In double for every dtype. */
static inline TL_HD double tl_hd_zeta(double x, double q)
{
    const double A[12] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
                          -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
                          1.8152105401943546773e17, -7.1661652561756670113e18};
    const double MACHEP = 1.11022302462515654042e-16;
    if (x == 1.0) return (double)INFINITY;
    if (x < 1.0) return (double)NAN;
    if (q <= 0.0) {
        if (q == floor(q)) return (double)INFINITY;
        if (x != floor(x)) return (double)NAN;
    }
    double s = pow(q, -x), a = q, b = 0.0;
    int i = 0;
    while (i < 9 || a <= 9.0) {
        i += 1;
        a += 1.0;
        b = pow(a, -x);
        s += b;
        if (fabs(b / s) < MACHEP) return s;
    }
    double w = a, k = 0.0;
    s += b * w / (x - 1.0);
    s -= 0.5 * b;
    a = 1.0;
    for (i = 0; i < 12; i++) {
        a *= x + k;
        b /= w;
        double t = a * b / A[i];
        s += t;
        if (fabs(t / s) < MACHEP) return s;
        k += 1.0;
        a *= x + k;
        b /= w;
        k += 1.0;
    }
    return s;
}
#define TL_HD_DIVFLOOR(S, T, M)                                                      \
    static inline TL_HD T tl_hd_divfloor_##S(T a, T b)                               \
    {                                                                                \
        if (b == 0) return a / b;                                                    \
        T mod = M(fmod)(a, b), div = (a - mod) / b;                                  \
        if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;                              \
        if (div != 0) {                                                              \
            T f = M(floor)(div);                                                     \
            if (div - f > (T)0.5) f += 1;                                            \
            return f;                                                                \
        }                                                                            \
        return M(copysign)((T)0, a / b);                                             \
    }                                                                                \
    static inline TL_HD T tl_hd_rem_##S(T a, T b)                                    \
    {                                                                                \
        T m = M(fmod)(a, b);                                                         \
        return (m != 0 && (b < 0) != (m < 0)) ? m + b : m;                           \
    }
TL_HD_DIVFLOOR(f, float, TL_HD_MF)
TL_HD_DIVFLOOR(, double, TL_HD_MD)
#undef TL_HD_DIVFLOOR
#define TL_HD_FDIVFLOOR(M, x, y) M(tl_hd_divfloor_)(x, y)
#define TL_HD_FREM(M, x, y) M(tl_hd_rem_)(x, y)

/* complex helpers, named like the float helpers: tl_hd_cmul_f (complex64) and tl_hd_cmul_
 * (complex128), so that M(tl_hd_cmul_) picks one; C is the struct, R the real type */
#define TL_HD_CPLX(S, C, R, M)                                                                     \
    static inline TL_HD C tl_hd_cmk_##S(R re, R im) { C z; z.re = re; z.im = im; return z; }      \
    static inline TL_HD int tl_hd_isinf_##S(R v) { return M(fabs)(v) == (R)INFINITY; }             \
    static inline TL_HD R tl_hd_box_##S(R v) /* C99 Annex G: an infinity to +-1, else +-0 */       \
    {                                                                                              \
        return M(copysign)(tl_hd_isinf_##S(v) ? (R)1 : (R)0, v);                                   \
    }                                                                                              \
    static inline TL_HD R tl_hd_nan0_##S(R v) { return v != v ? M(copysign)((R)0, v) : v; }        \
    /* the product as libgcc's __mulsc3/__muldc3: where both parts are NaN, an infinite factor  \
     * (or an overflowed partial product) recovers the infinity (C99 Annex G.5.1) */              \
    static inline TL_HD C tl_hd_cmul_##S(C p, C q)                                                 \
    {                                                                                              \
        R a = p.re, b = p.im, c = q.re, d = q.im;                                                  \
        R ac = a * c, bd = b * d, ad = a * d, bc = b * c, x = ac - bd, y = ad + bc;                \
        if (x != x && y != y) {                                                                    \
            int re = 0;                                                                            \
            if (tl_hd_isinf_##S(a) || tl_hd_isinf_##S(b)) {                                        \
                a = tl_hd_box_##S(a); b = tl_hd_box_##S(b);                                        \
                c = tl_hd_nan0_##S(c); d = tl_hd_nan0_##S(d); re = 1;                              \
            }                                                                                      \
            if (tl_hd_isinf_##S(c) || tl_hd_isinf_##S(d)) {                                        \
                c = tl_hd_box_##S(c); d = tl_hd_box_##S(d);                                        \
                a = tl_hd_nan0_##S(a); b = tl_hd_nan0_##S(b); re = 1;                              \
            }                                                                                      \
            if (!re && (tl_hd_isinf_##S(ac) || tl_hd_isinf_##S(bd) || tl_hd_isinf_##S(ad) ||       \
                        tl_hd_isinf_##S(bc))) {                                                    \
                a = tl_hd_nan0_##S(a); b = tl_hd_nan0_##S(b);                                      \
                c = tl_hd_nan0_##S(c); d = tl_hd_nan0_##S(d); re = 1;                              \
            }                                                                                      \
            if (re) { x = (R)INFINITY * (a * c - b * d); y = (R)INFINITY * (a * d + b * c); }      \
        }                                                                                          \
        return tl_hd_cmk_##S(x, y);                                                                \
    }                                                                                              \
    /* where both parts of a quotient are NaN, libgcc's recovery of infinities and zeros     \
     * (C99 Annex G.5.1) */                                                                    \
    static inline TL_HD C tl_hd_cdiv_fix_##S(R a, R b, R c, R d, R x, R y)                         \
    {                                                                                              \
        if (x != x && y != y) {                                                                    \
            if (c == 0 && d == 0 && (a == a || b == b)) {                                          \
                x = M(copysign)((R)INFINITY, c) * a; y = M(copysign)((R)INFINITY, c) * b;          \
            } else if ((tl_hd_isinf_##S(a) || tl_hd_isinf_##S(b)) && M(fabs)(c) < (R)INFINITY &&   \
                       M(fabs)(d) < (R)INFINITY) {                                                 \
                a = tl_hd_box_##S(a); b = tl_hd_box_##S(b);                                        \
                x = (R)INFINITY * (a * c + b * d); y = (R)INFINITY * (b * c - a * d);              \
            } else if ((tl_hd_isinf_##S(c) || tl_hd_isinf_##S(d)) && M(fabs)(a) < (R)INFINITY &&   \
                       M(fabs)(b) < (R)INFINITY) {                                                 \
                c = tl_hd_box_##S(c); d = tl_hd_box_##S(d);                                        \
                x = (R)0 * (a * c + b * d); y = (R)0 * (b * c - a * d);                            \
            }                                                                                      \
        }                                                                                          \
        return tl_hd_cmk_##S(x, y);                                                                \
    }                                                                                              \
    /* exp: C99 Annex G at infinite real parts (glibc's cexp) */                                   \
    static inline TL_HD C tl_hd_cexp_##S(C a)                                                      \
    {                                                                                              \
        if (a.im == 0) return tl_hd_cmk_##S(M(exp)(a.re), a.im);                                   \
        if (tl_hd_isinf_##S(a.re) && !(M(fabs)(a.im) < (R)INFINITY))                               \
            return a.re < 0 ? tl_hd_cmk_##S((R)0, M(copysign)((R)0, a.im))                         \
                            : tl_hd_cmk_##S(a.re, a.im - a.im);                                    \
        R e = M(exp)(a.re);                                                                        \
        if (e == (R)INFINITY && a.re < (R)INFINITY) { /* e^x overflows, e^x cis y may not */      \
            e = M(exp)(a.re * (R)0.5);                                                             \
            return tl_hd_cmk_##S(e * M(cos)(a.im) * e, e * M(sin)(a.im) * e);                      \
        }                                                                                          \
        return tl_hd_cmk_##S(e * M(cos)(a.im), e * M(sin)(a.im));                                  \
    }
TL_HD_CPLX(f, tl_hd_c64, float, TL_HD_MF)
TL_HD_CPLX(, tl_hd_c128, double, TL_HD_MD)
#undef TL_HD_CPLX
/* Complex division as libgcc's: complex64 by the plain formula in double (__divsc3), complex128
 * by Smith's algorithm (__divdc3; a zero or subnormal ratio takes its other order), both with
 * the recovery above */
static inline TL_HD tl_hd_c64 tl_hd_cdiv_f(tl_hd_c64 p, tl_hd_c64 q)
{
    double a = p.re, b = p.im, c = q.re, d = q.im, t = c * c + d * d;
    return tl_hd_cdiv_fix_f(p.re, p.im, q.re, q.im, (float)((a * c + b * d) / t), (float)((b * c - a * d) / t));
}
static inline TL_HD tl_hd_c128 tl_hd_cdiv_(tl_hd_c128 p, tl_hd_c128 q)
{
    /* libgcc's scaling: halve near overflow, scale by 2^52 where the divisor (or a dividend
     * part) is small, so that neither the ratio's products nor the quotient underflow */
    const double big = 0x1.fffffffffffffp1022, rmin = 0x1p-1022, rmin2 = 0x1p-52, rmax2 = 0x1.fffffffffffffp970, scal = 0x1p52;
    double a = p.re, b = p.im, c = q.re, d = q.im, x, y;
    int dmajor = fabs(c) < fabs(d);
    double m = dmajor ? fabs(d) : fabs(c);
    if (m >= big) { a *= 0.5; b *= 0.5; c *= 0.5; d *= 0.5; m *= 0.5; }
    if (m < rmin2 || (fabs(a) < rmin && fabs(b) < rmax2 && m < rmax2) ||
        (fabs(b) < rmin && fabs(a) < rmax2 && m < rmax2)) {
        a *= scal; b *= scal; c *= scal; d *= scal;
    }
    if (dmajor) {
        double r = c / d, t = c * r + d;
        if (fabs(r) > rmin) { x = (a * r + b) / t; y = (b * r - a) / t; }
        else { x = (c * (a / d) + b) / t; y = (c * (b / d) - a) / t; }
    } else {
        double r = d / c, t = d * r + c;
        if (fabs(r) > rmin) { x = (b * r + a) / t; y = (b - a * r) / t; }
        else { x = (a + d * (b / c)) / t; y = (b - d * (a / c)) / t; }
    }
    return tl_hd_cdiv_fix_(a, b, c, d, x, y);
}
#define TL_HD_CFN(M, fn) M(fn##_)
#define TL_HD_CMK(M, re, im) TL_HD_CFN(M, tl_hd_cmk)(re, im)

/* ------------------------------------------------------------ formulas shared with the CPU kernels
 * Written once: kernels/ew_unary.c and ew_binary.c expand these for the CPU (with M an
 * identity, so tgmath.h picks the type: the same expressions they had), the backend's xops
 * (kernels/hd_ewp.h) and unary list for the device and the host runner. */
#define TL_HD_TG(fn) fn
/* round(decimals): p = 10^|decimals|, neg = decimals < 0 */
#define TL_HD_ROUND_DEC(M, x, p, neg) ((neg) ? M(nearbyint)((x) / (p)) * (p) : M(nearbyint)((x) * (p)) / (p))
/* nan_to_num of a real value v of type T */
#define TL_HD_NTN(T, v, nan, pinf, ninf) \
    ((v) != (v) ? (nan) : (v) == (T)INFINITY ? (pinf) : (v) == -(T)INFINITY ? (ninf) : (v))
/* isclose: rtol, atol as given (double); integers compare in double, floats in T; complex
 * values by parts (|d| is hypot of the difference's parts, as cabs), |rtol * y| in double */
/* integers: exact without tolerances (int64 beyond 2^53 too); isclose() casts integer operands
 * to the default float dtype when a tolerance is given, as torch (tensorlib/_ops.py) */
#define TL_HD_ISCLOSE_I(x, y, rtol, atol) \
    ((x) == (y) || (((rtol) != 0 || (atol) != 0) && fabs((double)(x) - (double)(y)) <= (atol) + fabs((rtol) * (double)(y))))
#define TL_HD_ISCLOSE_F(M, T, x, y, rtol, atol, eqnan) ((x) == (y) || ((eqnan) && (x) != (x) && (y) != (y)) || \
    (isfinite(M(fabs)((x) - (y))) && M(fabs)((x) - (y)) <= (T)(atol) + M(fabs)((T)(rtol) * (y))))
#define TL_HD_ISCLOSE_C(M, xr, xi, yr, yi, rtol, atol, eqnan)                                                  \
    (((xr) == (yr) && (xi) == (yi)) || ((eqnan) && ((xr) != (xr) || (xi) != (xi)) && ((yr) != (yr) || (yi) != (yi))) || \
     (isfinite(M(hypot)((xr) - (yr), (xi) - (yi))) &&                                                         \
      M(hypot)((xr) - (yr), (xi) - (yi)) <= (atol) + hypot((rtol) * (double)(yr), (rtol) * (double)(yi))))

/* erfinv (torch's: a rational first guess, two Newton steps), in double for every dtype */
static inline TL_HD double tl_hd_erfinv(double y)
{
    double ya = fabs(y), x;
    if (ya > 1.0) return NAN;
    if (ya == 1.0) return copysign((double)INFINITY, y);
    if (ya <= 0.7) {
        double z = y * y;
        double num = ((-0.140543331 * z + 0.914624893) * z + -1.645349621) * z + 0.886226899;
        double dem = (((0.012229801 * z + -0.329097515) * z + 1.442710462) * z + -2.118377725) * z + 1.0;
        x = y * num / dem;
    } else {
        double z = sqrt(-log((1.0 - ya) / 2.0));
        double num = ((1.641345311 * z + 3.429567803) * z + -1.624906493) * z + -1.970840454;
        double dem = (1.637067800 * z + 3.543889200) * z + 1.0;
        x = copysign(num, y) / dem;
    }
    x = x - (erf(x) - y) / ((2.0 / sqrt(TL_HD_PI)) * exp(-x * x));
    x = x - (erf(x) - y) / ((2.0 / sqrt(TL_HD_PI)) * exp(-x * x));
    return x;
}

/* erfcx(x) = exp(x^2) erfc(x) (torch.special.erfcx), in double for every dtype. Below 26 the
 * product, with x^2 split exactly by fma so exp(x^2) = exp(h) (1 + l) carries no error of the
 * argument's rounding; above, Laplace's continued fraction sqrt(pi) erfcx(x) = 1 / (x + (1/2) /
 * (x + 1 / (x + (3/2) / (x + ...)))), twelve levels being exact in double there; a negative x
 * by the reflection 2 exp(x^2) - erfcx(-x) (inf below -26.6, as torch). */
static inline TL_HD double tl_hd_erfcx_pos(double x)
{
    if (x < 26.0) {
        double h = x * x, l = fma(x, x, -h);
        return exp(h) * (1.0 + l) * erfc(x);
    }
    double f = x;
    for (int k = 12; k >= 1; k--) f = x + (0.5 * k) / f;
    return 0.56418958354775628695 / f;
}
static inline TL_HD double tl_hd_erfcx(double x)
{
    if (x != x || x >= 0) return x != x ? x : tl_hd_erfcx_pos(x);
    if (x < -26.7) return (double)INFINITY;
    double h = x * x, l = fma(x, x, -h);
    return 2.0 * exp(h) * (1.0 + l) - tl_hd_erfcx_pos(-x);
}

/* The normal tail Q(|x|) = erfc(|x| / sqrt 2) / 2, as erfcx(|x| / sqrt 2) exp(-x^2 / 2) / 2 with
 * x^2 split exactly: erfc of the rounded |x| / sqrt 2 would carry that rounding amplified by
 * x^2 (~1,300 ulps at x = -37, where torch and SciPy lose them); erfcx, smooth, does not. */
static inline TL_HD double tl_hd_normal_tail(double x)
{
    if (isinf(x)) return 0.0;
    double h = x * x, l = fma(x, x, -h);
    return 0.5 * tl_hd_erfcx_pos(fabs(x) * 0.70710678118654752440) * exp(-0.5 * h) * (1.0 - 0.5 * l);
}

/* ndtr(x), the standard normal CDF, in double: 0.5 + 0.5 erf near 0, the tail (reflected for
 * x > 0) outside, so the left tail keeps its relative accuracy. */
static inline TL_HD double tl_hd_ndtr(double x)
{
    if (fabs(x) < 1.0) return 0.5 + 0.5 * erf(x * 0.70710678118654752440);
    double y = tl_hd_normal_tail(x);
    return x > 0 ? 1.0 - y : y;
}

/* log_ndtr(x) = log of the standard normal CDF, in double (torch's split: below -1 the log of
 * the tail, finite far into it; above, log1p of the right tail). */
static inline TL_HD double tl_hd_log_ndtr(double x)
{
    double t = x * 0.70710678118654752440, h = x * x, l = isinf(x) ? 0.0 : fma(x, x, -h);
    if (x < -1.0) return log(tl_hd_erfcx(-t) / 2.0) - 0.5 * h - 0.5 * l;
    if (x < 1.0) return log1p(-erfc(t) / 2.0);
    return log1p(-tl_hd_normal_tail(x));
}

/* ndtri(p), the standard normal quantile (torch.special.ndtri), in double: Wichura's AS 241
 * (PPND16) rational approximations, then one Newton step on erfc (the tails' own relative
 * accuracy) to polish to the last bits; 0 and 1 give -inf and inf, outside [0, 1] NaN. */
static inline TL_HD double tl_hd_ndtri(double p)
{
    if (!(p >= 0.0 && p <= 1.0)) return (double)NAN;
    if (p == 0.0) return -(double)INFINITY;
    if (p == 1.0) return (double)INFINITY;
    double q = p - 0.5, x;
    if (fabs(q) <= 0.425) {
        double r = 0.180625 - q * q;
        x = q * (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
                     45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
                  133.14166789178437745) * r + 3.387132872796366608) /
            (((((((5226.495278852545925 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
                 21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
              42.313330701600911252) * r + 1.0);
    } else {
        double r = sqrt(-log(q < 0 ? p : 1.0 - p));
        if (r <= 5.0) {
            r -= 1.6;
            x = (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
                     1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
                  4.6303378461565452959) * r + 1.42343711074968357734) /
                (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
                     0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
                  2.05319162663775882187) * r + 1.0);
        } else {
            r -= 5.0;
            x = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
                     0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
                  5.4637849111641143699) * r + 6.6579046435011037772) /
                (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
                     7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
                  0.59983220655588793769) * r + 1.0);
        }
        if (q < 0) x = -x;
    }
    /* Newton on Phi(x) - p, from the tail nearer to x (its relative accuracy) */
    double tail = x < 0 ? 0.5 * erfc(-x * 0.70710678118654752440) - p : (1.0 - p) - 0.5 * erfc(x * 0.70710678118654752440);
    double pdf = 0.39894228040143267794 * exp(-0.5 * x * x);
    return pdf > 0 ? x - tail / pdf : x;
}

/* The regularized incomplete gamma functions P(a, x) (igamma, special.gammainc) and
 * Q(a, x) = 1 - P (igammac, gammaincc), in double, with torch's special cases (NaN for a < 0 or
 * x < 0, a = 0 a step at x = 0, an infinite a or x a limit). Below x = a + 1 the power series
 * of P (and for a < 1, where P nears 1, Q's own series), above Legendre's continued fraction
 * of Q (modified Lentz); the other one as 1 minus it.
 * The prefactor x^a e^-x / Gamma(a) is exp of a sum whose rounding grows with a: relative
 * accuracy ~1e-15 for a up to ~100, ~1e-12 at a ~ 1e4 (torch's Temme expansion does better for
 * large a). */
static inline TL_HD double tl_hd_igam_prefix(double a, double x) { return exp(a * log(x) - x - lgamma(a)); }
static inline TL_HD double tl_hd_igam_series(double a, double x) /* P(a, x), x < a + 1 */
{
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 10000 && fabs(term) > fabs(sum) * 1e-17; n++) {
        term *= x / (a + n);
        sum += term;
    }
    return sum * tl_hd_igam_prefix(a, x);
}
static inline TL_HD double tl_hd_igamc_cf(double a, double x) /* Q(a, x), x >= a + 1 */
{
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 10000; i++) {
        double an = -i * (i - a), del;
        b += 2.0;
        d = an * d + b;
        d = fabs(d) < tiny ? tiny : d;
        c = b + an / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-16) break;
    }
    return h * tl_hd_igam_prefix(a, x);
}
/* lgamma(1 + a), accurate for small a where 1 + a would round a away: below 0.2 the series
 * -gamma a + sum_k (-1)^k zeta(k) / k a^k (coefficients to k = 25) */
static inline TL_HD double tl_hd_lgamma1p(double a)
{
    if (fabs(a) >= 0.2) return lgamma(1.0 + a);
    const double c[24] = {0.8224670334241132, -0.40068563438653143, 0.27058080842778454, -0.20738555102867398,
                          0.16955717699740819, -0.14404989676884611, 0.12550966952474304, -0.11133426586956469,
                          0.10009945751278181, -0.090954017145829041, 0.083353840546109004, -0.076932516411352195,
                          0.07143294629536133, -0.066668705882420465, 0.062500955141213038, -0.058823978658684585,
                          0.055555767627403614, -0.052631679379616658, 0.050000047698101693, -0.047619070330142226,
                          0.045454556293204669, -0.043478266053040261, 0.041666669150341208, -0.040000001192140137};
    double sum = 0.0;
    for (int k = 23; k >= 0; k--) sum = (sum + c[k]) * a;
    return (sum - 0.57721566490153287) * a;
}
/* Q(a, x) for a < 1 and x < a + 1, where 1 - P would cancel: 1 - x^a / Gamma(a + 1) (as -expm1
 * with lgamma1p) minus x^a / Gamma(a) sum_{n >= 1} (-x)^n / (n! (a + n)) */
static inline TL_HD double tl_hd_igamc_small_a(double a, double x)
{
    double term = 1.0, sum = 0.0;
    for (int n = 1; n < 200; n++) {
        term *= -x / n;
        double t = term / (a + n);
        sum += t;
        if (fabs(t) <= fabs(sum) * 1e-17) break;
    }
    return -expm1(a * log(x) - tl_hd_lgamma1p(a)) - exp(a * log(x) - lgamma(a)) * sum;
}
/* upper: Q instead of P */
static inline TL_HD double tl_hd_igamma(double a, double x, bool upper)
{
    if (a < 0 || x < 0) return (double)NAN;
    if (a == 0) return x > 0 ? (upper ? 0.0 : 1.0) : (double)NAN;
    if (x == 0) return upper ? 1.0 : 0.0;
    if (isinf(a)) return isinf(x) ? (double)NAN : (upper ? 1.0 : 0.0);
    if (isinf(x)) return upper ? 0.0 : 1.0;
    if (a != a || x != x) return (double)NAN;
    if (x < a + 1.0) {
        if (upper && a < 1.0) return tl_hd_igamc_small_a(a, x);
        double p = tl_hd_igam_series(a, x);
        return upper ? 1.0 - p : p;
    }
    double q = tl_hd_igamc_cf(a, x);
    return upper ? q : 1.0 - q;
}

#ifndef __CUDACC__
/* the C library's POSIX (XSI) Bessel functions, declared for includers built as strict C11 */
double j0(double);
double j1(double);
double y0(double);
double y1(double);
#endif
/* The Bessel functions of the first and second kind of orders 0 and 1 (torch.special.bessel_*):
 * the C library's (glibc on the host, CUDA's on the device), in double; NaN at +-inf and for
 * the second kind at x < 0, as torch. spherical_bessel_j0 = sin(x) / x (1 at 0, 0 at +-inf). */
#define TL_HD_BESSEL(S, F, SECOND)                                                                       \
    static inline TL_HD double tl_hd_bessel_##S(double x)                                                \
    {                                                                                                    \
        if (isinf(x) || (SECOND && x < 0)) return (double)NAN;                                         \
        return F(x);                                                                                     \
    }
TL_HD_BESSEL(j0, j0, 0)
TL_HD_BESSEL(j1, j1, 0)
TL_HD_BESSEL(y0, y0, 1)
TL_HD_BESSEL(y1, y1, 1)
#undef TL_HD_BESSEL
static inline TL_HD double tl_hd_spherical_j0(double x) { return x == 0 ? 1.0 : isinf(x) ? 0.0 : sin(x) / x; }

/* The Airy function Ai(x) (torch.special.airy_ai), in double:
 * - x > 0: Ai(x) = sqrt(x / 3) / pi e^-z int_0^inf exp(-z (cosh t - 1)) cosh(t / 3) dt, z = 2/3 x^1.5
 *   (K_1/3), by the trapezoid rule over [0, acosh(1 + 46 / z)] with 96 steps: the integrand is
 *   entire and decays double-exponentially, so the rule's error is below double rounding from
 *   z -> 0 to the underflow of Ai; no cancellation;
 * - -10 <= x <= 0: the Maclaurin series Ai(0) f(x) + Ai'(0) g(x) summed in double-double (its
 *   terms reach ~1e9 at x = -10 before cancelling to O(1));
 * - x < -10: the oscillating asymptotic expansion in 1 / z (truncated at its smallest term,
 *   below 1e-18 there);
 * torch's special values: NaN at +-inf, 0 beyond x = 103.892 (where Cephes stops). */
typedef struct { double hi, lo; } tl_hd_dd;
static inline TL_HD tl_hd_dd tl_hd_dd_add(tl_hd_dd a, tl_hd_dd b)
{
    double s = a.hi + b.hi, v = s - a.hi, e = (a.hi - (s - v)) + (b.hi - v) + a.lo + b.lo;
    tl_hd_dd r = {s + e, e - ((s + e) - s)};
    return r;
}
static inline TL_HD tl_hd_dd tl_hd_dd_mul(tl_hd_dd a, tl_hd_dd b)
{
    double p = a.hi * b.hi, e = fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi);
    tl_hd_dd r = {p + e, e - ((p + e) - p)};
    return r;
}
static inline TL_HD tl_hd_dd tl_hd_dd_div_d(tl_hd_dd a, double d)  /* d: a small exact integer */
{
    double q = a.hi / d, r = fma(-q, d, a.hi) + a.lo, q2 = r / d;
    tl_hd_dd o = {q + q2, q2 - ((q + q2) - q)};
    return o;
}
static inline TL_HD double tl_hd_airy_ai(double x)
{
    const double ai0 = 0.35502805388781723926, aip0 = -0.25881940379280679840; /* Ai(0), Ai'(0) */
    const double pi = 3.14159265358979323846;
    if (x != x || isinf(x)) return NAN;
    if (x > 103.892) return 0.0;
    if (x > 0) {
        if (x < 1e-8) return ai0 + aip0 * x;
        double z = 2.0 / 3.0 * x * sqrt(x), tmax = acosh(1.0 + 46.0 / z), h = tmax / 96, s = 0.5;
        for (int i = 1; i <= 96; i++) {
            double t = i * h;
            s += exp(-z * (cosh(t) - 1.0)) * cosh(t / 3.0);
        }
        return sqrt(x / 3.0) / pi * exp(-z) * s * h;
    }
    if (x >= -10.0) { /* f = sum 3^k (1/3)_k x^3k / (3k)!, g = sum 3^k (2/3)_k x^(3k+1) / (3k+1)! */
        double x2h = x * x, x2l = fma(x, x, -x2h);
        tl_hd_dd x3 = tl_hd_dd_mul((tl_hd_dd){x2h, x2l}, (tl_hd_dd){x, 0.0});
        tl_hd_dd tf = {1.0, 0.0}, tg = {x, 0.0}, f = tf, g = tg;
        for (int k = 1; k < 200; k++) {
            tf = tl_hd_dd_div_d(tl_hd_dd_mul(tf, x3), (double)((3 * k - 1) * (3 * k)));
            tg = tl_hd_dd_div_d(tl_hd_dd_mul(tg, x3), (double)((3 * k) * (3 * k + 1)));
            f = tl_hd_dd_add(f, tf);
            g = tl_hd_dd_add(g, tg);
            if (fabs(tf.hi) < 1e-34 && fabs(tg.hi) < 1e-34) break;
        }
        tl_hd_dd r = tl_hd_dd_add(tl_hd_dd_mul(f, (tl_hd_dd){ai0, 0.0}), tl_hd_dd_mul(g, (tl_hd_dd){aip0, 0.0}));
        return r.hi + r.lo;
    }
    /* Ai(-y) = (P cos(chi) + Q sin(chi)) / (sqrt(pi) y^1/4), chi = z - pi/4: P = sum (-1)^k u_2k / z^2k,
     * Q = sum (-1)^k u_(2k+1) / z^(2k+1), u_k = u_(k-1) (6k-5)(6k-3)(6k-1) / (216 k (2k-1)) */
    double y = -x, z = 2.0 / 3.0 * y * sqrt(y), u = 1.0, zk = 1.0, P = 0.0, Q = 0.0, last = INFINITY;
    for (int k = 0; k < 100; k++) {
        if (k > 0) u *= (6.0 * k - 5) * (6.0 * k - 3) * (6.0 * k - 1) / (216.0 * k * (2.0 * k - 1));
        double term = u / zk;
        if (term > last || term < 1e-18 * fabs(P)) break;
        last = term;
        double sgn = (k / 2) % 2 ? -1.0 : 1.0;
        if (k % 2) Q += sgn * term;
        else P += sgn * term;
        zk *= z;
    }
    double chi = z - pi / 4;
    return (P * cos(chi) + Q * sin(chi)) / (sqrt(pi) * sqrt(sqrt(y)));
}

/* digamma (torch's: the recurrence up to 10, then the asymptotic series; reflection below 0);
 * float32 computes in float with the reflection's pi / tan(pi r) in double */
#define TL_HD_DIGAMMA(S, T, M, PTAN, L)                                                                 \
    static inline TL_HD T tl_hd_digamma_pos_##S(T x)                                                 \
    {                                                                                                \
        T result = 0;                                                                                \
        while (x < 10) {                                                                             \
            result -= 1 / x;                                                                         \
            x += 1;                                                                                  \
        }                                                                                            \
        if (x == 10) return result + 2.25175258906672110764##L;                                      \
        T y = 0;                                                                                     \
        if (x < 1.0e17##L) {                                                                         \
            T z = 1 / (x * x), p = 8.33333333333333333333E-2##L;                                     \
            p = p * z + -2.10927960927960927961E-2##L;                                               \
            p = p * z + 7.57575757575757575758E-3##L;                                                \
            p = p * z + -4.16666666666666666667E-3##L;                                               \
            p = p * z + 3.96825396825396825397E-3##L;                                                \
            p = p * z + -8.33333333333333333333E-3##L;                                               \
            p = p * z + 8.33333333333333333333E-2##L;                                                \
            y = z * p;                                                                               \
        }                                                                                            \
        return result + M(log)(x) - (0.5##L / x) - y;                                                \
    }                                                                                                \
    static inline TL_HD T tl_hd_digamma_##S(T x)                                                     \
    {                                                                                                \
        if (x == 0) return M(copysign)((T)INFINITY, -x);                                             \
        if (x < 0) {                                                                                 \
            if (x == M(trunc)(x)) return (T)NAN;                                                     \
            T q, r = M(modf)(x, &q);                                                                 \
            T refl = PTAN(r);                                                                        \
            return tl_hd_digamma_pos_##S(1 - x) - refl;                                              \
        }                                                                                            \
        return tl_hd_digamma_pos_##S(x);                                                             \
    }
#define TL_HD_PTAN_F(r) ((float)(TL_HD_PI / tan(TL_HD_PI * (double)(r))))
#define TL_HD_PTAN_D(r) (TL_HD_PI / tan(TL_HD_PI * (r)))
TL_HD_DIGAMMA(f, float, TL_HD_MF, TL_HD_PTAN_F, f)
TL_HD_DIGAMMA(, double, TL_HD_MD, TL_HD_PTAN_D, )
#undef TL_HD_DIGAMMA
/* trigamma and polygamma (torch.polygamma), torch's: trigamma by the reflection below 1/2 (sin in
 * T), six steps of the recurrence and the asymptotic series, in T; n >= 2 as
 * (-1)^(n+1) exp(lgamma(n + 1)) zeta(n + 1, x), exp(lgamma) in T as torch's, the zeta and the
 * product in double (torch's float32 takes the zeta's first term and the product in float, and so
 * loses digits where the zeta is subnormal); n = 0 is digamma */
#define TL_HD_POLYGAMMA(S, T, M)                                                                     \
    static inline TL_HD T tl_hd_trigamma_##S(T x)                                                    \
    {                                                                                                \
        T sign = 1, result = 0;                                                                      \
        if (x < (T)0.5) {                                                                            \
            sign = -1;                                                                               \
            const T s_ = M(sin)((T)TL_HD_PI * x);                                                    \
            result -= ((T)TL_HD_PI * (T)TL_HD_PI) / (s_ * s_);                                       \
            x = 1 - x;                                                                               \
        }                                                                                            \
        for (int i = 0; i < 6; ++i) {                                                                \
            result += 1 / (x * x);                                                                   \
            x += 1;                                                                                  \
        }                                                                                            \
        const T ixx = 1 / (x * x);                                                                   \
        result += (1 + 1 / (2 * x) + ixx * ((T)1 / 6 - ixx * ((T)1 / 30 - ixx * ((T)1 / 42)))) / x; \
        return sign * result;                                                                        \
    }                                                                                                \
    static inline TL_HD T tl_hd_polygamma_##S(T x, int64_t n)                                        \
    {                                                                                                \
        if (n == 0) return tl_hd_digamma_##S(x);                                                     \
        if (n == 1) return tl_hd_trigamma_##S(x);                                                    \
        /* torch passes n >= 2 on as a C int: n wraps to 32 bits (2^32 acts as 0, so zeta(1) = inf) */ \
        int32_t ni = (int32_t)(uint32_t)(uint64_t)n, n1 = (int32_t)((uint32_t)ni + 1u);              \
        return (T)((double)(((ni % 2) ? (T)1 : (T)-1) * M(exp)(M(lgamma)((T)ni + 1))) *              \
                   tl_hd_zeta((double)(T)n1, (double)x));                                            \
    }
TL_HD_POLYGAMMA(f, float, TL_HD_MF)
TL_HD_POLYGAMMA(, double, TL_HD_MD)
#undef TL_HD_POLYGAMMA
/* frexp's two parts (torch.frexp), each an op of its own: x = m 2^e with 0.5 <= |m| < 1; 0, +-inf
 * and NaN give (x, 0). The exponent is returned in the floating type (|e| <= 1074 is exact in every
 * floating dtype's compute type); the caller converts it to int32. */
#define TL_HD_FREXP(S, T, M)                                                                         \
    static inline TL_HD T tl_hd_frexpm_##S(T x)                                                      \
    {                                                                                                \
        int e_;                                                                                      \
        return x == 0 || !isfinite(x) ? x : M(frexp)(x, &e_);                                         \
    }                                                                                                \
    static inline TL_HD T tl_hd_frexpe_##S(T x)                                                      \
    {                                                                                                \
        int e_ = 0;                                                                                  \
        if (x != 0 && isfinite(x)) (void)M(frexp)(x, &e_);                                           \
        return (T)e_;                                                                                \
    }
TL_HD_FREXP(f, float, TL_HD_MF)
TL_HD_FREXP(, double, TL_HD_MD)
#undef TL_HD_FREXP

/* torch.special's orthogonal polynomials of degree n at x, torch's algorithms: the three-term
 * recurrences, closed forms at the ends of the interval, the trigonometric forms (cos(n acos x),
 * ...) for larger n inside it; n < 0 gives 0. The order n arrives as a floating value and is
 * truncated to int64 as torch's static_cast on x86 (tl_hd_to_i64). Arithmetic
 * in the compute type (float for float32), int64 products converted to it as in C++. A recurrence
 * stops early once it is NaN (it stays NaN): torch's loop would only spin. */
/* (int64_t)x with x86's answer where C leaves it undefined (NaN, out of range: INT64_MIN), as
 * torch's static_casts give it */
static inline TL_HD int64_t tl_hd_to_i64(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}
#define TL_HD_RECUR(T, p0, q0, k0, cond, step, next)                                                \
    T p = (p0), q = (q0), r = (T)0;                                                                  \
    for (int64_t k = (k0); cond; step) {                                                             \
        r = (next);                                                                                  \
        p = q;                                                                                       \
        q = r;                                                                                       \
        if (r != r) break;                                                                           \
    }                                                                                                \
    return r;
#define TL_HD_ORTHO(S, T, M)                                                                         \
    static inline TL_HD T tl_hd_cheb_t_##S(T x, int64_t n)                                           \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (M(fabs)(x) == 1) return x > 0 || n % 2 == 0 ? 1 : -1;                                    \
        if (n > 6 && M(fabs)(x) < 1) return M(cos)((T)n * M(acos)(x));                               \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return x;                                                                        \
        TL_HD_RECUR(T, 1, x, 2, k <= n, k++, (x + x) * q - p)                                        \
    }                                                                                                \
    static inline TL_HD T tl_hd_cheb_u_##S(T x, int64_t n)                                           \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (M(fabs)(x) == 1) return x > 0 || n % 2 == 0 ? (T)(n + 1) : (T)(-(n + 1));                \
        if (n > 8 && M(fabs)(x) < 1) {                                                               \
            if (M(sin)(M(acos)(x)) != 0) return M(sin)((T)(n + 1) * M(acos)(x)) / M(sin)(M(acos)(x)); \
            return (T)(n + 1) * M(cos)((T)(n + 1) * M(acos)(x)) / x;                                 \
        }                                                                                            \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return x + x;                                                                    \
        TL_HD_RECUR(T, 1, x + x, 2, k <= n, k++, (x + x) * q - p)                                    \
    }                                                                                                \
    static inline TL_HD T tl_hd_cheb_v_##S(T x, int64_t n)                                           \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (M(fabs)(x) == 1) return x > 0 ? 1 : n % 2 == 0 ? (T)(n + n + 1) : (T)(-(n + n + 1));      \
        if (n > 8 && M(fabs)(x) < 1) {                                                               \
            if (M(sin)(M(acos)(x) / (T)2) != 1)                                                      \
                return M(cos)(((T)n + (T)0.5) * M(acos)(x)) / M(cos)(M(acos)(x) / (T)2);             \
            return n % 2 == 0 ? (T)(n + n + 1) : (T)(-(n + n + 1));                                  \
        }                                                                                            \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return x + x - (T)1;                                                             \
        TL_HD_RECUR(T, 1, x + x - (T)1, 2, k <= n, k++, (x + x) * q - p)                             \
    }                                                                                                \
    static inline TL_HD T tl_hd_cheb_w_##S(T x, int64_t n)                                           \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (M(fabs)(x) == 1) return x > 0 ? (T)(n + n + 1) : n % 2 == 0 ? 1 : -1;                    \
        if (n > 8 && M(fabs)(x) < 1) {                                                               \
            if (M(cos)(M(acos)(x) / (T)2) != 1)                                                      \
                return M(sin)(((T)n + (T)0.5) * M(acos)(x)) / M(sin)(M(acos)(x) / (T)2);             \
            return x > 0 ? (T)(n + n + 1) : n % 2 == 0 ? 1 : -1;                                     \
        }                                                                                            \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return x + x + (T)1;                                                             \
        TL_HD_RECUR(T, 1, x + x + (T)1, 2, k <= n, k++, (x + x) * q - p)                             \
    }                                                                                                \
    /* the shifted ones: of y = 2x - 1 (torch writes x + x - 1 and doubles it as y + y) */          \
    static inline TL_HD T tl_hd_scheb_t_##S(T x, int64_t n)                                          \
    {                                                                                                \
        T y = x + x - (T)1;                                                                          \
        if (n < 0) return 0;                                                                         \
        if (x == 1) return 1;                                                                        \
        if (x == 0) return n % 2 == 0 ? 1 : -1;                                                      \
        if (n > 6 && M(fabs)(y) < 1) return M(cos)((T)n * M(acos)(y));                               \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return y;                                                                        \
        TL_HD_RECUR(T, 1, y, 2, k <= n, k++, (y + y) * q - p)                                        \
    }                                                                                                \
    static inline TL_HD T tl_hd_scheb_u_##S(T x, int64_t n)                                          \
    {                                                                                                \
        T y = x + x - (T)1;                                                                          \
        if (n < 0) return 0;                                                                         \
        if (x == 1) return (T)(n + 1);                                                               \
        if (x == 0) return n % 2 == 0 ? (T)(n + 1) : (T)(-(n + 1));                                  \
        if (n > 6 && M(fabs)(y) < 1) {                                                               \
            if (M(sin)(M(acos)(y)) != 0) return M(sin)((T)(n + 1) * M(acos)(y)) / M(sin)(M(acos)(y)); \
            return (T)(n + 1) * M(cos)((T)(n + 1) * M(acos)(y)) / y;                                 \
        }                                                                                            \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return y + y;                                                                    \
        TL_HD_RECUR(T, 1, y + y, 2, k <= n, k++, (y + y) * q - p)                                    \
    }                                                                                                \
    static inline TL_HD T tl_hd_scheb_v_##S(T x, int64_t n)                                          \
    {                                                                                                \
        T y = x + x - (T)1;                                                                          \
        if (n < 0) return 0;                                                                         \
        if (x == 1) return 1;                                                                        \
        if (x == 0) return n % 2 == 0 ? (T)(n + n + 1) : (T)(-(n + n + 1));                          \
        if (n > 6 && M(fabs)(y) < 1) {                                                               \
            if (M(sin)(M(acos)(y) / (T)2) != 1)                                                      \
                return M(cos)(((T)n + (T)0.5) * M(acos)(y)) / M(cos)(M(acos)(y) / (T)2);             \
            return n % 2 == 0 ? (T)(n + n + 1) : (T)(-(n + n + 1));                                  \
        }                                                                                            \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return y + y - (T)1;                                                             \
        TL_HD_RECUR(T, 1, y + y - (T)1, 2, k <= n, k++, (y + y) * q - p)                             \
    }                                                                                                \
    static inline TL_HD T tl_hd_scheb_w_##S(T x, int64_t n)                                          \
    {                                                                                                \
        T y = x + x - (T)1;                                                                          \
        if (n < 0) return 0;                                                                         \
        if (x == 1) return (T)(n + n + 1);                                                           \
        if (x == 0) return n % 2 == 0 ? 1 : -1;                                                      \
        if (n > 4 && M(fabs)(y) < 1) {                                                               \
            if (M(cos)(M(acos)(y) / (T)2) != 1)                                                      \
                return M(sin)(((T)n + (T)0.5) * M(acos)(y)) / M(sin)(M(acos)(y) / (T)2);             \
            return n % 2 == 0 ? 1 : -1;                                                              \
        }                                                                                            \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return y + y + (T)1;                                                             \
        TL_HD_RECUR(T, 1, y + y + (T)1, 2, k <= n, k++, (y + y) * q - p)                             \
    }                                                                                                \
    static inline TL_HD T tl_hd_hermite_h_##S(T x, int64_t n)                                        \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return x + x;                                                                    \
        TL_HD_RECUR(T, 1, x + x, 2, k < n + n, k += 2, (x + x) * q - (T)k * p)                       \
    }                                                                                                \
    static inline TL_HD T tl_hd_hermite_he_##S(T x, int64_t n)                                       \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return x;                                                                        \
        TL_HD_RECUR(T, 1, x, 1, k < n, k++, x * q - (T)k * p)                                        \
    }                                                                                                \
    static inline TL_HD T tl_hd_laguerre_l_##S(T x, int64_t n)                                       \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (M(fabs)(x) == 0) return 1;                                                               \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return (T)1 - x;                                                                 \
        TL_HD_RECUR(T, 1, (T)1 - x, 1, k < n, k++, (((T)(k + k) + ((T)1 - x)) * q - (T)k * p) / (T)(k + 1)) \
    }                                                                                                \
    static inline TL_HD T tl_hd_legendre_p_##S(T x, int64_t n)                                       \
    {                                                                                                \
        if (n < 0) return 0;                                                                         \
        if (M(fabs)(x) == 1) return x > 0 || n % 2 == 0 ? 1 : -1;                                    \
        if (n == 0) return 1;                                                                        \
        if (n == 1) return x;                                                                        \
        TL_HD_RECUR(T, 1, x, 1, k < n, k++, ((T)(k + k + 1) * x * q - (T)k * p) / (T)(k + 1))        \
    }
TL_HD_ORTHO(f, float, TL_HD_MF)
TL_HD_ORTHO(, double, TL_HD_MD)
#undef TL_HD_ORTHO
#undef TL_HD_RECUR

/* The modified Bessel functions of orders 0 and 1 (torch.i0, special.i0e/i1/i1e/modified_bessel_*,
 * scaled_modified_bessel_k*), in double for every dtype, rounded once. I_nu: the power series
 * sum (x/2)^(2k+nu) / (k! (k+nu)!) (positive terms) up to |x| = 25, beyond it the asymptotic
 * series e^x / sqrt(2 pi x) sum (-1)^k a_k(nu) / x^k (its smallest term is below e^-2x). K_nu:
 * the logarithmic series up to x = 1, the trapezoid rule (h = 1/8, exponentially convergent)
 * on K_nu(x) e^x = int_0^inf exp(-2x sinh^2(t/2)) cosh(nu t) dt up to 25, the asymptotic series
 * sqrt(pi / 2x) e^-x sum a_k(nu) / x^k beyond. Special values as torch: I0/I1 NaN at +-inf, their
 * scaled forms 0 (-0 for i1e(-inf)); K NaN below 0, inf at 0, 0 at inf. */
static inline TL_HD double tl_hd_bessel_iser(double ax, int nu)
{
    double q = 0.25 * ax * ax, t = nu ? 0.5 * ax : 1.0, s = t;
    for (int k = 1; k < 200; k++) {
        t *= q / ((double)k * (double)(k + nu));
        s += t;
        if (t < 1e-17 * s) break;
    }
    return s;
}
static inline TL_HD double tl_hd_bessel_asum(double ax, int nu, double sign)
{
    double mu = 4.0 * nu * nu, t = 1.0, s = 1.0;
    for (int k = 1; k < 120; k++) {
        double m = (double)(2 * k - 1), nt = t * sign * (mu - m * m) / ((double)k * 8.0 * ax);
        if (fabs(nt) >= fabs(t)) break;
        t = nt;
        s += t;
        if (fabs(t) < 1e-17 * fabs(s)) break;
    }
    return s;
}
/* I_nu(|x|) e^-|x| (scaled) or I_nu(|x|), for finite x */
static inline TL_HD double tl_hd_bessel_iabs(double ax, int nu, int scaled)
{
    if (ax <= 25.0) {
        double s = tl_hd_bessel_iser(ax, nu);
        return scaled ? s * exp(-ax) : s;
    }
    double r = tl_hd_bessel_asum(ax, nu, -1.0) / sqrt(2.0 * TL_HD_PI * ax);
    if (scaled) return r;
    double e = exp(0.5 * ax);
    return (e * r) * e;
}
static inline TL_HD double tl_hd_bessel_i0(double x)
{
    if (isinf(x)) return (double)NAN;
    return x != x ? x : tl_hd_bessel_iabs(fabs(x), 0, 0);
}
static inline TL_HD double tl_hd_bessel_i0e(double x)
{
    if (isinf(x)) return 0.0;
    return x != x ? x : tl_hd_bessel_iabs(fabs(x), 0, 1);
}
static inline TL_HD double tl_hd_bessel_i1(double x)
{
    if (isinf(x)) return (double)NAN;
    if (x != x || x == 0) return x != x ? x : 0.0;
    double r = tl_hd_bessel_iabs(fabs(x), 1, 0);
    return x < 0 ? -r : r;
}
static inline TL_HD double tl_hd_bessel_i1e(double x)
{
    if (isinf(x)) return x < 0 ? -0.0 : 0.0;
    if (x != x || x == 0) return x != x ? x : 0.0;
    double r = tl_hd_bessel_iabs(fabs(x), 1, 1);
    return x < 0 ? -r : r;
}
/* K_nu(x) for x > 0 finite: scaled = K_nu(x) e^x */
static inline TL_HD double tl_hd_bessel_kpos(double x, int nu, int scaled)
{
    double r;
    if (x <= 1.0) {
        const double euler = 0.57721566490153286061;
        double q = 0.25 * x * x, l = log(0.5 * x), h = 0.0, t = 1.0, s;
        if (nu == 0) { /* -(l + gamma) I0 + sum q^k / k!^2 H_k */
            s = 0.0;
            for (int k = 1; k < 40; k++) {
                t *= q / ((double)k * (double)k);
                h += 1.0 / k;
                s += t * h;
                if (t * h < 1e-18 * s) break;
            }
            r = -(l + euler) * tl_hd_bessel_iser(x, 0) + s;
        } else { /* 1/x + l I1 - x/4 sum q^k / (k! (k+1)!) (H_k + H_(k+1) - 2 gamma) */
            s = 1.0 - 2.0 * euler;
            for (int k = 1; k < 40; k++) {
                t *= q / ((double)k * (double)(k + 1));
                double hk = h + 1.0 / k;
                double c = t * (hk + hk + 1.0 / (k + 1) - 2.0 * euler);
                h = hk;
                s += c;
                if (fabs(c) < 1e-18 * fabs(s)) break;
            }
            r = 1.0 / x + l * tl_hd_bessel_iser(x, 1) - 0.25 * x * s;
        }
        return scaled ? r * exp(x) : r;
    }
    if (x <= 25.0) {
        const double hstep = 0.125;
        double s = 0.5;
        for (int j = 1; j < 400; j++) {
            double tt = j * hstep, sh = sinh(0.5 * tt), f = exp(-2.0 * x * sh * sh);
            if (nu) f *= cosh(tt);
            s += f;
            if (f < 1e-18 * s) break;
        }
        r = s * hstep;
    } else {
        r = tl_hd_bessel_asum(x, nu, 1.0) * sqrt(TL_HD_PI / (2.0 * x));
    }
    if (scaled) return r;
    if (x < 600.0) return r * exp(-x);
    double e = exp(-0.5 * x);
    return (r * e) * e;
}
static inline TL_HD double tl_hd_bessel_k(double x, int nu, int scaled)
{
    if (x != x) return x;
    if (x < 0) return (double)NAN;
    if (x == 0) return (double)INFINITY;
    if (isinf(x)) return 0.0;
    return tl_hd_bessel_kpos(x, nu, scaled);
}
static inline TL_HD double tl_hd_bessel_k0(double x) { return tl_hd_bessel_k(x, 0, 0); }
static inline TL_HD double tl_hd_bessel_k1(double x) { return tl_hd_bessel_k(x, 1, 0); }
static inline TL_HD double tl_hd_bessel_k0e(double x) { return tl_hd_bessel_k(x, 0, 1); }
static inline TL_HD double tl_hd_bessel_k1e(double x) { return tl_hd_bessel_k(x, 1, 1); }

/* logit: z clamped to [eps, 1 - eps] (when eps is given), then log(z / (1 - z)). rnd 1 or 2: a
 * float16 or bfloat16 tensor (computed in float32), each step rounded to that type as torch's
 * CPU kernel computes in the tensor's type (the bounds, 1 - z, the quotient; the log rounds on
 * store); 0: none. */
#define TL_HD_LOGIT(S, T, M)                                                                            \
    static inline TL_HD T tl_hd_hrnd_##S(T v, int rnd)                                               \
    {                                                                                                \
        return rnd == 1 ? (T)tl_hd_h2f(tl_hd_f2h((float)v)) : rnd == 2 ? (T)tl_hd_bf2f(tl_hd_f2bf((float)v)) : v; \
    }                                                                                                \
    static inline TL_HD T tl_hd_logit_##S(T z, T eps, int clamp, int rnd)                            \
    {                                                                                                \
        if (clamp) {                                                                                 \
            T lo = tl_hd_hrnd_##S(eps, rnd), hi = tl_hd_hrnd_##S((T)1 - lo, rnd);                    \
            z = z < lo ? lo : z > hi ? hi : z;                                                       \
        }                                                                                            \
        return M(log)(tl_hd_hrnd_##S(z / tl_hd_hrnd_##S((T)1 - z, rnd), rnd));                       \
    }
TL_HD_LOGIT(f, float, TL_HD_MF)
TL_HD_LOGIT(, double, TL_HD_MD)
#undef TL_HD_LOGIT

/* Complex sqrt, log, pow and trigonometry (the device's; the CPU kernels call glibc's csqrt,
 * clog, cpow, csin, ...). Computed in double for complex128 and complex64 (rounded once), by
 * the textbook formulas with the care for cancellation and overflow noted; within a few ulps
 * of glibc's for finite arguments and results (tests/_fake_cuda_ew.py holds them there), and
 * C99 Annex G's zeros, infinities and NaNs as glibc's (tests/test_cuda_cmath.py). */
static inline TL_HD tl_hd_c128 tl_hd_csqrt_(tl_hd_c128 z)
{
    double re = z.re, im = z.im, a = fabs(re), b = fabs(im), s = 1;
    if (re == 0 && im == 0) return tl_hd_cmk_(0.0, im);
    if (b == (double)INFINITY) return tl_hd_cmk_((double)INFINITY, im);
    if (a == (double)INFINITY && im == im)
        return re > 0 ? tl_hd_cmk_(re, copysign(0.0, im)) : tl_hd_cmk_(0.0, copysign((double)INFINITY, im));
    if (a >= 0x1p1020 || b >= 0x1p1020) { a *= 0.25; b *= 0.25; s = 2; }  /* a + |z| would overflow */
    else if (a < 0x1p-1000 && b < 0x1p-1000) { a *= 0x1p600; b *= 0x1p600; s = 0x1p-300; }  /* subnormal halves */
    double t = sqrt((a + hypot(a, b)) * 0.5) * s;
    return re >= 0 ? tl_hd_cmk_(t, im / (2 * t)) : tl_hd_cmk_(fabs(im) / (2 * t), copysign(t, im));
}
static inline TL_HD tl_hd_c128 tl_hd_clog_(tl_hd_c128 z)
{
    double a = fabs(z.re), b = fabs(z.im), hi = a > b ? a : b, lo = a > b ? b : a, r;
    if (hi > 0.5 && hi < 2 && hi == hi)  /* |z| near 1: log1p of |z|^2 - 1, (hi - 1) exact */
        r = 0.5 * log1p((hi - 1) * (hi + 1) + lo * lo);
    else if (hi >= 0x1p1020)  /* hypot would overflow */
        r = log(hypot(a * 0.25, b * 0.25)) + 2 * TL_HD_LN2;
    else if (hi < 0x1p-1000)  /* hypot of subnormals would round */
        r = log(hypot(a * 0x1p600, b * 0x1p600)) - 600 * TL_HD_LN2;
    else
        r = log(hypot(a, b));
    return tl_hd_cmk_(r, atan2(z.im, z.re));
}
/* sinh, cosh, tanh: C99 Annex G's values at zeros, infinities and NaNs (glibc's); sin, cos and
 * tan through them (sin z = -i sinh iz, cos z = cosh iz, tan z = -i tanh iz) */
static inline TL_HD tl_hd_c128 tl_hd_csinh_(tl_hd_c128 z)
{
    double x = z.re, y = z.im;
    if (y == 0) return tl_hd_cmk_(sinh(x), y);
    if (!(fabs(y) < (double)INFINITY) && (x == 0 || fabs(x) == (double)INFINITY))
        return tl_hd_cmk_(x == 0 ? x : (double)INFINITY, y - y);
    if (fabs(x) > 709 && fabs(x) < (double)INFINITY) {  /* sinh, cosh overflow: e^|x| / 2 in halves */
        double h = exp(0.5 * fabs(x));
        return tl_hd_cmk_(copysign(0.5, x) * h * cos(y) * h, 0.5 * h * sin(y) * h);
    }
    return tl_hd_cmk_(sinh(x) * cos(y), cosh(x) * sin(y));
}
static inline TL_HD tl_hd_c128 tl_hd_ccosh_(tl_hd_c128 z)
{
    double x = z.re, y = z.im;
    if (x != x) return tl_hd_cmk_(x, y == 0 ? y : x);
    if (y == 0) return tl_hd_cmk_(cosh(x), copysign(1.0, x) * y);
    if (!(fabs(y) < (double)INFINITY) && (x == 0 || fabs(x) == (double)INFINITY))
        return x == 0 ? tl_hd_cmk_(y - y, 0.0) : tl_hd_cmk_((double)INFINITY, y - y);
    if (fabs(x) > 709 && fabs(x) < (double)INFINITY) {  /* cosh, sinh overflow: e^|x| / 2 in halves */
        double h = exp(0.5 * fabs(x));
        return tl_hd_cmk_(0.5 * h * cos(y) * h, copysign(0.5, x) * h * sin(y) * h);
    }
    return tl_hd_cmk_(cosh(x) * cos(y), sinh(x) * sin(y));
}
static inline TL_HD tl_hd_c128 tl_hd_csin_(tl_hd_c128 z)
{
    if (fabs(z.im) == (double)INFINITY && !(fabs(z.re) < (double)INFINITY))  /* glibc's csin: NaN + inf i */
        return tl_hd_cmk_(z.re - z.re, (double)INFINITY);
    tl_hd_c128 w = tl_hd_csinh_(tl_hd_cmk_(-z.im, z.re));
    return tl_hd_cmk_(w.im, -w.re);
}
static inline TL_HD tl_hd_c128 tl_hd_ccos_(tl_hd_c128 z) { return tl_hd_ccosh_(tl_hd_cmk_(-z.im, z.re)); }
static inline TL_HD tl_hd_c128 tl_hd_ctanh_(tl_hd_c128 z)
{
    double x = z.re, y = z.im;
    if (!(fabs(y) < (double)INFINITY)) {  /* y infinite or NaN */
        if (fabs(x) == (double)INFINITY) return tl_hd_cmk_(copysign(1.0, x), copysign(0.0, y));
        return tl_hd_cmk_(x == 0 ? x : y - y, y - y);
    }
    if (x != x) return tl_hd_cmk_(x, y == 0 ? y : x);
    if (fabs(x) > 22) /* tanh x is +-1 in double; the imaginary part 4 sin y cos y e^-2|x| */
        return tl_hd_cmk_(copysign(1.0, x), 4 * sin(y) * cos(y) * exp(-2 * fabs(x)));
    double t = tan(y), b = 1 + t * t, s = sinh(x), r = sqrt(1 + s * s), d = 1 + b * s * s;  /* Kahan's */
    return tl_hd_cmk_(b * r * s / d, t / d);
}
static inline TL_HD tl_hd_c128 tl_hd_ctan_(tl_hd_c128 z)  /* -i tanh(i z) */
{
    tl_hd_c128 w = tl_hd_ctanh_(tl_hd_cmk_(-z.im, z.re));
    return tl_hd_cmk_(w.im, -w.re);
}
static inline TL_HD tl_hd_c128 tl_hd_cpow_(tl_hd_c128 x, tl_hd_c128 y)  /* exp(y log x), as glibc's */
{
    if (y.re == 0 && y.im == 0) return tl_hd_cmk_(1.0, 0.0);
    return tl_hd_cexp_(tl_hd_cmul_(y, tl_hd_clog_(x)));
}
/* The inverse functions (C99 Annex G's branch cuts, signed zeros, infinities and NaNs, as
 * glibc's). asin and acos by Hull, Fairgrieve & Tang's decomposition: for x, y >= 0 with
 * A = (|z + 1| + |z - 1|) / 2 >= 1, asin z = atan2(x, sqrt(A^2 - x^2)) + i acosh A and
 * acos z = atan2(sqrt(A^2 - x^2), x) - i acosh A, where A - x and A - 1 are sums of positive
 * terms (|z -+ 1| - (1 -+ x) = y^2 / (|z -+ 1| + (1 -+ x))), so nothing cancels near the branch
 * points; beyond 2^52, asin z = pi/2 - arg z + i log 2|z| to O(|z|^-2). atanh by
 * log1p(4x / ((1 - x)^2 + y^2)) / 4 + i atan2(2y, (1 - x)(1 + x) - y^2) / 2, x / |z|^2 beyond
 * 2^52. asinh, atan and acosh follow from these (asinh z = swap(asin(swap z)), swap(x + iy) =
 * y + ix; atan likewise from atanh; acosh from acos). */
/* x, y >= 0 finite or infinite: *d = sqrt(A^2 - x^2) (or y beyond 2^52), *ach = acosh A */
static inline TL_HD void tl_hd_asin_parts(double x, double y, double *d, double *ach)
{
    if (x >= 0x1p52 || y >= 0x1p52) {
        *d = y;
        *ach = (x >= 0x1p1000 || y >= 0x1p1000) ? log(hypot(x * 0.25, y * 0.25)) + 3 * TL_HD_LN2
                                                 : log(hypot(x, y)) + TL_HD_LN2;
        return;
    }
    double r = hypot(x + 1, y), s = hypot(x - 1, y), a = 0.5 * (r + s), rp = r + (x + 1);
    /* A - x = (y^2 / rp + s + (1 - x)) / 2 for x <= 1, y^2 (1 / rp + 1 / (s + (x - 1))) / 2 above */
    *d = x <= 1 ? sqrt(0.5 * (a + x) * (y * (y / rp) + (s + (1 - x))))
                : y * sqrt(0.5 * (a + x) * (1 / rp + 1 / (s + (x - 1))));
    if (a >= 1.5) {
        *ach = log(a + sqrt((a - 1) * (a + 1)));
    } else if (x < 1) {  /* A - 1 = y^2 h */
        double h = 0.5 * (1 / rp + 1 / (s + (1 - x)));
        *ach = log1p(y * (y * h) + y * sqrt(h * (a + 1)));
    } else {
        double am1 = 0.5 * (y * (y / rp) + (s + (x - 1)));
        *ach = log1p(am1 + sqrt(am1 * (a + 1)));
    }
}
static inline TL_HD tl_hd_c128 tl_hd_casin_(tl_hd_c128 z)
{
    double x = fabs(z.re), y = fabs(z.im), d, ach;
    if (x != x || y != y) {
        if (y != y && x == 0) return tl_hd_cmk_(z.re, z.im);
        if (x == (double)INFINITY || y == (double)INFINITY) return tl_hd_cmk_(x != x ? z.re : z.im, copysign((double)INFINITY, z.im));
        return tl_hd_cmk_(x != x ? z.re : z.im, x != x ? z.re : z.im);
    }
    tl_hd_asin_parts(x, y, &d, &ach);
    return tl_hd_cmk_(copysign(atan2(x, d), z.re), copysign(ach, z.im));
}
static inline TL_HD tl_hd_c128 tl_hd_cacos_(tl_hd_c128 z)
{
    double x = fabs(z.re), y = fabs(z.im), d, ach;
    if (x != x || y != y) {
        if (y != y && x == 0) return tl_hd_cmk_(TL_HD_PI / 2, z.im);
        if (x == (double)INFINITY || y == (double)INFINITY) return tl_hd_cmk_(x != x ? z.re : z.im, -copysign((double)INFINITY, z.im));
        return tl_hd_cmk_(x != x ? z.re : z.im, x != x ? z.re : z.im);
    }
    tl_hd_asin_parts(x, y, &d, &ach);
    return tl_hd_cmk_(atan2(d, z.re), -copysign(ach, z.im));
}
static inline TL_HD tl_hd_c128 tl_hd_catanh_(tl_hd_c128 z)
{
    double x = fabs(z.re), y = fabs(z.im), re, im;
    if (x != x || y != y) {
        if (y != y && (x == 0 || x == (double)INFINITY)) return tl_hd_cmk_(copysign(0.0, z.re), z.im);
        if (x != x && y == (double)INFINITY) return tl_hd_cmk_(copysign(0.0, z.re), copysign(TL_HD_PI / 2, z.im));
        return tl_hd_cmk_(x != x ? z.re : z.im, x != x ? z.re : z.im);
    }
    if (x >= 0x1p52 || y >= 0x1p52) {
        double h = hypot(x * 0.5, y * 0.5);  /* x / |z|^2 = x / (4 h^2), h = |z| / 2 without overflow */
        re = (x == (double)INFINITY || y == (double)INFINITY) ? 0.0 : ((x / h) * 0.25) / h;
        im = TL_HD_PI / 2;
    } else if (x == 1 && y < 0x1p-500) {  /* log1p(4 / y^2) / 4 */
        re = 0.5 * (TL_HD_LN2 - log(y));
        im = 0.5 * atan2(2 * y, 0.0 - y * y);  /* +0 at y = 0: atanh(1 + 0i) = inf + 0i */
    } else {
        re = 0.25 * log1p(4 * x / ((1 - x) * (1 - x) + y * y));
        im = 0.5 * atan2(2 * y, (1 - x) * (1 + x) - y * y);
    }
    return tl_hd_cmk_(copysign(re, z.re), copysign(im, z.im));
}
static inline TL_HD tl_hd_c128 tl_hd_casinh_(tl_hd_c128 z)
{
    tl_hd_c128 w = tl_hd_casin_(tl_hd_cmk_(z.im, z.re));
    return tl_hd_cmk_(w.im, w.re);
}
static inline TL_HD tl_hd_c128 tl_hd_catan_(tl_hd_c128 z)
{
    tl_hd_c128 w = tl_hd_catanh_(tl_hd_cmk_(z.im, z.re));
    return tl_hd_cmk_(w.im, w.re);
}
static inline TL_HD tl_hd_c128 tl_hd_cacosh_(tl_hd_c128 z)  /* +-i acos z, the real part >= 0 */
{
    tl_hd_c128 w = tl_hd_cacos_(z);
    return tl_hd_cmk_(fabs(w.im), copysign(w.re, z.im));
}
/* complex64: the complex128 function, rounded once */
#define TL_HD_C64_OF(fn)                                                                             \
    static inline TL_HD tl_hd_c64 fn##f(tl_hd_c64 z)                                                 \
    {                                                                                                \
        tl_hd_c128 w = fn(tl_hd_cmk_(z.re, z.im));                                                   \
        return tl_hd_cmk_f((float)w.re, (float)w.im);                                                \
    }
TL_HD_C64_OF(tl_hd_csqrt_) TL_HD_C64_OF(tl_hd_clog_) TL_HD_C64_OF(tl_hd_csin_) TL_HD_C64_OF(tl_hd_ccos_)
TL_HD_C64_OF(tl_hd_csinh_) TL_HD_C64_OF(tl_hd_ccosh_) TL_HD_C64_OF(tl_hd_ctanh_) TL_HD_C64_OF(tl_hd_ctan_)
TL_HD_C64_OF(tl_hd_casin_) TL_HD_C64_OF(tl_hd_cacos_) TL_HD_C64_OF(tl_hd_catan_) TL_HD_C64_OF(tl_hd_casinh_)
TL_HD_C64_OF(tl_hd_cacosh_) TL_HD_C64_OF(tl_hd_catanh_)
#undef TL_HD_C64_OF
static inline TL_HD tl_hd_c64 tl_hd_cpow_f(tl_hd_c64 x, tl_hd_c64 y)  /* as glibc's cpowf: in float */
{
    if (y.re == 0 && y.im == 0) return tl_hd_cmk_f(1.0f, 0.0f);
    return tl_hd_cexp_f(tl_hd_cmul_f(y, tl_hd_clog_f(x)));
}

/* ------------------------------------------------------------ formulas
 * E_<OP>_<CAT>(M, x[, y]) with CAT B (bool), U (uint8), I (signed ints), F (float32/64; the
 * half types compute in float32), C (complex). T_ is the compute type, W_ the unsigned type
 * integer arithmetic wraps in (complex: the real type); both are typedefs local to the
 * per-dtype functions below. */
#define TL_HD_WRAP(e) ((T_)(W_)(e))
#define TL_HD_INF(T) ((T)INFINITY)

#define E_NEG_U(M, x) TL_HD_WRAP((W_)0 - (W_)(x))
#define E_NEG_I E_NEG_U
#define E_NEG_F(M, x) (-(x))
#define E_NEG_C(M, x) TL_HD_CMK(M, -(x).re, -(x).im)
#define E_ABS_U(M, x) (x)
#define E_ABS_I(M, x) ((x) < 0 ? TL_HD_WRAP((W_)0 - (W_)(x)) : (x))
#define E_ABS_F(M, x) M(fabs)(x)
#define E_ABS_C(M, x) M(hypot)((x).re, (x).im)
#define E_EXP_F(M, x) M(exp)(x)
#define E_EXP_C(M, x) TL_HD_CFN(M, tl_hd_cexp)(x)
/* complex: the compositions of the CPU kernels (kernels/ew_unary.c) over the functions above */
#define TL_HD_C1(M) TL_HD_CMK(M, 1, 0)
#define E_SQRT_C(M, x) TL_HD_CFN(M, tl_hd_csqrt)(x)
#define E_RSQRT_C(M, x) TL_HD_CFN(M, tl_hd_cdiv)(TL_HD_C1(M), E_SQRT_C(M, x))
#define TL_HD_CSCALE(M, z, OP, k) TL_HD_CMK(M, (z).re OP (W_)(k), (z).im OP (W_)(k))  /* part by part, as the CPU */
#define E_EXP2_C(M, x) E_EXP_C(M, TL_HD_CSCALE(M, x, *, 0.693147180559945309417232121458176568))
#define E_EXPM1_C(M, x) TL_HD_CMK(M, E_EXP_C(M, x).re - (W_)1, E_EXP_C(M, x).im)
#define E_LOG_C(M, x) TL_HD_CFN(M, tl_hd_clog)(x)
#define E_LOG2_C(M, x) TL_HD_CSCALE(M, E_LOG_C(M, x), /, 0.693147180559945309417232121458176568)
#define E_LOG10_C(M, x) TL_HD_CSCALE(M, E_LOG_C(M, x), /, 2.30258509299404568401799145468436421)
#define E_LOG1P_C(M, x) E_LOG_C(M, TL_HD_CMK(M, (W_)1 + (x).re, (W_)0 + (x).im))  /* (T)1 + x: 0 + im */
#define E_SIN_C(M, x) TL_HD_CFN(M, tl_hd_csin)(x)
#define E_COS_C(M, x) TL_HD_CFN(M, tl_hd_ccos)(x)
#define E_TAN_C(M, x) TL_HD_CFN(M, tl_hd_ctan)(x)
#define E_SINH_C(M, x) TL_HD_CFN(M, tl_hd_csinh)(x)
#define E_COSH_C(M, x) TL_HD_CFN(M, tl_hd_ccosh)(x)
#define E_TANH_C(M, x) TL_HD_CFN(M, tl_hd_ctanh)(x)
#define E_ASIN_C(M, x) TL_HD_CFN(M, tl_hd_casin)(x)
#define E_ACOS_C(M, x) TL_HD_CFN(M, tl_hd_cacos)(x)
#define E_ATAN_C(M, x) TL_HD_CFN(M, tl_hd_catan)(x)
#define E_ASINH_C(M, x) TL_HD_CFN(M, tl_hd_casinh)(x)
#define E_ACOSH_C(M, x) TL_HD_CFN(M, tl_hd_cacosh)(x)
#define E_ATANH_C(M, x) TL_HD_CFN(M, tl_hd_catanh)(x)
#define E_SIGMOID_C(M, x) TL_HD_CFN(M, tl_hd_cdiv)(TL_HD_C1(M), TL_HD_CMK(M, (W_)1 + E_EXP_C(M, E_NEG_C(M, x)).re, (W_)0 + E_EXP_C(M, E_NEG_C(M, x)).im))
#define E_SILU_C(M, x) TL_HD_CFN(M, tl_hd_cdiv)(x, TL_HD_CMK(M, (W_)1 + E_EXP_C(M, E_NEG_C(M, x)).re, (W_)0 + E_EXP_C(M, E_NEG_C(M, x)).im))
#define E_SIGN_B(M, x) (x)
#define E_SIGN_U(M, x) ((T_)((x) != 0))
#define E_SIGN_I(M, x) ((T_)(((x) > 0) - ((x) < 0)))
#define E_SIGN_F E_SIGN_I
#define E_SGN_B E_SIGN_B
#define E_SGN_U E_SIGN_U
#define E_SGN_I E_SIGN_I
#define E_SGN_F E_SIGN_I
#define E_SGN_C(M, x) (((x).re == 0 && (x).im == 0) ? TL_HD_CMK(M, 0, 0) : TL_HD_CMK(M, (x).re / E_ABS_C(M, x), (x).im / E_ABS_C(M, x)))
#define E_CEIL_U(M, x) (x)
#define E_CEIL_I E_CEIL_U
#define E_CEIL_F(M, x) M(ceil)(x)
#define E_FLOOR_U E_CEIL_U
#define E_FLOOR_I E_CEIL_U
#define E_FLOOR_F(M, x) M(floor)(x)
#define E_TRUNC_U E_CEIL_U
#define E_TRUNC_I E_CEIL_U
#define E_TRUNC_F(M, x) M(trunc)(x)
#define E_ROUND_U E_CEIL_U
#define E_ROUND_I E_CEIL_U
#define E_ROUND_F(M, x) M(nearbyint)(x)
#define E_FRAC_F(M, x) ((x) - M(trunc)(x))
#define E_SQRT_F(M, x) M(sqrt)(x)
#define E_RSQRT_F(M, x) ((T_)1 / M(sqrt)(x))
#define E_SQUARE_U(M, x) TL_HD_WRAP((W_)(x) * (W_)(x))
#define E_SQUARE_I E_SQUARE_U
#define E_SQUARE_F(M, x) ((x) * (x))
#define E_SQUARE_C(M, x) TL_HD_CFN(M, tl_hd_cmul)(x, x)
#define E_EXP2_F(M, x) M(exp2)(x)
#define E_EXPM1_F(M, x) M(expm1)(x)
#define E_LOG_F(M, x) M(log)(x)
#define E_LOG2_F(M, x) M(log2)(x)
#define E_LOG10_F(M, x) M(log10)(x)
#define E_LOG1P_F(M, x) M(log1p)(x)
#define E_SIN_F(M, x) M(sin)(x)
#define E_COS_F(M, x) M(cos)(x)
#define E_TAN_F(M, x) M(tan)(x)
#define E_ASIN_F(M, x) M(asin)(x)
#define E_ACOS_F(M, x) M(acos)(x)
#define E_ATAN_F(M, x) M(atan)(x)
#define E_SINH_F(M, x) M(sinh)(x)
#define E_COSH_F(M, x) M(cosh)(x)
#define E_TANH_F(M, x) M(tanh)(x)
#define E_ASINH_F(M, x) M(asinh)(x)
#define E_ACOSH_F(M, x) M(acosh)(x)
#define E_ATANH_F(M, x) M(atanh)(x)
#define E_SIGMOID_F(M, x) ((T_)1 / ((T_)1 + M(exp)(-(x))))
#define E_RELU_U(M, x) (x)
#define E_RELU_I(M, x) ((x) < 0 ? (T_)0 : (x))
#define E_RELU_F E_RELU_I
#define E_GELU_F(M, x) ((x) * (T_)0.5 * ((T_)1 + M(erf)((x) * (T_)0.70710678118654752440)))
#define E_GELU_TANH_F(M, x) ((T_)0.5 * (x) * ((T_)1 + M(tanh)((T_)0.79788456080286535588 * ((x) + (T_)0.044715 * (x) * (x) * (x)))))
#define E_SILU_F(M, x) ((x) / ((T_)1 + M(exp)(-(x))))
#define E_MISH_F(M, x) ((x) * M(tanh)(M(log1p)(M(exp)(x))))
#define E_ERF_F(M, x) M(erf)(x)
#define E_ERFC_F(M, x) M(erfc)(x)
#define E_LGAMMA_F(M, x) M(lgamma)(x)
#define E_ERFINV_F(M, x) ((T_)tl_hd_erfinv((double)(x)))
#define E_DIGAMMA_F(M, x) M(tl_hd_digamma_)(x)
#define E_FREXP_MANT_F(M, x) M(tl_hd_frexpm_)(x)
#define E_FREXP_EXP_F(M, x) M(tl_hd_frexpe_)(x)
#define E_SINC_F(M, x) ((x) == 0 ? (T_)1 : M(sin)((T_)3.14159265358979323846 * (x)) / ((T_)3.14159265358979323846 * (x)))
#define TL_HD_CPI_TIMES(M, x) TL_HD_CFN(M, tl_hd_cmul)(TL_HD_CMK(M, (W_)3.14159265358979323846, (W_)0), x)
#define E_SINC_C(M, x) \
    ((x).re == 0 && (x).im == 0 ? TL_HD_C1(M) : TL_HD_CFN(M, tl_hd_cdiv)(E_SIN_C(M, TL_HD_CPI_TIMES(M, x)), TL_HD_CPI_TIMES(M, x)))
#define E_ERFCX_F(M, x) ((T_)tl_hd_erfcx((double)(x)))
#define E_NDTRI_F(M, x) ((T_)tl_hd_ndtri((double)(x)))
#define E_LOG_NDTR_F(M, x) ((T_)tl_hd_log_ndtr((double)(x)))
#define E_NDTR_F(M, x) ((T_)tl_hd_ndtr((double)(x)))
#define E_BESSEL_J0_F(M, x) ((T_)tl_hd_bessel_j0((double)(x)))
#define E_BESSEL_J1_F(M, x) ((T_)tl_hd_bessel_j1((double)(x)))
#define E_BESSEL_Y0_F(M, x) ((T_)tl_hd_bessel_y0((double)(x)))
#define E_BESSEL_Y1_F(M, x) ((T_)tl_hd_bessel_y1((double)(x)))
#define E_SPHERICAL_BESSEL_J0_F(M, x) ((T_)tl_hd_spherical_j0((double)(x)))
#define E_AIRY_AI_F(M, x) ((T_)tl_hd_airy_ai((double)(x)))
#define E_I0_F(M, x) ((T_)tl_hd_bessel_i0((double)(x)))
#define E_I0E_F(M, x) ((T_)tl_hd_bessel_i0e((double)(x)))
#define E_I1_F(M, x) ((T_)tl_hd_bessel_i1((double)(x)))
#define E_I1E_F(M, x) ((T_)tl_hd_bessel_i1e((double)(x)))
#define E_MODIFIED_BESSEL_I0_F(M, x) ((T_)tl_hd_bessel_i0((double)(x)))
#define E_MODIFIED_BESSEL_I1_F(M, x) ((T_)tl_hd_bessel_i1((double)(x)))
#define E_MODIFIED_BESSEL_K0_F(M, x) ((T_)tl_hd_bessel_k0((double)(x)))
#define E_MODIFIED_BESSEL_K1_F(M, x) ((T_)tl_hd_bessel_k1((double)(x)))
#define E_SCALED_MODIFIED_BESSEL_K0_F(M, x) ((T_)tl_hd_bessel_k0e((double)(x)))
#define E_SCALED_MODIFIED_BESSEL_K1_F(M, x) ((T_)tl_hd_bessel_k1e((double)(x)))
#define E_ENTR_F(M, x) ((x) != (x) ? (x) : (x) > 0 ? -(x) * M(log)(x) : (x) == 0 ? (T_)0 : -(T_)INFINITY)
#define E_RECIPROCAL_F(M, x) ((T_)1 / (x))
#define E_RECIPROCAL_C(M, x) TL_HD_CFN(M, tl_hd_cdiv)(TL_HD_CMK(M, 1, 0), x)
#define E_DEG2RAD_F(M, x) ((x) * (T_)(TL_HD_PI / 180.0))
#define E_RAD2DEG_F(M, x) ((x) * (T_)(180.0 / TL_HD_PI))
#define E_ANGLE_F(M, x) ((x) != (x) ? (x) : (x) < 0 ? (T_)TL_HD_PI : (T_)0)
#define E_ANGLE_C(M, x) M(atan2)((x).im, (x).re)
#define E_COPY_B(M, x) (x)
#define E_COPY_U E_COPY_B
#define E_COPY_I E_COPY_B
#define E_COPY_F E_COPY_B
#define E_COPY_C E_COPY_B
#define E_CONJ_PHYSICAL_B(M, x) (x)
#define E_CONJ_PHYSICAL_U E_CONJ_PHYSICAL_B
#define E_CONJ_PHYSICAL_I E_CONJ_PHYSICAL_B
#define E_CONJ_PHYSICAL_F E_CONJ_PHYSICAL_B
#define E_CONJ_PHYSICAL_C(M, x) TL_HD_CMK(M, (x).re, -(x).im)
#define E_ISNAN_B(M, x) ((void)(x), 0)
#define E_ISNAN_U E_ISNAN_B
#define E_ISNAN_I E_ISNAN_B
#define E_ISNAN_F(M, x) ((x) != (x))
#define E_ISNAN_C(M, x) ((x).re != (x).re || (x).im != (x).im)
#define E_ISINF_B E_ISNAN_B
#define E_ISINF_U E_ISNAN_B
#define E_ISINF_I E_ISNAN_B
#define E_ISINF_F(M, x) (M(fabs)(x) == TL_HD_INF(T_))
#define E_ISINF_C(M, x) (M(fabs)((x).re) == TL_HD_INF(W_) || M(fabs)((x).im) == TL_HD_INF(W_))
#define E_ISPOSINF_B E_ISNAN_B
#define E_ISPOSINF_U E_ISNAN_B
#define E_ISPOSINF_I E_ISNAN_B
#define E_ISPOSINF_F(M, x) ((x) == TL_HD_INF(T_))
#define E_ISNEGINF_B E_ISNAN_B
#define E_ISNEGINF_U E_ISNAN_B
#define E_ISNEGINF_I E_ISNAN_B
#define E_ISNEGINF_F(M, x) ((x) == -TL_HD_INF(T_))
#define E_ISFINITE_B(M, x) ((void)(x), 1)
#define E_ISFINITE_U E_ISFINITE_B
#define E_ISFINITE_I E_ISFINITE_B
#define E_ISFINITE_F(M, x) (M(fabs)(x) < TL_HD_INF(T_))
#define E_ISFINITE_C(M, x) (M(fabs)((x).re) < TL_HD_INF(W_) && M(fabs)((x).im) < TL_HD_INF(W_))
#define E_ISREAL_B E_ISFINITE_B
#define E_ISREAL_U E_ISFINITE_B
#define E_ISREAL_I E_ISFINITE_B
#define E_ISREAL_F E_ISFINITE_B
#define E_ISREAL_C(M, x) ((x).im == 0)
#define E_SIGNBIT_B E_ISNAN_B
#define E_SIGNBIT_U E_ISNAN_B
#define E_SIGNBIT_I(M, x) ((x) < 0)
#define E_SIGNBIT_F(M, x) (signbit(x) != 0)
#define E_LOGICAL_NOT_B(M, x) ((x) == 0)
#define E_LOGICAL_NOT_U E_LOGICAL_NOT_B
#define E_LOGICAL_NOT_I E_LOGICAL_NOT_B
#define E_LOGICAL_NOT_F E_LOGICAL_NOT_B
#define E_LOGICAL_NOT_C(M, x) ((x).re == 0 && (x).im == 0)
#define E_BITWISE_NOT_B(M, x) ((T_)!(x))
#define E_BITWISE_NOT_U(M, x) ((T_)~(x))
#define E_BITWISE_NOT_I E_BITWISE_NOT_U

#define TL_HD_CNZ(x) ((x).re != 0 || (x).im != 0)
#define TL_HD_BITS ((int64_t)sizeof(T_) * 8)
#define E_ADD_B(M, x, y) ((T_)((x) | (y)))
#define E_ADD_U(M, x, y) TL_HD_WRAP((W_)(x) + (W_)(y))
#define E_ADD_I E_ADD_U
#define E_ADD_F(M, x, y) ((x) + (y))
#define E_ADD_C(M, x, y) TL_HD_CMK(M, (x).re + (y).re, (x).im + (y).im)
#define E_SUB_U(M, x, y) TL_HD_WRAP((W_)(x) - (W_)(y))
#define E_SUB_I E_SUB_U
#define E_SUB_F(M, x, y) ((x) - (y))
#define E_SUB_C(M, x, y) TL_HD_CMK(M, (x).re - (y).re, (x).im - (y).im)
#define E_MUL_B(M, x, y) ((T_)((x) & (y)))
#define E_MUL_U(M, x, y) TL_HD_WRAP((W_)(x) * (W_)(y))
#define E_MUL_I E_MUL_U
#define E_MUL_F(M, x, y) ((x) * (y))
#define E_MUL_C(M, x, y) TL_HD_CFN(M, tl_hd_cmul)(x, y)
#define E_DIV_F(M, x, y) ((x) / (y))
#define E_DIV_C(M, x, y) TL_HD_CFN(M, tl_hd_cdiv)(x, y)
#define E_DIV_TRUNC_U(M, x, y) ((y) == 0 ? (T_)0 : (T_)((x) / (y)))
#define E_DIV_TRUNC_I(M, x, y) ((y) == 0 ? (T_)0 : (y) == -1 ? TL_HD_WRAP((W_)0 - (W_)(x)) : (T_)((x) / (y)))
#define E_DIV_TRUNC_F(M, x, y) M(trunc)((x) / (y))
#define E_DIV_FLOOR_U E_DIV_TRUNC_U
#define E_DIV_FLOOR_I(M, x, y) ((y) == 0 ? (T_)0 : (y) == -1 ? TL_HD_WRAP((W_)0 - (W_)(x)) \
    : (T_)((x) / (y) - ((x) % (y) != 0 && (((x) < 0) != ((y) < 0)))))
#define E_DIV_FLOOR_F(M, x, y) TL_HD_FDIVFLOOR(M, x, y)
#define E_REMAINDER_U(M, x, y) ((y) == 0 ? (T_)0 : (T_)((x) % (y)))
#define E_REMAINDER_I(M, x, y) ((y) == 0 || (y) == -1 ? (T_)0 \
    : (T_)(((x) % (y) != 0 && (((x) % (y) < 0) != ((y) < 0))) ? (x) % (y) + (y) : (x) % (y)))
#define E_REMAINDER_F(M, x, y) TL_HD_FREM(M, x, y)
#define E_FMOD_U E_REMAINDER_U
#define E_FMOD_I(M, x, y) ((y) == 0 || (y) == -1 ? (T_)0 : (T_)((x) % (y)))
#define E_FMOD_F(M, x, y) M(fmod)(x, y)
#define E_POW_U(M, x, y) ((T_)tl_hd_ipow((int64_t)(x), (int64_t)(y)))
#define E_POW_I E_POW_U
#define E_POW_F(M, x, y) M(pow)(x, y)
#define E_POW_C(M, x, y) TL_HD_CFN(M, tl_hd_cpow)(x, y)
#define E_ATAN2_F(M, x, y) M(atan2)(x, y)
#define E_HYPOT_F(M, x, y) M(hypot)(x, y)
#define E_MAXIMUM_B(M, x, y) ((T_)((x) | (y)))
#define E_MAXIMUM_U(M, x, y) ((x) > (y) ? (x) : (y))
#define E_MAXIMUM_I E_MAXIMUM_U
#define E_MAXIMUM_F(M, x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (x) > (y) ? (x) : (y))
#define E_MINIMUM_B(M, x, y) ((T_)((x) & (y)))
#define E_MINIMUM_U(M, x, y) ((x) < (y) ? (x) : (y))
#define E_MINIMUM_I E_MINIMUM_U
#define E_MINIMUM_F(M, x, y) ((x) != (x) ? (x) : (y) != (y) ? (y) : (x) < (y) ? (x) : (y))
#define E_FMAX_B E_MAXIMUM_B
#define E_FMAX_U E_MAXIMUM_U
#define E_FMAX_I E_MAXIMUM_U
#define E_FMAX_F(M, x, y) M(fmax)(x, y)
#define E_FMIN_B E_MINIMUM_B
#define E_FMIN_U E_MINIMUM_U
#define E_FMIN_I E_MINIMUM_U
#define E_FMIN_F(M, x, y) M(fmin)(x, y)
#define E_COPYSIGN_F(M, x, y) M(copysign)(x, y)
#define E_XLOGY_F(M, x, y) ((y) != (y) ? (y) : (x) == 0 ? (T_)0 : (x) * M(log)(y))
#define E_XLOG1PY_F(M, x, y) ((y) != (y) ? (y) : (x) == 0 ? (T_)0 : (x) * M(log1p)(y))
#define E_IGAMMA_F(M, x, y) ((T_)tl_hd_igamma((double)(x), (double)(y), false))
#define E_IGAMMAC_F(M, x, y) ((T_)tl_hd_igamma((double)(x), (double)(y), true))
#define E_LOGADDEXP_F(M, x, y) ((T_)tl_hd_logaddexp((double)(x), (double)(y)))
#define E_LOGADDEXP2_F(M, x, y) ((T_)tl_hd_logaddexp2((double)(x), (double)(y)))
#define E_ZETA_F(M, x, y) ((T_)tl_hd_zeta((double)(x), (double)(y)))
#define E_CHEBYSHEV_POLYNOMIAL_T_F(M, x, y) M(tl_hd_cheb_t_)((x), tl_hd_to_i64((double)(y)))
#define E_CHEBYSHEV_POLYNOMIAL_U_F(M, x, y) M(tl_hd_cheb_u_)((x), tl_hd_to_i64((double)(y)))
#define E_CHEBYSHEV_POLYNOMIAL_V_F(M, x, y) M(tl_hd_cheb_v_)((x), tl_hd_to_i64((double)(y)))
#define E_CHEBYSHEV_POLYNOMIAL_W_F(M, x, y) M(tl_hd_cheb_w_)((x), tl_hd_to_i64((double)(y)))
#define E_SHIFTED_CHEBYSHEV_POLYNOMIAL_T_F(M, x, y) M(tl_hd_scheb_t_)((x), tl_hd_to_i64((double)(y)))
#define E_SHIFTED_CHEBYSHEV_POLYNOMIAL_U_F(M, x, y) M(tl_hd_scheb_u_)((x), tl_hd_to_i64((double)(y)))
#define E_SHIFTED_CHEBYSHEV_POLYNOMIAL_V_F(M, x, y) M(tl_hd_scheb_v_)((x), tl_hd_to_i64((double)(y)))
#define E_SHIFTED_CHEBYSHEV_POLYNOMIAL_W_F(M, x, y) M(tl_hd_scheb_w_)((x), tl_hd_to_i64((double)(y)))
#define E_HERMITE_POLYNOMIAL_H_F(M, x, y) M(tl_hd_hermite_h_)((x), tl_hd_to_i64((double)(y)))
#define E_HERMITE_POLYNOMIAL_HE_F(M, x, y) M(tl_hd_hermite_he_)((x), tl_hd_to_i64((double)(y)))
#define E_LAGUERRE_POLYNOMIAL_L_F(M, x, y) M(tl_hd_laguerre_l_)((x), tl_hd_to_i64((double)(y)))
#define E_LEGENDRE_POLYNOMIAL_P_F(M, x, y) M(tl_hd_legendre_p_)((x), tl_hd_to_i64((double)(y)))
#define E_EQ_B(M, x, y) ((x) == (y))
#define E_EQ_U E_EQ_B
#define E_EQ_I E_EQ_B
#define E_EQ_F E_EQ_B
#define E_EQ_C(M, x, y) ((x).re == (y).re && (x).im == (y).im)
#define E_NE_B(M, x, y) ((x) != (y))
#define E_NE_U E_NE_B
#define E_NE_I E_NE_B
#define E_NE_F E_NE_B
#define E_NE_C(M, x, y) (!E_EQ_C(M, x, y))
#define E_LT_B(M, x, y) ((x) < (y))
#define E_LT_U E_LT_B
#define E_LT_I E_LT_B
#define E_LT_F E_LT_B
#define E_LE_B(M, x, y) ((x) <= (y))
#define E_LE_U E_LE_B
#define E_LE_I E_LE_B
#define E_LE_F E_LE_B
#define E_GT_B(M, x, y) ((x) > (y))
#define E_GT_U E_GT_B
#define E_GT_I E_GT_B
#define E_GT_F E_GT_B
#define E_GE_B(M, x, y) ((x) >= (y))
#define E_GE_U E_GE_B
#define E_GE_I E_GE_B
#define E_GE_F E_GE_B
#define E_LOGICAL_AND_B(M, x, y) ((x) != 0 && (y) != 0)
#define E_LOGICAL_AND_U E_LOGICAL_AND_B
#define E_LOGICAL_AND_I E_LOGICAL_AND_B
#define E_LOGICAL_AND_F E_LOGICAL_AND_B
#define E_LOGICAL_AND_C(M, x, y) (TL_HD_CNZ(x) && TL_HD_CNZ(y))
#define E_LOGICAL_OR_B(M, x, y) ((x) != 0 || (y) != 0)
#define E_LOGICAL_OR_U E_LOGICAL_OR_B
#define E_LOGICAL_OR_I E_LOGICAL_OR_B
#define E_LOGICAL_OR_F E_LOGICAL_OR_B
#define E_LOGICAL_OR_C(M, x, y) (TL_HD_CNZ(x) || TL_HD_CNZ(y))
#define E_LOGICAL_XOR_B(M, x, y) (((x) != 0) != ((y) != 0))
#define E_LOGICAL_XOR_U E_LOGICAL_XOR_B
#define E_LOGICAL_XOR_I E_LOGICAL_XOR_B
#define E_LOGICAL_XOR_F E_LOGICAL_XOR_B
#define E_LOGICAL_XOR_C(M, x, y) (TL_HD_CNZ(x) != TL_HD_CNZ(y))
#define E_BITWISE_AND_B(M, x, y) ((T_)((x) & (y)))
#define E_BITWISE_AND_U E_BITWISE_AND_B
#define E_BITWISE_AND_I E_BITWISE_AND_B
#define E_BITWISE_OR_B(M, x, y) ((T_)((x) | (y)))
#define E_BITWISE_OR_U E_BITWISE_OR_B
#define E_BITWISE_OR_I E_BITWISE_OR_B
#define E_BITWISE_XOR_B(M, x, y) ((T_)((x) ^ (y)))
#define E_BITWISE_XOR_U E_BITWISE_XOR_B
#define E_BITWISE_XOR_I E_BITWISE_XOR_B
#define TL_HD_SHIFT_OUT(y) tl_hd_shift_out((int64_t)(y), TL_HD_BITS)
#define E_LSHIFT_U(M, x, y) (TL_HD_SHIFT_OUT(y) ? (T_)0 : TL_HD_WRAP((W_)(x) << (y)))
#define E_LSHIFT_I E_LSHIFT_U
#define E_RSHIFT_U(M, x, y) (TL_HD_SHIFT_OUT(y) ? (T_)((x) >> (TL_HD_BITS - 1)) : (T_)((x) >> (y)))
#define E_RSHIFT_I E_RSHIFT_U
#define TL_HD_UMAG(x) ((x) < 0 ? (uint64_t)0 - (uint64_t)(x) : (uint64_t)(x))
#define TL_HD_LCM(g, x, y) ((g) == 0 ? (T_)0 : (T_)((W_)(T_)((x) / (T_)(g)) * (W_)(y)))
#define E_GCD_U(M, x, y) ((T_)tl_hd_ugcd(x, y))
#define E_GCD_I(M, x, y) ((T_)tl_hd_ugcd(TL_HD_UMAG(x), TL_HD_UMAG(y)))
#define E_LCM_U(M, x, y) TL_HD_LCM(E_GCD_U(M, x, y), x, y)
#define E_LCM_I(M, x, y) (TL_HD_LCM(E_GCD_I(M, x, y), x, y) < 0 ? (T_)((W_)0 - (W_)TL_HD_LCM(E_GCD_I(M, x, y), x, y)) \
                                                               : TL_HD_LCM(E_GCD_I(M, x, y), x, y))
#define E_HEAVISIDE_B(M, x, y) ((x) == 0 ? (y) : (T_)((x) > 0))
#define E_HEAVISIDE_U E_HEAVISIDE_B
#define E_HEAVISIDE_I E_HEAVISIDE_B
#define E_HEAVISIDE_F E_HEAVISIDE_B
#define E_NEXTAFTER_F(M, x, y) M(nextafter)(x, y)

/* ------------------------------------------------------------ per-dtype functions
 * X(S, ID, NAME, ST, T, W, CAT, LOAD, STORE, RT, RST, RSTORE, RID)
 *   S suffix; ID the core's dtype (TL_<ID>) and NAME its name; ST the stored type, T the
 *   compute type; W the wrap type (complex: the real type); CAT the case set (below);
 *   LOAD/STORE convert ST <-> T; RT, RST, RSTORE, RID: a REAL result's compute type,
 *   stored type, conversion and dtype. */
#define TL_HD_DTYPES(X)                                                                                    \
    X(b8, BOOL, "bool", uint8_t, uint8_t, uint32_t, B, TL_HD_ID, TL_HD_ID, uint8_t, uint8_t, TL_HD_ID, BOOL)  \
    X(u8, UINT8, "uint8", uint8_t, uint8_t, uint32_t, U, TL_HD_ID, TL_HD_ID, uint8_t, uint8_t, TL_HD_ID, UINT8) \
    X(i8, INT8, "int8", int8_t, int8_t, uint32_t, I, TL_HD_ID, TL_HD_ID, int8_t, int8_t, TL_HD_ID, INT8)       \
    X(i16, INT16, "int16", int16_t, int16_t, uint32_t, I, TL_HD_ID, TL_HD_ID, int16_t, int16_t, TL_HD_ID, INT16) \
    X(i32, INT32, "int32", int32_t, int32_t, uint32_t, I, TL_HD_ID, TL_HD_ID, int32_t, int32_t, TL_HD_ID, INT32) \
    X(i64, INT64, "int64", int64_t, int64_t, uint64_t, I, TL_HD_ID, TL_HD_ID, int64_t, int64_t, TL_HD_ID, INT64) \
    X(f16, FLOAT16, "float16", uint16_t, float, float, H, tl_hd_h2f, tl_hd_f2h, float, uint16_t, tl_hd_f2h, FLOAT16) \
    X(bf16, BFLOAT16, "bfloat16", uint16_t, float, float, H, tl_hd_bf2f, tl_hd_f2bf, float, uint16_t, tl_hd_f2bf, BFLOAT16) \
    X(f32, FLOAT32, "float32", float, float, float, F32, TL_HD_ID, TL_HD_ID, float, float, TL_HD_ID, FLOAT32)  \
    X(f64, FLOAT64, "float64", double, double, double, F64, TL_HD_ID, TL_HD_ID, double, double, TL_HD_ID, FLOAT64) \
    X(c64, COMPLEX64, "complex64", tl_hd_c64, tl_hd_c64, float, C64, TL_HD_ID, TL_HD_ID, float, float, TL_HD_ID, FLOAT32) \
    X(c128, COMPLEX128, "complex128", tl_hd_c128, tl_hd_c128, double, C128, TL_HD_ID, TL_HD_ID, double, double, TL_HD_ID, FLOAT64)

/* Result kinds: what an op writes (its OUT in the backend lists). */
enum { TL_HD_OUT_SAME_K = 0, TL_HD_OUT_BOOL_K = 1, TL_HD_OUT_REAL_K = 2 };
static inline TL_HD int tl_hd_unary_kind(int op)
{
    switch (op) {
#define TL_HD_UK(N, OUT, ...) case TL_UOP_##N: return TL_HD_OUT_##OUT##_K;
        TL_BACKEND_UNARY_LIST(TL_HD_UK)
#undef TL_HD_UK
    default: return -1;
    }
}
static inline TL_HD int tl_hd_binary_kind(int op)
{
    switch (op) {
#define TL_HD_BK(N, OUT, ...) case TL_BOP_##N: return TL_HD_OUT_##OUT##_K;
        TL_BACKEND_BINARY_LIST(TL_HD_BK)
#undef TL_HD_BK
    default: return -1;
    }
}

#define TL_HD_CAT2(a, b) TL_HD_CAT2_(a, b)
#define TL_HD_CAT2_(a, b) a##b
#define TL_HD_IF(flag, ...) TL_HD_CAT2(TL_HD_IF_, flag)(__VA_ARGS__)
#define TL_HD_IF_0(...)
#define TL_HD_IF_1(...) __VA_ARGS__
#define TL_HD_SET_SAME(v) r = (v); kind = TL_HD_OUT_SAME_K
#define TL_HD_SET_BOOL(v) rb = (uint8_t)((v) != 0); kind = TL_HD_OUT_BOOL_K
#define TL_HD_SET_REAL(v) rr = (v); kind = TL_HD_OUT_REAL_K

/* Case sets: the flag of the op list that admits a dtype, the formula category, M. */
#define TL_HD_CASE(flag, L, N, OUT, CAT, M, ...) \
    TL_HD_IF(flag, case L##N: TL_HD_SET_##OUT(E_##N##_##CAT(M, __VA_ARGS__)); break;)
#define TL_HD_UC_B(N, OUT, b, u, i, f, h, c) TL_HD_CASE(b, TL_UOP_, N, OUT, B, TL_HD_MD, x)
#define TL_HD_UC_U(N, OUT, b, u, i, f, h, c) TL_HD_CASE(u, TL_UOP_, N, OUT, U, TL_HD_MD, x)
#define TL_HD_UC_I(N, OUT, b, u, i, f, h, c) TL_HD_CASE(i, TL_UOP_, N, OUT, I, TL_HD_MD, x)
#define TL_HD_UC_H(N, OUT, b, u, i, f, h, c) TL_HD_CASE(h, TL_UOP_, N, OUT, F, TL_HD_MF, x)
#define TL_HD_UC_F32(N, OUT, b, u, i, f, h, c) TL_HD_CASE(f, TL_UOP_, N, OUT, F, TL_HD_MF, x)
#define TL_HD_UC_F64(N, OUT, b, u, i, f, h, c) TL_HD_CASE(f, TL_UOP_, N, OUT, F, TL_HD_MD, x)
#define TL_HD_UC_C64(N, OUT, b, u, i, f, h, c) TL_HD_CASE(c, TL_UOP_, N, OUT, C, TL_HD_MF, x)
#define TL_HD_UC_C128(N, OUT, b, u, i, f, h, c) TL_HD_CASE(c, TL_UOP_, N, OUT, C, TL_HD_MD, x)
#define TL_HD_BC_B(N, OUT, b, u, i, f, h, c) TL_HD_CASE(b, TL_BOP_, N, OUT, B, TL_HD_MD, x, y)
#define TL_HD_BC_U(N, OUT, b, u, i, f, h, c) TL_HD_CASE(u, TL_BOP_, N, OUT, U, TL_HD_MD, x, y)
#define TL_HD_BC_I(N, OUT, b, u, i, f, h, c) TL_HD_CASE(i, TL_BOP_, N, OUT, I, TL_HD_MD, x, y)
#define TL_HD_BC_H(N, OUT, b, u, i, f, h, c) TL_HD_CASE(h, TL_BOP_, N, OUT, F, TL_HD_MF, x, y)
#define TL_HD_BC_F32(N, OUT, b, u, i, f, h, c) TL_HD_CASE(f, TL_BOP_, N, OUT, F, TL_HD_MF, x, y)
#define TL_HD_BC_F64(N, OUT, b, u, i, f, h, c) TL_HD_CASE(f, TL_BOP_, N, OUT, F, TL_HD_MD, x, y)
#define TL_HD_BC_C64(N, OUT, b, u, i, f, h, c) TL_HD_CASE(c, TL_BOP_, N, OUT, C, TL_HD_MF, x, y)
#define TL_HD_BC_C128(N, OUT, b, u, i, f, h, c) TL_HD_CASE(c, TL_BOP_, N, OUT, C, TL_HD_MD, x, y)
#define TL_HD_OKC_B(L, N, b, u, i, f, h, c) TL_HD_IF(b, case L##N:)
#define TL_HD_OKC_U(L, N, b, u, i, f, h, c) TL_HD_IF(u, case L##N:)
#define TL_HD_OKC_I(L, N, b, u, i, f, h, c) TL_HD_IF(i, case L##N:)
#define TL_HD_OKC_H(L, N, b, u, i, f, h, c) TL_HD_IF(h, case L##N:)
#define TL_HD_OKC_F32(L, N, b, u, i, f, h, c) TL_HD_IF(f, case L##N:)
#define TL_HD_OKC_F64 TL_HD_OKC_F32
#define TL_HD_OKC_C64(L, N, b, u, i, f, h, c) TL_HD_IF(c, case L##N:)
#define TL_HD_OKC_C128 TL_HD_OKC_C64
#define TL_HD_UOK_B(N, OUT, ...) TL_HD_OKC_B(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_UOK_U(N, OUT, ...) TL_HD_OKC_U(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_UOK_I(N, OUT, ...) TL_HD_OKC_I(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_UOK_H(N, OUT, ...) TL_HD_OKC_H(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_UOK_F32(N, OUT, ...) TL_HD_OKC_F32(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_UOK_F64(N, OUT, ...) TL_HD_OKC_F64(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_UOK_C64(N, OUT, ...) TL_HD_OKC_C64(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_UOK_C128(N, OUT, ...) TL_HD_OKC_C128(TL_UOP_, N, __VA_ARGS__)
#define TL_HD_BOK_B(N, OUT, ...) TL_HD_OKC_B(TL_BOP_, N, __VA_ARGS__)
#define TL_HD_BOK_U(N, OUT, ...) TL_HD_OKC_U(TL_BOP_, N, __VA_ARGS__)
#define TL_HD_BOK_I(N, OUT, ...) TL_HD_OKC_I(TL_BOP_, N, __VA_ARGS__)
#define TL_HD_BOK_H(N, OUT, ...) TL_HD_OKC_H(TL_BOP_, N, __VA_ARGS__)
#define TL_HD_BOK_F32(N, OUT, ...) TL_HD_OKC_F32(TL_BOP_, N, __VA_ARGS__)
#define TL_HD_BOK_F64(N, OUT, ...) TL_HD_OKC_F64(TL_BOP_, N, __VA_ARGS__)
#define TL_HD_BOK_C64(N, OUT, ...) TL_HD_OKC_C64(TL_BOP_, N, __VA_ARGS__)
#define TL_HD_BOK_C128(N, OUT, ...) TL_HD_OKC_C128(TL_BOP_, N, __VA_ARGS__)

/* For each dtype S: tl_hd_unary_ok_S(op) / tl_hd_binary_ok_S(op) (1 when defined), and
 * tl_hd_unary_S(op, out, k, a) / tl_hd_binary_S(op, out, k, a, b), which write element k of
 * out (of the op's result dtype) from one element of each operand. */
#define TL_HD_STORE(ST, STORE, RST, RSTORE)                       \
    if (kind == TL_HD_OUT_SAME_K) ((ST *)out)[k] = STORE(r);      \
    else if (kind == TL_HD_OUT_BOOL_K) ((uint8_t *)out)[k] = rb;  \
    else if (kind == TL_HD_OUT_REAL_K) ((RST *)out)[k] = RSTORE(rr)
#define TL_HD_DEFINE(S, ID, NAME, ST, T, W, CAT, LOAD, STORE, RT, RST, RSTORE, RID)                   \
    static inline TL_HD int tl_hd_unary_ok_##S(int op)                                                \
    {                                                                                                 \
        switch (op) { TL_BACKEND_UNARY_LIST(TL_HD_UOK_##CAT) return 1; default: return 0; }           \
    }                                                                                                 \
    static inline TL_HD int tl_hd_binary_ok_##S(int op)                                               \
    {                                                                                                 \
        switch (op) { TL_BACKEND_BINARY_LIST(TL_HD_BOK_##CAT) return 1; default: return 0; }          \
    }                                                                                                 \
    static inline TL_HD void tl_hd_unary_##S(int op, void *out, int64_t k, ST a)                      \
    {                                                                                                 \
        typedef T T_;                                                                                 \
        typedef W W_;                                                                                 \
        const T_ x = LOAD(a);                                                                         \
        T_ r = x;                                                                                     \
        RT rr = (RT)(W_)0;                                                                            \
        uint8_t rb = 0;                                                                               \
        int kind = -1;                                                                                \
        switch (op) { TL_BACKEND_UNARY_LIST(TL_HD_UC_##CAT) default: break; }                         \
        TL_HD_STORE(ST, STORE, RST, RSTORE);                                                          \
    }                                                                                                 \
    static inline TL_HD void tl_hd_binary_##S(int op, void *out, int64_t k, ST a, ST b)               \
    {                                                                                                 \
        typedef T T_;                                                                                 \
        typedef W W_;                                                                                 \
        const T_ x = LOAD(a), y = LOAD(b);                                                            \
        T_ r = x;                                                                                     \
        RT rr = (RT)(W_)0;                                                                            \
        uint8_t rb = 0;                                                                               \
        int kind = -1;                                                                                \
        switch (op) { TL_BACKEND_BINARY_LIST(TL_HD_BC_##CAT) default: break; }                        \
        TL_HD_STORE(ST, STORE, RST, RSTORE);                                                          \
    }
TL_HD_DTYPES(TL_HD_DEFINE)
#undef TL_HD_DEFINE

/* ------------------------------------------------------------ conversions between dtypes
 * One converter for every (source, destination) pair of the backend dtypes (TL_BDT_*), with
 * the CPU's cast semantics (kernels/cast.c): a source is widened exactly to its natural
 * value (int64 for bool and the integers, double for the floats, a double pair for complex),
 * which is stored with the destination's rule: bool is != 0 (either part for complex);
 * complex -> real takes the real part; float -> integer truncates as x86 does (NaN or out of
 * range: INT32_MIN through int32 for the narrow types, INT64_MIN for int64); float16 and
 * bfloat16 round from float32 (a float64 goes through float32 first, as torch's c10). */
static inline TL_HD int32_t tl_hd_f2i32(double x)
{
    return (x != x || x <= -2147483649.0 || x >= 2147483648.0) ? INT32_MIN : (int32_t)x;
}
static inline TL_HD int64_t tl_hd_f2i64(double x)
{
    return (x != x || x < -9223372036854775808.0 || x >= 9223372036854775808.0) ? INT64_MIN : (int64_t)x;
}
static inline TL_HD int tl_hd_dt_size(int dt)
{
    switch (dt) {
    case TL_BDT_BOOL: case TL_BDT_UINT8: case TL_BDT_INT8: return 1;
    case TL_BDT_INT16: case TL_BDT_FLOAT16: case TL_BDT_BFLOAT16: return 2;
    case TL_BDT_INT32: case TL_BDT_FLOAT32: return 4;
    case TL_BDT_COMPLEX64: case TL_BDT_INT64: case TL_BDT_FLOAT64: return 8;
    default: return 16;
    }
}
/* Stores a natural value: an integer (i), a float (f) or a complex (f, g) per kind k. */
enum { TL_HD_NAT_I, TL_HD_NAT_F, TL_HD_NAT_C };
static inline TL_HD void tl_hd_put(void *dst, int dt, int k, int64_t i, double f, double g)
{
    double re = k == TL_HD_NAT_I ? (double)i : f;  /* not used for integer destinations of an integer */
    float ref = k == TL_HD_NAT_I ? (float)i : (float)f;  /* int64 -> float32 rounds once */
    int32_t n32 = k == TL_HD_NAT_I ? (int32_t)i : tl_hd_f2i32(f);
    switch (dt) {
    case TL_BDT_BOOL: *(uint8_t *)dst = (uint8_t)(k == TL_HD_NAT_I ? i != 0 : k == TL_HD_NAT_F ? f != 0 : (f != 0 || g != 0)); break;
    case TL_BDT_UINT8: *(uint8_t *)dst = (uint8_t)n32; break;
    case TL_BDT_INT8: *(int8_t *)dst = (int8_t)n32; break;
    case TL_BDT_INT16: *(int16_t *)dst = (int16_t)n32; break;
    case TL_BDT_INT32: *(int32_t *)dst = n32; break;
    case TL_BDT_INT64: *(int64_t *)dst = k == TL_HD_NAT_I ? i : tl_hd_f2i64(f); break;
    case TL_BDT_FLOAT16: *(uint16_t *)dst = tl_hd_f2h(ref); break;
    case TL_BDT_BFLOAT16: *(uint16_t *)dst = tl_hd_f2bf(ref); break;
    case TL_BDT_FLOAT32: *(float *)dst = ref; break;
    case TL_BDT_FLOAT64: *(double *)dst = re; break;
    case TL_BDT_COMPLEX64: ((float *)dst)[0] = ref; ((float *)dst)[1] = k == TL_HD_NAT_C ? (float)g : 0.0f; break;
    default: ((double *)dst)[0] = re; ((double *)dst)[1] = k == TL_HD_NAT_C ? g : 0.0; break;
    }
}
static inline TL_HD void tl_hd_convert(void *dst, int ddt, const void *src, int sdt)
{
    if (sdt == ddt) { /* the same bits (a float16 signalling NaN too) */
        memcpy(dst, src, (size_t)tl_hd_dt_size(sdt));
        return;
    }
    switch (sdt) {
    case TL_BDT_BOOL: case TL_BDT_UINT8: tl_hd_put(dst, ddt, TL_HD_NAT_I, *(const uint8_t *)src, 0, 0); break;
    case TL_BDT_INT8: tl_hd_put(dst, ddt, TL_HD_NAT_I, *(const int8_t *)src, 0, 0); break;
    case TL_BDT_INT16: tl_hd_put(dst, ddt, TL_HD_NAT_I, *(const int16_t *)src, 0, 0); break;
    case TL_BDT_INT32: tl_hd_put(dst, ddt, TL_HD_NAT_I, *(const int32_t *)src, 0, 0); break;
    case TL_BDT_INT64: tl_hd_put(dst, ddt, TL_HD_NAT_I, *(const int64_t *)src, 0, 0); break;
    case TL_BDT_FLOAT16: tl_hd_put(dst, ddt, TL_HD_NAT_F, 0, tl_hd_h2f(*(const uint16_t *)src), 0); break;
    case TL_BDT_BFLOAT16: tl_hd_put(dst, ddt, TL_HD_NAT_F, 0, tl_hd_bf2f(*(const uint16_t *)src), 0); break;
    case TL_BDT_FLOAT32: tl_hd_put(dst, ddt, TL_HD_NAT_F, 0, *(const float *)src, 0); break;
    case TL_BDT_FLOAT64: tl_hd_put(dst, ddt, TL_HD_NAT_F, 0, *(const double *)src, 0); break;
    case TL_BDT_COMPLEX64: tl_hd_put(dst, ddt, TL_HD_NAT_C, 0, ((const float *)src)[0], ((const float *)src)[1]); break;
    default: tl_hd_put(dst, ddt, TL_HD_NAT_C, 0, ((const double *)src)[0], ((const double *)src)[1]); break;
    }
}

/* ------------------------------------------------------------ one element of an element-wise call
 * tl_hd_ew_S(op, nin, o, odt, a, adt, b, bdt) for each compute dtype S: loads a (and b) from
 * their dtypes into S, runs the op in S, stores its result into o converted to odt. The CUDA
 * kernel (csrc/cuda/elementwise.cu) and the host runner (backend/hd_check.c) call it per
 * element with the addresses their index calculator found. */
#define TL_HD_DEFINE_EW(S, ID, NAME, ST, T, W, CAT, LOAD, STORE, RT, RST, RSTORE, RID)                   \
    static inline TL_HD void tl_hd_ew_##S(int op, int nin, char *o, int odt, const char *a, int adt,       \
                                         const char *b, int bdt)                                          \
    {                                                                                                    \
        ST x, y;                                                                                          \
        if (nin == 1 && op == TL_UOP_COPY) { /* a copy or cast: one conversion, no formula */            \
            tl_hd_convert(o, odt, a, adt);                                                                \
            return;                                                                                       \
        }                                                                                                 \
        union { ST s; RST r; uint8_t b; double al[2]; } res;                                             \
        memset(&res, 0, sizeof res);                                                                      \
        if (adt == TL_BDT_##ID) x = *(const ST *)a;                                                       \
        else tl_hd_convert(&x, TL_BDT_##ID, a, adt);                                                      \
        if (nin == 1) {                                                                                   \
            tl_hd_unary_##S(op, &res, 0, x);                                                              \
        } else {                                                                                          \
            if (bdt == TL_BDT_##ID) y = *(const ST *)b;                                                   \
            else tl_hd_convert(&y, TL_BDT_##ID, b, bdt);                                                  \
            tl_hd_binary_##S(op, &res, 0, x, y);                                                          \
        }                                                                                                 \
        int kind = nin == 1 ? tl_hd_unary_kind(op) : tl_hd_binary_kind(op);                               \
        int rdt = kind == TL_HD_OUT_BOOL_K ? TL_BDT_BOOL : kind == TL_HD_OUT_REAL_K ? TL_BDT_##RID : TL_BDT_##ID; \
        if (rdt == odt) memcpy(o, &res, rdt == TL_BDT_BOOL ? 1 : rdt == TL_BDT_##ID ? sizeof(ST) : sizeof(RST)); \
        else tl_hd_convert(o, odt, &res, rdt);                                                            \
    }
TL_HD_DTYPES(TL_HD_DEFINE_EW)
#undef TL_HD_DEFINE_EW

#endif

/* vmath.c - vectorized exp, expm1, log, log1p, log2, log10, sin, cos, tanh, sigmoid, erf, atan
 * (see vmath.h).
 *
 * Each op is an inline per-element function on double, written without branches
 * (selects only) so that GCC vectorizes the block loops at -O3; `hp` selects the
 * float64 polynomials (hp = 1) or the shorter ones that suffice for float32 (hp = 0),
 * where the result is rounded to float once (float32 erf and atan; the other float32 ops
 * use the native float kernels vf_* below). Integer conversions go through the
 * 1.5 * 2^52 shift so AVX2 (no double <-> int64 conversion) vectorizes them.
 *
 * Coefficients: exp/expm1 and the float32 sin/cos/log polynomials are near-minimax
 * Chebyshev fits from scripts/fit_vmath.py; the float64 log (Lg1..Lg7), sin (S1..S6) and
 * cos (C1..C6) polynomials and the split constants of ln 2 and pi/2 are fdlibm's
 * published values. Arguments beyond the Cody-Waite range of sin/cos (|x| > TRIG_MAX, inf,
 * NaN) are recomputed with the C library. */
#include "kernels/vmath.h"

#include <math.h>
#include <string.h>

#include "core/simd.h"

/* Selects must become blends: both arms are computed anyway, and FP exception flags are
 * not part of the contract. FMA contraction only tightens the roundings below. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math", "fp-contract=fast")
#endif


#define SHIFT 0x1.8p52 /* x + SHIFT - SHIFT rounds x to an integer; its low bits hold it */
#define LOG2E 1.44269504088896338700
#define LN2_HI 6.93147180369123816490e-01 /* 32 bits: k * LN2_HI is exact for |k| < 2^21 */
#define LN2_LO 1.90821492927058770002e-10
#define TWO_OVER_PI 6.36619772367581382433e-01
#define PIO2_1 1.57079632673412561417e+00 /* pi/2 in 33-bit pieces (fdlibm) */
#define PIO2_2 6.07710050630396597660e-11
#define PIO2_3 2.02226624871116645580e-21
#define PIO2_3T 8.47842766036889956997e-32
#define TRIG_MAX 8.0e5 /* |k| < 2^19: k * PIO2_n exact */
#define VM_BLK 256

static inline uint64_t asu(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline double asd(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* 2^k for an integer-valued double k with -1022 <= k <= 1023. */
static inline double pow2i(double k) { return asd(asu(k + (1023.0 + SHIFT)) << 52); }

/* q(r) = (e^r - 1 - r) / r^2 on |r| <= ln2/2 (scripts/fit_vmath.py). */
static inline double exp_q(double r, int hp)
{
    if (hp)
        return 0.5 + r * (0.16666666666666671 + r * (0.041666666666666671 + r * (0.0083333333333255443 +
               r * (0.0013888888888883327 + r * (0.00019841269876864356 + r * (2.4801587327007187e-05 +
               r * (2.7557252833516911e-06 + r * (2.75572718102198e-07 + r * (2.5106274733573296e-08 +
               r * 2.0915442297780116e-09)))))))));
    return 0.50000000142862233 + r * (0.16666666682534356 + r * (0.041666456809677878 +
           r * (0.0083333100242252919 + r * (0.0013934541928270264 + r * 0.0001989198131397769))));
}

/* x = k ln2 + r, |r| <= ln2/2 (+ rounding); returns k as a double. */
static inline double reduce_ln2(double x, double *rhi, double *rlo)
{
    double k = (x * LOG2E + SHIFT) - SHIFT;
    *rhi = x - k * LN2_HI;
    *rlo = k * LN2_LO;
    return k;
}

static inline double vm_exp(double x, int hp)
{
    double xc = x < -746.0 ? -746.0 : x; /* NaN passes through */
    xc = xc > 710.0 ? 710.0 : xc;
    double rhi, rlo, k = reduce_ln2(xc, &rhi, &rlo);
    double r = rhi - rlo;
    double p = 1.0 + (r + r * r * exp_q(r, hp));
    /* 2^k in two factors so that subnormal results round once and k = 1024 overflows */
    double k1 = (k * 0.5 + SHIFT) - SHIFT;
    return p * pow2i(k1) * pow2i(k - k1);
}

/* q(r) = (e^r - 1 - r) / r^2 on |r| <= ln2/2, degree 9 (scripts/fit_vmath.py: abs. error of r^2 q 1.3e-17) */
static inline double exp_q9(double r)
{
    return 0.5000000000000001 + r * (0.16666666666666669 + r * (0.041666666666624164 + r * (0.008333333333330065 +
           r * (0.0013888888917196719 + r * (0.00019841269863040545 + r * (2.4801521322367984e-05 +
           r * (2.755726848030948e-06 + r * (2.762007588032101e-07 + r * 2.5100375832820886e-08))))))));
}

/* exp for -707 <= x <= 709 (normal results): x = k ln2 + r, r = rhi - rlo kept with its
 * rounding c, e^r = 1 + (r + (r^2 q(r) + c)) with q of degree 9, 2^k added to the exponent
 * field of e^r in [0.7, 1.42] (no clamps, one scale). Other lanes (NaN, +-inf, overflow,
 * subnormal results) are recomputed by vm_exp (VM_FIX_exp). */
static inline double vm_exp_fast(double x)
{
    double kd = x * LOG2E + SHIFT, k = kd - SHIFT;
    double rhi = x - k * LN2_HI, rlo = k * LN2_LO, r = rhi - rlo, c = (rhi - r) - rlo;
    double p = 1.0 + (r + (r * r * exp_q9(r) + c));
    return asd(asu(p) + (asu(kd) << 52));
}
#define VM_EXP_FAST_LO -707.0
#define VM_EXP_FAST_HI 709.0

/* erf(x) = x P(x^2) on |x| <= 1: degree 7 in z = x^2, max abs error of the fit 3.4e-11 */
static const double ERF_P[8] = {1.1283791670615435, -0.37612638468028708, 0.11283782495236845, -0.026865430727670243, 0.0052210318078580228, -0.00084840804055351068, 0.00011265959025606609, -9.6670445714869965e-06};
/* erfc(x) exp(x^2) on 1 <= x <= 4: degree 13, max abs error of the fit 3.1e-10 */
static const double ERF_R[14] = {0.99887063377484497, -1.1199235206709031, 0.9706995838759459, -0.68963171430718972, 0.40706916982759767, -0.19847260984757814, 0.07881070021480592, -0.025034936804523296, 0.0062274494765709211, -0.0011803825364259894, 0.0001640097211221537, -1.5706198942371683e-05, 9.2448711309240362e-07, -2.5171827172035952e-08};

/* erf: the float32 kernel in double, both branches computed and selected (vectorizable):
 * |x| <= 1: x P(x^2); 1 < |x|: 1 - e^(-x^2) R(|x|) with |x| clamped to 4, where erf rounds
 * to 1 in float32 (erfc(4) ~ 1.5e-8 is below half an ulp of 1). The error in double is
 * under 1e-9, so the float result is the correctly rounded one but for rare near-ties.
 * float64 (hp) uses vm_erf64 above. */
/* float64 erf: fdlibm's s_erf.c (published coefficients), its intervals as selects so that the
 * loop vectorizes: |x| < 0.84375: x + x P(z)/Q(z), z = x^2; |x| < 1.25: erx + P(s)/Q(s), s = |x| - 1;
 * |x| < 6: 1 - e^(-x^2 - 0.5625 + R(t)/S(t)) / x, t = 1/x^2, R/S per lane from fdlibm's two sets (|x| below or above 1/0.35); 1 beyond.
 * The three rational functions share one division (each lane needs one of them). */
static inline double vm_erf64(double x)
{
    double ax = fabs(x), z = x * x;
    int small = ax < 0.84375, mid = ax < 1.25;
    /* |x| < 0.84375 */
    double n0 = 1.28379167095512558561e-01 + z * (-3.25042107247001499370e-01 + z * (-2.84817495755985104766e-02 +
                z * (-5.77027029648944159157e-03 + z * -2.37630166566501626084e-05)));
    double d0 = 1.0 + z * (3.97917223959155352819e-01 + z * (6.50222499887672944485e-02 + z * (5.08130628187576562776e-03 +
                z * (1.32494738004321644526e-04 + z * -3.96022827877536812320e-06))));
    /* 0.84375 <= |x| < 1.25 */
    double s = ax - 1.0;
    double n1 = -2.36211856075265944077e-03 + s * (4.14856118683748331666e-01 + s * (-3.72207876035701323847e-01 +
                s * (3.18346619901161753674e-01 + s * (-1.10894694282396677476e-01 + s * (3.54783043256182359371e-02 +
                s * -2.16637559486879084300e-03)))));
    double d1 = 1.0 + s * (1.06420880400844228286e-01 + s * (5.40397917702171048937e-01 + s * (7.18286544141962662868e-02 +
                s * (1.26171219808761642112e-01 + s * (1.36370839120290507362e-02 + s * 1.19844998467991074170e-02)))));
    /* 1.25 <= |x| < 6 (clamped into it), coefficients chosen per lane */
    double xl = ax < 1.25 ? 1.25 : ax > 6.0 ? 6.0 : ax;
    double t = 1.0 / (xl * xl), rxl = xl * t; /* 1/x^2, 1/x */
    int a = xl < 1.0 / 0.35;
#define ERF_C(ca, cb) (a ? (ca) : (cb))
    double n2 = ERF_C(-9.86494403484714822705e-03, -9.86494292470009928597e-03) + t * (ERF_C(-6.93858572707181764372e-01, -7.99283237680523006574e-01) +
                t * (ERF_C(-1.05586262253232909814e+01, -1.77579549177547519889e+01) + t * (ERF_C(-6.23753324503260060396e+01, -1.60636384855821916062e+02) +
                t * (ERF_C(-1.62396669462573470355e+02, -6.37566443368389627722e+02) + t * (ERF_C(-1.84605092906711035994e+02, -1.02509513161107724954e+03) +
                t * (ERF_C(-8.12874355063065934246e+01, -4.83519191608651397019e+02) + t * ERF_C(-9.81432934416914548592e+00, 0.0)))))));
    double d2 = 1.0 + t * (ERF_C(1.96512716674392571292e+01, 3.03380607434824582924e+01) + t * (ERF_C(1.37657754143519042600e+02, 3.25792512996573918826e+02) +
                t * (ERF_C(4.34565877475229228821e+02, 1.53672958608443695994e+03) + t * (ERF_C(6.45387271733267880336e+02, 3.19985821950859553908e+03) +
                t * (ERF_C(4.29008140027567833386e+02, 2.55305040643316442583e+03) + t * (ERF_C(1.08635005541779435134e+02, 4.74528541206955367215e+02) +
                t * (ERF_C(6.57024977031928170135e+00, -2.24409524465858183362e+01) + t * ERF_C(-6.04244152148580987438e-02, 0.0))))))));
#undef ERF_C
    double num = small ? n0 : mid ? n1 : n2, den = small ? d0 : mid ? d1 : d2;
    double q = num / den;
    /* fdlibm splits e^(-x^2) in two to keep erfc accurate; erf = 1 - erfc needs erfc only to
     * ~2^-49 relative (erfc(x)/x <= 0.077 here), which one exponential of the rounded sum gives */
    double r = vm_exp(fma(-xl, xl, q - 0.5625), 1);
    double y = 1.0 - r * rxl;
    y = mid ? 8.45062911510467529297e-01 + q : y; /* erx: erf(1) rounded to float */
    y = ax >= 6.0 ? 1.0 : y;
    y = copysign(y, x);
    y = small ? fma(x, q, x) : y; /* one rounding: also right for subnormal x */
    return x != x ? x : y;
}

static inline double vm_erf(double x, int hp)
{
    if (hp) return vm_erf64(x);
    double ax = fabs(x), z = ax * ax;
    double p = ERF_P[7];
    for (int i = 6; i >= 0; i--) p = p * z + ERF_P[i];
    double xc = ax < 1.0 ? 1.0 : ax > 4.0 ? 4.0 : ax;
    double r = ERF_R[13];
    for (int i = 12; i >= 0; i--) r = r * xc + ERF_R[i];
    double big = 1.0 - vm_exp(-xc * xc, 0) * r;
    double v = ax <= 1.0 ? ax * p : big;
    v = copysign(v, x);
    return x != x ? x : v;
}

/* expm1(x) as hi (returned) + *lo, |*lo| <= ulp(hi)/2 (for tanh's correction step). */
static inline double expm1_dd(double x, int hp, double *lo)
{
    double xc = x < -40.0 ? -40.0 : x;
    xc = xc > 709.8 ? 709.8 : xc;
    double rhi, rlo, k = reduce_ln2(xc, &rhi, &rlo);
    double r = rhi - rlo, c = (rhi - r) - rlo; /* r + c = rhi - rlo */
    double pl = r * r * exp_q(r, hp);          /* expm1(r) = r + pl */
    /* expm1(x) = 2 * (h r + (h - 1/2) + h (pl + c)), h = 2^(k-1); the first two terms summed exactly */
    double h = pow2i(k - 1.0);
    double a = h - 0.5, b = h * r, s = a + b, e = b - (s - a);
    double cc = e + h * (pl + c), hi = s + cc;
    *lo = 2.0 * (cc - (hi - s));
    hi = 2.0 * hi;
    hi = x > 709.782712893384 ? INFINITY : hi;
    return fabs(x) < 0x1p-54 ? x : hi; /* signed zeros, subnormals */
}

static inline double vm_expm1(double x, int hp)
{
    double lo;
    return expm1_dd(x, hp, &lo);
}

/* fdlibm's reduction for x > 0: x = 2^k m, m in [sqrt(2)/2, sqrt(2)), f = m - 1, and
 * log m = f - hfsq + sr with hfsq = f^2/2 and sr = s (hfsq + R(s^2)), s = f / (2 + f). */
typedef struct { double k, f, hfsq, sr; } vm_logred;

static inline vm_logred log_reduce(double x, int hp)
{
    int sub = x < 0x1p-1022;
    double xs = sub ? x * 0x1p54 : x;
    uint64_t ix = asu(xs) + (0x3ff0000000000000ULL - 0x3fe6a09e00000000ULL);
    uint64_t kb = ix >> 52;
    double k = asd(0x4330000000000000ULL | kb) - (0x1p52 + 1023.0) - (sub ? 54.0 : 0.0);
    double f = asd((ix & 0x000fffffffffffffULL) + 0x3fe6a09e00000000ULL) - 1.0;
    double hfsq = 0.5 * f * f, s = f / (2.0 + f), z = s * s, R;
    if (hp) {
        double w = z * z;
        double t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
        double t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01 +
                    w * 1.479819860511658591e-01)));
        R = t2 + t1;
    } else {
        R = z * (0.66666666549733489 + z * (0.40000125715747287 + z * (0.28550383348329267 + z * 0.23342310043010661)));
    }
    return (vm_logred){k, f, hfsq, s * (hfsq + R)};
}

/* log(x) + c for x > 0 (c a small correction). */
static inline double log_core(double x, double c, int hp)
{
    vm_logred r = log_reduce(x, hp);
    return r.k * LN2_HI - ((r.hfsq - (r.sr + (r.k * LN2_LO + c))) - r.f);
}

static inline double log_special(double x, double y)
{
    y = x < 0.0 ? NAN : y;
    y = x == 0.0 ? -INFINITY : y;
    y = x == INFINITY ? x : y;
    return x != x ? x : y;
}

static inline double vm_log(double x, int hp) { return log_special(x, log_core(x, 0.0, hp)); }

/* log for normal x > 0 (the float64 fast path): log_reduce without the subnormal scaling, and
 * log1p's correction c; other lanes (0, negative, subnormal, inf, NaN) are recomputed by vm_log
 * (VM_FIX_log). */
static inline double vm_log_lean(double x, double c)
{
    uint64_t ix = asu(x) + (0x3ff0000000000000ULL - 0x3fe6a09e00000000ULL);
    double k = asd(0x4330000000000000ULL | (ix >> 52)) - (0x1p52 + 1023.0);
    double f = asd((ix & 0x000fffffffffffffULL) + 0x3fe6a09e00000000ULL) - 1.0;
    double hfsq = 0.5 * f * f, s = f / (2.0 + f), z = s * s, w = z * z;
    double t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
    double t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01 +
                w * 1.479819860511658591e-01)));
    double sr = s * (hfsq + (t2 + t1));
    return k * LN2_HI - ((hfsq - (sr + (k * LN2_LO + c))) - f);
}
static inline double vm_log_fast(double x) { return vm_log_lean(x, 0.0); }
#define VM_LOG_FAST_LO 0x1p-1022
#define VM_LOG_FAST_HI 0x1.fffffffffffffp1023

/* log1p for -1 < x <= 2^1000 (fast path): u = 1 + x rounded, log1p x = log u + (x - (u - 1)) / u
 * with the small correction divided by u = 2^k (1 + f) through 2^-k (1 - f + f^2) (as
 * vf_log1p_fast); |x| < 2^-54 returns x. Other lanes: vm_log1p (VM_FIX_log1p). */
static inline double vm_log1p_fast(double x)
{
    double u = 1.0 + x, c = x - (u - 1.0);
    uint64_t ix = asu(u) + (0x3ff0000000000000ULL - 0x3fe6a09e00000000ULL);
    double f = asd((ix & 0x000fffffffffffffULL) + 0x3fe6a09e00000000ULL) - 1.0;
    double inv = asd(0x7fe0000000000000ULL - (ix & 0xfff0000000000000ULL)) * (1.0 - f + f * f); /* 2^-k / (1 + f), roughly */
    double y = vm_log_lean(u, c * inv);
    return fabs(x) < 0x1p-54 ? x : y;
}
#define VM_LOG1P_FAST_LO -0x1.fffffffffffffp-1
#define VM_LOG1P_FAST_HI 0x1p1000

/* log m = hi + lo with hi's low 32 bits cleared, so that hi times a 33-bit constant is exact. */
static inline double log_hi_lo(vm_logred r, double *lo)
{
    double hi = asd(asu(r.f - r.hfsq) & 0xffffffff00000000ULL);
    *lo = (r.f - hi) - r.hfsq + r.sr;
    return hi;
}

#define IVLN2_HI 1.44269504072144627571e+00 /* 1/ln2 in 33 + 53 bits */
#define IVLN2_LO 1.67517131648865118353e-10
#define IVLN10_HI 4.34294481878168880939e-01 /* 1/ln10 */
#define IVLN10_LO 2.50829467116452752298e-11
#define LOG10_2_HI 3.01029995663611771306e-01 /* log10(2): k * LOG10_2_HI exact */
#define LOG10_2_LO 3.69423907715893078616e-13

/* log2 x = k + log m / ln2 and log10 x = k log10(2) + log m / ln10, the leading products
 * exact and the large terms added last (float64 only: float32 has vf_log2/vf_log10). */
static inline double vm_log2(double x, int hp)
{
    vm_logred r = log_reduce(x, 1);
    double lo, hi = log_hi_lo(r, &lo);
    double vhi = hi * IVLN2_HI, vlo = (lo + hi) * IVLN2_LO + lo * IVLN2_HI;
    double w = r.k + vhi; /* |k| >= 1 > |vhi| unless k = 0 */
    vlo += (r.k - w) + vhi;
    return log_special(x, vlo + w);
}

static inline double vm_log10(double x, int hp)
{
    vm_logred r = log_reduce(x, 1);
    double lo, hi = log_hi_lo(r, &lo);
    double vhi = hi * IVLN10_HI, y = r.k * LOG10_2_HI;
    double vlo = r.k * LOG10_2_LO + ((lo + hi) * IVLN10_LO + lo * IVLN10_HI);
    double w = y + vhi; /* |y| >= 0.301 > |vhi| unless k = 0 */
    vlo += (y - w) + vhi;
    return log_special(x, vlo + w);
}

/* atan: fdlibm's reduction to |t| <= 7/16 around 0, 1/2, 1, 3/2 or infinity (selects and one
 * division), atan(t) = t - t z S(z), z = t^2, with fdlibm's published coefficients aT[0..10];
 * then atan(c) + atan(t) in two parts. float32 runs it in double and rounds once. */
static inline double vm_atan(double x, int hp)
{
    double ax = fabs(x), num = ax, den = 1.0, hi = 0.0, lo = 0.0; /* sequential selects: blends */
    num = ax >= 0.4375 ? 2.0 * ax - 1.0 : num;
    den = ax >= 0.4375 ? 2.0 + ax : den;
    hi = ax >= 0.4375 ? 4.63647609000806093515e-01 : hi; /* atan(1/2) */
    lo = ax >= 0.4375 ? 2.26987774529616870924e-17 : lo;
    num = ax >= 0.6875 ? ax - 1.0 : num;
    den = ax >= 0.6875 ? ax + 1.0 : den;
    hi = ax >= 0.6875 ? 7.85398163397448278999e-01 : hi; /* atan(1) */
    lo = ax >= 0.6875 ? 3.06161699786838301793e-17 : lo;
    num = ax >= 1.1875 ? ax - 1.5 : num;
    den = ax >= 1.1875 ? 1.0 + 1.5 * ax : den;
    hi = ax >= 1.1875 ? 9.82793723247329054082e-01 : hi; /* atan(3/2) */
    lo = ax >= 1.1875 ? 1.39033110312309984516e-17 : lo;
    num = ax >= 2.4375 ? -1.0 : num;
    den = ax >= 2.4375 ? ax : den;
    hi = ax >= 2.4375 ? 1.57079632679489655800e+00 : hi; /* pi/2 */
    lo = ax >= 2.4375 ? 6.12323399573676603587e-17 : lo;
    double t = num / den, z = t * t, w = z * z;
    double s1 = z * (3.33333333333329318027e-01 + w * (1.42857142725034663711e-01 + w * (9.09088713343650656196e-02 +
                w * (6.66107313738753120669e-02 + w * (4.97687799461593236017e-02 + w * 1.62858201153657823623e-02)))));
    double s2 = w * (-1.99999999998764832476e-01 + w * (-1.11111104054623557880e-01 + w * (-7.69187620504482999495e-02 +
                w * (-5.83357013379057348645e-02 + w * -3.65315727442169155270e-02))));
    double r = hi - ((t * (s1 + s2) - lo) - t);
    return x != x ? x : copysign(r, x);
}

static inline double vm_log1p(double x, int hp)
{
    double u = 1.0 + x;
    double c = (x - (u - 1.0)) / u; /* log1p(x) = log(u) + (x - (u - 1)) / u */
    double y = log_special(u, log_core(u, c, hp));
    return fabs(x) < 0x1p-54 ? x : y;
}

/* sin (cosine = 0) or cos (cosine = 1) for |x| <= TRIG_MAX; other lanes are fixed by the caller. */
static inline double vm_sincos(double x, int hp, int cosine)
{
    double kd = x * TWO_OVER_PI + SHIFT, k = kd - SHIFT;
    uint64_t n = asu(kd) + (uint64_t)cosine;
    /* y0 + y1 = x - k pi/2 with pi/2 in four pieces: the first two products are exact and
     * their difference is summed exactly (TwoSum); the small tail is added last. */
    double r1 = x - k * PIO2_1, w2 = k * PIO2_2;
    double r2 = r1 - w2, bb = r2 - r1, e2 = (r1 - (r2 - bb)) + (-w2 - bb);
    double tail = (e2 - k * PIO2_3) - k * PIO2_3T;
    double y0 = r2 + tail, y1 = (r2 - y0) + tail;
    double z = y0 * y0, sn, cs;
    if (hp) {
        double v = z * y0;
        double rs = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04 + z * (2.75573137070700676789e-06 +
                    z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)));
        sn = y0 - ((z * (0.5 * y1 - v * rs) - y1) - v * -1.66666666666666324348e-01);
        double zz = z * z;
        double rc = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * 2.48015872894767294178e-05)) +
                    zz * zz * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11));
        double hz = 0.5 * z, wc = 1.0 - hz;
        cs = wc + (((1.0 - wc) - hz) + (z * rc - y0 * y1));
    } else {
        sn = y0 + y0 * z * (-0.16666666663622831 + z * (0.0083333317852176958 + z * (-0.00019840038872556747 +
             z * 2.7243781409461231e-06)));
        cs = 1.0 - 0.5 * z + z * z * (0.04166666666412721 + z * (-0.001388888759732781 + z * (2.4800560429914505e-05 +
             z * -2.7295830827614617e-07)));
    }
    double y = (n & 1) ? cs : sn;
    return asd(asu(y) ^ ((n & 2) << 62));
}

static inline double vm_sin(double x, int hp)
{
    double y = vm_sincos(x, hp, 0);
    return x == 0.0 ? x : y; /* sin(-0) = -0 */
}
static inline double vm_cos(double x, int hp) { return vm_sincos(x, hp, 1); }

/* fdlibm's tanh: 1 - 2/(expm1(2|x|) + 2) for |x| >= 1, -t/(t + 2) with t = expm1(-2|x|) below;
 * there t is kept as hi + lo and the quotient gets one Newton correction with an exact
 * (fma) residual, which keeps float64 within 1 ULP. */
static inline double vm_tanh(double x, int hp)
{
    double ax = fabs(x);
    int big = ax >= 1.0;
    double tl, t = expm1_dd(big ? 2.0 * ax : -2.0 * ax, hp, &tl);
    double zb = 1.0 - 2.0 / (t + 2.0);
    double d = t + 2.0, dl = (t - (d - 2.0)) + tl, inv = 1.0 / d;
    double q = -t * inv;
    double zs = q + (fma(-q, d, -t) - tl - q * dl) * inv; /* exact residual: explicit fma, also on non-FMA clones */
    double z = big ? zb : zs;
    z = ax < 0x1p-28 ? ax : z;
    return copysign(z, x);
}

/* tanh for |x| <= 19 (the float64 fast path; beyond, tanh rounds to +-1 and vm_tanh takes the
 * lanes with NaN and inf, VM_FIX_tanh): vm_tanh without expm1_dd's clamps and special cases
 * (|2x| <= 38), and one division shared by both branches (1 - 2/(t + 2) as 1 - 2 inv). */
static inline double vm_tanh_fast(double x)
{
    double ax = fabs(x);
    int big = ax >= 1.0;
    double y = big ? 2.0 * ax : -2.0 * ax;
    double rhi, rlo, k = reduce_ln2(y, &rhi, &rlo);
    double r = rhi - rlo, c = (rhi - r) - rlo;
    double pl = r * r * exp_q9(r);
    double h = pow2i(k - 1.0);
    double a = h - 0.5, b = h * r, s = a + b, e = b - (s - a);
    double cc = e + h * (pl + c), thh = s + cc;
    double tl = 2.0 * (cc - (thh - s)), t = 2.0 * thh; /* expm1(y) = t + tl */
    double d = t + 2.0, dl = (t - (d - 2.0)) + tl, inv = 1.0 / d;
    double q = -t * inv;
    double zs = q + (fma(-q, d, -t) - tl - q * dl) * inv;
    double z = big ? 1.0 - 2.0 * inv : zs;
    z = ax < 0x1p-28 ? ax : z;
    return copysign(z, x);
}
#define VM_TANH_FAST_LIM 19.0

/* For float32 torch (and NumPy's 1/(1+exp(-x))) give 0 once exp(-x) overflows float; so do we. */
static inline double vm_sigmoid(double x, int hp)
{
    double e = vm_exp(-x, hp), y = 1.0 / (1.0 + e);
    return !hp && e >= 0x1.ffffffp127 ? 0.0 : y;
}

/* ---- native float32 kernels: float arithmetic, 8 lanes per AVX2 register ----
 * Each result is a float hi + lo pair (error-free sums, FMA residuals) rounded once at
 * the end, which keeps every op within about 0.6-0.9 ULP (exact bounds: tests/test_vmath.py).
 * Coefficients from scripts/fit_vmath.py (fits_f32). fmaf is a single instruction in the
 * AVX2 / AVX-512 clones (a libm call, still exact, in the baseline one). */
#define SHIFTF 0x1.8p23f /* x + SHIFTF - SHIFTF rounds |x| < 2^22 to an integer */
#define LOG2EF 1.44269502f
#define LN2F_HI 0x1.62e4p-1f /* 15 bits: k * LN2F_HI exact for |k| < 2^9 */
#define LN2F_LO 1.42860677e-06f
#define TWO_OVER_PIF 0.636619747f
#define PIO2F_1 1.57079637f /* pi/2 = PIO2F_1 + PIO2F_2 + PIO2F_3 (+ ~2^-80) */
#define PIO2F_2 -4.37113883e-08f
#define PIO2F_3 -1.71512451e-15f
#define TRIGF_MAX 1.0e5f /* |k| < 2^16: x - k PIO2F_1 exact, k off by one only at |r| < 0.7914 */

static inline uint32_t asuf(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float asf(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* An integer-valued float k, |k| < 2^22, as a two's complement bit pattern, read from the
 * mantissa of k + SHIFTF: no float-to-int conversion, which would be undefined behaviour for
 * the inf or NaN that lanes whose result is discarded may hold (those give garbage bits). */
static inline uint32_t lane_int(float k) { return asuf(k + SHIFTF) - asuf(SHIFTF); }

/* 2^k for an integer-valued float k with -126 <= k <= 127. */
static inline float pow2f(float k) { return asf((lane_int(k) + 127u) << 23); }

/* x = k ln2 + r, e^r - 1 = *thi + *tlo (|*tlo| <= ulp(*thi)/2 + tiny); returns k. */
/* a + b = *s + *e exactly (TwoSum, no ordering needed). */
static inline void two_sum(float a, float b, float *s, float *e)
{
    float t = a + b, bv = t - a;
    *s = t;
    *e = (a - (t - bv)) + (b - bv);
}

/* e^r = 1 + r + r^2 q(r) on |r| <= ln2/2, q of degree 4 (scripts/fit_vmath.py, rel. error 2^-26.5). */
static inline float vf_expq(float r)
{
    return 0.5f + r * (0.166665733f + r * (0.0416665487f + r * (0.00836377405f + r * 0.00139269268f)));
}

/* y = k ln2 + r (two FMAs) for |y| <= 88; returns k. */
static inline float vf_reduce_ln2(float y, float *r)
{
    float k = (y * LOG2EF + SHIFTF) - SHIFTF;
    *r = fmaf(-k, LN2F_LO, fmaf(-k, LN2F_HI, y));
    return k;
}

static inline float vf_exp_core(float x, float *thi, float *tlo)
{
    float k = (x * LOG2EF + SHIFTF) - SHIFTF;
    float rh = x - k * LN2F_HI, kl = k * LN2F_LO; /* rh exact */
    float r = rh - kl, rl = (rh - r) - kl;
    /* e^r - 1 = r + r^2/2 + r^3 q(r): r^2 = r2 + r2l exactly, the first two terms summed exactly */
    float q = 0.166666672f + r * (0.0416664556f + r * (0.00833331048f + r * (0.00139345415f + r * 0.000198919806f)));
    float r2 = r * r, r2l = fmaf(r, r, -r2), h2 = 0.5f * r2;
    float t1 = r + h2, e1 = (r - t1) + h2; /* |r| >= r^2/2 */
    float p = ((e1 + rl) + 0.5f * r2l) + r * r2 * q;
    float t = t1 + p;
    *thi = t;
    *tlo = (t1 - t) + p;
    return k;
}

static inline float vf_exp(float x)
{
    /* no input clamp (a select there makes GCC duplicate the computation for the bound):
     * lanes outside [-104, 88.72] compute garbage (no traps) and are overwritten */
    float th, tl, k = vf_exp_core(x, &th, &tl);
    float s = 1.0f + th, e = (1.0f - s) + th; /* exact: |th| < 1 */
    float p = s + (e + tl);
    /* 2^k in two factors: subnormal results round once, k = 128 overflows */
    float k1 = (k * 0.5f + SHIFTF) - SHIFTF;
    float y = p * pow2f(k1) * pow2f(k - k1);
    y = x > 88.7228394f ? INFINITY : y;
    return x < -104.0f ? 0.0f : y; /* NaN stays NaN */
}

/* exp for -86.5 <= x <= 88 (normal results, k in [-125, 127]): r = x - k ln2 with its
 * rounding error kept, 1 + r summed exactly, 2^k added to the exponent field. About half
 * the operations of vf_exp; other lanes are recomputed by vf_exp (VM_FIX_exp). */
static inline float vf_exp_fast(float x)
{
    float k = (x * LOG2EF + SHIFTF) - SHIFTF;
    float rh = x - k * LN2F_HI, r = rh - k * LN2F_LO, rl = (rh - r) - k * LN2F_LO;
    float q = 0.5f + r * (0.166666672f + r * (0.0416664556f + r * (0.00833331048f + r * (0.00139345415f +
              r * 0.000198919806f))));
    float s = 1.0f + r, e = (1.0f - s) + r; /* exact: |r| < 1 */
    float p = s + (e + (rl + r * r * q));
    return asf(asuf(p) + (lane_int(k) << 23));
}
#define VF_EXP_FAST_LO -86.5f
#define VF_EXP_FAST_HI 88.0f

/* expm1(x) = hi (returned) + *lo for -40 <= x <= 88.7 (garbage outside: callers select). With h = 2^(k-1),
 * expm1(x) = 2 ((h - 1/2) + h t), t = e^r - 1, the sum kept exact as hi + lo. */
static inline float vf_expm1_dd(float x, float *lo)
{
    float th, tl, k = vf_exp_core(x, &th, &tl);
    float h = pow2f(k - 1.0f);
    float a0, al;
    two_sum(h, -0.5f, &a0, &al);                /* al = 0 unless k < -23 or k > 25 */
    float b = h * th, s = a0 + b;               /* |a0| >= |b| unless a0 = 0 */
    float e = b - (s - a0);
    float c = (e + al) + h * tl, hi = s + c;
    *lo = 2.0f * (c - (hi - s));
    return 2.0f * hi;
}

static inline float vf_expm1(float x)
{
    float lo, y = vf_expm1_dd(x, &lo);
    y = x > 88.7228394f ? INFINITY : y;
    y = x < -40.0f ? -1.0f : y;
    return !(fabsf(x) >= 0x1p-25f) ? x : y; /* signed zeros, subnormals, NaN */
}

/* expm1 for -17 <= x <= 16.5 (k in [-25, 24]): x = k ln2 + r (two FMAs), e^r - 1 =
 * p = r + r^2 q(r), expm1 x = p 2^k + (2^k - 1) in one FMA (2^k - 1 exact for these k).
 * No hi + lo parts: measured peak 1.6 ULP (k = 1, r < 0). Lanes with |x| < 2^-25 (signed
 * zeros, subnormals) return x; the other lanes are recomputed by vf_expm1 (VM_FIX_expm1). */
static inline float vf_expm1_fast(float x)
{
    float r, k = vf_reduce_ln2(x, &r);
    float p = r + r * r * vf_expq(r);
    float t = asf((lane_int(k) + 127u) << 23);
    float y = fmaf(p, t, t - 1.0f);
    return fabsf(x) < 0x1p-25f ? x : y;
}
#define VF_EXPM1_FAST_LO -17.0f
#define VF_EXPM1_FAST_HI 16.5f

/* n / d with n = nh + nl, d = dh + dl: one division, one FMA residual correction. */
static inline float div_dd(float nh, float nl, float dh, float dl)
{
    float inv = 1.0f / dh, q = nh * inv;
    float rho = (fmaf(-q, dh, nh) + nl) - q * dl;
    return q + rho * inv;
}

/* tanh (lean): tanh |x| = -t / (t + 2), t = expm1(-2|x|) = p 2^k + (2^k - 1) as in
 * vf_expm1_fast (|x| clamped to 10, where tanh rounds to 1), one division; no polynomial
 * branch for small |x|, where t is accurate relative to itself. Measured peak 2.01 ULP (2.08
 * without hardware FMA; |x| near 0.125, where p's, 2 + p's and the quotient's roundings add
 * up); the two-branch kernel it replaced (an odd polynomial below 0.875, 1 - 2/(1 + e^2|x|)
 * above) reached 1.05 at 1.4x the time. NaN stays NaN. */
static inline float vf_tanh_lean(float x)
{
    float ax = fabsf(x), y = ax < 10.0f ? -2.0f * ax : -20.0f;
    float r, k = vf_reduce_ln2(y, &r);
    float p = r + r * r * vf_expq(r);
    float sc = asf((lane_int(k) + 127u) << 23);
    /* -t = 1 - 2^k (1 + p) and t + 2 = 1 + 2^k (1 + p), each rounded once (1 -+ 2^k exact for k >= -24) */
    float z = fmaf(-p, sc, 1.0f - sc) / fmaf(p, sc, 1.0f + sc);
    z = ax != ax ? x : z;
    return copysignf(z, x);
}

/* sigmoid(x) = 1 / (2 + t), t = expm1(-x); 0 once e^-x overflows float, as torch. */
static inline float vf_sigmoid(float x)
{
    float tl, th = vf_expm1_dd(-x, &tl);
    float dh, dl;
    two_sum(th, 2.0f, &dh, &dl);
    float y = div_dd(1.0f, 0.0f, dh, dl + tl);
    y = x > 40.0f ? 1.0f : y;
    y = x < -88.7228394f ? 0.0f : y;
    return x != x ? x : y;
}

#define VF_SIGMOID_FAST_LIM 86.0f

/* sigmoid for |x| <= 86 (lean): e^-x = 2^k (1 + r + r^2 q(r)) with the exponent added to the
 * field (as vf_exp_fast), then one plain division 1 / (1 + e^-x), as torch and NumPy's
 * 1 / (1 + exp(-x)). Other lanes: vf_sigmoid (VM_FIX_sigmoid). */
static inline float vf_sigmoid_lean(float x)
{
    float r, k = vf_reduce_ln2(-x, &r);
    float e = asf(asuf(1.0f + (r + r * r * vf_expq(r))) + (lane_int(k) << 23));
    return 1.0f / (1.0f + e);
}

/* log x for x > 0: x = 2^k m, m in [sqrt(2)/2, sqrt(2)), f = m - 1 (exact),
 * log x = k ln2 + f - f^2/2 + f^3 P(f), the leading sums kept exact. */
typedef struct { float k, b, eb, t; } vf_logred; /* log x = k ln2 + b + eb + t, |eb + t| << |b| */

static inline vf_logred vf_log_reduce(float x)
{
    int sub = x < 0x1p-126f;
    float xs = sub ? x * 0x1p23f : x;
    uint32_t ix = asuf(xs) - 0x3f3504f3u;
    int32_t ki = (int32_t)ix >> 23;
    float f = asf(asuf(xs) - ((uint32_t)ki << 23)) - 1.0f;
    float k = (float)(ki - (-(int32_t)sub & 23));
    float f2 = f * f, f2l = fmaf(f, f, -f2), hf = 0.5f * f2;
    float b = f - hf, eb = (f - b) - hf;        /* |f| >= |hf| */
    float P = 0.333333313f + f * (-0.24999997f + f * (0.200007305f + f * (-0.166678503f + f * (0.142485514f +
              f * (-0.124240376f + f * (0.116890714f + f * (-0.114945464f + f * 0.0698070228f)))))));
    return (vf_logred){k, b, eb, f * f2 * P - 0.5f * f2l};
}

static inline float vf_log_core(float x)
{
    vf_logred r = vf_log_reduce(x);
    float a = r.k * LN2F_HI, c = a + r.b, ec = (a - c) + r.b; /* |a| >= |b| unless a = 0 */
    float tail = ((r.k * LN2F_LO + r.eb) + ec) + r.t;
    return c + tail;
}

static inline float vf_log_special(float x, float y)
{
    y = x < 0.0f ? NAN : y;
    y = x == 0.0f ? -INFINITY : y;
    y = x == INFINITY ? x : y;
    return x != x ? x : y;
}

#define IVLN2F_HI 1.44269502f /* 1/ln2 = IVLN2F_HI + IVLN2F_LO */
#define IVLN2F_LO 1.92596299e-08f
#define IVLN10F_HI 0.434294492f /* 1/ln10 */
#define IVLN10F_LO -1.01030501e-08f
#define LOG10_2F_HI 0x1.344p-2f /* log10(2), 15 bits: k * LOG10_2F_HI exact for |k| < 2^9 */
#define LOG10_2F_LO 4.60503907e-06f

/* log2 x = k + (log m) / ln2: the product's rounding error from an FMA, k added last. */
static inline float vf_log2(float x)
{
    vf_logred r = vf_log_reduce(x);
    float l = r.eb + r.t, p = r.b * IVLN2F_HI, pe = fmaf(r.b, IVLN2F_HI, -p);
    float tail = pe + (r.b * IVLN2F_LO + l * IVLN2F_HI);
    float s = r.k + p, e = (r.k - s) + p; /* |k| >= 1 > |p| unless k = 0 */
    return vf_log_special(x, s + (e + tail));
}

/* log10 x = k log10(2) + (log m) / ln10 (both leading products exact, summed exactly). */
static inline float vf_log10(float x)
{
    vf_logred r = vf_log_reduce(x);
    float l = r.eb + r.t, p = r.b * IVLN10F_HI, pe = fmaf(r.b, IVLN10F_HI, -p), s, e;
    two_sum(r.k * LOG10_2F_HI, p, &s, &e);
    float tail = e + (pe + (r.k * LOG10_2F_LO + (r.b * IVLN10F_LO + l * IVLN10F_HI)));
    return vf_log_special(x, s + tail);
}

static inline float vf_log(float x) { return vf_log_special(x, vf_log_core(x)); }

/* log1p x = log u + (x - (u - 1)) / u for u = 1 + x rounded (the correction term carries the
 * rounding of u; exact subtraction for |x| < 1, negligible beyond). */
static inline float vf_log1p(float x)
{
    float u = 1.0f + x, c = (x - (u - 1.0f)) / u;
    vf_logred r = vf_log_reduce(u);
    float a = r.k * LN2F_HI, s = a + r.b, es = (a - s) + r.b; /* |a| >= |b| unless a = 0 */
    float y = vf_log_special(u, s + (((r.k * LN2F_LO + r.eb) + es) + (r.t + c)));
    return fabsf(x) < 0x1p-25f ? x : y; /* signed zeros, subnormals */
}


/* log for normal x > 0 (lean): x = 2^k m, m in [sqrt(2)/2, sqrt(2)), f = m - 1,
 * log x = k LN2F_HI + (k LN2F_LO + (f + f^2 (f P(f) - 1/2) + c)) with P of degree 7
 * (scripts/fit_vmath.py) and the product k LN2F_HI exact; no hi + lo parts (measured peak
 * about 1.1 ULP, k = -1). c adds log1p's correction. Other inputs: the callers' fix lanes. */
static inline float vf_log_lean(float u, float c)
{
    uint32_t ix = asuf(u) - 0x3f3504f3u;
    float k = (float)((int32_t)ix >> 23);
    float f = asf(asuf(u) - (ix & 0xff800000u)) - 1.0f;
    float P = 0.333333313f + f * (-0.250003129f + f * (0.200010791f + f * (-0.166409403f + f * (0.142130941f +
              f * (-0.130012542f + f * (0.126365349f + f * -0.0791176111f))))));
    float y = f + (f * f * (f * P - 0.5f) + c);
    return fmaf(k, LN2F_HI, fmaf(k, LN2F_LO, y));
}
#define VF_LOG_FAST_LO 0x1p-126f
#define VF_LOG_FAST_HI 0x1.fffffep127f

static inline float vf_log_fast(float x) { return vf_log_lean(x, 0.0f); }

/* log1p for -1 < x <= 2^100 (lean): u = 1 + x rounded, log1p x = log u + (x - (u - 1)) / u,
 * the small correction divided by u = 2^k (1 + f) through 2^-k (1 - f + f^2) (its relative
 * error f^3 matters only where the correction is below an ULP); |x| < 2^-25 returns x. Other
 * lanes: vf_log1p (VM_FIX_log1p). */
static inline float vf_log1p_fast(float x)
{
    float u = 1.0f + x, c = x - (u - 1.0f);
    uint32_t ix = asuf(u) - 0x3f3504f3u;
    float f = asf(asuf(u) - (ix & 0xff800000u)) - 1.0f;
    float inv = asf((127u << 23) - (ix & 0xff800000u)) * (1.0f - f + f * f); /* 2^-k / (1 + f), roughly */
    float y = vf_log_lean(u, c * inv);
    return fabsf(x) < 0x1p-25f ? x : y;
}
#define VF_LOG1P_FAST_LO -0x1.fffffep-1f
#define VF_LOG1P_FAST_HI 0x1p100f

/* Lean sin/cos for |x| <= TRIGF_MAX: r = x - k pi/2 by three FMAs (the first exact), sin r =
 * r + r z S(z), cos r = 1 + z (z C(z) - 1/2), z = r^2, S and C of degree 3 (scripts/fit_vmath.py);
 * no hi + lo parts: measured peak 1.5 ULP (|r| near pi/4, where r's and z's roundings add up;
 * keeping them as hi + lo parts, as before 2026-11, gave 0.8 ULP at 1.5x the time). */
static inline float vf_sincos_lean(float x, int cosine)
{
    float k = (x * TWO_OVER_PIF + SHIFTF) - SHIFTF;
    uint32_t n = lane_int(k) + (uint32_t)cosine;
    float r = fmaf(-k, PIO2F_3, fmaf(-k, PIO2F_2, fmaf(-k, PIO2F_1, x)));
    float z = r * r;
    float sn = r + r * z * (-0.166666672f + z * (0.00833333191f + z * (-0.00019840039f + z * 2.72437819e-06f)));
    float cs = 1.0f + z * (z * (0.0416666642f + z * (-0.00138882792f + z * 2.4542871e-05f)) - 0.5f);
    float y = (n & 1) ? cs : sn;
    return asf(asuf(y) ^ ((n & 2) << 30));
}

static inline float vf_sin(float x)
{
    float y = vf_sincos_lean(x, 0);
    return x == 0.0f ? x : y;
}
static inline float vf_cos(float x) { return vf_sincos_lean(x, 1); }

/* Inputs that overlap the output are copied per block into a local array (o may alias a);
 * apart, the kernels read them in place (ivdep: no overlap). EL(x) computes one element; the
 * same loop notes whether any input lies outside the kernel's range (VM_OUT_<op>, a vectorized
 * or-reduction), and only then FIX recomputes those lanes (VM_FIX_<op>: the full kernels, or
 * the C library for sin/cos beyond lim). */
#define VM_LOOP(op, T, EL, lim)                                                 \
    T buf[VM_BLK];                                                              \
    T *o = (T *)ov;                                                             \
    const T *a = (const T *)av;                                                 \
    int apart = (uintptr_t)(o + n) <= (uintptr_t)a || (uintptr_t)(a + n) <= (uintptr_t)o; \
    for (int64_t b = 0; b < n; b += VM_BLK) {                                   \
        int m = n - b < VM_BLK ? (int)(n - b) : VM_BLK;                         \
        const T *in = a + b;                                                    \
        if (!apart) {                                                           \
            memcpy(buf, a + b, (size_t)m * sizeof(T));                          \
            in = buf;                                                           \
        }                                                                       \
        T *ob = o + b;                                                          \
        int out = 0;                                                            \
        _Pragma("GCC ivdep") for (int i = 0; i < m; i++) {                      \
            T v = in[i];                                                        \
            ob[i] = EL(v);                                                      \
            out |= VM_OUT_##op(T, lim, v);                                      \
        }                                                                       \
        if (out) {                                                              \
            VM_FIX_##op(T, lim)                                                 \
        }                                                                       \
    }

/* lanes outside [lo, hi] (or NaN) recomputed by f (rare) */
#define VM_OUTSIDE(v, lo, hi) (!((v) >= (lo) && (v) <= (hi)))
#define VM_FIX_RANGE(f, lo, hi)                                                 \
    for (int i = 0; i < m; i++)                                                 \
        if (VM_OUTSIDE(in[i], lo, hi)) ob[i] = f(in[i]);
#define VM_NOFIX(T, lim)
#define VM_NOOUT(T, lim, v) 0
#define VM_FIX_exp(T, lim) VM_FIX_RANGE(VM_EXP_F_##T, VM_EXP_LO_##T, VM_EXP_HI_##T)
#define VM_OUT_exp(T, lim, v) VM_OUTSIDE(v, VM_EXP_LO_##T, VM_EXP_HI_##T)
#define VM_EXP_F_float vf_exp
#define VM_EXP_LO_float VF_EXP_FAST_LO
#define VM_EXP_HI_float VF_EXP_FAST_HI
#define VM_EXP_F_double vm_exp_hp
#define VM_EXP_LO_double VM_EXP_FAST_LO
#define VM_EXP_HI_double VM_EXP_FAST_HI
#define VM_FIX_expm1(T, lim) VM_FIX_expm1_##T
#define VM_FIX_expm1_float VM_FIX_RANGE(vf_expm1, VF_EXPM1_FAST_LO, VF_EXPM1_FAST_HI)
#define VM_FIX_expm1_double
#define VM_OUT_expm1(T, lim, v) VM_OUT_expm1_##T(v)
#define VM_OUT_expm1_float(v) VM_OUTSIDE(v, VF_EXPM1_FAST_LO, VF_EXPM1_FAST_HI)
#define VM_OUT_expm1_double(v) 0
#define VM_FIX_log(T, lim) VM_FIX_RANGE(VM_LOG_F_##T, VM_LOG_LO_##T, VM_LOG_HI_##T)
#define VM_OUT_log(T, lim, v) VM_OUTSIDE(v, VM_LOG_LO_##T, VM_LOG_HI_##T)
#define VM_LOG_F_float vf_log
#define VM_LOG_LO_float VF_LOG_FAST_LO
#define VM_LOG_HI_float VF_LOG_FAST_HI
#define VM_LOG_F_double vm_log_hp
#define VM_LOG_LO_double VM_LOG_FAST_LO
#define VM_LOG_HI_double VM_LOG_FAST_HI
#define VM_FIX_log1p(T, lim) VM_FIX_RANGE(VM_LOG1P_F_##T, VM_LOG1P_LO_##T, VM_LOG1P_HI_##T)
#define VM_OUT_log1p(T, lim, v) VM_OUTSIDE(v, VM_LOG1P_LO_##T, VM_LOG1P_HI_##T)
#define VM_LOG1P_F_float vf_log1p
#define VM_LOG1P_LO_float VF_LOG1P_FAST_LO
#define VM_LOG1P_HI_float VF_LOG1P_FAST_HI
#define VM_LOG1P_F_double vm_log1p_hp
#define VM_LOG1P_LO_double VM_LOG1P_FAST_LO
#define VM_LOG1P_HI_double VM_LOG1P_FAST_HI
#define VM_FIX_log2 VM_NOFIX
#define VM_OUT_log2 VM_NOOUT
#define VM_FIX_log10 VM_NOFIX
#define VM_OUT_log10 VM_NOOUT
#define VM_FIX_atan VM_NOFIX
#define VM_OUT_atan VM_NOOUT
#define VM_FIX_erf VM_NOFIX
#define VM_OUT_erf VM_NOOUT
#define VM_FIX_tanh(T, lim) VM_FIX_tanh_##T
#define VM_FIX_tanh_float
#define VM_FIX_tanh_double VM_FIX_RANGE(vm_tanh_hp, -VM_TANH_FAST_LIM, VM_TANH_FAST_LIM)
#define VM_OUT_tanh(T, lim, v) VM_OUT_tanh_##T(v)
#define VM_OUT_tanh_float(v) 0
#define VM_OUT_tanh_double(v) VM_OUTSIDE(v, -VM_TANH_FAST_LIM, VM_TANH_FAST_LIM)
#define VM_FIX_sigmoid(T, lim) VM_FIX_sigmoid_##T
#define VM_FIX_sigmoid_float VM_FIX_RANGE(vf_sigmoid, -VF_SIGMOID_FAST_LIM, VF_SIGMOID_FAST_LIM)
#define VM_FIX_sigmoid_double
#define VM_OUT_sigmoid(T, lim, v) VM_OUT_sigmoid_##T(v)
#define VM_OUT_sigmoid_float(v) VM_OUTSIDE(v, -VF_SIGMOID_FAST_LIM, VF_SIGMOID_FAST_LIM)
#define VM_OUT_sigmoid_double(v) 0
#define VM_FIX_TRIG(T, f, lim)                                                  \
    for (int i = 0; i < m; i++)                                                 \
        if (!(fabs((double)in[i]) <= (lim))) ob[i] = (T)f((double)in[i]);
#define VM_FIX_sin(T, lim) VM_FIX_TRIG(T, sin, lim)
#define VM_FIX_cos(T, lim) VM_FIX_TRIG(T, cos, lim)
#define VM_OUT_sin(T, lim, v) VM_OUTSIDE(v, -(T)(lim), (T)(lim))
#define VM_OUT_cos(T, lim, v) VM_OUTSIDE(v, -(T)(lim), (T)(lim))

/* float32 element functions: native float kernels, or the double ones rounded once */
#define F32_exp(x) vf_exp_fast(x)
#define F32_expm1(x) vf_expm1_fast(x)
#define F32_log(x) vf_log_fast(x)
#define F32_log1p(x) vf_log1p_fast(x)
#define F32_log2(x) vf_log2(x)
#define F32_log10(x) vf_log10(x)
#define F32_atan(x) ((float)vm_atan((double)(x), 0))
#define F32_sin(x) vf_sin(x)
#define F32_cos(x) vf_cos(x)
#define F32_tanh(x) vf_tanh_lean(x)
#define F32_sigmoid(x) vf_sigmoid_lean(x)
#define F32_erf(x) ((float)vm_erf((double)(x), 0))
#define VM_HP(op) static inline double vm_##op##_hp(double x) { return vm_##op(x, 1); }
TL_VM_OPS(VM_HP)
/* float64 element functions: the lean kernels where there are some, else vm_<op>(x, 1) */
#define F64_exp(x) vm_exp_fast(x)
#define F64_expm1(x) vm_expm1_hp(x)
#define F64_log(x) vm_log_fast(x)
#define F64_log1p(x) vm_log1p_fast(x)
#define F64_log2(x) vm_log2_hp(x)
#define F64_log10(x) vm_log10_hp(x)
#define F64_sin(x) vm_sin_hp(x)
#define F64_cos(x) vm_cos_hp(x)
#define F64_tanh(x) vm_tanh_fast(x)
#define F64_sigmoid(x) vm_sigmoid_hp(x)
#define F64_erf(x) vm_erf_hp(x)
#define F64_atan(x) vm_atan_hp(x)

#define VM_DEF(op)                                                                                       \
    TL_CLONES_WIDE void tl_vm_##op##_f32(void *ov, const void *av, int64_t n) { VM_LOOP(op, float, F32_##op, TRIGF_MAX) } \
    TL_CLONES_WIDE void tl_vm_##op##_f64(void *ov, const void *av, int64_t n) { VM_LOOP(op, double, F64_##op, TRIG_MAX) }
TL_VM_OPS(VM_DEF)

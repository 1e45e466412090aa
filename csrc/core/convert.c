/* convert.c - bit-exact float32 <-> narrow float format conversions.
 *
 * Owns the encode/decode rules of float16, bfloat16, the five float8 formats and one
 * float4_e2m1fn nibble. The reference is torch 2.13's CPU behaviour (c10 Half.h,
 * BFloat16.h, Float8_*.h); where ml_dtypes 0.6 disagrees the comment at the function
 * says so. All rounding is round-to-nearest-even done in integer arithmetic, so the
 * results do not depend on the FPU rounding mode or on FTZ/DAZ.
 *
 * Summary of the special-value rules (torch 2.13):
 *   float16      IEEE binary16; NaN keeps sign and top payload bits, quiet bit set (F16C).
 *   bfloat16     encode: every NaN -> 0x7FC0 (c10::BFloat16); decode: bits << 16.
 *   e4m3fn       no inf; NaN -> 0x7F|sign; finite overflow and +-inf SATURATE to +-448
 *                (torch 2.13; ml_dtypes and older torch give NaN).
 *   e5m2         IEEE-like; |x| >= 61440 rounds to inf; NaN -> 0x7F|sign (ml_dtypes 0x7E).
 *   e4m3fnuz     NaN only at 0x80; overflow, inf, NaN -> 0x80; no -0.
 *   e5m2fnuz     same as e4m3fnuz with 5/2 bits.
 *   e8m0fnu      2^(code-127); no sign, no zero; 0xFF NaN; inf/NaN -> 0xFF; the sign is
 *                ignored and 0 -> code 0 (ml_dtypes: negatives and zero -> NaN); rounding
 *                compares the mantissa against 1.5 with ties going up (torch's "RNE" with
 *                the implied leading one as LSB), which ml_dtypes matches.
 *   float4_e2m1  torch defines no conversion; follows ml_dtypes: RNE, saturate to +-6.
 */
#include "convert.h"

#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define TL_HAVE_F16C_PATH 1
#include <immintrin.h>
#endif

static inline uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float u2f(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Round m / 2^shift to nearest, ties to even. */
static inline uint32_t rne_shr(uint32_t m, unsigned shift) {
    if (shift == 0) return m;
    if (shift > 31) return 0; /* m < 2^31 in every caller, so below one half */
    uint32_t q = m >> shift;
    uint32_t rem = m & ((UINT32_C(1) << shift) - 1);
    uint32_t half = UINT32_C(1) << (shift - 1);
    q += (rem > half) | ((rem == half) & (q & 1));
    return q;
}

/* Magnitude code of a finite, non-NaN |x| (abs_bits = float32 bits without sign) in a
 * format with `mbits` mantissa bits and exponent bias `bias`, rounded to nearest even.
 * No overflow handling: a result past the largest code is returned as is (the rounding
 * carry lands in the next exponent), and each caller applies its format's rule. */
static inline uint32_t encode_mag(uint32_t abs_bits, unsigned mbits, int bias) {
    int e = (int)(abs_bits >> 23);
    int emin_f32 = 128 - bias; /* biased float32 exponent of the format's smallest normal */
    if (e >= emin_f32) {
        /* Normal: rebias the exponent, then drop 23 - mbits mantissa bits. */
        uint32_t rebased = abs_bits - ((uint32_t)(127 - bias) << 23);
        return rne_shr(rebased, 23 - mbits);
    }
    /* Subnormal in the target: code = value / 2^(emin - mbits). */
    uint32_t m = abs_bits & 0x7FFFFFu;
    int eff = e;
    if (e != 0) m |= 0x800000u;
    else eff = 1; /* float32 subnormal: exponent 1 without the implicit bit */
    /* value = m * 2^(eff - 150); unit = 2^(1 - bias - mbits) */
    int shift = (150 - eff) + (1 - bias - (int)mbits);
    return rne_shr(m, (unsigned)shift);
}

/* float32 bits of sign * (implicit? 1.mant : 0.mant) * 2^(exp - bias) for a narrow code's
 * exponent and mantissa fields (exp == 0 is subnormal). Not for NaN/inf codes. */
static inline uint32_t decode_mag(uint32_t sign32, uint32_t exp, uint32_t mant, unsigned mbits,
                                  int bias) {
    if (exp == 0) {
        if (mant == 0) return sign32;
        /* Normalize: shift the leading one up to the implicit position. */
        int e = 1;
        while (!(mant & (UINT32_C(1) << mbits))) {
            mant <<= 1;
            e--;
        }
        mant &= (UINT32_C(1) << mbits) - 1;
        return sign32 | ((uint32_t)(e - bias + 127) << 23) | (mant << (23 - mbits));
    }
    return sign32 | ((uint32_t)((int)exp - bias + 127) << 23) | (mant << (23 - mbits));
}

/* ---------------------------------------------------------------- float16 */

/* Decode as vcvtph2ps does (and c10's fp16_ieee_to_fp32_value): NaN keeps its sign and
 * payload, with the quiet bit set. numpy (ml_dtypes' float16) leaves signalling NaNs
 * signalling, e.g. 0x7C01 -> 0x7F802000 there vs 0x7FC02000 here. */
float tl_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    if (exp == 0x1F) {
        uint32_t nan_quiet = mant ? 0x400000u : 0u;
        return u2f(sign | 0x7F800000u | (mant << 13) | nan_quiet);
    }
    return u2f(decode_mag(sign, exp, mant, 10, 15));
}

/* Encode as vcvtps2ph with round-to-nearest-even, which torch uses on x86 (C10_X86_F16):
 * NaN -> sign | 0x7E00 | top 9 payload bits. numpy keeps a signalling NaN signalling
 * (0x7F800001 -> 0x7C01 there, 0x7E00 here). */
uint16_t tl_f32_to_f16(float f) {
    uint32_t u = f2u(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7FFFFFFFu;
    if (a >= 0x7F800000u) {
        if (a == 0x7F800000u) return sign | 0x7C00u;
        return (uint16_t)(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
    }
    if (a >= 0x477FF000u) return sign | 0x7C00u; /* >= 65520 rounds to inf */
    return (uint16_t)(sign | encode_mag(a, 10, 15));
}

/* ---------------------------------------------------------------- bfloat16 */

float tl_bf16_to_f32(uint16_t b) { return u2f((uint32_t)b << 16); }

/* c10::BFloat16's round_to_nearest_even: every NaN becomes 0x7FC0 (sign dropped).
 * torch's vectorized CPU float32->bfloat16 tensor cast writes 0xFFFF for NaN instead,
 * while torch.tensor(nan, dtype=bfloat16), fill_ and float64->bfloat16 give 0x7FC0;
 * ml_dtypes gives 0x7FC0 | sign. Only the NaN payload differs. */
uint16_t tl_f32_to_bf16(float f) {
    uint32_t u = f2u(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FC0u;
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* ---------------------------------------------------------------- float8_e4m3fn */

/* NaN codes 0x7F/0xFF decode to sign | 0x7FF00000 as c10 does. */
float tl_f8e4m3fn_to_f32(uint8_t v) {
    uint32_t sign = (uint32_t)(v & 0x80u) << 24;
    if ((v & 0x7Fu) == 0x7Fu) return u2f(sign | 0x7FF00000u);
    return u2f(decode_mag(sign, (v >> 3) & 0xFu, v & 7u, 3, 7));
}

/* torch 2.13 saturates: finite overflow and +-inf -> +-448 (0x7E/0xFE), including values
 * in [464, 480) whose rounding would land on the NaN pattern. ml_dtypes (and torch before
 * 2.13) give NaN (0x7F/0xFF) for |x| >= 464 and for inf. NaN -> 0x7F | sign. */
uint8_t tl_f32_to_f8e4m3fn(float f) {
    uint32_t u = f2u(f);
    uint8_t sign = (uint8_t)(u >> 24) & 0x80u;
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return sign | 0x7Fu;
    if (a >= 0x43F00000u) return sign | 0x7Eu; /* >= 480 and inf */
    uint32_t mag = encode_mag(a, 3, 7);
    if (mag >= 0x7Fu) mag = 0x7Eu;
    return (uint8_t)(sign | mag);
}

/* ---------------------------------------------------------------- float8_e5m2 */

/* Same as float16 of (v << 8): NaN codes come back quiet with their payload. */
float tl_f8e5m2_to_f32(uint8_t v) { return tl_f16_to_f32((uint16_t)((uint16_t)v << 8)); }

/* IEEE-like: |x| >= 61440 rounds to inf, NaN -> 0x7F | sign (ml_dtypes: 0x7E | sign). */
uint8_t tl_f32_to_f8e5m2(float f) {
    uint32_t u = f2u(f);
    uint8_t sign = (uint8_t)(u >> 24) & 0x80u;
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return sign | 0x7Fu;
    if (a >= 0x47800000u) return sign | 0x7Cu; /* >= 65536 and inf */
    return (uint8_t)(sign | encode_mag(a, 2, 15)); /* [61440, 65536) carries into 0x7C */
}

/* ---------------------------------------------------------------- fnuz formats */

/* 0x80 is the only NaN and decodes to the bit pattern 0x7F800001 as c10 returns it
 * (ml_dtypes returns a quiet NaN); 0x00 is the only zero. */
static inline float fnuz_to_f32(uint8_t v, unsigned mbits, int bias) {
    if (v == 0x80u) return u2f(0x7F800001u);
    uint32_t sign = (uint32_t)(v & 0x80u) << 24;
    return u2f(decode_mag(sign, (v & 0x7Fu) >> mbits, v & ((1u << mbits) - 1), mbits, bias));
}

/* |x| >= nan_from (the power of two just past the range), inf and NaN -> 0x80. A rounding
 * carry past the largest code (0x7F) also gives 0x80, the NaN. Results that round to zero
 * lose their sign: there is no -0. */
static inline uint8_t f32_to_fnuz(float f, unsigned mbits, int bias, uint32_t nan_from) {
    uint32_t u = f2u(f);
    uint8_t sign = (uint8_t)(u >> 24) & 0x80u;
    uint32_t a = u & 0x7FFFFFFFu;
    if (a >= nan_from) return 0x80u;
    uint32_t mag = encode_mag(a, mbits, bias);
    if (mag == 0) return 0;
    return (uint8_t)((sign | mag) & 0xFFu);
}

float tl_f8e4m3fnuz_to_f32(uint8_t v) { return fnuz_to_f32(v, 3, 8); }
uint8_t tl_f32_to_f8e4m3fnuz(float f) { return f32_to_fnuz(f, 3, 8, 0x43800000u); /* 256 */ }
float tl_f8e5m2fnuz_to_f32(uint8_t v) { return fnuz_to_f32(v, 2, 16); }
uint8_t tl_f32_to_f8e5m2fnuz(float f) { return f32_to_fnuz(f, 2, 16, 0x47800000u); /* 65536 */ }

/* ---------------------------------------------------------------- float8_e8m0fnu */

/* 2^(v - 127); code 0 is 2^-127 (a float32 subnormal), 0xFF is NaN (0x7F800001 as c10). */
float tl_f8e8m0fnu_to_f32(uint8_t v) {
    if (v == 0) return u2f(0x00400000u);
    if (v == 0xFFu) return u2f(0x7F800001u);
    return u2f((uint32_t)v << 23);
}

/* torch's rule: the result is the float32 biased exponent, ignoring the sign, bumped by
 * one when the mantissa is above 1.5 or exactly 1.5 (the implied leading one counts as
 * the odd LSB, so ties go up). For float32 subnormals (no implied one) a mantissa of
 * exactly 0x400000 stays at code 0. inf/NaN -> 0xFF, and 1.5*2^127 and up round to 0xFF.
 * Zero and -0 -> 0 (2^-127). ml_dtypes agrees on every positive input and differs in
 * giving NaN (0xFF) for negatives and for +-0. */
uint8_t tl_f32_to_f8e8m0fnu(float f) {
    uint32_t u = f2u(f);
    uint32_t exp = (u >> 23) & 0xFFu;
    if (exp == 0xFFu) return 0xFFu;
    uint32_t mant = u & 0x7FFFFFu;
    int up;
    if (exp != 0) up = mant >= 0x400000u;
    else up = mant > 0x400000u;
    return (uint8_t)(exp + (uint32_t)up);
}

/* ---------------------------------------------------------------- float4_e2m1fn */

/* Values 0, 0.5, 1, 1.5, 2, 3, 4, 6 with a sign bit; no inf, no NaN. */
float tl_f4e2m1_to_f32(uint8_t nibble) {
    uint32_t sign = (uint32_t)(nibble & 0x8u) << 28;
    return u2f(decode_mag(sign, (nibble >> 1) & 3u, nibble & 1u, 1, 1));
}

/* torch has no float4 conversion; this follows ml_dtypes for every non-NaN input:
 * round to nearest even, |x| >= 7 and +-inf saturate to +-6, -0 stays -0. For NaN
 * (which the format cannot hold) ml_dtypes yields a zero with the sign flipped; here NaN
 * gives +0 (0x0) whatever its sign. */
uint8_t tl_f32_to_f4e2m1(float f) {
    uint32_t u = f2u(f);
    uint8_t sign = (uint8_t)(u >> 28) & 0x8u;
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return 0;
    if (a >= 0x40E00000u) return sign | 0x7u; /* >= 7 and inf */
    uint32_t mag = encode_mag(a, 1, 1);
    if (mag > 7u) mag = 7u;
    return (uint8_t)(sign | mag);
}

/* ---------------------------------------------------------------- bulk float16 */

#ifdef TL_HAVE_F16C_PATH
__attribute__((target("avx,f16c"))) static void f32_to_f16_f16c(const float *src, uint16_t *dst,
                                                                  int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 a = _mm256_loadu_ps(src + i);
        __m256 b = _mm256_loadu_ps(src + i + 8);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
        _mm_storeu_si128((__m128i *)(dst + i + 8), _mm256_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i + 8 <= n; i += 8) {
        __m256 a = _mm256_loadu_ps(src + i);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; i++) dst[i] = tl_f32_to_f16(src[i]);
}

__attribute__((target("avx,f16c"))) static void f16_to_f32_f16c(const uint16_t *src, float *dst,
                                                                  int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 8));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(a));
        _mm256_storeu_ps(dst + i + 8, _mm256_cvtph_ps(b));
    }
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
    for (; i < n; i++) dst[i] = tl_f16_to_f32(src[i]);
}

/* 0 = not probed yet, 1 = available, 2 = not. A racy first probe is harmless: every
 * thread stores the same answer. */
static int have_f16c(void) {
    static volatile int state = 0;
    int s = state;
    if (s == 0) {
        __builtin_cpu_init();
        s = (__builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c")) ? 1 : 2;
        state = s;
    }
    return s == 1;
}
#endif

/* The hardware conversions and the scalar functions agree bit for bit (the scalar ones
 * are written to the F16C rules), so which path runs never shows in the result.
 * vcvtps2ph ignores MXCSR.FTZ for its float16 result and rounds float32 subnormal inputs
 * to +-0 like the scalar code does with or without DAZ. */
void tl_f32_to_f16_n(const float *src, uint16_t *dst, int64_t n) {
#ifdef TL_HAVE_F16C_PATH
    if (n >= 8 && have_f16c()) {
        f32_to_f16_f16c(src, dst, n);
        return;
    }
#endif
    for (int64_t i = 0; i < n; i++) dst[i] = tl_f32_to_f16(src[i]);
}

void tl_f16_to_f32_n(const uint16_t *src, float *dst, int64_t n) {
#ifdef TL_HAVE_F16C_PATH
    if (n >= 8 && have_f16c()) {
        f16_to_f32_f16c(src, dst, n);
        return;
    }
#endif
    for (int64_t i = 0; i < n; i++) dst[i] = tl_f16_to_f32(src[i]);
}

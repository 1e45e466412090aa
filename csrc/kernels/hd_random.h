/* hd_random.h - the counter-based random numbers written once for the host (C11) and the
 * device (nvcc): the Philox4x32-10 block function (Salmon et al., "Parallel random numbers:
 * as easy as 1, 2, 3") and the transforms of a block's four 32-bit words into sampler values.
 * The CPU's Philox generator (core/rng.c: tl_philox_blocks, ops/random.c: the tiles) calls
 * these functions, and so do the backend's random entry (csrc/cuda/random.cu) and its host
 * runner (backend/random.c): a seed gives the same values on both devices.
 *
 * Value layout of a sampling call (the CPU's, unchanged): block `first + k` gives
 *   F32 mode (uniform, normal, bernoulli into float32/float16/bfloat16 and non-float dtypes):
 *     4 float values, one per word (normals: Box-Muller on words (0,1) and (2,3));
 *   F64 mode (every other float sampler and dtype): 2 double values from two 53-bit uniforms
 *     (words (0,1) and (2,3)); normals use both for both values;
 *   U64 mode (random_, randint): 2 64-bit words (0,1) and (2,3) reduced to [from, from+range).
 * Value v of the call goes to element v (v/2, part v%2 for complex) in row-major order.
 *
 * Exactness: integer and float32 uniform/bernoulli values are exact on any IEEE device; the
 * float32 normal uses the branch-free polynomials below (exact where the compiler does not
 * contract a*b+c: the C build uses -std=c11, i.e. -ffp-contract=off, and random.cu is
 * compiled with -fmad=false); the float64 samplers call log/sin/cos/exp/log1p/tan, which
 * differ from glibc's by a few ulps in libdevice. */
#ifndef TL_HD_RANDOM_H
#define TL_HD_RANDOM_H

#include <math.h>
#include <stdint.h>

#include "backend/backend.h"
#include "kernels/hd_math.h"

#define TL_HD_PHILOX_M0 0xD2511F53u
#define TL_HD_PHILOX_M1 0xCD9E8D57u
#define TL_HD_PHILOX_W0 0x9E3779B9u
#define TL_HD_PHILOX_W1 0xBB67AE85u

/* One Philox round on the counter (c0, c1, c2, c3) with the round key (k0, k1). Written on
 * pointers so that the CPU's struct-of-arrays loop (rng.c) vectorizes over lanes. */
static inline TL_HD void tl_hd_philox_round(uint32_t *c0, uint32_t *c1, uint32_t *c2, uint32_t *c3, uint32_t k0,
                                            uint32_t k1)
{
    uint64_t p0 = (uint64_t)TL_HD_PHILOX_M0 * *c0, p1 = (uint64_t)TL_HD_PHILOX_M1 * *c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ *c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ *c3 ^ k1;
    *c1 = (uint32_t)p1;
    *c3 = (uint32_t)p0;
    *c0 = n0;
    *c2 = n2;
}

/* The four words of counter block `ctr` under key `seed`: counter (ctr lo, ctr hi, 0, 0),
 * ten rounds. */
static inline TL_HD void tl_hd_philox(uint64_t seed, uint64_t ctr, uint32_t w[4])
{
    uint32_t c0 = (uint32_t)ctr, c1 = (uint32_t)(ctr >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++) {
        tl_hd_philox_round(&c0, &c1, &c2, &c3, k0, k1);
        k0 += TL_HD_PHILOX_W0;
        k1 += TL_HD_PHILOX_W1;
    }
    w[0] = c0;
    w[1] = c1;
    w[2] = c2;
    w[3] = c3;
}

/* ---- float32 values (one word each): branch-free so the CPU's loops vectorize ---- */

/* log(x) for x in (0, 1] (Cephes logf polynomial, ~1 ulp). */
static inline TL_HD float tl_hd_rng_logf(float x)
{
    uint32_t i = tl_hd_f2u(x);
    /* m in [sqrt(1/2), sqrt(2)) chosen with integer ops only: float compares in the loop
     * defeat GCC's if-conversion, and the vectorizer with it */
    uint32_t big = ((i & 0x7fffffu) + (0x800000u - 0x3504f4u)) >> 23; /* mantissa > sqrt(2) */
    float e = (float)((int32_t)((i >> 23) & 0xff) - 127 + (int32_t)big);
    float m = tl_hd_u2f(((i & 0x7fffffu) | 0x3f800000u) - (big << 23));
    float f = m - 1.0f, z = f * f;
    float y = 7.0376836292E-2f;
    y = y * f - 1.1514610310E-1f;
    y = y * f + 1.1676998740E-1f;
    y = y * f - 1.2420140846E-1f;
    y = y * f + 1.4249322787E-1f;
    y = y * f - 1.6668057665E-1f;
    y = y * f + 2.0000714765E-1f;
    y = y * f - 2.4999993993E-1f;
    y = y * f + 3.3333331174E-1f;
    y = y * f * z;
    y += -2.12194440E-4f * e;
    y += -0.5f * z;
    return f + y + 0.693359375f * e;
}

/* sqrt(x) for x >= 0 by three Newton steps on 1/sqrt (libm's sqrtf keeps an errno branch
 * that blocks vectorization). Relative error ~1e-7. */
static inline TL_HD float tl_hd_rng_sqrtf(float x)
{
    float y = tl_hd_u2f(0x5f3759dfu - (tl_hd_f2u(x) >> 1));
    float hx = 0.5f * x;
    y = y * (1.5f - hx * y * y);
    y = y * (1.5f - hx * y * y);
    y = y * (1.5f - hx * y * y);
    return x * y;
}

/* sin and cos of 2*pi*t for t = x / 2^24 (x < 2^24): quadrant round(4t) computed on the
 * integer, polynomials on [-pi/4, pi/4]. */
static inline TL_HD void tl_hd_rng_sincos2pi(uint32_t x, float *s, float *c)
{
    int32_t qi = (int32_t)((x + (1u << 21)) >> 22);
    float r = ((float)(int32_t)x * (1.0f / 16777216.0f) - 0.25f * (float)qi) * 6.28318530718f;
    qi &= 3;
    float r2 = r * r;
    float sr = r + r * r2 * (-1.6666654611E-1f + r2 * (8.3321608736E-3f + r2 * -1.9515295891E-4f));
    float cr = 1.0f - 0.5f * r2 + r2 * r2 * (4.166664568298827E-2f + r2 * (-1.388731625493765E-3f + r2 * 2.443315711809948E-5f));
    float sw = (float)(qi & 1), fs = (float)(1 - (qi & 2)), fc = (float)(1 - ((qi + 1) & 2));
    *s = fs * (sw * cr + (1.0f - sw) * sr);
    *c = fc * (sw * sr + (1.0f - sw) * cr);
}

/* uniform in [from, to) with span = (float)(to - from): rounding must not reach `to`. */
static inline TL_HD float tl_hd_uniform_f32(uint32_t w, float from, float span, float to)
{
    float x = from + span * ((float)(w >> 8) * (1.0f / 16777216.0f));
    return x < to ? x : from;
}

static inline TL_HD float tl_hd_bernoulli_f32(uint32_t w, float p)
{
    return (float)(w >> 8) * (1.0f / 16777216.0f) < p ? 1.0f : 0.0f;
}

/* A float32 uniform in [from, to) bound for float16/bfloat16 (bdt): a value that rounds up to
 * `to` in the narrow format becomes `from`, as float32 values that reach `to` do (the range
 * stays [from, to)). */
static inline TL_HD float tl_hd_uniform_narrow(float x, int bdt, float from, float to)
{
    float r = bdt == TL_BDT_FLOAT16 ? tl_hd_h2f(tl_hd_f2h(x)) : tl_hd_bf2f(tl_hd_f2bf(x));
    return r >= to && from < to ? from : x;
}

/* Box-Muller on two words: v0 (cos) and v1 (sin). */
static inline TL_HD void tl_hd_normal_f32(uint32_t w0, uint32_t w1, float mean, float sd, float *v0, float *v1)
{
    float u1 = (float)(int32_t)((w0 >> 8) + 1) * (1.0f / 16777216.0f); /* (0, 1] */
    float r = tl_hd_rng_sqrtf(-2.0f * tl_hd_rng_logf(u1)), s, c;
    tl_hd_rng_sincos2pi(w1 >> 8, &s, &c);
    *v0 = mean + sd * r * c;
    *v1 = mean + sd * r * s;
}

/* ---- float64 values (two words each) ---- */

static inline TL_HD double tl_hd_u53(uint32_t hi, uint32_t lo)
{
    return (double)((((uint64_t)hi << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}

/* The two values of a block for sampler `dist` (TL_BRS_*, not TL_BRS_INT). */
static inline TL_HD void tl_hd_sample_f64(int dist, const uint32_t q[4], double a, double b, double v[2])
{
    double u0 = tl_hd_u53(q[0], q[1]), u1 = tl_hd_u53(q[2], q[3]);
    switch (dist) {
    case TL_BRS_UNIFORM: {
        double x0 = a + (b - a) * u0, x1 = a + (b - a) * u1;
        v[0] = x0 < b ? x0 : a;
        v[1] = x1 < b ? x1 : a;
        break;
    }
    case TL_BRS_NORMAL:
    case TL_BRS_LOG_NORMAL: {
        double r = sqrt(-2.0 * log(1.0 - u0)), th = 6.283185307179586 * u1;
        double z0 = a + b * r * cos(th), z1 = a + b * r * sin(th);
        v[0] = dist == TL_BRS_NORMAL ? z0 : exp(z0);
        v[1] = dist == TL_BRS_NORMAL ? z1 : exp(z1);
        break;
    }
    case TL_BRS_EXPONENTIAL:
        v[0] = -log1p(-u0) / a;
        v[1] = -log1p(-u1) / a;
        break;
    case TL_BRS_CAUCHY:
        v[0] = a + b * tan(3.141592653589793 * (u0 - 0.5));
        v[1] = a + b * tan(3.141592653589793 * (u1 - 0.5));
        break;
    case TL_BRS_GEOMETRIC: {
        double l = log1p(-a);
        v[0] = ceil(log(1.0 - u0) / l);
        v[1] = ceil(log(1.0 - u1) / l);
        if (v[0] < 1) v[0] = 1;
        if (v[1] < 1) v[1] = 1;
        break;
    }
    default: /* TL_BRS_BERNOULLI */
        v[0] = u0 < a ? 1.0 : 0.0;
        v[1] = u1 < a ? 1.0 : 0.0;
        break;
    }
}

/* ---- 64-bit integers ---- */

static inline TL_HD uint64_t tl_hd_u64(uint32_t hi, uint32_t lo) { return ((uint64_t)hi << 32) | lo; }
/* from + u mod range (range 0: all 2^64 values), as the CPU's random_. */
static inline TL_HD uint64_t tl_hd_int_value(uint64_t u, uint64_t from, uint64_t range)
{
    return from + (range ? u % range : u);
}

/* ---- one counter block of a backend random call ----
 * Computes the values of block `blk` (relative to call->first) and stores each, converted
 * to the output dtype as the CPU's casting copy does, at its element: the row-major index
 * split over the call's shape (innermost first) and byte strides. Both the CUDA kernel (one
 * block per thread iteration) and the host runner call it. */
static inline TL_HD void tl_hd_random_block(const tl_backend_random_call *c, int64_t blk)
{
    uint32_t w[4];
    tl_hd_philox(c->seed, c->first + (uint64_t)blk, w);
    /* with per-element parameters every element takes one value, a complex one as its real part */
    int cplx = !c->nin && (c->dtype == TL_BDT_COMPLEX64 || c->dtype == TL_BDT_COMPLEX128);
    int rdt = !cplx ? c->dtype : c->dtype == TL_BDT_COMPLEX64 ? TL_BDT_FLOAT32 : TL_BDT_FLOAT64;
    int64_t nvals = cplx ? 2 * c->numel : c->numel;
    int vpb = c->mode == TL_BRM_F32 ? 4 : 2;
    float f[4] = {0, 0, 0, 0};
    double d[2] = {0, 0};
    int64_t iv[2] = {0, 0};
    if (c->mode == TL_BRM_F32) {
        if (c->sampler == TL_BRS_NORMAL) {
            float mean = (float)c->a, sd = (float)c->b;
            tl_hd_normal_f32(w[0], w[1], mean, sd, &f[0], &f[1]);
            tl_hd_normal_f32(w[2], w[3], mean, sd, &f[2], &f[3]);
        } else if (c->sampler == TL_BRS_UNIFORM) {
            float from = (float)c->a, span = (float)(c->b - c->a), to = (float)c->b;
            for (int j = 0; j < 4; j++) f[j] = tl_hd_uniform_f32(w[j], from, span, to);
        } else {
            for (int j = 0; j < 4; j++) f[j] = tl_hd_bernoulli_f32(w[j], (float)c->a);
        }
    } else if (c->mode == TL_BRM_F64 && c->nin) { /* the standard draws, scaled per element below */
        tl_hd_sample_f64(c->sampler == TL_BRS_BERNOULLI ? TL_BRS_UNIFORM : c->sampler, w, 0.0, 1.0, d);
    } else if (c->mode == TL_BRM_F64) {
        tl_hd_sample_f64(c->sampler, w, c->a, c->b, d);
    } else {
        iv[0] = (int64_t)tl_hd_int_value(tl_hd_u64(w[0], w[1]), c->int_from, c->int_range);
        iv[1] = (int64_t)tl_hd_int_value(tl_hd_u64(w[2], w[3]), c->int_from, c->int_range);
    }
    int rsize = rdt == TL_BDT_FLOAT64 ? 8 : 4; /* complex parts */
    for (int j = 0; j < vpb; j++) {
        int64_t v = blk * vpb + j;
        if (v >= nvals) break;
        int64_t e = cplx ? v >> 1 : v, off = cplx ? (v & 1) * rsize : 0, off0 = 0, off1 = 0;
        for (int k = 0; k < c->ndim; k++) {
            int64_t q = e / c->shape[k], i = e - q * c->shape[k];
            off += i * c->strides[k];
            if (c->nin) {
                off0 += i * c->in_strides[0][k];
                off1 += i * c->in_strides[1][k];
            }
            e = q;
        }
        char *dst = c->data + off;
        if (c->nin) {
            double p0 = c->a, p1 = c->b, x;
            if (c->in[0]) tl_hd_convert(&p0, TL_BDT_FLOAT64, c->in[0] + off0, c->in_dtype[0]);
            if (c->in[1]) tl_hd_convert(&p1, TL_BDT_FLOAT64, c->in[1] + off1, c->in_dtype[1]);
            x = c->sampler == TL_BRS_BERNOULLI ? (d[j] < p0 ? 1.0 : 0.0) : p0 + p1 * d[j];
            tl_hd_convert(dst, rdt, &x, TL_BDT_FLOAT64);
            continue;
        }
        if (c->mode == TL_BRM_F32) {
            float x = f[j];
            if (c->sampler == TL_BRS_UNIFORM && (rdt == TL_BDT_FLOAT16 || rdt == TL_BDT_BFLOAT16))
                x = tl_hd_uniform_narrow(x, rdt, (float)c->a, (float)c->b);
            tl_hd_convert(dst, rdt, &x, TL_BDT_FLOAT32);
        } else if (c->mode == TL_BRM_F64) {
            tl_hd_convert(dst, rdt, &d[j], TL_BDT_FLOAT64);
        } else {
            tl_hd_convert(dst, rdt, &iv[j], TL_BDT_INT64);
        }
    }
}

#endif

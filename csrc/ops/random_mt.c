/* random_mt.c - samplers of the MT19937 generator with torch's CPU transformations, so that
 * a seeded stream gives torch's numbers:
 * - uniform float32 (and float16/bfloat16, rounded from it): the low 24 bits of a word / 2^24;
 *   float64: the low 53 bits of a 64-bit pair / 2^53; scaled as u * (to - from) + from in the
 *   dtype's arithmetic; a value that rounds to `to` becomes `from`;
 * - normal: contiguous tensors of >= 16 elements are filled with uniforms first and turned
 *   into normals 16 at a time (Box-Muller pairing j with j + 8; a partial last group redraws
 *   the last 16); anything else takes torch's serial double Box-Muller, whose second sample
 *   the generator keeps for the next draw;
 * - integers: word % range, a 32-bit word when range < 2^32, else a 64-bit pair.
 * - bernoulli, exponential, Cauchy, log-normal, geometric: one double uniform each, torch's
 *   formulas (bernoulli with float probabilities draws float uniforms).
 * float32 normals of the 16-at-a-time path can differ from torch in the last bit where torch's
 * vectorized log/sin/cos do (torch's own AVX2 and scalar builds differ there). Serial, as
 * torch's samplers are. */
#include "ops/random_mt.h"

#include <math.h>
#include <string.h>

#include "core/convert.h"
#include "core/error.h"
#include "ops/copy.h"

#define TWO_PI 6.283185307179586

static inline float u24(tl_generator *g) { return (float)(tl_mt_next32(g) & 0xffffffu) * (1.0f / 16777216.0f); }
float tl_mt_uniform_f32(tl_generator *g) { return u24(g); }
static inline double u53(tl_generator *g)
{
    return (double)(tl_mt_next64(g) & ((1ull << 53) - 1)) * (1.0 / 9007199254740992.0);
}
double tl_mt_uniform_f64(tl_generator *g) { return u53(g); }

uint64_t tl_mt_below(tl_generator *g, uint64_t range)
{
    if (range == 0) return tl_mt_next64(g); /* all 2^64 values */
    return range < (1ull << 32) ? (uint64_t)(tl_mt_next32(g) % (uint32_t)range) : tl_mt_next64(g) % range;
}

/* torch's serial normal in double; the pair's second sample waits in the generator. */
static double normal1(tl_generator *g, double mean, double sd)
{
    if (g->has_normal) {
        g->has_normal = 0;
        return g->next_normal * sd + mean;
    }
    double u1 = u53(g), u2 = u53(g);
    double r = sqrt(-2.0 * log1p(-u2)), th = TWO_PI * u1;
    g->next_normal = r * sin(th);
    g->has_normal = 1;
    return r * cos(th) * sd + mean;
}

/* One double per element for the distributions without a float32 form. */
static double other1(tl_generator *g, tl_dist dist, double a, double b)
{
    switch (dist) {
    case TL_DIST_EXPONENTIAL: return -log1p(-u53(g)) / a;
    case TL_DIST_CAUCHY: return a + b * tan(3.141592653589793 * (u53(g) - 0.5));
    case TL_DIST_LOG_NORMAL: return exp(normal1(g, a, b));
    case TL_DIST_GEOMETRIC: return ceil(log(u53(g)) / log1p(-a));
    case TL_DIST_BERNOULLI: return u53(g) < a ? 1.0 : 0.0;
    case TL_DIST_NORMAL: return normal1(g, a, b);
    default: { /* uniform */
        double x = u53(g) * (b - a) + a;
        return x < b ? x : a;
    }
    }
}

void tl_mt_fill_f64(tl_generator *g, double *v, int64_t n, tl_dist dist, double a, double b, bool contiguous)
{
    if (dist == TL_DIST_NORMAL && contiguous && n >= 16) {
        for (int64_t i = 0; i < n; i++) v[i] = u53(g);
        for (int64_t i = 0;; i += 16) {
            if (i + 16 > n) {
                if (i == n) break;
                i = n - 16; /* torch redraws the last 16 for a partial group */
                for (int j = 0; j < 16; j++) v[i + j] = u53(g);
            }
            for (int j = 0; j < 8; j++) {
                double r = sqrt(-2.0 * log(1.0 - v[i + j])), th = TWO_PI * v[i + j + 8];
                v[i + j] = r * cos(th) * b + a;
                v[i + j + 8] = r * sin(th) * b + a;
            }
            if (i + 16 == n) break;
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) v[i] = other1(g, dist, a, b);
}

/* float32 values; `round` (f16/bf16 targets) rounds every uniform to the target dtype first. */
static void fill_f32(tl_generator *g, float *v, int64_t n, tl_dist dist, double a, double b, bool contiguous,
                     float (*round)(float))
{
    if (dist == TL_DIST_UNIFORM) {
        float from = (float)a, to = (float)b;
        if (round) from = round(from), to = round(to);
        float span = to - from;
        for (int64_t i = 0; i < n; i++) { /* float32: scaled in double, as torch accumulates */
            float x = round ? round(u24(g) * span + from) : (float)((double)u24(g) * span + from);
            v[i] = x < to ? x : from;
        }
    } else if (dist == TL_DIST_NORMAL && contiguous && n >= 16) {
        /* float32 draws all uniforms first; float16/bfloat16 draw 16 per group (in float32) */
        float mean = (float)a, sd = (float)b;
        if (!round)
            for (int64_t i = 0; i < n; i++) v[i] = u24(g);
        for (int64_t i = 0;; i += 16) {
            if (i + 16 > n) {
                if (i == n) break;
                i = n - 16; /* a partial last group: the last 16 again, from fresh uniforms */
                for (int j = 0; j < 16; j++) v[i + j] = u24(g);
            } else if (round) {
                for (int j = 0; j < 16; j++) v[i + j] = u24(g);
            }
            for (int j = 0; j < 8; j++) {
                float r = sqrtf(-2.0f * logf(1.0f - v[i + j])), s, c;
                sincosf((float)(TWO_PI * (double)v[i + j + 8]), &s, &c);
                v[i + j] = r * c * sd + mean;
                v[i + j + 8] = r * s * sd + mean;
            }
            if (i + 16 == n) break;
        }
    } else {
        for (int64_t i = 0; i < n; i++) v[i] = (float)other1(g, dist, a, b);
    }
}

static float round_f16(float x) { return tl_f16_to_f32(tl_f32_to_f16(x)); }
static float round_bf16(float x) { return tl_bf16_to_f32(tl_f32_to_bf16(x)); }

int tl_mt_sample_(tl_tensor *t, tl_generator *g, tl_dist dist, double a, double b)
{
    tl_dtype d = (tl_dtype)t->dtype, real = tl_dtype_to_real(d);
    bool cplx = tl_dtype_is_complex(d);
    int64_t n = tl_numel(t) * (cplx ? 2 : 1);
    bool contiguous = tl_is_contiguous(t);
    if (cplx && dist == TL_DIST_NORMAL) b /= sqrt(2.0); /* each part has variance std^2 / 2 (torch divides) */
    bool f32 = real == TL_FLOAT32 || real == TL_FLOAT16 || real == TL_BFLOAT16;
    tl_tensor tmp = {0};
    void *dst;
    if (contiguous && (real == TL_FLOAT32 || real == TL_FLOAT64)) {
        dst = tl_data(t);
    } else { /* a working tensor copied into t afterwards, laid out in t's memory order, which
              * is the order torch's serial samplers visit a non-contiguous tensor in */
        tl_dtype work = cplx ? (f32 ? TL_COMPLEX64 : TL_COMPLEX128) : (f32 ? TL_FLOAT32 : TL_FLOAT64);
        if (tl_tensor_empty_like(&tmp, t, work, TL_MEMFMT_PRESERVE) < 0) return -1;
        dst = tl_data(&tmp);
    }
    if (f32)
        fill_f32(g, dst, n, dist, a, b, contiguous,
                 real == TL_FLOAT16 ? round_f16 : real == TL_BFLOAT16 ? round_bf16 : NULL);
    else
        tl_mt_fill_f64(g, dst, n, dist, a, b, contiguous);
    int rc = 0;
    if (tmp.storage) {
        rc = tl_copy_(t, &tmp);
        tl_tensor_clear(&tmp);
    }
    return rc;
}

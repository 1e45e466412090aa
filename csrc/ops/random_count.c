/* random_count.c - the counting distributions (poisson, binomial): rejection samplers that
 * draw a varying number of uniforms per element, so they run serially, element by element in
 * the row-major order of the result, as torch's CPU kernels do.
 *
 * The algorithms and their arithmetic are torch's, so that torch's default (MT19937) stream
 * gives torch's numbers:
 * - poisson (in double for every dtype): the product of uniforms below exp(-lambda) for
 *   lambda < 10, Hormann's transformed rejection (PTRS) above;
 * - binomial: inversion by geometric gaps when count * min(p, 1 - p) < 10, else Hormann's
 *   BTRS; torch computes some of the constants in the dtype of count/prob (float for float32)
 *   and the rest in double, reproduced here by instantiating the samplers per type.
 * Each uniform is a double in [0, 1): MT19937's 53-bit draw, or for a Philox generator two per
 * counter block, blocks reserved one at a time. Tensors of a backend device are sampled on the
 * host with the device's generator and copied over. */
#include <math.h>
#include <stdint.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/shape.h"
#include "kernels/hd_math.h"
#include "kernels/hd_random.h"
#include "ops/copy.h"
#include "ops/random.h"
#include "ops/random_mt.h"
#include "ops/view.h"

typedef struct {
    tl_generator *g;
    double buf[2];
    int left; /* Philox: values of buf not used yet */
} u01_src;

static double u01(u01_src *s)
{
    if (s->g->kind == TL_RNG_MT19937) return tl_mt_uniform_f64(s->g);
    if (s->left == 0) {
        uint32_t w[4];
        tl_philox_blocks(s->g->seed, tl_generator_reserve(s->g, 1), 1, w);
        tl_hd_sample_f64(TL_BRS_UNIFORM, w, 0.0, 1.0, s->buf);
        s->left = 2;
    }
    return s->buf[2 - s->left--];
}

static double poisson1(u01_src *s, double lambda)
{
    if (lambda >= 10) { /* transformed rejection (Hormann 1993) */
        double slam = sqrt(lambda), loglam = log(lambda);
        double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double U = u01(s) - 0.5, V = u01(s), us = 0.5 - fabs(U);
            int64_t k = tl_hd_to_i64(floor((2 * a / us + b) * U + lambda + 0.43));
            if (us >= 0.07 && V <= vr) return (double)k;
            if (k < 0 || (us < 0.013 && V > us)) continue;
            if (log(V) + log(invalpha) - log(a / (us * us) + b) <= -lambda + (double)k * loglam - lgamma((double)k + 1))
                return (double)k;
        }
    }
    if (lambda == 0) return 0;
    double enlam = exp(-lambda), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= u01(s);
        if (prod > enlam)
            x++;
        else
            return (double)x;
    }
}

/* Stirling's series tail log(k!) - (k + 1/2) log(k + 1) + (k + 1) - log(sqrt(2 pi)):
 * tabulated below 10, the asymptotic series above. */
static double stirling_tail(double k)
{
    static const double small[10] = {0.0810614667953272,  0.0413406959554092, 0.0276779256849983,
                                     0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                                     0.0118967099458917,  0.0104112652619720, 0.00925546218271273,
                                     0.00833056343336287};
    if (k <= 9) return small[(int)k];
    double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

/* The samplers for T = float or double: the expressions torch writes with its scalar_t
 * operands stay in T (float products, sqrtf, floorf, log1pf), the others are double. */
#define BINOMIAL_SAMPLERS(T, SFX, SQRT, FLOOR, LOG1P)                                                          \
    static T inversion_##SFX(u01_src *s, T count, T prob)                                                      \
    {                                                                                                          \
        double geom_sum = 0, logprob = LOG1P(-prob);                                                           \
        T num = 0;                                                                                             \
        for (;;) {                                                                                             \
            geom_sum += ceil(log(u01(s)) / logprob);                                                           \
            if (geom_sum > count) return num;                                                                  \
            num = num + 1;                                                                                     \
        }                                                                                                      \
    }                                                                                                          \
    static T btrs_##SFX(u01_src *s, T count, T prob)                                                           \
    {                                                                                                          \
        const double stddev = SQRT(count * prob * (1 - prob));                                                 \
        const double b = 1.15 + 2.53 * stddev, a = -0.0873 + 0.0248 * b + 0.01 * prob, c = count * prob + 0.5;  \
        const double v_r = 0.92 - 4.2 / b, r = prob / (1 - prob), alpha = (2.83 + 5.1 / b) * stddev;           \
        const double m = FLOOR((count + 1) * prob);                                                            \
        for (;;) {                                                                                             \
            double U = u01(s) - 0.5, V = u01(s), us = 0.5 - fabs(U);                                           \
            T k = (T)floor((2 * a / us + b) * U + c);                                                          \
            if (k < 0 || k > count) continue;                                                                  \
            if (us >= 0.07 && V <= v_r) return k;                                                              \
            V = log(V * alpha / (a / (us * us) + b));                                                          \
            double bound = (m + 0.5) * log((m + 1) / (r * (count - m + 1))) +                                  \
                           (count + 1) * log((count - m + 1) / (count - k + 1)) +                              \
                           (k + 0.5) * log(r * (count - k + 1) / (k + 1)) + stirling_tail(m) +                 \
                           stirling_tail(count - m) - stirling_tail(k) - stirling_tail(count - k);             \
            if (V <= bound) return k;                                                                          \
        }                                                                                                      \
    }                                                                                                          \
    static T binomial_##SFX(u01_src *s, T count, T prob)                                                       \
    {                                                                                                          \
        if (count <= 0 || prob <= 0) return 0;                                                                 \
        if (prob >= 1) return count;                                                                           \
        if (prob <= 0.5) return count * prob >= 10 ? btrs_##SFX(s, count, prob) : inversion_##SFX(s, count, prob); \
        if (prob > 0.5) {                                                                                      \
            T q = (T)(1.0 - prob);                                                                             \
            return count - (count * q >= 10 ? btrs_##SFX(s, count, q) : inversion_##SFX(s, count, q));         \
        }                                                                                                      \
        return (T)NAN; /* prob is NaN */                                                                       \
    }

BINOMIAL_SAMPLERS(float, f32, sqrtf, floorf, log1pf)
BINOMIAL_SAMPLERS(double, f64, sqrt, floor, log1p)

/* ---- entries ---- */

static int check_floating(const tl_tensor *t, const char *kernel, bool halves)
{
    tl_dtype d = (tl_dtype)t->dtype;
    if (d == TL_FLOAT32 || d == TL_FLOAT64 || (halves && (d == TL_FLOAT16 || d == TL_BFLOAT16))) return 0;
    return tl_err_dispatch(TL_ERR_NOTIMPL, d, "%s", kernel);
}

/* A dense host float64 copy of src broadcast to (nd, sz). */
static int host_f64(tl_tensor *out, const tl_tensor *src, int nd, const int64_t *sz)
{
    tl_tensor e = {0};
    if (tl_expand(&e, src, sz, nd) < 0) return -1;
    int rc = tl_tensor_empty(out, nd, sz, TL_FLOAT64, (tl_device){TL_DEV_CPU, -1}, false);
    if (rc == 0) rc = tl_copy_(out, &e);
    tl_tensor_clear(&e);
    return rc;
}

/* out (fresh, (nd, sz), dtype dt, on dev) <- the host float64 values v. */
static int finish(tl_tensor *out, tl_tensor *v, int nd, const int64_t *sz, tl_dtype dt, tl_device dev)
{
    int rc = tl_tensor_empty(out, nd, sz, dt, dev, false);
    if (rc == 0) rc = tl_copy_(out, v);
    if (rc < 0) tl_tensor_clear(out);
    return rc;
}

int tl_poisson(tl_tensor *out, const tl_tensor *rates, tl_generator *g)
{
    tl_dtype dt = (tl_dtype)rates->dtype;
    if (check_floating(rates, "poisson_cpu", true) < 0) return -1;
    if (rates->device.type == TL_DEV_META) return tl_tensor_empty(out, rates->ndim, rates->sizes, dt, rates->device, false);
    if (rates->device.type != TL_DEV_CPU && tl_backend_check(rates->device) < 0) return -1;
    if (!(g = tl_generator_for(g, rates->device))) return -1;
    tl_tensor v = {0};
    if (host_f64(&v, rates, rates->ndim, rates->sizes) < 0) return -1;
    double *p = (double *)tl_data(&v);
    int64_t n = tl_numel(&v);
    for (int64_t i = 0; i < n; i++)
        if (!(p[i] >= 0)) {
            tl_tensor_clear(&v);
            return tl_err(TL_ERR_RUNTIME, "invalid Poisson rate, expected rate to be non-negative");
        }
    u01_src s = {g, {0, 0}, 0};
    for (int64_t i = 0; i < n; i++) p[i] = poisson1(&s, p[i]); /* in place: each rate read once, first */
    int rc = finish(out, &v, rates->ndim, rates->sizes, dt, rates->device);
    tl_tensor_clear(&v);
    return rc;
}

int tl_binomial(tl_tensor *out, const tl_tensor *count, const tl_tensor *prob, tl_generator *g)
{
    tl_dtype dt = (tl_dtype)count->dtype;
    if (prob->dtype != count->dtype && check_floating(count, "binomial_cpu", false) == 0)
        return tl_err(TL_ERR_RUNTIME, "Found dtype %s but expected %s", tl_dtype_infos[prob->dtype].cname,
                      tl_dtype_infos[count->dtype].cname);
    if (check_floating(count, "binomial_cpu", false) < 0 || tl_device_expect(count->device, prob->device) < 0) return -1;
    int nd;
    int64_t sz[TL_MAX_DIMS];
    if (tl_broadcast_shapes(count->sizes, count->ndim, prob->sizes, prob->ndim, sz, &nd) < 0) return -1;
    if (count->device.type == TL_DEV_META) return tl_meta_refuse("aten::binomial");
    if (count->device.type != TL_DEV_CPU && tl_backend_check(count->device) < 0) return -1;
    if (!(g = tl_generator_for(g, count->device))) return -1;
    tl_tensor c = {0}, p = {0};
    int rc = host_f64(&c, count, nd, sz);
    if (rc == 0) rc = host_f64(&p, prob, nd, sz);
    if (rc == 0) {
        double *cv = (double *)tl_data(&c);
        const double *pv = (const double *)tl_data(&p);
        int64_t n = tl_numel(&c);
        u01_src s = {g, {0, 0}, 0};
        for (int64_t i = 0; i < n; i++) /* float32 values are exact in double and back */
            cv[i] = dt == TL_FLOAT32 ? binomial_f32(&s, (float)cv[i], (float)pv[i]) : binomial_f64(&s, cv[i], pv[i]);
        rc = finish(out, &c, nd, sz, dt, count->device);
    }
    tl_tensor_clear(&c);
    tl_tensor_clear(&p);
    return rc;
}

/* random.c - distribution samplers over Philox blocks.
 *
 * Value layout per call: float32 uniform/normal/bernoulli take one 32-bit word per
 * element (4 per block; normals pair words for Box-Muller); every other distribution and
 * dtype is computed in double from two words per element (2 per block). Work is split
 * across threads by element ranges; each range regenerates exactly its own blocks. The
 * formulas (Philox, the per-value transforms, the float32 normal's branch-free log and
 * sincos polynomials that vectorize) are kernels/hd_random.h's, shared with the device
 * backends' random entry: tensors on a backend device are filled there (backend/random.c)
 * with the same counter blocks, so a seed gives the same values on both. */
#include "ops/random.h"
#include "ops/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/random_core.h"
#include "core/convert.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "kernels/hd_random.h"
#include "ops/copy.h"
#include "ops/elementwise.h"
#include "ops/random_mt.h"
#include "ops/reduce.h"
#include "ops/view.h"

#define TILE 256 /* blocks per tile */

/* the backend's sampler codes are the tl_dist values */
_Static_assert((int)TL_DIST_UNIFORM == (int)TL_BRS_UNIFORM && (int)TL_DIST_NORMAL == (int)TL_BRS_NORMAL &&
               (int)TL_DIST_EXPONENTIAL == (int)TL_BRS_EXPONENTIAL && (int)TL_DIST_CAUCHY == (int)TL_BRS_CAUCHY &&
               (int)TL_DIST_LOG_NORMAL == (int)TL_BRS_LOG_NORMAL && (int)TL_DIST_GEOMETRIC == (int)TL_BRS_GEOMETRIC &&
               (int)TL_DIST_BERNOULLI == (int)TL_BRS_BERNOULLI, "tl_dist and TL_BRS_* differ");

/* ---- tiles: words of nb blocks -> values ---- */

/* float32, 4 values per block (uniform, normal, bernoulli). Cloned for AVX2 where the
 * CPU has it (runtime dispatch). */
TL_CLONES
static void tile_f32(const uint32_t *w, int64_t nwords, float *v, tl_dist dist, double a, double b)
{
    if (dist == TL_DIST_NORMAL) {
        float mean = (float)a, sd = (float)b;
        for (int64_t k = 0; k < nwords / 2; k++) tl_hd_normal_f32(w[2 * k], w[2 * k + 1], mean, sd, &v[2 * k], &v[2 * k + 1]);
    } else if (dist == TL_DIST_UNIFORM) {
        float from = (float)a, span = (float)(b - a), to = (float)b;
        for (int64_t k = 0; k < nwords; k++) v[k] = tl_hd_uniform_f32(w[k], from, span, to);
    } else { /* bernoulli */
        float p = (float)a;
        for (int64_t k = 0; k < nwords; k++) v[k] = tl_hd_bernoulli_f32(w[k], p);
    }
}

/* double, 2 values per block. */
static void tile_f64(const uint32_t *w, int64_t nblocks, double *v, tl_dist dist, double a, double b)
{
    for (int64_t k = 0; k < nblocks; k++) tl_hd_sample_f64((int)dist, w + 4 * k, a, b, v + 2 * k);
}

typedef struct {
    uint64_t seed, first;
    void *dst;
    bool f32;     /* 4 float values per block, else 2 double values per block */
    tl_dist dist;
    double a, b;
} fill_ctx;

static void fill_range(int64_t e0, int64_t e1, void *vctx)
{
    const fill_ctx *c = vctx;
    int vpb = c->f32 ? 4 : 2, isz = c->f32 ? 4 : 8;
    uint32_t w[4 * TILE];
    double vals[4 * TILE]; /* big enough for either type */
    int64_t blk = e0 / vpb, last = (e1 - 1) / vpb;
    while (blk <= last) {
        int64_t nb = last - blk + 1 < TILE ? last - blk + 1 : TILE;
        tl_philox_blocks(c->seed, c->first + (uint64_t)blk, nb, w);
        if (c->f32) tile_f32(w, 4 * nb, (float *)vals, c->dist, c->a, c->b);
        else tile_f64(w, nb, vals, c->dist, c->a, c->b);
        int64_t t0 = blk * vpb, t1 = (blk + nb) * vpb;
        int64_t lo = e0 > t0 ? e0 : t0, hi = e1 < t1 ? e1 : t1;
        memcpy((char *)c->dst + lo * isz, (char *)vals + (lo - t0) * isz, (size_t)(hi - lo) * isz);
        blk += nb;
    }
}

/* Fills n contiguous float (f32) or double values. */
static void fill_values(void *dst, int64_t n, bool f32, tl_generator *g, tl_dist dist, double a, double b)
{
    if (n <= 0) return;
    if (g->kind == TL_RNG_MT19937 && !f32) { /* float32 values of MT19937 go through tl_mt_sample_ */
        tl_mt_fill_f64(g, dst, n, dist, a, b, false);
        return;
    }
    int vpb = f32 ? 4 : 2;
    fill_ctx c = {g->seed, 0, dst, f32, dist, a, b};
    c.first = tl_generator_reserve(g, (uint64_t)((n + vpb - 1) / vpb));
    tl_parallel_for(n, 65536, fill_range, &c);
}

/* Raw 64-bit words, 2 per block (random_, randperm). */
typedef struct {
    uint64_t seed, first;
    uint64_t *dst;
} u64_ctx;

static void u64_range(int64_t e0, int64_t e1, void *vctx)
{
    const u64_ctx *c = vctx;
    uint32_t w[4 * TILE];
    int64_t blk = e0 / 2, last = (e1 - 1) / 2;
    while (blk <= last) {
        int64_t nb = last - blk + 1 < TILE ? last - blk + 1 : TILE;
        tl_philox_blocks(c->seed, c->first + (uint64_t)blk, nb, w);
        for (int64_t e = blk * 2 > e0 ? blk * 2 : e0; e < (blk + nb) * 2 && e < e1; e++) {
            const uint32_t *q = w + 2 * (e - blk * 2);
            c->dst[e] = tl_hd_u64(q[0], q[1]);
        }
        blk += nb;
    }
}

static void fill_u64(uint64_t *dst, int64_t n, tl_generator *g)
{
    if (n <= 0) return;
    u64_ctx c = {g->seed, tl_generator_reserve(g, (uint64_t)((n + 1) / 2)), dst};
    tl_parallel_for(n, 65536, u64_range, &c);
}

/* ---- dtype plumbing ---- */

/* meta_ok: the sampler returns before drawing for a meta tensor (nothing to fill). */
static int check_dtype_usable(const tl_tensor *t, const char *kernel, bool meta_ok)
{
    tl_dtype d = (tl_dtype)t->dtype;
    if (tl_dtype_is_shell(d) || d == TL_COMPLEX32)
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)d, "%s", kernel);
    if (t->device.type == TL_DEV_META && !meta_ok) return tl_meta_refuse(kernel);
    if (t->device.type != TL_DEV_CPU && t->device.type != TL_DEV_META && tl_backend_check(t->device) < 0) return -1;
    return tl_check_writable(t);
}

static int check_float(const tl_tensor *t, const char *kernel, bool allow_complex)
{
    tl_dtype d = (tl_dtype)t->dtype;
    if (!(tl_dtype_is_float(d) || (allow_complex && tl_dtype_is_complex(d))))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)d, "%s", kernel);
    return 0;
}

static int check_continuous(const tl_tensor *t, const char *what)
{
    tl_dtype d = (tl_dtype)t->dtype;
    if (!tl_dtype_is_float(d))
        return tl_err(TL_ERR_RUNTIME, "%s distribution is a continuous probability distribution. dtype must be a "
                                      "floating point but you specified %s", what, tl_dtype_infos[d].cname);
    return 0;
}

/* float32 uniforms in [a, b) bound for float16/bfloat16 (kernels/hd_random.h). */
static void keep_below_in_narrow(float *v, int64_t n, tl_dtype d, float a, float b)
{
    int bdt = d == TL_FLOAT16 ? TL_BDT_FLOAT16 : TL_BDT_BFLOAT16;
    for (int64_t i = 0; i < n; i++) v[i] = tl_hd_uniform_narrow(v[i], bdt, a, b);
}

static const char *dist_op(tl_dist dist)
{
    static const char *const names[] = {"uniform_", "normal_", "exponential_", "cauchy_", "log_normal_", "geometric_",
                                        "bernoulli_"};
    return names[dist];
}

static inline bool on_backend(const tl_tensor *t) { return tl_device_on_backend(t->device); }

/* Samples into t: directly when t is a contiguous float32/float64 (or complex, as pairs of
 * reals), else through a contiguous temporary and a casting copy; on a backend device, by
 * the backend's random entry with the same values (the mode and parameters decided here). */
static int sample_into(tl_tensor *t, tl_generator *g, tl_dist dist, double a, double b)
{
    tl_dtype d = (tl_dtype)t->dtype;
    int64_t n = tl_numel(t);
    if (n == 0 || t->device.type == TL_DEV_META) return 0;
    if (g->kind == TL_RNG_MT19937) return tl_mt_sample_(t, g, dist, a, b);
    bool cplx = tl_dtype_is_complex(d);
    tl_dtype real = tl_dtype_to_real(d);
    bool fast_f32 = dist == TL_DIST_UNIFORM || dist == TL_DIST_NORMAL || dist == TL_DIST_BERNOULLI;
    bool f32 = fast_f32 && (real == TL_FLOAT32 || real == TL_FLOAT16 || real == TL_BFLOAT16 || !tl_dtype_is_float(real));
    if (cplx && dist == TL_DIST_NORMAL) b *= 0.7071067811865476; /* each part has variance std^2 / 2 */
    if (on_backend(t)) return tl_backend_random(t, g, (int)dist, f32 ? TL_BRM_F32 : TL_BRM_F64, a, b, 0, 0, dist_op(dist));
    if ((real == TL_FLOAT32 && f32) || (real == TL_FLOAT64 && !f32)) {
        if (tl_is_contiguous(t)) {
            fill_values(tl_data(t), cplx ? 2 * n : n, f32, g, dist, a, b);
            return 0;
        }
    }
    /* temporary of the working type (complex: same complex dtype, filled as reals) */
    tl_dtype work = cplx ? (f32 ? TL_COMPLEX64 : TL_COMPLEX128) : (f32 ? TL_FLOAT32 : TL_FLOAT64);
    tl_tensor tmp = {0};
    if (tl_tensor_empty(&tmp, t->ndim, t->sizes, work, t->device, false) < 0) return -1;
    fill_values(tl_data(&tmp), cplx ? 2 * n : n, f32, g, dist, a, b);
    if (dist == TL_DIST_UNIFORM && (real == TL_FLOAT16 || real == TL_BFLOAT16))
        keep_below_in_narrow((float *)tl_data(&tmp), cplx ? 2 * n : n, real, (float)a, (float)b);
    int rc = tl_copy_(t, &tmp);
    tl_tensor_clear(&tmp);
    return rc;
}

int tl_random_dist_(tl_tensor *t, tl_generator *g, tl_dist dist, double a, double b)
{
    if (check_dtype_usable(t, "random", true) < 0 || !(g = tl_generator_for(g, t->device))) return -1;
    switch (dist) {
    case TL_DIST_UNIFORM:
        if (check_float(t, "check_uniform_bounds", true) < 0) return -1;
        if (!(a <= b))
            return tl_err(TL_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", a, b);
        break;
    case TL_DIST_NORMAL:
        if (check_float(t, "normal_kernel_cpu", true) < 0) return -1;
        if (!(b >= 0.0)) return tl_err(TL_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", b);
        break;
    case TL_DIST_EXPONENTIAL:
        if (check_continuous(t, "Exponential") < 0) return -1;
        if (!(a > 0.0)) return tl_err(TL_ERR_RUNTIME, "exponential_ expects lambda > 0.0, but found lambda=%g", a);
        break;
    case TL_DIST_CAUCHY:
        if (check_continuous(t, "Cauchy") < 0) return -1;
        if (!(b > 0.0)) return tl_err(TL_ERR_RUNTIME, "cauchy_ expects sigma > 0.0, but found sigma=%g", b);
        break;
    case TL_DIST_LOG_NORMAL:
        if (check_continuous(t, "log_normal") < 0) return -1;
        if (!(b > 0.0)) return tl_err(TL_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found std=%g", b);
        break;
    case TL_DIST_GEOMETRIC:
        if (tl_dtype_is_complex((tl_dtype)t->dtype))
            return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)(t->dtype), "geometric_cpu");
        if (!(a > 0.0 && a < 1.0)) return tl_err(TL_ERR_RUNTIME, "geometric_ expects p to be in (0, 1), but got p=%g", a);
        break;
    case TL_DIST_BERNOULLI:
        if (tl_dtype_is_complex((tl_dtype)t->dtype))
            return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)(t->dtype), "bernoulli_scalar_cpu_");
        if (!(a >= 0.0 && a <= 1.0)) return tl_err(TL_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%g", a);
        break;
    }
    return sample_into(t, g, dist, a, b);
}

/* Largest integer random_() may produce for dtype d (floats: 2^digits). */
static int64_t dtype_max(tl_dtype d)
{
    switch (d) {
    case TL_BOOL: return 1;
    case TL_UINT8: return 255;
    case TL_INT8: return 127;
    case TL_INT16: return 32767;
    case TL_INT32: return 2147483647;
    case TL_FLOAT16: return 1 << 11;
    case TL_BFLOAT16: return 1 << 8;
    case TL_FLOAT32: return 1 << 24;
    case TL_FLOAT64: return (int64_t)1 << 53;
    default: return INT64_MAX;
    }
}

static int64_t dtype_min(tl_dtype d)
{
    switch (d) {
    case TL_BOOL: case TL_UINT8: return 0;
    case TL_INT8: return -128;
    case TL_INT16: return -32768;
    case TL_INT32: return -2147483647 - 1;
    case TL_FLOAT16: return -(1 << 11);
    case TL_BFLOAT16: return -(1 << 8);
    case TL_FLOAT32: return -(1 << 24);
    case TL_FLOAT64: return -((int64_t)1 << 53);
    default: return INT64_MIN;
    }
}

static const char *c_type_name(tl_dtype d)
{
    switch (d) {
    case TL_BOOL: return "bool";
    case TL_UINT8: return "unsigned char";
    case TL_INT8: return "signed char";
    case TL_INT16: return "short";
    case TL_INT32: return "int";
    default: return "long";
    }
}

int tl_random_int_(tl_tensor *t, tl_generator *g, bool has_from, int64_t from, bool has_to, int64_t to)
{
    tl_dtype d = (tl_dtype)t->dtype;
    if (check_dtype_usable(t, "random_", true) < 0 || !(g = tl_generator_for(g, t->device))) return -1;
    if (tl_dtype_is_complex(d))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)d, "random_from_to_range_calc");
    uint64_t range; /* 0 means all 2^64 values */
    if (!has_from) from = 0;
    if (has_to) {
        if (from >= to)
            return tl_err(TL_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                          (long long)from, (long long)to);
        if (tl_dtype_is_integral(d) || d == TL_BOOL) {
            if (from < dtype_min(d) || from > dtype_max(d))
                return tl_err(TL_ERR_RUNTIME, "from is out of bounds for %s", c_type_name(d));
            if (to - 1 < dtype_min(d) || to - 1 > dtype_max(d))
                return tl_err(TL_ERR_RUNTIME, "to - 1 is out of bounds for %s", c_type_name(d));
        }
        range = (uint64_t)to - (uint64_t)from;
    } else {
        int64_t hi = dtype_max(d);
        if (has_from && (tl_dtype_is_integral(d) || d == TL_BOOL) && (from < dtype_min(d) || from > hi))
            return tl_err(TL_ERR_RUNTIME, "from is out of bounds for %s", c_type_name(d));
        if (has_from && from > hi)
            return tl_err(TL_ERR_RUNTIME, "random_ expects 'from' casted to dtype to be less than or equal to 'to' casted "
                                          "to dtype, but got from=%lld > to=%lld", (long long)from, (long long)hi);
        range = (uint64_t)hi - (uint64_t)from + 1;
    }
    int64_t n = tl_numel(t);
    if (n == 0 || t->device.type == TL_DEV_META) return 0;
    if (on_backend(t)) return tl_backend_random(t, g, TL_BRS_INT, TL_BRM_U64, 0.0, 0.0, (uint64_t)from, range, "random_");
    tl_tensor tmp = {0};
    if (tl_tensor_empty(&tmp, t->ndim, t->sizes, TL_INT64, t->device, false) < 0) return -1;
    uint64_t *u = (uint64_t *)tl_data(&tmp);
    if (g->kind == TL_RNG_MT19937) {
        for (int64_t i = 0; i < n; i++) u[i] = (uint64_t)from + tl_mt_below(g, range);
    } else {
        fill_u64(u, n, g);
        for (int64_t i = 0; i < n; i++) u[i] = tl_hd_int_value(u[i], (uint64_t)from, range);
    }
    int rc = tl_copy_(t, &tmp);
    tl_tensor_clear(&tmp);
    return rc;
}

/* A dense float64 copy of src broadcast to shape (nd, sz). */
static int dense_f64(tl_tensor *out, const tl_tensor *src, int nd, const int64_t *sz)
{
    if (tl_tensor_empty(out, nd, sz, TL_FLOAT64, src->device, false) < 0) return -1;
    return tl_copy_(out, src);
}

int tl_bernoulli_tensor_(tl_tensor *t, const tl_tensor *p, tl_generator *g)
{
    if (check_dtype_usable(t, "bernoulli_tensor_cpu_self_", false) < 0 || tl_device_expect(t->device, p->device) < 0 ||
        !(g = tl_generator_for(g, t->device)))
        return -1;
    if (!tl_dtype_is_float((tl_dtype)p->dtype))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)(p->dtype), "bernoulli_tensor_cpu_p_");
    tl_tensor pe = {0}; /* p expanded to t's shape (torch's expand_inplace and its message) */
    if (tl_expand(&pe, p, t->sizes, t->ndim) < 0) return -1;
    if (on_backend(t)) {
        /* the probabilities are read on the device: not checked against [0, 1] (torch's CUDA
         * kernel asserts on the device); u < p decides, as here */
        const tl_tensor *ins[2] = {&pe, NULL};
        int rc = tl_backend_random_params(t, g, TL_BRS_BERNOULLI, 0.0, 0.0, ins, "bernoulli_");
        tl_tensor_clear(&pe);
        return rc;
    }
    tl_tensor pd = {0}, v = {0};
    int rc = dense_f64(&pd, &pe, t->ndim, t->sizes);
    tl_tensor_clear(&pe);
    int64_t n = tl_numel(t);
    const double *pp = rc == 0 ? (const double *)tl_data(&pd) : NULL;
    for (int64_t i = 0; rc == 0 && i < n; i++)
        if (!(pp[i] >= 0.0 && pp[i] <= 1.0))
            rc = tl_err(TL_ERR_RUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                                        "message be improved?  If so, please report an enhancement request to PyTorch.)");
    if (rc == 0) rc = tl_tensor_empty(&v, t->ndim, t->sizes, TL_FLOAT64, t->device, false);
    if (rc == 0 && n) {
        double *u = (double *)tl_data(&v);
        if (g->kind == TL_RNG_MT19937 && p->dtype != TL_FLOAT64) /* torch draws float uniforms for float p */
            for (int64_t i = 0; i < n; i++) u[i] = tl_mt_uniform_f32(g);
        else
            fill_values(u, n, false, g, TL_DIST_UNIFORM, 0.0, 1.0);
        for (int64_t i = 0; i < n; i++) u[i] = u[i] < pp[i] ? 1.0 : 0.0;
        rc = tl_copy_(t, &v);
    }
    tl_tensor_clear(&pd);
    tl_tensor_clear(&v);
    return rc;
}

/* normal with tensor mean/std on a backend device: the values of the CPU's Philox path (z of
 * NORMAL(0, 1) in float64, mean + std * z, cast to dt), computed by the backend's random
 * entry. std is checked on a host copy (torch checks std.min() >= 0 and reads it back too). */
static int normal_on_backend(tl_tensor *out, const tl_tensor *mean, double mean_s, const tl_tensor *std, double std_s,
                             tl_generator *g, int nd, const int64_t *sz, tl_dtype dt)
{
    tl_device dev = (mean ? mean : std)->device;
    if (mean && std && tl_device_expect(mean->device, std->device) < 0) return -1;
    if (std) {
        tl_tensor h = {0}, hd = {0};
        int rc = tl_backend_to_host(&h, std);
        if (rc == 0) rc = dense_f64(&hd, &h, h.ndim, h.sizes);
        int64_t n = rc == 0 ? tl_numel(&hd) : 0;
        const double *s = rc == 0 ? (const double *)tl_data(&hd) : NULL;
        for (int64_t i = 0; i < n; i++)
            if (!(s[i] >= 0.0)) { rc = tl_err(TL_ERR_RUNTIME, "normal expects all elements of std >= 0.0"); break; }
        tl_tensor_clear(&h);
        tl_tensor_clear(&hd);
        if (rc < 0) return -1;
    }
    tl_tensor me = {0}, se = {0};
    int rc = tl_tensor_empty(out, nd, sz, dt, dev, false);
    if (rc == 0 && mean) rc = tl_expand(&me, mean, sz, nd);
    if (rc == 0 && std) rc = tl_expand(&se, std, sz, nd);
    const tl_tensor *ins[2] = {mean ? &me : NULL, std ? &se : NULL};
    if (rc == 0) rc = tl_backend_random_params(out, g, TL_BRS_NORMAL, mean_s, std_s, ins, "normal");
    if (rc < 0) tl_tensor_clear(out);
    tl_tensor_clear(&me);
    tl_tensor_clear(&se);
    return rc;
}

int tl_normal_tensor(tl_tensor *out, const tl_tensor *mean, double mean_s, const tl_tensor *std, double std_s,
                     tl_generator *g)
{
    if ((mean && mean->device.type == TL_DEV_META) || (std && std->device.type == TL_DEV_META))
        return tl_meta_refuse("normal"); /* torch has no meta kernel for it (what the gate said before) */
    int64_t sz[TL_MAX_DIMS];
    int nd = 0;
    if (mean && std) {
        if (tl_broadcast_shapes(mean->sizes, mean->ndim, std->sizes, std->ndim, sz, &nd) < 0) return -1;
    } else {
        const tl_tensor *t = mean ? mean : std;
        nd = t->ndim;
        memcpy(sz, t->sizes, sizeof(int64_t) * nd);
    }
    tl_dtype dt = (tl_dtype)(mean ? mean->dtype : std->dtype);
    if (!(g = tl_generator_for(g, (mean ? mean : std)->device))) return -1;
    if (!tl_dtype_is_float(dt))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dt, "normal_kernel_cpu");
    if (!std && !(std_s >= 0.0)) return tl_err(TL_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std_s);
    if ((mean && on_backend(mean)) || (std && on_backend(std)))
        return normal_on_backend(out, mean, mean_s, std, std_s, g, nd, sz, dt);
    tl_tensor md = {0}, sd = {0}, z = {0};
    int rc = 0;
    if (mean) rc = dense_f64(&md, mean, nd, sz);
    if (rc == 0 && std) rc = dense_f64(&sd, std, nd, sz);
    int64_t n = 1;
    for (int i = 0; i < nd; i++) n *= sz[i];
    if (rc == 0 && std) {
        const double *s = (const double *)tl_data(&sd);
        for (int64_t i = 0; i < n; i++)
            if (!(s[i] >= 0.0)) { rc = tl_err(TL_ERR_RUNTIME, "normal expects all elements of std >= 0.0"); break; }
    }
    if (rc == 0) rc = tl_tensor_empty(&z, nd, sz, TL_FLOAT64, (mean ? mean : std)->device, false);
    if (rc == 0 && g->kind == TL_RNG_MT19937) {
        /* torch draws normal_(0, 1) in the output dtype, then scales: same draws here */
        tl_tensor zd = {0};
        rc = dt == TL_FLOAT64 ? tl_tensor_alias(&zd, &z) : tl_tensor_empty(&zd, nd, sz, dt, z.device, false);
        if (rc == 0) rc = tl_mt_sample_(&zd, g, TL_DIST_NORMAL, 0.0, 1.0);
        if (rc == 0 && dt != TL_FLOAT64) rc = tl_copy_(&z, &zd);
        tl_tensor_clear(&zd);
    } else if (rc == 0) {
        fill_values(tl_data(&z), n, false, g, TL_DIST_NORMAL, 0.0, 1.0);
    }
    if (rc == 0) {
        double *zp = (double *)tl_data(&z);
        const double *m = mean ? (const double *)tl_data(&md) : NULL, *s = std ? (const double *)tl_data(&sd) : NULL;
        for (int64_t i = 0; i < n; i++) zp[i] = (m ? m[i] : mean_s) + (s ? s[i] : std_s) * zp[i];
        rc = tl_tensor_empty(out, nd, sz, dt, z.device, false);
        if (rc == 0) rc = tl_copy_(out, &z);
    }
    tl_tensor_clear(&md);
    tl_tensor_clear(&sd);
    tl_tensor_clear(&z);
    return rc;
}

/* randperm on a backend's device: the order of n random 63-bit keys from the device's generator
 * (its random entry), by its sort entry (stable, so even equal keys give a permutation). Not the
 * CPU's Fisher-Yates sequence: torch's CUDA randperm differs from its CPU one too. */
static int randperm_backend(tl_tensor *t, tl_generator *g, int64_t n)
{
    tl_tensor keys = {0}, sv = {0}, si = {0};
    int rc = tl_tensor_empty(&keys, 1, &n, TL_INT64, t->device, false);
    if (rc == 0) rc = tl_random_int_(&keys, g, false, 0, false, 0);
    if (rc == 0) rc = tl_sort(&sv, &si, &keys, 0, false);
    if (rc == 0) rc = tl_copy_(t, &si);
    if (keys.storage) tl_tensor_clear(&keys);
    if (sv.storage) tl_tensor_clear(&sv);
    if (si.storage) tl_tensor_clear(&si);
    return rc;
}

int tl_randperm_(tl_tensor *t, tl_generator *g)
{
    if (check_dtype_usable(t, "randperm_cpu", false) < 0 || !(g = tl_generator_for(g, t->device))) return -1;
    int64_t n = t->ndim == 1 ? t->sizes[0] : 0;
    if (n == 0) return 0;
    if (tl_dtype_is_float((tl_dtype)t->dtype) && n - 1 > dtype_max((tl_dtype)t->dtype))
        return tl_err(TL_ERR_RUNTIME, "n must be less than or equal to %lld for %s", (long long)dtype_max((tl_dtype)t->dtype) + 1,
                      tl_dtype_infos[t->dtype].name);
    if (tl_dtype_is_integral((tl_dtype)t->dtype) && n - 1 > dtype_max((tl_dtype)t->dtype))
        return tl_err(TL_ERR_RUNTIME, "n must be less than or equal to %lld for %s", (long long)dtype_max((tl_dtype)t->dtype) + 1,
                      tl_dtype_infos[t->dtype].name);
    if (on_backend(t)) return randperm_backend(t, g, n);
    tl_tensor tmp = {0}, r = {0};
    if (tl_tensor_empty(&r, 1, &n, TL_INT64, t->device, false) < 0) return -1;
    int64_t *p = (int64_t *)tl_data(&r);
    for (int64_t i = 0; i < n; i++) p[i] = i;
    if (g->kind == TL_RNG_MT19937) { /* torch's order: position i swaps with one at or after it */
        for (int64_t i = 0; i < n - 1; i++) {
            int64_t j = i + (int64_t)tl_mt_below(g, (uint64_t)(n - i)), s = p[i];
            p[i] = p[j];
            p[j] = s;
        }
    } else { /* Philox: one 64-bit word per position */
        if (tl_tensor_empty(&tmp, 1, &n, TL_INT64, t->device, false) < 0) { tl_tensor_clear(&r); return -1; }
        uint64_t *u = (uint64_t *)tl_data(&tmp);
        fill_u64(u, n, g);
        for (int64_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
            int64_t j = (int64_t)(u[i] % (uint64_t)(i + 1)), s = p[i];
            p[i] = p[j];
            p[j] = s;
        }
    }
    int rc = tl_copy_(t, &r);
    tl_tensor_clear(&tmp);
    tl_tensor_clear(&r);
    return rc;
}

/* multinomial on a backend's device, from its entries, with the CPU's numbers for a Philox
 * generator of the same state (the CPU's default generator is MT19937: there the CPU's numbers
 * differ, as torch's CPU and CUDA ones do). The steps are the CPU's, each an entry's call:
 * p = probs in float64 (a copy); per row the checks' inputs: all(p >= 0 and p != inf) (reduce
 * entry), the sum as the last of the cumulative sums (the scan entry adds in the CPU's order, so
 * it is the CPU's sum); these cross to the host and are checked row by row in the CPU's order
 * with its messages, before anything is drawn. Then the uniform doubles
 * the CPU draws (the random entry, the same counter blocks).
 * With replacement: x = u * sum; the CPU's binary search (first j with cdf[j] > x, at most the
 * last category, stepping back over zero-probability ones) is min(#{j: cdf[j] <= x}, L), L the
 * last positive category (cdf is non-decreasing, a zero p repeats its predecessor exactly):
 * the count by tl_count_le_rows (one sort of the row's cdf and samples together, a cumulative
 * count, a scatter); L = #{j: cumulative count of positive p < their total}.
 * Without replacement: the exponential race's keys p / -log1p(-u) (0 where p == 0), the top n
 * per row (the sort entry's topk): the CPU's categories wherever the row has n positive ones;
 * beyond them the zero-probability categories in row order (the CPU follows torch's selection
 * order). On a GPU log1p is libdevice's, which may differ from glibc's in the last bit (never
 * run on one). */
static int multinomial_backend(tl_tensor *out, const tl_tensor *probs, int64_t ns, bool replacement, tl_generator *g,
                               int64_t rows, int64_t cats)
{
    int64_t osz[2] = {rows, ns}, sh2[2] = {rows, cats};
    int ond = probs->ndim;
    if (ond == 1) osz[0] = ns;
    if (rows > 0 && cats == 0) /* every sum is 0 */
        return tl_err(TL_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
    if (rows == 0) return tl_tensor_empty(out, ond, osz, TL_INT64, probs->device, false);
    tl_tensor t[24];
    memset(t, 0, sizeof t);
    tl_tensor *pd = &t[0], *ge = &t[1], *fin = &t[2], *okv = &t[3], *rok = &t[4], *pos = &t[5], *cdf = &t[6],
              *cpos = &t[7], *h_ok = &t[8], *h_s = &t[9], *u = &t[11], *lt = &t[12], *lastp = &t[13],
              *x = &t[14], *e = &t[15], *e2 = &t[16], *q = &t[17], *keys = &t[18], *sv = &t[19], *si = &t[20];
    int64_t c1[2] = {cats, 1}, rs1[2] = {rows, 1};
    tl_ew_arg zero = {.t = NULL, .s = tl_scalar_int(0)}, inf = {.t = NULL, .s = tl_scalar_double(INFINITY)};
    int rc = tl_tensor_empty(pd, 2, sh2, TL_FLOAT64, probs->device, false);
    if (rc == 0) {
        tl_tensor pv = tl_tensor_geom(probs, 2, sh2, ond == 2 ? probs->strides : (int64_t[]){0, probs->strides[0]});
        rc = tl_copy_(pd, &pv);
    }
    tl_ew_arg pa = {.t = pd};
    if (rc == 0) rc = tl_ew_binary(TL_BOP_ge, pa, zero, &(tl_ew_dest){.mode = TL_EW_NEW, .out = ge}, NULL);
    if (rc == 0) rc = tl_ew_binary(TL_BOP_ne, pa, inf, &(tl_ew_dest){.mode = TL_EW_NEW, .out = fin}, NULL);
    if (rc == 0)
        rc = tl_ew_binary(TL_BOP_logical_and, (tl_ew_arg){.t = ge}, (tl_ew_arg){.t = fin},
                          &(tl_ew_dest){.mode = TL_EW_NEW, .out = okv}, NULL);
    if (rc == 0) rc = tl_reduce(rok, okv, TL_RED_ALL, 2, false, false, -1, 0.0);
    if (rc == 0) rc = tl_ew_binary(TL_BOP_gt, pa, zero, &(tl_ew_dest){.mode = TL_EW_NEW, .out = pos}, NULL);
    if (rc == 0) rc = tl_scan(cdf, NULL, pd, TL_SCAN_CUMSUM, 1, -1);
    if (rc == 0) rc = tl_scan(cpos, NULL, pos, TL_SCAN_CUMSUM, 1, TL_INT64);
    /* the last column of each: the row's sum and its count of positive p */
    tl_tensor sum = rc == 0 ? tl_tensor_geom(cdf, 2, rs1, c1) : (tl_tensor){0};
    tl_tensor nzc = rc == 0 ? tl_tensor_geom(cpos, 2, rs1, c1) : (tl_tensor){0};
    sum.offset += cats - 1;
    nzc.offset += cats - 1;
    if (rc == 0) rc = tl_backend_to_host(h_ok, rok);
    if (rc == 0) {
        tl_tensor sv1 = tl_tensor_geom(&sum, 1, &rows, &cats);
        rc = tl_backend_to_host(h_s, &sv1);
    }
    for (int64_t r = 0; rc == 0 && r < rows; r++) { /* the CPU's checks, row by row */
        if (!((const uint8_t *)tl_data(h_ok))[r])
            rc = tl_err(TL_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
        else if (!(((const double *)tl_data(h_s))[r] > 0.0))
            rc = tl_err(TL_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
    }
    if (rc == 0) rc = tl_tensor_empty(out, ond, osz, TL_INT64, probs->device, false);
    tl_tensor o2 = rc == 0 ? tl_tensor_geom(out, 2, (int64_t[]){rows, ns}, (int64_t[]){ns, 1}) : (tl_tensor){0};
    if (rc == 0) rc = tl_tensor_empty(u, 2, replacement ? (int64_t[]){rows, ns} : sh2, TL_FLOAT64, probs->device, false);
    if (rc == 0) rc = tl_random_dist_(u, g, TL_DIST_UNIFORM, 0.0, 1.0);
    if (rc == 0 && replacement) {
        /* L per row: the number of categories before the last positive one */
        rc = tl_ew_binary(TL_BOP_lt, (tl_ew_arg){.t = cpos}, (tl_ew_arg){.t = &nzc},
                          &(tl_ew_dest){.mode = TL_EW_NEW, .out = lt}, NULL);
        if (rc == 0) rc = tl_reduce(lastp, lt, TL_RED_SUM, 2, false, true, -1, 0.0); /* [rows, 1] */
        if (rc == 0)
            rc = tl_ew_binary(TL_BOP_mul, (tl_ew_arg){.t = u}, (tl_ew_arg){.t = &sum},
                              &(tl_ew_dest){.mode = TL_EW_NEW, .out = x}, NULL);
        tl_tensor cnt = {0};
        if (rc == 0) rc = tl_count_le_rows(&cnt, cdf, x); /* [rows, ns] */
        if (rc == 0)
            rc = tl_ew_binary(TL_BOP_minimum, (tl_ew_arg){.t = &cnt}, (tl_ew_arg){.t = lastp},
                              &(tl_ew_dest){.mode = TL_EW_OUT, .out = &o2}, NULL);
        if (cnt.storage) tl_tensor_clear(&cnt);
    } else if (rc == 0) { /* the exponential race */
        rc = tl_ew_unary(TL_UOP_neg, u, &(tl_ew_dest){.mode = TL_EW_NEW, .out = e}, NULL);
        if (rc == 0) rc = tl_ew_unary(TL_UOP_log1p, e, &(tl_ew_dest){.mode = TL_EW_NEW, .out = e2}, NULL);
        if (rc == 0) rc = tl_ew_unary(TL_UOP_neg, e2, &(tl_ew_dest){.mode = TL_EW_INPLACE, .out = e2}, NULL);
        if (rc == 0)
            rc = tl_ew_binary(TL_BOP_div, pa, (tl_ew_arg){.t = e2}, &(tl_ew_dest){.mode = TL_EW_NEW, .out = q}, NULL);
        if (rc == 0) rc = tl_ew_where(pos, (tl_ew_arg){.t = q}, zero, &(tl_ew_dest){.mode = TL_EW_NEW, .out = keys});
        if (rc == 0) rc = tl_topk(sv, si, keys, ns, 1, true, true);
        if (rc == 0) rc = tl_copy_(&o2, si);
    }
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (t[k].storage) tl_tensor_clear(&t[k]);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    return rc;
}

int tl_multinomial(tl_tensor *out, const tl_tensor *probs, int64_t ns, bool replacement, tl_generator *g)
{
    if (!(g = tl_generator_for(g, probs->device))) return -1;
    if (probs->ndim < 1 || probs->ndim > 2) return tl_err(TL_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
    if (!tl_dtype_is_float((tl_dtype)probs->dtype))
        return tl_err(TL_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: %s",
                      tl_dtype_infos[probs->dtype].cname);
    if (ns <= 0) return tl_err(TL_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
    int64_t rows = probs->ndim == 2 ? probs->sizes[0] : 1, cats = probs->sizes[probs->ndim - 1];
    if (!replacement && ns > cats)
        return tl_err(TL_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    if (on_backend(probs)) return multinomial_backend(out, probs, ns, replacement, g, rows, cats);
    tl_tensor pd = {0}, u = {0};
    int rc = dense_f64(&pd, probs, probs->ndim, probs->sizes);
    const double *p = rc == 0 ? (const double *)tl_data(&pd) : NULL;
    for (int64_t r = 0; rc == 0 && r < rows; r++) {
        double s = 0;
        for (int64_t j = 0; j < cats; j++) {
            double v = p[r * cats + j];
            if (!(v >= 0.0) || isinf(v)) {
                rc = tl_err(TL_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
                break;
            }
            s += v;
        }
        if (rc == 0 && !(s > 0.0)) rc = tl_err(TL_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
    }
    int64_t osz[2] = {rows, ns};
    int ond = probs->ndim;
    if (ond == 1) osz[0] = ns;
    int64_t nu = replacement ? rows * ns : rows * cats;
    if (rc == 0) rc = tl_tensor_empty(&u, 1, &nu, TL_FLOAT64, probs->device, false);
    if (rc == 0) rc = tl_tensor_empty(out, ond, osz, TL_INT64, probs->device, false);
    double *cdf = NULL;
    tl_tensor keys = {0}, kv = {0}, ki = {0};
    if (rc == 0 && replacement && !(cdf = malloc(sizeof(double) * (size_t)(cats ? cats : 1))))
        rc = tl_err(TL_ERR_MEMORY, "out of memory");
    if (rc == 0 && !replacement) rc = tl_tensor_empty(&keys, 2, (int64_t[]){rows, cats}, TL_FLOAT64, probs->device, false);
    if (rc == 0) {
        double *uu = (double *)tl_data(&u);
        int64_t *o = (int64_t *)tl_data(out);
        fill_values(uu, nu, false, g, TL_DIST_UNIFORM, 0.0, 1.0);
        for (int64_t r = 0; r < rows; r++) {
            const double *pr = p + r * cats;
            if (replacement) {
                double s = 0;
                for (int64_t j = 0; j < cats; j++) cdf[j] = (s += pr[j]);
                for (int64_t i = 0; i < ns; i++) {
                    double x = uu[r * ns + i] * s;
                    int64_t lo = 0, hi = cats - 1;
                    while (lo < hi) { /* first j with cdf[j] > x, skipping zero-probability categories */
                        int64_t mid = (lo + hi) / 2;
                        if (cdf[mid] > x) hi = mid;
                        else lo = mid + 1;
                    }
                    while (lo > 0 && pr[lo] == 0.0) lo--;
                    o[r * ns + i] = lo;
                }
            } else { /* the exponential race: the largest p_j / E_j win, in order */
                double *kr = (double *)tl_data(&keys) + r * cats;
                for (int64_t j = 0; j < cats; j++) kr[j] = pr[j] > 0.0 ? pr[j] / -log1p(-uu[r * cats + j]) : 0.0;
            }
        }
        /* as torch's CPU: the top ns keys by its selection, so the categories of probability 0
         * (key 0) that fill a draw of more samples than positive categories come in its order */
        if (!replacement) rc = tl_topk(&kv, &ki, &keys, ns, 1, true, true);
        if (rc == 0 && !replacement) {
            tl_tensor o2 = tl_tensor_geom(out, 2, (int64_t[]){rows, ns}, (int64_t[]){ns, 1});
            rc = tl_copy_(&o2, &ki);
        }
    }
    free(cdf);
    if (rc < 0 && out->storage) tl_tensor_clear(out);
    tl_tensor_clear(&keys);
    tl_tensor_clear(&kv);
    tl_tensor_clear(&ki);
    tl_tensor_clear(&pd);
    tl_tensor_clear(&u);
    return rc;
}

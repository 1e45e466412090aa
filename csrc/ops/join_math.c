/* join_math.c - trace, cross and renorm: typed strided kernels generated per dtype
 * (X-macro lists below), arithmetic as torch's CPU kernels do it (trace accumulates
 * floats in double and integers in int64; cross rounds every half-precision product and
 * difference like c10::Half; renorm takes each slice's p-norm over the other dims in
 * double, applies torch's scale factor in the norm's dtype, then one broadcast multiply). */
#include "ops/join.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/convert.h"
#include "core/error.h"
#include "core/iter.h"
#include "core/parallel.h"
#include "ops/copy.h"
#include "ops/index_util.h"
#include "named/unify.h"

/* ---- per-dtype value access ---------------------------------------------------------------- */

#define INT_IDS(X) X(UINT8, uint8_t) X(INT8, int8_t) X(INT16, int16_t) X(INT32, int32_t) X(INT64, int64_t)
#define REAL_IDS(X) X(FLOAT32, float) X(FLOAT64, double)
#define CPLX_IDS(X) X(COMPLEX64, float complex, float) X(COMPLEX128, double complex, double)

static inline float h_ld(uint16_t v, bool bf) { return bf ? tl_bf16_to_f32(v) : tl_f16_to_f32(v); }
static inline uint16_t h_st(float f, bool bf) { return bf ? tl_f32_to_bf16(f) : tl_f32_to_f16(f); }

/* ---- trace ------------------------------------------------------------------------------------ */

int tl_trace(tl_tensor *out, const tl_tensor *t)
{
    tl_dtype dt = (tl_dtype)t->dtype;
    if (tl_dtype_is_shell(dt) || dt == TL_BOOL || dt == TL_COMPLEX32)
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dt, "trace");
    if (t->ndim != 2) return tl_err(TL_ERR_RUNTIME, "trace: expected a matrix, but got tensor with dim %d", t->ndim);
    tl_dtype rt = tl_dtype_is_integral(dt) ? TL_INT64 : dt;
    int64_t n = t->sizes[0] < t->sizes[1] ? t->sizes[0] : t->sizes[1], step = t->strides[0] + t->strides[1];
    const char *p = tl_data(t);
    if (tl_tensor_empty(out, 0, NULL, rt, t->device, false) < 0) return -1;
    void *r = tl_data(out);
    switch (dt) {
#define TRACE_INT(ID, T)                                                                          \
    case TL_##ID: {                                                                               \
        uint64_t s = 0;                                                                           \
        for (int64_t i = 0; i < n; i++) s += (uint64_t)(int64_t)((const T *)p)[i * step];         \
        *(int64_t *)r = (int64_t)s;                                                               \
        break;                                                                                    \
    }
        INT_IDS(TRACE_INT)
#undef TRACE_INT
#define TRACE_REAL(ID, T)                                                                         \
    case TL_##ID: {                                                                               \
        double s = 0;                                                                             \
        for (int64_t i = 0; i < n; i++) s += ((const T *)p)[i * step];                            \
        *(T *)r = (T)s;                                                                           \
        break;                                                                                    \
    }
        REAL_IDS(TRACE_REAL)
#undef TRACE_REAL
#define TRACE_CPLX(ID, T, R)                                                                      \
    case TL_##ID: {                                                                               \
        double re = 0, im = 0;                                                                    \
        for (int64_t i = 0; i < n; i++) {                                                         \
            const R *v = (const R *)p + 2 * i * step;                                             \
            re += v[0], im += v[1];                                                               \
        }                                                                                         \
        ((R *)r)[0] = (R)re, ((R *)r)[1] = (R)im;                                                 \
        break;                                                                                    \
    }
        CPLX_IDS(TRACE_CPLX)
#undef TRACE_CPLX
    default: { /* float16 / bfloat16: float accumulator (torch's acc_type on CPU) */
        bool bf = dt == TL_BFLOAT16;
        float s = 0;
        for (int64_t i = 0; i < n; i++) s += h_ld(((const uint16_t *)p)[i * step], bf);
        *(uint16_t *)r = h_st(s, bf);
        break;
    }
    }
    return 0;
}

/* ---- cross ------------------------------------------------------------------------------------ */

typedef struct { int64_t ds[3]; } cross_ctx; /* byte strides of the length-3 dim: out, a, b */

/* r_k = a_j b_l - a_l b_j over the three components, each operand at its own stride. */
#define CROSS_BODY(LOAD, MUL, SUB, STORE)                                                         \
    const cross_ctx *c = ctx;                                                                     \
    for (int64_t i = 0; i < n; i++) {                                                             \
        const char *pa = d[1] + i * s[1], *pb = d[2] + i * s[2];                                  \
        char *po = d[0] + i * s[0];                                                               \
        __typeof__(LOAD(pa)) a0 = LOAD(pa), a1 = LOAD(pa + c->ds[1]), a2 = LOAD(pa + 2 * c->ds[1]); \
        __typeof__(LOAD(pb)) b0 = LOAD(pb), b1 = LOAD(pb + c->ds[2]), b2 = LOAD(pb + 2 * c->ds[2]); \
        STORE(po, SUB(MUL(a1, b2), MUL(a2, b1)));                                                 \
        STORE(po + c->ds[0], SUB(MUL(a2, b0), MUL(a0, b2)));                                      \
        STORE(po + 2 * c->ds[0], SUB(MUL(a0, b1), MUL(a1, b0)));                                  \
    }

#define PLAIN_MUL(x, y) ((x) * (y))
#define PLAIN_SUB(x, y) ((x) - (y))

#define CROSS_REAL(ID, T)                                                                         \
    static void cross_##ID(char **d, const int64_t *s, int64_t n, void *ctx)                      \
    {                                                                                             \
        CROSS_BODY(LD_##ID, PLAIN_MUL, PLAIN_SUB, ST_##ID)                                        \
    }

/* loads and stores per dtype: integers wrap through uint64 like C++'s int arithmetic
 * truncated back to the element type */
#define DEF_INT_LS(ID, T)                                                                         \
    static inline uint64_t LD_##ID(const char *p) { return (uint64_t)(int64_t) * (const T *)p; } \
    static inline void ST_##ID(char *p, uint64_t v) { *(T *)p = (T)v; }
INT_IDS(DEF_INT_LS)
#undef DEF_INT_LS
#define DEF_REAL_LS(ID, T)                                                                        \
    static inline T LD_##ID(const char *p) { return *(const T *)p; }                              \
    static inline void ST_##ID(char *p, T v) { *(T *)p = v; }
REAL_IDS(DEF_REAL_LS)
#undef DEF_REAL_LS

INT_IDS(CROSS_REAL)
REAL_IDS(CROSS_REAL)

/* half types: every product and difference rounds to the storage type, as c10::Half does */
#define HALF_CROSS(ID, BF)                                                                        \
    static inline float LD_##ID(const char *p) { return h_ld(*(const uint16_t *)p, BF); }         \
    static inline void ST_##ID(char *p, float v) { *(uint16_t *)p = h_st(v, BF); }                \
    static inline float RND_##ID(float v) { return h_ld(h_st(v, BF), BF); }                       \
    static inline float MUL_##ID(float x, float y) { return RND_##ID(x * y); }                    \
    static inline float SUB_##ID(float x, float y) { return x - y; }                              \
    static void cross_##ID(char **d, const int64_t *s, int64_t n, void *ctx)                      \
    {                                                                                             \
        CROSS_BODY(LD_##ID, MUL_##ID, SUB_##ID, ST_##ID)                                          \
    }
HALF_CROSS(FLOAT16, false)
HALF_CROSS(BFLOAT16, true)

/* complex: c10::complex's textbook product (no C99 Annex G inf/nan recovery) */
#define CPLX_CROSS(ID, T, R)                                                                      \
    typedef struct { R re, im; } cx_##ID;                                                         \
    static inline cx_##ID LD_##ID(const char *p) { return *(const cx_##ID *)p; }                  \
    static inline void ST_##ID(char *p, cx_##ID v) { *(cx_##ID *)p = v; }                         \
    static inline cx_##ID MUL_##ID(cx_##ID x, cx_##ID y)                                          \
    {                                                                                             \
        return (cx_##ID){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};                   \
    }                                                                                             \
    static inline cx_##ID SUB_##ID(cx_##ID x, cx_##ID y) { return (cx_##ID){x.re - y.re, x.im - y.im}; } \
    static void cross_##ID(char **d, const int64_t *s, int64_t n, void *ctx)                      \
    {                                                                                             \
        CROSS_BODY(LD_##ID, MUL_##ID, SUB_##ID, ST_##ID)                                          \
    }
CPLX_IDS(CPLX_CROSS)

static tl_loop_fn cross_kernel(tl_dtype dt)
{
    switch (dt) {
#define CASE2(ID, ...) case TL_##ID: return cross_##ID;
        INT_IDS(CASE2)
        REAL_IDS(CASE2)
        CPLX_IDS(CASE2)
#undef CASE2
    case TL_FLOAT16: return cross_FLOAT16;
    case TL_BFLOAT16: return cross_BFLOAT16;
    default: return NULL;
    }
}

int tl_cross(tl_tensor *out, const tl_tensor *a, const tl_tensor *b, int64_t dim)
{
    if (a->ndim != b->ndim) return tl_err(TL_ERR_RUNTIME, "linalg.cross: inputs must have the same number of dimensions.");
    if (a->dtype != b->dtype)
        return tl_err(TL_ERR_RUNTIME, "linalg.cross: expected input and other to have the same dtype, but got %s and %s",
                      tl_dtype_infos[a->dtype].cname, tl_dtype_infos[b->dtype].cname);
    tl_loop_fn kernel = cross_kernel((tl_dtype)a->dtype);
    if (!kernel) return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)(a->dtype), "cross");
    int d;
    if (tl_wrap_dim(dim, a->ndim, &d) < 0) return -1;
    if (a->sizes[d] != 3 || b->sizes[d] != 3)
        return tl_err(TL_ERR_RUNTIME, "linalg.cross: inputs dimension %lld must have length 3. Got %lld and %lld",
                      (long long)dim, (long long)a->sizes[d], (long long)b->sizes[d]);
    int64_t shape[TL_MAX_DIMS];
    int nd;
    if (tl_broadcast_shapes(a->sizes, a->ndim, b->sizes, b->ndim, shape, &nd) < 0) return -1;
    int32_t names[TL_MAX_DIMS];
    int named = tl_names_unify(names, a, b, nd); /* an elementwise op on vectors: names unify */
    if (named < 0) return -1;
    if (tl_tensor_empty(out, nd, shape, (tl_dtype)a->dtype, a->device, false) < 0) return -1;
    if (named && tl_tensor_set_names(out, names) < 0) {
        tl_tensor_clear(out);
        return -1;
    }
    if (tl_numel(out) == 0) return 0;
    /* iterate over everything but dim d (size 1 there); the kernel walks the 3 components */
    int64_t s1[TL_MAX_DIMS], az[TL_MAX_DIMS], bz[TL_MAX_DIMS];
    memcpy(s1, shape, 8 * (size_t)nd);
    memcpy(az, a->sizes, 8 * (size_t)nd);
    memcpy(bz, b->sizes, 8 * (size_t)nd);
    s1[d] = az[d] = bz[d] = 1;
    tl_tensor o = tl_tensor_geom(out, nd, s1, out->strides);
    tl_tensor av = tl_tensor_geom(a, nd, az, a->strides), bv = tl_tensor_geom(b, nd, bz, b->strides);
    int64_t isz = tl_itemsize(out);
    cross_ctx c = {{out->strides[d] * isz, a->strides[d] * isz, b->strides[d] * isz}};
    const tl_tensor *ops[3] = {&o, &av, &bv};
    tl_iter it;
    if (tl_iter_init(&it, 3, ops, s1, nd, 0) < 0) {
        tl_tensor_clear(out);
        return -1;
    }
    tl_iter_run(&it, kernel, &c, TL_GRAIN_SIZE / 4);
    return 0;
}

/* ---- renorm ----------------------------------------------------------------------------------- */

/* out = x * f[i] over contiguous [outer, S, inner] rows (row r = o * S + i) */
typedef struct {
    const char *x;
    char *out;
    const void *f; /* float or double factors, one per slice */
    int64_t S, inner;
    tl_dtype dt;
} scale_ctx;

/* rows [lo, hi) of length L; slice index i follows the row index modulo S */
#define SCALE_LOOP(T, W, F, CONV)                                                                 \
    {                                                                                             \
        const T *x = (const T *)c->x + W * lo * L;                                                \
        T *o = (T *)c->out + W * lo * L;                                                          \
        int64_t i = lo % c->S;                                                                    \
        for (int64_t r = lo; r < hi; r++, x += W * L, o += W * L) {                               \
            F f = CONV(((const F *)c->f)[i]);                                                     \
            for (int64_t j = 0; j < W * L; j++) o[j] = x[j] * f;                                  \
            if (++i == c->S) i = 0;                                                               \
        }                                                                                         \
    }
#define NO_CONV(v) (v)

static void scale_rows(int64_t lo, int64_t hi, void *vc)
{
    const scale_ctx *c = vc;
    int64_t L = c->inner;
    switch (c->dt) {
    case TL_FLOAT32: SCALE_LOOP(float, 1, float, NO_CONV) break;
    case TL_FLOAT64: SCALE_LOOP(double, 1, double, NO_CONV) break;
    case TL_COMPLEX64: SCALE_LOOP(float, 2, float, NO_CONV) break;
    case TL_COMPLEX128: SCALE_LOOP(double, 2, double, NO_CONV) break;
    default: { /* half types: the factor rounds to the input's dtype, then one rounded product */
        bool bf = c->dt == TL_BFLOAT16;
        const uint16_t *x = (const uint16_t *)c->x + lo * L;
        uint16_t *o = (uint16_t *)c->out + lo * L;
        int64_t i = lo % c->S;
        for (int64_t r = lo; r < hi; r++, x += L, o += L) {
            float f = h_ld(h_st(((const float *)c->f)[i], bf), bf);
            for (int64_t j = 0; j < L; j++) o[j] = h_st(h_ld(x[j], bf) * f, bf);
            if (++i == c->S) i = 0;
        }
        break;
    }
    }
}

/* |x|^p summed (or max'd for p = inf) into acc[i] for slice i of the contiguous [outer, S, inner]
 * buffer, accumulated in double; p == 2 and p == 1 skip pow. */
/* v^p by repeated multiplication for small integer p (pow() dominates renorm otherwise) */
static inline double ipow_or_pow(double v, double p)
{
    if (p == 3) return v * v * v;
    if (p == 4) return (v * v) * (v * v);
    return pow(v, p);
}

#define NORM_ACC(ABS)                                                                             \
    if (inner == 1 && (p == 2 || p == 1)) {                                                       \
        for (int64_t o = 0; o < outer; o++)                                                       \
            for (int64_t i = 0; i < S; i++) {                                                     \
                double v = ABS(o * S + i);                                                        \
                acc[i] += p == 2 ? v * v : v;                                                     \
            }                                                                                     \
    } else                                                                                        \
    for (int64_t o = 0; o < outer; o++)                                                           \
        for (int64_t i = 0; i < S; i++) {                                                         \
            int64_t base = (o * S + i) * inner;                                                   \
            double a = acc[i];                                                                    \
            if (p == 2 || p == 1) { /* 4 independent partial sums: no add-latency chain */       \
                double q[4] = {0, 0, 0, 0};                                                       \
                int64_t j = 0;                                                                    \
                for (; j + 4 <= inner; j += 4)                                                    \
                    for (int u = 0; u < 4; u++) {                                                 \
                        double v = ABS(base + j + u);                                             \
                        q[u] += p == 2 ? v * v : v;                                               \
                    }                                                                             \
                for (; j < inner; j++) { double v = ABS(base + j); q[0] += p == 2 ? v * v : v; }  \
                a += (q[0] + q[1]) + (q[2] + q[3]);                                               \
            }                                                                                     \
            else if (isinf(p))                                                                    \
                for (int64_t j = 0; j < inner; j++) { double v = ABS(base + j); a = v > a || isnan(v) ? v : a; } \
            else                                                                                  \
                for (int64_t j = 0; j < inner; j++) a += ipow_or_pow(ABS(base + j), p);           \
            acc[i] = a;                                                                           \
        }

static void slice_norms(const tl_tensor *xc, int d, double p, double *acc)
{
    int64_t outer = 1, inner = 1, S = xc->sizes[d];
    for (int k = 0; k < d; k++) outer *= xc->sizes[k];
    for (int k = d + 1; k < xc->ndim; k++) inner *= xc->sizes[k];
    for (int64_t i = 0; i < S; i++) acc[i] = 0;
    const char *x = tl_data(xc);
    switch ((tl_dtype)xc->dtype) {
#define A_F32(k) fabs((double)((const float *)x)[k])
#define A_F64(k) fabs(((const double *)x)[k])
#define A_C64(k) hypot((double)((const float *)x)[2 * (k)], (double)((const float *)x)[2 * (k) + 1])
#define A_C128(k) hypot(((const double *)x)[2 * (k)], ((const double *)x)[2 * (k) + 1])
#define A_F16(k) fabs((double)tl_f16_to_f32(((const uint16_t *)x)[k]))
#define A_BF16(k) fabs((double)tl_bf16_to_f32(((const uint16_t *)x)[k]))
    case TL_FLOAT32: NORM_ACC(A_F32) break;
    case TL_FLOAT64: NORM_ACC(A_F64) break;
    case TL_COMPLEX64: NORM_ACC(A_C64) break;
    case TL_COMPLEX128: NORM_ACC(A_C128) break;
    case TL_FLOAT16: NORM_ACC(A_F16) break;
    default: NORM_ACC(A_BF16) break;
    }
    if (!isinf(p))
        for (int64_t i = 0; i < S; i++) acc[i] = p == 2 ? sqrt(acc[i]) : p == 1 ? acc[i] : pow(acc[i], 1.0 / p);
}

int tl_renorm(tl_tensor *out, const tl_tensor *t, double p, int64_t dim, double maxnorm)
{
    tl_dtype dt = (tl_dtype)t->dtype;
    if (!(tl_dtype_is_float(dt) || tl_dtype_is_complex(dt)) || tl_dtype_is_shell(dt))
        return tl_err(TL_ERR_RUNTIME, "renorm: expected a floating point or complex tensor as input. Got %s", tl_dtype_infos[dt].cname);
    if (dt == TL_COMPLEX32) return tl_err_dispatch(TL_ERR_NOTIMPL, dt, "renorm");
    if (!(p > 0)) return tl_err(TL_ERR_RUNTIME, "renorm: non-positive-norm not supported");
    if (maxnorm < 0) return tl_err(TL_ERR_RUNTIME, "renorm: expected maxnorm to be >= 0 but got %g", maxnorm);
    if (t->ndim <= 1) return tl_err(TL_ERR_RUNTIME, "renorm: input needs at least 2 dimensions, got %d dimensions", t->ndim);
    int d;
    if (tl_wrap_dim(dim, t->ndim, &d) < 0) return -1;
    if (isinf(p))
        for (int k = 0; k < t->ndim; k++)
            if (k != d && t->sizes[k] == 0) /* (torch's text, missing space included) */
                return tl_err(TL_ERR_RUNTIME, "linalg.vector_norm cannot compute the inf norm on the dimension %d"
                                              "because this dimension is empty and the operation does not have an identity", k);
    /* per-slice norms (over every other dim), then torch's factor in the norm's dtype:
     * float for float32 and the half types, double for float64 */
    tl_tensor xc = {0}, norm = {0};
    int64_t nsz[TL_MAX_DIMS];
    for (int k = 0; k < t->ndim; k++) nsz[k] = k == d ? t->sizes[d] : 1;
    bool f64 = tl_dtype_to_real(dt) == TL_FLOAT64;
    if (tl_contiguous(&xc, t, TL_MEMFMT_CONTIGUOUS) < 0) return -1;
    if (tl_tensor_empty(&norm, t->ndim, nsz, f64 ? TL_FLOAT64 : TL_FLOAT32, t->device, false) < 0) {
        tl_tensor_clear(&xc);
        return -1;
    }
    int64_t S = t->sizes[d];
    double *acc = malloc(sizeof(double) * (size_t)(S + 1));
    if (!acc) {
        tl_tensor_clear(&xc);
        tl_tensor_clear(&norm);
        return tl_err(TL_ERR_MEMORY, "out of memory");
    }
    slice_norms(&xc, d, p, acc);
    if (f64) {
        double *v = (double *)tl_data(&norm);
        for (int64_t i = 0; i < S; i++) v[i] = acc[i] > maxnorm ? maxnorm / (acc[i] + 1e-7) : 1.0;
    } else {
        float *v = (float *)tl_data(&norm), mx = (float)maxnorm;
        for (int64_t i = 0; i < S; i++) {
            float nv = (float)acc[i];
            v[i] = nv > mx ? mx / (nv + 1e-7f) : 1.0f;
        }
    }
    free(acc);
    int rc = tl_tensor_empty(out, t->ndim, t->sizes, dt, t->device, false);
    if (rc == 0 && (rc = tl_tensor_copy_names(out, t)) < 0) tl_tensor_clear(out); /* keeps input names */
    if (rc == 0) {
        int64_t inner = 1;
        for (int k = d + 1; k < t->ndim; k++) inner *= t->sizes[k];
        scale_ctx c = {tl_data(&xc), tl_data(out), tl_data(&norm), S, inner, dt};
        int64_t rows = inner ? tl_numel(t) / inner : 0;
        tl_parallel_for(rows, inner ? TL_GRAIN_SIZE / inner + 1 : rows, scale_rows, &c);
    }
    tl_tensor_clear(&xc);
    tl_tensor_clear(&norm);
    return rc;
}

/* index_util.c - index validation and per-dtype accumulation for the indexing and
 * joining ops. */
#include "ops/index_util.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/convert.h"
#include "core/iter.h"
#include "kernels/cast.h"
#include "ops/copy.h"

/* ---- accumulation ------------------------------------------------------------------
 * Per dtype: storage type T, compute type C, load/store between them. Integers add and
 * multiply through their unsigned type (wrapping, no UB); bool sums are logical or. */
static inline float complex c32_ld(tl_complex32 v) { return CMPLXF(tl_f16_to_f32(v.re), tl_f16_to_f32(v.im)); }
static inline tl_complex32 c32_st(float complex c)
{
    tl_complex32 r = {tl_f32_to_f16(crealf(c)), tl_f32_to_f16(cimagf(c))};
    return r;
}
#define ID_(x) (x)
#define F16_LD(v) tl_f16_to_f32(v)
#define F16_ST(v) tl_f32_to_f16(v)
#define BF16_LD(v) tl_bf16_to_f32(v)
#define BF16_ST(v) tl_f32_to_bf16(v)
#define E4M3_LD(v) tl_f8e4m3fn_to_f32(v)
#define E4M3_ST(v) tl_f32_to_f8e4m3fn(v)
#define E5M2_LD(v) tl_f8e5m2_to_f32(v)
#define E5M2_ST(v) tl_f32_to_f8e5m2(v)
#define E4M3UZ_LD(v) tl_f8e4m3fnuz_to_f32(v)
#define E4M3UZ_ST(v) tl_f32_to_f8e4m3fnuz(v)
#define E5M2UZ_LD(v) tl_f8e5m2fnuz_to_f32(v)
#define E5M2UZ_ST(v) tl_f32_to_f8e5m2fnuz(v)

#define WRAP_ADD(UT, T) (T)((UT)a + (UT)b)
#define WRAP_MUL(UT, T) (T)((UT)a * (UT)b)
#define NAN_MAX ((a != a) ? a : (b != b) ? b : (a > b ? a : b))
#define NAN_MIN ((a != a) ? a : (b != b) ? b : (a < b ? a : b))

/* X(ID, T, C, LD, ST, ADD, MUL, HAS_ORDER) */
#define ARITH_LIST(X)                                                                          \
    X(BOOL, uint8_t, int, ID_, ID_, (a | b), (a & b), 1)                                       \
    X(UINT8, uint8_t, uint8_t, ID_, ID_, WRAP_ADD(uint8_t, uint8_t), WRAP_MUL(unsigned, uint8_t), 1) \
    X(INT8, int8_t, int8_t, ID_, ID_, WRAP_ADD(uint8_t, int8_t), WRAP_MUL(unsigned, int8_t), 1) \
    X(INT16, int16_t, int16_t, ID_, ID_, WRAP_ADD(uint16_t, int16_t), WRAP_MUL(unsigned, int16_t), 1) \
    X(INT32, int32_t, int32_t, ID_, ID_, WRAP_ADD(uint32_t, int32_t), WRAP_MUL(uint32_t, int32_t), 1) \
    X(INT64, int64_t, int64_t, ID_, ID_, WRAP_ADD(uint64_t, int64_t), WRAP_MUL(uint64_t, int64_t), 1) \
    X(FLOAT16, uint16_t, float, F16_LD, F16_ST, (a + b), (a * b), 1)                            \
    X(BFLOAT16, uint16_t, float, BF16_LD, BF16_ST, (a + b), (a * b), 1)                         \
    X(FLOAT8_E4M3FN, uint8_t, float, E4M3_LD, E4M3_ST, (a + b), (a * b), 1)                    \
    X(FLOAT8_E5M2, uint8_t, float, E5M2_LD, E5M2_ST, (a + b), (a * b), 1)                      \
    X(FLOAT8_E4M3FNUZ, uint8_t, float, E4M3UZ_LD, E4M3UZ_ST, (a + b), (a * b), 1)              \
    X(FLOAT8_E5M2FNUZ, uint8_t, float, E5M2UZ_LD, E5M2UZ_ST, (a + b), (a * b), 1)              \
    X(FLOAT32, float, float, ID_, ID_, (a + b), (a * b), 1)                                     \
    X(FLOAT64, double, double, ID_, ID_, (a + b), (a * b), 1)                                   \
    X(COMPLEX32, tl_complex32, float complex, c32_ld, c32_st, (a + b), (a * b), 0)              \
    X(COMPLEX64, float complex, float complex, ID_, ID_, (a + b), (a * b), 0)                   \
    X(COMPLEX128, double complex, double complex, ID_, ID_, (a + b), (a * b), 0)

/* X(ID, T, C, LD, ST): the dtypes with an order (amax/amin). */
#define ORD_LIST(X)                              \
    X(BOOL, uint8_t, int, ID_, ID_)              \
    X(UINT8, uint8_t, uint8_t, ID_, ID_)         \
    X(INT8, int8_t, int8_t, ID_, ID_)            \
    X(INT16, int16_t, int16_t, ID_, ID_)         \
    X(INT32, int32_t, int32_t, ID_, ID_)         \
    X(INT64, int64_t, int64_t, ID_, ID_)         \
    X(FLOAT16, uint16_t, float, F16_LD, F16_ST)  \
    X(BFLOAT16, uint16_t, float, BF16_LD, BF16_ST) \
    X(FLOAT32, float, float, ID_, ID_)           \
    X(FLOAT64, double, double, ID_, ID_)

/* One typed loop per (dtype, op): the strides and pointers live in registers (a callback
 * per element, or loop state read through pointers the stores may alias, costs twice the
 * time on the random destination accesses). The index-contiguous, source-packed case gets
 * its own loop body (the 1-D scatter and the inner dim of the n-d ones). */
#define SCAT_AHEAD 32
#define DEF_SCAT(NAME, T, C, LD, ST, EXPR)                                                              \
    static void NAME(char *o, int64_t os, const char *v, int64_t vs, const char *ix, int64_t xs,       \
                     int64_t st, int64_t n)                                                            \
    {                                                                                                  \
        if (xs == 8 && vs == (int64_t)sizeof(T)) {                                                     \
            const int64_t *restrict x = (const int64_t *)ix;                                           \
            const T *restrict pv = (const T *)v;                                                       \
            int64_t i = 0;                                                                             \
            for (; i + SCAT_AHEAD < n; i++) { /* random targets: ask for the line early */             \
                __builtin_prefetch(o + (i + SCAT_AHEAD) * os + x[i + SCAT_AHEAD] * st, 1, 1);          \
                T *p = (T *)(o + i * os + x[i] * st);                                                  \
                C a = LD(*p), b = LD(pv[i]);                                                           \
                *p = ST(EXPR);                                                                         \
            }                                                                                          \
            for (; i < n; i++) {                                                                       \
                T *p = (T *)(o + i * os + x[i] * st);                                                  \
                C a = LD(*p), b = LD(pv[i]);                                                           \
                *p = ST(EXPR);                                                                         \
            }                                                                                          \
            return;                                                                                    \
        }                                                                                              \
        for (int64_t i = 0; i < n; i++) {                                                              \
            T *p = (T *)(o + i * os + *(const int64_t *)(ix + i * xs) * st);                           \
            C a = LD(*p), b = LD(*(const T *)(v + i * vs));                                            \
            *p = ST(EXPR);                                                                             \
        }                                                                                              \
    }
#define DEF_SCAT_ARITH(ID, T, C, LD, ST, ADD, MUL, ORD) \
    DEF_SCAT(scat_sum_##ID, T, C, LD, ST, ADD)          \
    DEF_SCAT(scat_prod_##ID, T, C, LD, ST, MUL)
ARITH_LIST(DEF_SCAT_ARITH)
#define DEF_SCAT_ORD(ID, T, C, LD, ST)           \
    DEF_SCAT(scat_max_##ID, T, C, LD, ST, NAN_MAX) \
    DEF_SCAT(scat_min_##ID, T, C, LD, ST, NAN_MIN)
ORD_LIST(DEF_SCAT_ORD)

tl_scatter_loop tl_scatter_loop_for(tl_dtype dt, tl_reduce_op op, const char *kernel)
{
    switch (op) {
    case TL_RED_SUM:
    case TL_RED_MEAN:
        if (op == TL_RED_MEAN && dt == TL_BOOL) break;
        switch (dt) {
#define CASE_SUM(ID, ...) case TL_##ID: return scat_sum_##ID;
            ARITH_LIST(CASE_SUM)
        default: break;
        }
        break;
    case TL_RED_PROD:
        switch (dt) {
#define CASE_PROD(ID, ...) case TL_##ID: return scat_prod_##ID;
            ARITH_LIST(CASE_PROD)
        default: break;
        }
        break;
    case TL_RED_AMAX:
    case TL_RED_AMIN: {
        bool mx = op == TL_RED_AMAX;
        switch (dt) {
#define CASE_ORD(ID, ...) case TL_##ID: return mx ? scat_max_##ID : scat_min_##ID;
            ORD_LIST(CASE_ORD)
        default: break;
        }
        break;
    }
    default: break;
    }
    tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dt, "%s", kernel);
    return NULL;
}

void tl_elem_identity(char *out, tl_dtype dt, tl_reduce_op op)
{
    tl_scalar_to_bytes(tl_elem_identity_scalar(dt, op), dt, out);
}

tl_scalar tl_elem_identity_scalar(tl_dtype dt, tl_reduce_op op)
{
    tl_scalar s;
    bool is_f = tl_dtype_is_float(dt) || tl_dtype_is_complex(dt);
    switch (op) {
    case TL_RED_PROD: s = tl_scalar_int(1); break;
    case TL_RED_AMAX:
        if (is_f) s = tl_scalar_double(-INFINITY);
        else if (dt == TL_BOOL || !tl_dtype_infos[dt].is_signed) s = tl_scalar_int(0);
        else s = tl_scalar_int(dt == TL_INT64 ? INT64_MIN : -(INT64_C(1) << (8 * tl_dtype_itemsize(dt) - 1)));
        break;
    case TL_RED_AMIN:
        if (is_f) s = tl_scalar_double(INFINITY);
        else if (dt == TL_BOOL) s = tl_scalar_int(1);
        else if (dt == TL_INT64) s = tl_scalar_int(INT64_MAX);
        else s = tl_scalar_int(tl_dtype_infos[dt].is_signed ? (INT64_C(1) << (8 * tl_dtype_itemsize(dt) - 1)) - 1
                                                              : (INT64_C(1) << (8 * tl_dtype_itemsize(dt))) - 1);
        break;
    default: s = tl_scalar_int(0); break;
    }
    return s;
}

void tl_elem_div_count(char *dst, tl_dtype dt, int64_t count)
{
    tl_scalar v = tl_scalar_from_bytes(dst, dt);
    if (v.kind == TL_KIND_COMPLEX) v.v.c /= (double)count;
    else if (v.kind == TL_KIND_FLOAT) v.v.d /= (double)count;
    else {
        int64_t q = v.v.i / count;
        if ((v.v.i % count != 0) && ((v.v.i < 0) != (count < 0))) q--;
        v.v.i = q;
    }
    tl_scalar_to_bytes(v, dt, dst);
}


/* Typed divisions for the common dtypes: floats through double, as tl_elem_div_count
 * (one rounding of the exact quotient), integers floored. */
#define DIV_LIST(X) X(UINT8, uint8_t) X(INT8, int8_t) X(INT16, int16_t) X(INT32, int32_t) X(INT64, int64_t) \
    X(FLOAT32, float) X(FLOAT64, double)
#define DEF_DIV(ID, T)                                                                       \
    static void div_##ID(char *p, int64_t ps, const int64_t *cnt, int64_t n)                 \
    {                                                                                        \
        for (int64_t i = 0; i < n; i++) {                                                    \
            int64_t k = cnt[i];                                                              \
            if (k <= 1) continue;                                                            \
            T *q = (T *)(p + i * ps);                                                        \
            if ((T)0.5 != 0) {                                                               \
                *q = (T)((double)*q / (double)k);                                            \
            } else {                                                                         \
                int64_t v = (int64_t)*q, r = v / k;                                          \
                *q = (T)(r - (v % k != 0 && v < 0));                                         \
            }                                                                                \
        }                                                                                    \
    }
DIV_LIST(DEF_DIV)

void tl_elem_div_counts(char *p, int64_t ps, const int64_t *cnt, int64_t n, tl_dtype dt)
{
    switch (dt) {
#define CASE_DIV(ID, T) case TL_##ID: div_##ID(p, ps, cnt, n); return;
        DIV_LIST(CASE_DIV)
    default:
        for (int64_t i = 0; i < n; i++)
            if (cnt[i] > 1) tl_elem_div_count(p + i * ps, dt, cnt[i]);
    }
}

/* ---- index tensors -------------------------------------------------------------------- */

int tl_check_index_dtype(const tl_tensor *idx, const char *opname, bool allow_int32)
{
    if (idx->dtype == TL_INT64 || (allow_int32 && idx->dtype == TL_INT32)) return 0;
    return tl_err(TL_ERR_RUNTIME, "%s(): Expected dtype %s for index", opname, allow_int32 ? "int32 or int64" : "int64");
}

int tl_index_as_i64(tl_tensor *out, const tl_tensor *idx)
{
    if (idx->dtype == TL_INT64 && tl_is_contiguous(idx)) return tl_tensor_alias(out, idx);
    return tl_clone(out, idx, TL_INT64, TL_MEMFMT_CONTIGUOUS);
}

int tl_check_index_range(const tl_tensor *idx, int64_t size, int dim, tl_errkind kind)
{
    const int64_t *p = (const int64_t *)tl_data(idx);
    int64_t n = tl_numel(idx);
    int64_t bad = 0;
    int found = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = p[i];
        if (v < -size || v >= size) { bad = v; found = 1; break; }
    }
    if (!found) return 0;
    return tl_err(kind, "index %lld is out of bounds for dimension %d with size %lld", (long long)bad, dim, (long long)size);
}

int tl_check_unnamed(const tl_tensor *t, const char *opname)
{
    if (!t->names) return 0;
    return tl_err(TL_ERR_RUNTIME, "%s is not yet supported with named tensors. Please drop names via "
                  "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names on the result "
                  "of the operation.", opname);
}

typedef struct { tl_scatter_loop fn; char v[16]; } scale_ctx;
/* d[0] *= v: the product scatter with every index 0 and the value at stride 0 */
static void scale_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    scale_ctx *c = ctx;
    const int64_t zero = 0;
    c->fn(d[0], s[0], c->v, 0, (const char *)&zero, 0, 0, n);
}

int tl_scale_(tl_tensor *t, tl_scalar s)
{
    if (tl_check_writable(t) < 0) return -1;
    scale_ctx c;
    if (!(c.fn = tl_scatter_loop_for((tl_dtype)t->dtype, TL_RED_PROD, "mul"))) return -1;
    if (tl_scalar_to_bytes(s, (tl_dtype)t->dtype, c.v) < 0) return -1;
    const tl_tensor *ops[1] = {t};
    tl_iter it;
    if (tl_iter_init(&it, 1, ops, t->sizes, t->ndim, 0) < 0) return -1;
    tl_iter_run(&it, scale_loop, &c, 0);
    return 0;
}

/* hd_ewp.h - the element math of the backend's parameterised and three-input ops
 * (TL_BACKEND_XOP_LIST in backend/backend.h: clamp with scalar bounds, add with alpha, lerp,
 * where, addcmul, addcdiv, isclose, round with decimals, logit, nan_to_num), compiled for the
 * host (C11) and the device (nvcc) like hd_math.h.
 * The formulas are the CPU kernels' (kernels/ew_unary.c, ew_binary.c, ew_ternary.c) in the
 * compute dtype: integers wrap through unsigned 64-bit arithmetic truncated to the compute
 * type (the low bits of the CPU's 32-bit wrap), floats run in float or double (float16 and
 * bfloat16 compute in float32, rounded once on store), complex values use hd_math.h's
 * product (complex division: double-precision Smith, as libgcc's for operands away from
 * overflow and underflow). csrc/cuda/elementwise.cu and the host runner (backend/hd_check.c) call
 * tl_hd_ewp per element. */
#ifndef TL_HD_EWP_H
#define TL_HD_EWP_H

#include "kernels/hd_math.h"

/* 1 when the xop is defined for compute dtype code cdt (the list's flags). */
static inline TL_HD int tl_hd_xop_ok(int op, int cdt)
{
    switch (op) {
#define TL_X_OK(N, NIN, OUT, B, U, I, F, H, C)                                                           \
    case TL_XOP_##N:                                                                                 \
        return cdt == TL_BDT_BOOL ? B : cdt == TL_BDT_UINT8 ? U                                       \
             : cdt >= TL_BDT_INT8 && cdt <= TL_BDT_INT64 ? I                                          \
             : cdt == TL_BDT_FLOAT32 || cdt == TL_BDT_FLOAT64 ? F                                     \
             : cdt == TL_BDT_COMPLEX64 || cdt == TL_BDT_COMPLEX128 ? C : 0;
        TL_BACKEND_XOP_LIST(TL_X_OK)
#undef TL_X_OK
    default: return 0;
    }
}

/* The dtype of the xop's result for compute dtype cdt: bool for OUT BOOL. */
static inline TL_HD int tl_hd_xop_rdt(int op, int cdt)
{
    switch (op) {
#define TL_X_BOOL_SAME(c)
#define TL_X_BOOL_BOOL(c) case c:
#define TL_X_RDT(N, NIN, OUT, ...) TL_X_BOOL_##OUT(TL_XOP_##N)
        TL_BACKEND_XOP_LIST(TL_X_RDT) return TL_BDT_BOOL;
#undef TL_X_RDT
#undef TL_X_BOOL_BOOL
#undef TL_X_BOOL_SAME
    default: return cdt;
    }
}

/* The value of an input converted to the compute dtype cdt, widened: integers to int64. */
static inline TL_HD int64_t tl_hd_ewp_int(const char *a, int adt, int cdt)
{
    char v[16];
    tl_hd_convert(v, cdt, a, adt);
    switch (cdt) {
    case TL_BDT_BOOL: case TL_BDT_UINT8: return *(const uint8_t *)v;
    case TL_BDT_INT8: return *(const int8_t *)v;
    case TL_BDT_INT16: return *(const int16_t *)v;
    case TL_BDT_INT32: return *(const int32_t *)v;
    default: return *(const int64_t *)v;
    }
}

/* An int64 parameter as the compute type sees it ((T)i[k]: truncated, also for bool), widened. */
static inline TL_HD int64_t tl_hd_ewp_iprm(int64_t v, int cdt)
{
    return tl_hd_ewp_int((const char *)&v, TL_BDT_INT64, cdt == TL_BDT_BOOL ? TL_BDT_UINT8 : cdt);
}

/* The op in an integer or bool compute dtype, widened to int64 (truncated to the result dtype
 * on store). */
static inline TL_HD int64_t tl_hd_ewp_int_op(int op, int cdt, int64_t x, int64_t y, int64_t z,
                                             const tl_backend_ew_params *p)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y, uz = (uint64_t)z, r = ux;
    int64_t p0 = tl_hd_ewp_iprm(p->i[0], cdt), p1 = tl_hd_ewp_iprm(p->i[1], cdt);
    switch (op) {
    case TL_XOP_CLAMP: r = (uint64_t)(x < p0 ? p0 : x); r = (uint64_t)((int64_t)r > p1 ? p1 : (int64_t)r); break;
    case TL_XOP_CLAMP_MIN: r = (uint64_t)(x < p0 ? p0 : x); break;
    case TL_XOP_CLAMP_MAX: r = (uint64_t)(x > p1 ? p1 : x); break;
    case TL_XOP_ADD_ALPHA: r = cdt == TL_BDT_BOOL ? (uint64_t)(x || (y && p0)) : ux + (uint64_t)p0 * uy; break;
    case TL_XOP_WHERE: r = x ? uy : uz; break;
    case TL_XOP_ADDCMUL: r = ux + (uint64_t)p0 * uy * uz; break;
    case TL_XOP_ISCLOSE: r = cdt == TL_BDT_BOOL ? x == y : TL_HD_ISCLOSE_I(x, y, p->d[0], p->d[1]); break;
    default: break; /* NAN_TO_NUM: x */
    }
    return (int64_t)r;
}

#define TL_HD_EWP_FLOAT(SUF, T, M)                                                                   \
    static inline TL_HD T tl_hd_ewp_float##SUF(int op, T x, T y, T z, const tl_backend_ew_params *p) \
    {                                                                                                \
        const T p0 = (T)p->d[0], p1 = (T)p->d[1], p2 = (T)p->d[2];                                   \
        const int flag = p->i[2] != 0;                                                               \
        switch (op) {                                                                                \
        case TL_XOP_CLAMP:                                                                           \
            if (x != x) return x;                                                                    \
            if (p0 != p0) return p0;                                                                 \
            if (p1 != p1) return p1;                                                                 \
            {                                                                                        \
                T t = x < p0 ? p0 : x;                                                               \
                return t > p1 ? p1 : t;                                                              \
            }                                                                                        \
        case TL_XOP_CLAMP_MIN: return p0 != p0 ? p0 : x < p0 ? p0 : x;                               \
        case TL_XOP_CLAMP_MAX: return p1 != p1 ? p1 : x > p1 ? p1 : x;                               \
        case TL_XOP_ADD_ALPHA: return x + p0 * y;                                                    \
        case TL_XOP_LERP_S: return M(fabs)(p0) < (T)0.5 ? x + p0 * (y - x) : y - (y - x) * ((T)1 - p0); \
        case TL_XOP_WHERE: return x != 0 ? y : z;                                                    \
        case TL_XOP_LERP: return M(fabs)(z) < (T)0.5 ? x + z * (y - x) : y - (y - x) * ((T)1 - z);   \
        case TL_XOP_ADDCMUL: return x + p0 * y * z;                                                  \
        case TL_XOP_ADDCDIV: return x + p0 * y / z;                                                  \
        case TL_XOP_ISCLOSE: return (T)TL_HD_ISCLOSE_F(M, T, x, y, p->d[0], p->d[1], flag);          \
        case TL_XOP_ROUND_DEC: return TL_HD_ROUND_DEC(M, x, p0, flag);                               \
        case TL_XOP_LOGIT: return tl_hd_logit_##SUF(x, p0, flag, (int)p->i[1]);                       \
        case TL_XOP_NAN_TO_NUM: return TL_HD_NTN(T, x, p0, p1, p2);                                  \
        case TL_XOP_POLYGAMMA: return tl_hd_polygamma_##SUF(x, p->i[0]);                             \
        default: return x;                                                                           \
        }                                                                                            \
    }
TL_HD_EWP_FLOAT(f, float, TL_HD_MF)
TL_HD_EWP_FLOAT(, double, TL_HD_MD)
#undef TL_HD_EWP_FLOAT

/* complex division as the CPU's (libgcc's __divsc3/__divdc3: hd_math.h's tl_hd_cdiv_f/_) */
static inline TL_HD tl_hd_c64 tl_hd_ewp_cdiv_f(tl_hd_c64 a, tl_hd_c64 b) { return tl_hd_cdiv_f(a, b); }
static inline TL_HD tl_hd_c128 tl_hd_ewp_cdiv_(tl_hd_c128 a, tl_hd_c128 b) { return tl_hd_cdiv_(a, b); }

/* lerp as the CPU's C99 complex code: |w| = hypot (cabs), 1 - w = (1 - re, 0 - im) */
#define TL_HD_CLERP(SUF, R, M, x, y, w)                                                               \
    (M(hypot)((w).re, (w).im) < (R)0.5                                                               \
         ? (t = tl_hd_cmul_##SUF(w, tl_hd_cmk_##SUF((y).re - (x).re, (y).im - (x).im)),              \
            tl_hd_cmk_##SUF((x).re + t.re, (x).im + t.im))                                           \
         : (t = tl_hd_cmul_##SUF(tl_hd_cmk_##SUF((y).re - (x).re, (y).im - (x).im),                  \
                                 tl_hd_cmk_##SUF((R)1 - (w).re, (R)0 - (w).im)),                     \
            tl_hd_cmk_##SUF((y).re - t.re, (y).im - t.im)))
#define TL_HD_EWP_CPLX(SUF, C, R, M)                                                                 \
    static inline TL_HD C tl_hd_ewp_cplx##SUF(int op, C x, C y, C z, const tl_backend_ew_params *p)  \
    {                                                                                                \
        const C p0 = tl_hd_cmk_##SUF((R)p->c[0][0], (R)p->c[0][1]);                                  \
        C t;                                                                                         \
        switch (op) {                                                                                \
        case TL_XOP_ADD_ALPHA:                                                                       \
            t = tl_hd_cmul_##SUF(p0, y);                                                             \
            return tl_hd_cmk_##SUF(x.re + t.re, x.im + t.im);                                        \
        case TL_XOP_WHERE: return (x.re != 0 || x.im != 0) ? y : z;                                  \
        case TL_XOP_ADDCMUL:                                                                         \
            t = tl_hd_cmul_##SUF(tl_hd_cmul_##SUF(p0, y), z);                                        \
            return tl_hd_cmk_##SUF(x.re + t.re, x.im + t.im);                                        \
        case TL_XOP_ADDCDIV:                                                                         \
            t = tl_hd_ewp_cdiv_##SUF(tl_hd_cmul_##SUF(p0, y), z);                                    \
            return tl_hd_cmk_##SUF(x.re + t.re, x.im + t.im);                                        \
        case TL_XOP_LERP_S: return TL_HD_CLERP(SUF, R, M, x, y, p0);                                    \
        case TL_XOP_LERP: return TL_HD_CLERP(SUF, R, M, x, y, z);                                       \
        case TL_XOP_ISCLOSE:                                                                         \
            return tl_hd_cmk_##SUF(                                                                  \
                (R)TL_HD_ISCLOSE_C(M, x.re, x.im, y.re, y.im, p->d[0], p->d[1], p->i[2] != 0), 0);  \
        case TL_XOP_NAN_TO_NUM:                                                                      \
            return tl_hd_cmk_##SUF(TL_HD_NTN(R, x.re, (R)p->d[0], (R)p->d[1], (R)p->d[2]),          \
                                   TL_HD_NTN(R, x.im, (R)p->d[0], (R)p->d[1], (R)p->d[2]));         \
        default: return x;                                                                           \
        }                                                                                            \
    }
TL_HD_EWP_CPLX(f, tl_hd_c64, float, TL_HD_MF)
TL_HD_EWP_CPLX(, tl_hd_c128, double, TL_HD_MD)
#undef TL_HD_EWP_CPLX
#undef TL_HD_CLERP

/* One element: the inputs (nin of a, b, c with their dtype codes) converted to the compute
 * dtype cdt (WHERE's condition read as bool), the op run there, the result (the compute dtype,
 * or bool for ISCLOSE: the op's value computed in cdt is 0 or 1) converted to odt. */
static inline TL_HD void tl_hd_ewp(int op, int nin, int cdt, char *o, int odt, const char *a, int adt, const char *b,
                                   int bdt, const char *c, int cdt3, const tl_backend_ew_params *p)
{
    char res[16];
    const char *in[3] = {a, nin > 1 ? b : a, nin > 2 ? c : a};
    int dt[3] = {adt, nin > 1 ? bdt : adt, nin > 2 ? cdt3 : adt};
    uint8_t cond = 0;
    if (op == TL_XOP_WHERE) tl_hd_convert(&cond, TL_BDT_BOOL, a, adt);
    switch (cdt) {
    case TL_BDT_FLOAT32: { /* in float, as the CPU's float32 kernel */
        float v[3];
        for (int k = 0; k < 3; k++) tl_hd_convert(&v[k], cdt, in[k], dt[k]);
        if (op == TL_XOP_WHERE) v[0] = cond;
        *(float *)res = tl_hd_ewp_floatf(op, v[0], v[1], v[2], p);
        break;
    }
    case TL_BDT_FLOAT64: {
        double v[3];
        for (int k = 0; k < 3; k++) tl_hd_convert(&v[k], cdt, in[k], dt[k]);
        if (op == TL_XOP_WHERE) v[0] = cond;
        *(double *)res = tl_hd_ewp_float(op, v[0], v[1], v[2], p);
        break;
    }
    case TL_BDT_COMPLEX64: {
        tl_hd_c64 v[3];
        for (int k = 0; k < 3; k++) tl_hd_convert(&v[k], cdt, in[k], dt[k]);
        if (op == TL_XOP_WHERE) v[0] = tl_hd_cmk_f(cond, 0);
        tl_hd_c64 r = tl_hd_ewp_cplxf(op, v[0], v[1], v[2], p);
        memcpy(res, &r, sizeof r);
        break;
    }
    case TL_BDT_COMPLEX128: {
        tl_hd_c128 v[3];
        for (int k = 0; k < 3; k++) tl_hd_convert(&v[k], cdt, in[k], dt[k]);
        if (op == TL_XOP_WHERE) v[0] = tl_hd_cmk_(cond, 0);
        tl_hd_c128 r = tl_hd_ewp_cplx(op, v[0], v[1], v[2], p);
        memcpy(res, &r, sizeof r);
        break;
    }
    default: {
        int64_t x = op == TL_XOP_WHERE ? cond : tl_hd_ewp_int(in[0], dt[0], cdt);
        int64_t w = tl_hd_ewp_int_op(op, cdt, x, tl_hd_ewp_int(in[1], dt[1], cdt), tl_hd_ewp_int(in[2], dt[2], cdt), p);
        tl_hd_convert(res, cdt, &w, TL_BDT_INT64); /* truncated to the compute type */
        break;
    }
    }
    int rdt = tl_hd_xop_rdt(op, cdt);
    if (rdt != cdt) { /* a bool result: 0 or 1 in cdt */
        uint8_t r;
        tl_hd_convert(&r, TL_BDT_BOOL, res, cdt);
        memcpy(res, &r, 1);
    }
    if (odt == rdt) memcpy(o, res, (size_t)tl_hd_dt_size(rdt));
    else tl_hd_convert(o, odt, res, rdt);
}

#endif

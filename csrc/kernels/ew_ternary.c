/* ew_ternary.c - three-input elementwise kernels (where, lerp with a tensor weight, addcmul, addcdiv),
 * generated from TL_TERNARY_OPS (ops/ew_ops.h). Operand 1's type is TA_<op>(T). */
#include <tgmath.h>

#include "kernels/ew_gen.h"

#define TA_where(T) uint8_t
#define TA_lerp(T) T
#define TA_addcmul(T) T
#define TA_addcdiv(T) T

#define E_where_B(T, U, c, x, y) ((c) ? (x) : (y))
#define E_where_U E_where_B
#define E_where_I E_where_B
#define E_where_F E_where_B
#define E_where_C E_where_B
#define E_lerp_F(T, U, x, y, w) (fabs(w) < 0.5 ? (x) + (w) * ((y) - (x)) : (y) - ((y) - (x)) * ((T)1 - (w)))
#define E_lerp_C E_lerp_F
/* torch's order of operations: x + (value * y) * z and x + (value * y) / z */
#define E_addcmul_U(T, U, x, y, z) ((T)((U)(x) + (U)p0 * (U)(y) * (U)(z)))
#define E_addcmul_I E_addcmul_U
#define E_addcmul_F(T, U, x, y, z) ((x) + p0 * (y) * (z))
#define E_addcmul_C E_addcmul_F
#define E_addcdiv_F(T, U, x, y, z) ((x) + p0 * (y) / (z))
#define E_addcdiv_C E_addcdiv_F

/* operand order: out, a, b, c; for where a is the condition; for lerp c is the weight */
#define KT(op, out, ID, T, U, RT, CAT)                                                      \
    static void kt_##op##_##ID(char **d, const int64_t *s, int64_t n, void *ctx)           \
    {                                                                                       \
        typedef EW_OUT_##out(T, RT) OT;                                                     \
        typedef TA_##op(T) A;                                                               \
        EW_BEGIN(T);                                                                        \
        if (s[0] == sizeof(OT) && s[1] == sizeof(A) && s[2] == sizeof(T) && s[3] == sizeof(T)) { \
            OT *o = (OT *)d[0];                                                             \
            const A *a = (const A *)d[1];                                                   \
            const T *b = (const T *)d[2], *c = (const T *)d[3];                             \
            for (int64_t i = 0; i < n; i++) o[i] = (OT)(E_##op##_##CAT(T, U, a[i], b[i], c[i])); \
        } else {                                                                            \
            char *d0 = d[0];                                                                \
            const char *d1 = d[1], *d2 = d[2], *d3 = d[3]; /* locals: stores may alias d, s */ \
            const int64_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];                       \
            for (int64_t i = 0; i < n; i++) {                                               \
                const A x = *(const A *)(d1 + i * s1);                                      \
                const T y = *(const T *)(d2 + i * s2), z = *(const T *)(d3 + i * s3);       \
                *(OT *)(d0 + i * s0) = (OT)(E_##op##_##CAT(T, U, x, y, z));                 \
            }                                                                               \
        }                                                                                   \
        EW_END;                                                                             \
    }
#define KT_OP(op, out, flags, b, u, i, f, c) EW_GEN_ALL(KT, op, out, b, u, i, f, c)
TL_TERNARY_OPS(KT_OP)
#define KT_W(op, out) EW_GEN_W(KT, op, out)
TL_TERNARY_WIDE_UINT(KT_W)

#define KT_ENTRY(op, out, ID, T, U, RT, CAT) [TL_##ID] = kt_##op##_##ID,
#define KT_ROW(op, out, flags, b, u, i, f, c) [TL_TOP_##op] = {EW_GEN_ALL(KT_ENTRY, op, out, b, u, i, f, c)},
#define KT_WENTRY(op, out, ID, T, U, RT, CAT) [TL_TOP_##op][TL_##ID] = kt_##op##_##ID,
#define KT_WROW(op, out) EW_GEN_W(KT_WENTRY, op, out)
static const tl_loop_fn ternary_table[TL_NUM_TOPS][TL_NUM_DTYPES] = {TL_TERNARY_OPS(KT_ROW) TL_TERNARY_WIDE_UINT(KT_WROW)};

tl_loop_fn tl_ew_ternary_kernel(tl_top op, tl_dtype compute) { return ternary_table[op][compute]; }
